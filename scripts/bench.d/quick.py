"""The quick commands cost the same whatever the history, and start fast.

Targets: each quick command (`waterline drink/water/status`, `hydrate drank/status`, `moments
add/today`, `brew save`) at scale 10 ≤ 1.1x its time at scale 1 and ≤ 1.5x `ledger --version`;
`ledger --version` ≤ 5 ms; peak memory ≤ 64 MiB. Each command is timed interleaved on the
ledger of every scale, on an empty ledger (`ledger init` and a session started) and against
`ledger --version` (what any command pays to start), in one run.

Each Waterline command's rounds start from the night as generated (`drink` and `water` add an
entry at each run); a night of a hundred entries is timed apart.

The commands write, so they run on copies of the data made with hard links: ledger replaces a
file by writing a new one and renaming it, never by writing into it, so the shared benchmark
data is never changed. A copy leaves git's object store empty (these commands never read it)
and the device-local `.git/ledger/`; the first command in each records its Waterline hint.
"""
import os
import shutil
import subprocess
import tempfile
import time

NOON = "2026-11-21T12:10:00+01:00"  # inside every generated schedule's window, for Water Reminder

COMMANDS = [
    ("waterline drink", ["waterline", "drink", "--preset", "beer"], {}),
    ("waterline water", ["waterline", "water"], {}),
    ("waterline status", ["waterline", "status"], {}),
    ("hydrate drank", ["hydrate", "drank"], {"LEDGER_NOW": NOON}),
    ("hydrate status", ["hydrate", "status"], {"LEDGER_NOW": NOON}),
    ("moments add", ["moments", "add", "a quiet run"], {}),
    ("moments today", ["moments", "today"], {}),
    ("brew save", ["brew", "save", "--rating", "4"], {}),
]


def copy_ledger(src, dst):
    os.makedirs(dst)
    for name in os.listdir(src):
        if name == ".git":
            continue
        subprocess.run(["cp", "-al", os.path.join(src, name), os.path.join(dst, name)], check=True)
    git = os.path.join(dst, ".git")
    # An empty object store: without one neither git nor ledger takes the folder for a
    # repository when a command finds it from the current directory.
    os.makedirs(os.path.join(git, "objects"))
    for name in os.listdir(os.path.join(src, ".git")):
        if name in ("objects", "ledger"):
            continue
        subprocess.run(["cp", "-al", os.path.join(src, ".git", name), os.path.join(git, name)], check=True)


def tonight(root):
    """The path (relative) of the active session of the ledger at `root`: the night every
    Waterline command logs into."""
    sessions = os.path.join(root, "waterline", "sessions")
    year = max(os.listdir(sessions))
    for name in sorted(os.listdir(os.path.join(sessions, year))):
        with open(os.path.join(sessions, year, name), "rb") as f:
            if b'"isActive": true' in f.read():
                return os.path.join("waterline", "sessions", year, name)
    raise SystemExit(f"no active session in {root}")


def sessions(root):
    return sum(len(files) for _, _, files in os.walk(os.path.join(root, "waterline", "sessions")))


