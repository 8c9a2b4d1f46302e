"""ledger remind: a simulated day of Water Reminder reminders at 3600x (a day in 24 s).

Wake-ups while nothing is due (goal: 0 between due instants: the loop sleeps in one poll with
no timeout), resident memory after 1 and 24 simulated hours (flat), CPU time per reminder, and
the CPU of the cron recipe it replaces (`ledger hydrate due` every minute) for the same day.
The process runs with --terminal (no desktop session here); the loop, the ledger reads and
the decisions are the same as with desktop notifications.
"""
import os
import re
import resource
import shutil
import subprocess
import tempfile
import time

RATE = 3600.0  # simulated seconds per real second
START = "2026-11-21T00:00:30+01:00"


def run(bench):
    bench.section("remind: a simulated day of Water Reminder (09:00-17:00 every 60, follow-ups every 15)")
    work = tempfile.mkdtemp(prefix="ledger-bench-remind-")
    try:
        path = os.path.join(work, "ledger")
        env = dict(bench.env, LEDGER_REPO=path, HOME=work, LEDGER_NOW=START)
        subprocess.run([bench.ledger, "init", path], check=True, env=env, stdout=subprocess.DEVNULL)
        env["LEDGER_CLOCK_RATE"] = str(RATE)
        out = open(os.path.join(work, "out.txt"), "w")
        err = open(os.path.join(work, "err.txt"), "w")
        # stdin: a pipe kept open and never written, so keys never wake it.
        p = subprocess.Popen([bench.ledger, "remind", "--terminal"], env=env, stdin=subprocess.PIPE, stdout=out, stderr=err)
        (rss_1h, cpu_1h), (rss_24h, cpu_24h) = bench.resident_day(p, RATE, time.monotonic())
        out.close()
        err.close()
        report = open(os.path.join(work, "err.txt")).read()
        m = re.search(r"stopped after (\d+) wake-ups?; (\d+) shown", report)
        if not m:
            raise SystemExit(f"remind: no report from ledger remind: {report!r}")
        wakes, shown = int(m.group(1)), int(m.group(2))
        printed = sum(1 for line in open(os.path.join(work, "out.txt")) if "Water Reminder:" in line)
        # Due instants in the day: 8 reminders x (1 + 3 follow-ups); one more wake-up at
        # midnight (a new day), none otherwise.
        due = 32
        idle_wakes = wakes - due
        idle_hours = 24 - 8  # hours of the day with nothing due (00:00-09:00, 17:00-24:00)
        print(f"  {shown} reminders shown ({printed} printed), {wakes} loop wake-ups in 24 simulated hours: "
              f"{idle_wakes} not for a reminder (the new day at midnight)", flush=True)
        print(f"  resident memory: {rss_1h:.1f} MiB after 1 h, {rss_24h:.1f} MiB after 24 h", flush=True)
        per_reminder = (cpu_24h - cpu_1h) / max(shown, 1)
        print(f"  CPU: {cpu_1h * 1000:.0f} ms to start and settle, {per_reminder * 1000:.2f} ms per reminder "
              f"({(cpu_24h - cpu_1h) * 1000:.0f} ms for the day)", flush=True)
        bench.record("remind day", "wake-ups per idle hour", idle_wakes / idle_hours, note="goal 0 between due instants")
        bench.record("remind day", "RSS after 24 h (MiB)", rss_24h, rss=rss_24h, note=f"{rss_1h:.1f} MiB after 1 h")
        bench.record("remind day", "CPU per reminder (s)", per_reminder)

        # The cron recipe: `ledger hydrate due` once a minute, 1440 times a day.
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        runs = 20
        for i in range(runs):
            e = dict(env, LEDGER_NOW=f"2026-11-21T09:{i:02d}:00+01:00")
            e.pop("LEDGER_CLOCK_RATE")
            subprocess.run([bench.ledger, "hydrate", "due"], env=e, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        per_run = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / runs
        print(f"  cron recipe: {per_run * 1000:.1f} ms CPU per `ledger hydrate due`, {per_run * 1440:.2f} s a day "
              f"(ledger remind: {cpu_24h:.2f} s a day, start included)", flush=True)
        bench.record("remind day", "cron: hydrate due CPU per day (s)", per_run * 1440)
    finally:
        shutil.rmtree(work, ignore_errors=True)
