"""ledger autosync: an idle day at 3600x, and a change reaching another device with the defaults.

Idle day: a ledger with a remote on a path and autosync with its default settings (debounce
5 s, interval 15 min) through 24 simulated hours at LEDGER_CLOCK_RATE=3600 (a day in 24 s):
the loop's own count of wake-ups (printed when it stops), VmRSS after 1 and 24 hours, and
utime + stime from /proc. Every interval round is a real sync (a fetch from the remote), so
the day holds ~96 of them; a wake-up that is not for a round is one too many.

Change to the other device: two ledgers with autosync and the defaults, at LEDGER_CLOCK_RATE=60
(a minute a second): a change on one, the real seconds until the other has it, times 60. The
syncs themselves run at real speed, so their own time is counted 60 times over (an upper bound).

The ssh handshakes per 10 syncs are counted from sshd's log by the test
AutosyncSSHTests.tenSyncsShareOneHandshakeWhereGitOpensTwenty (1 for autosync; 20 for
`ledger sync` by hand and for git's pull + push).
"""
import os
import re
import shutil
import subprocess
import tempfile
import time


def ledger_with_remote(bench, work, name, remote, clone=False):
    path = os.path.join(work, name)
    home = os.path.join(work, "home-" + name)
    os.makedirs(home)
    env = dict(bench.env, LEDGER_REPO=path, HOME=home)
    env.pop("LEDGER_NOW", None)
    if clone:
        subprocess.run([bench.ledger, "clone", remote, path], check=True, env=env, stdout=subprocess.DEVNULL)
    else:
        subprocess.run([bench.ledger, "init", path, "--remote", remote], check=True, env=env, stdout=subprocess.DEVNULL)
        subprocess.run([bench.ledger, "sync"], check=True, env=env, stdout=subprocess.DEVNULL)
    return path, env


def idle_day(bench, work):
    rate = 3600.0
    remote = os.path.join(work, "remote.git")
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", remote], check=True)
    path, env = ledger_with_remote(bench, work, "idle", remote)
    env["LEDGER_CLOCK_RATE"] = str(rate)
    err = open(os.path.join(work, "idle.log"), "w")
    p = subprocess.Popen([bench.ledger, "autosync"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, cwd=path)
    (rss_1h, cpu_1h), (rss_24h, cpu_24h) = bench.resident_day(p, rate, time.monotonic())
    err.close()
    log = open(os.path.join(work, "idle.log")).read()
    m = re.search(r"stopped after (\d+) wake-ups?", log)
    if not m:
        raise SystemExit(f"autosync: no report: {log!r}")
    wakes = int(m.group(1))
    rounds = 24 * 60 / 15
    print(f"  {wakes} loop wake-ups in 24 simulated hours (~{rounds:.0f} interval rounds due): {wakes / 24:.1f} an hour", flush=True)
    print(f"  resident memory: {rss_1h:.1f} MiB after 1 h, {rss_24h:.1f} MiB after 24 h", flush=True)
    print(f"  CPU: {(cpu_24h - cpu_1h) / 23 * 1000:.0f} ms per idle hour (4 fetches), {cpu_1h * 1000:.0f} ms for start and the first hour", flush=True)
    bench.record("autosync day", "wake-ups per idle hour", wakes / 24, note="4 interval rounds an hour")
    bench.record("autosync day", "RSS after 24 h (MiB)", rss_24h, rss=rss_24h, note=f"{rss_1h:.1f} MiB after 1 h")
    bench.record("autosync day", "CPU per idle hour (s)", (cpu_24h - cpu_1h) / 23)


def change_to_other_device(bench, work):
    rate = 60.0
    remote = os.path.join(work, "remote2.git")
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", remote], check=True)
    a, env_a = ledger_with_remote(bench, work, "a", remote)
    b, env_b = ledger_with_remote(bench, work, "b", remote, clone=True)
    procs = []
    for path, env in ((a, env_a), (b, env_b)):
        env["LEDGER_CLOCK_RATE"] = str(rate)
        procs.append(subprocess.Popen([bench.ledger, "autosync"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, cwd=path))
    try:
        time.sleep(2)
        with open(os.path.join(a, "waterline", "bench-change.json"), "w") as f:
            f.write("{}\n")
        began = time.monotonic()
        target = os.path.join(b, "waterline", "bench-change.json")
        while not os.path.exists(target) and time.monotonic() - began < 60:
            time.sleep(0.05)
        real = time.monotonic() - began
    finally:
        for p in procs:
            p.terminate()
            p.wait(timeout=30)
    simulated = real * rate
    print(f"  a change reached the other device after {simulated:.0f} simulated seconds "
          f"(defaults: debounce 5 s, then the other's next interval round, 13.5-16.5 min apart)", flush=True)
    bench.record("autosync", "seconds from a change to the other device (defaults)", simulated)


def run(bench):
    bench.section("autosync: an idle day at 3600x; a change reaching another device with the defaults")
    work = tempfile.mkdtemp(prefix="ledger-bench-autosync-")
    try:
        idle_day(bench, work)
        change_to_other_device(bench, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