def run(bench):
    work = tempfile.mkdtemp(prefix="ledger-bench-quick-")
    try:
        led = bench.ledger
        ledgers = []  # (label, root), largest scale first
        for scale in reversed(bench.scales):
            root = os.path.join(work, f"x{scale}")
            copy_ledger(bench.data(scale), root)
            ledgers.append((f"x{scale}", root))
        empty = os.path.join(work, "empty")
        subprocess.run([led, "init", empty], env=bench.env, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([led, "--repo", empty, "waterline", "start", "--time", "20:40"], env=bench.env, check=True, stdout=subprocess.DEVNULL)
        ledgers.append(("empty", empty))
        # Each Waterline command's rounds start from the night as it was generated (a copy
        # kept aside here): `drink` and `water` add an entry at each run, and without this
        # the commands measured later would log into a night three or four times longer than
        # the first ones' (an entry costs about 10 µs to read, check and write again; the
        # night's length is measured on its own, below).
        nights = {}
        for label, root in ledgers:
            rel = tonight(root)
            kept = os.path.join(work, f"night-{label}.json")
            shutil.copyfile(os.path.join(root, rel), kept)
            nights[root] = (rel, kept)

        def fresh_nights():
            for root, (rel, kept) in nights.items():
                os.remove(os.path.join(root, rel))
                shutil.copyfile(kept, os.path.join(root, rel))

        # Linking the copies changed every file's ctime: for two seconds they are "racily
        # clean" (docs/DESIGN.md) and each Waterline command peeks into the newest years'
        # files, as it would right after a checkout. Let that window pass first.
        time.sleep(2.1)
        for _, root in ledgers:
            subprocess.run([led, "--repo", root, "waterline", "status"], env=bench.env, check=True, stdout=subprocess.DEVNULL)

        bench.section("start-up: `ledger --version` (target ≤ 5 ms) against git and a C program doing nothing")
        bench.compare("start-up", [
            ("ledger --version", [led, "--version"], {}),
            ("git --version", ["git", "--version"], {}),
            ("/bin/true", ["/bin/true"], {}),
        ], runs=21)

        described = ", ".join(f"{label}: {sessions(root):,} sessions" for label, root in ledgers)
        bench.section(f"quick commands, each at every scale, on an empty ledger and against `ledger --version` "
                      f"(targets: {ledgers[0][0]}/x1 ≤ 1.1x, /--version ≤ 1.5x; {described})")
        peak = {}
        for name, args, extra in COMMANDS:
            if name.startswith("waterline"):
                fresh_nights()
            env = dict(bench.env, **extra)
            candidates = []
            for label, root in ledgers:
                target = 1.1 if label == "x1" and len(ledgers) > 2 else None
                candidates.append((f"ledger {name} ({label})", [led, "--repo", root] + args, {"env": env, "target": target}))
            candidates.append(("ledger --version", [led, "--version"], {"env": env, "target": 1.5}))
            bench.compare(f"quick: {name}", candidates, runs=21)
            peak[name] = max(r[4] for r in bench.rows if r[0] == f"quick: {name}")
        worst = max(peak, key=peak.get)
        print(f"  peak memory of the quick commands: at most {peak[worst]:.1f} MiB ({worst}); target ≤ 64 MiB"
              f"{'  ok' if peak[worst] <= 64 else '  OVER TARGET'}", flush=True)

        # As a person runs them: no --repo, the ledger found from the current directory, or the
        # default ledger ($XDG_DATA_HOME/ledger) from a directory in no repository.
        label, root = ledgers[0]
        xdg = os.path.join(work, "xdg")
        os.makedirs(xdg)
        os.symlink(root, os.path.join(xdg, "ledger"))
        outside = os.path.join(work, "elsewhere")
        os.makedirs(outside)
        found = dict(bench.env, **COMMANDS[0][2])
        found.pop("LEDGER_REPO", None)
        fresh_nights()
        bench.compare(f"quick: waterline drink without --repo ({label})", [
            (f"ledger waterline drink, from inside the ledger ({label})", [led] + COMMANDS[0][1], {"cwd": root, "env": found}),
            (f"ledger waterline drink, the default ledger ({label})", [led] + COMMANDS[0][1],
             {"cwd": outside, "env": dict(found, XDG_DATA_HOME=xdg), "target": None}),
            ("ledger --version", [led, "--version"], {"cwd": outside, "env": found, "target": 1.5}),
        ], runs=21)

        # For information: what durability's flushes cost a Waterline write — the same
        # commands with fsync made a no-op by Debian's libeatmydata (when installed), both
        # under it, so that only the flushes differ.
        eatmydata = "/usr/lib/x86_64-linux-gnu/libeatmydata.so"
        if os.path.exists(eatmydata):
            off = dict(bench.env, LD_PRELOAD=eatmydata)
            bench.compare(f"quick: waterline drink with fsync a no-op ({label})", [
                (f"ledger waterline drink, fsync a no-op ({label})", [led, "--repo", root] + COMMANDS[0][1], {"env": off}),
                ("ledger --version, fsync a no-op", [led, "--version"], {"env": off, "target": None}),
                (f"ledger waterline drink ({label})", [led, "--repo", root] + COMMANDS[0][1], {"target": None}),
            ], runs=21, note="what the flushes cost, for information (apt-get install eatmydata)")

        # For information: a long night. `drink` reads, checks and writes the whole night at
        # each entry; a hundred entries (a night out is a few dozen) against the generated one.
        fresh_nights()
        for _ in range(100):
            subprocess.run([led, "--repo", root, "waterline", "water"], env=bench.env, check=True, stdout=subprocess.DEVNULL)
        bench.compare(f"quick: waterline drink on a night of 100 entries ({label})", [
            (f"ledger waterline drink, a night of 100+ entries ({label})", [led, "--repo", root] + COMMANDS[0][1], {}),
            ("ledger --version", [led, "--version"], {"target": None}),
        ], runs=21, note="the night's length, for information")

        # For information: the first command after a sync or `git pull` (the hint no longer
        # holds: one scan of the sessions).
        hint = os.path.join(root, ".git", "ledger", "waterline-active.json")

        def forget_hint():
            if os.path.exists(hint):
                os.remove(hint)

        bench.compare(f"quick: waterline status after a sync ({label})", [
            (f"ledger waterline status, hint gone ({label})", [led, "--repo", root, "waterline", "status"], {}),
            ("ledger --version", [led, "--version"], {}),
        ], runs=5, setup=forget_hint, note="one scan of every session, for information")
    finally:
        shutil.rmtree(work, ignore_errors=True)
