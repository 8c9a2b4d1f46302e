"""Waterline: `drink`, `water` and `status` must cost the same whatever the history.

Each is timed against `ledger --version` (the cost of starting the binary) on the benchmark
ledger at each scale; the target is at most 2x. The commands write, so they run on a copy of
the data made with hard links: ledger replaces a file by writing a new one and renaming it,
never by writing into it, so the shared benchmark data is never changed. The copy leaves out
git's object store (these commands never read it) and the device-local `.git/ledger/`.

For information, the same `status` after a sync (the device-local hint invalid, so one scan
of every session) is timed too.
"""
import os
import shutil
import subprocess
import tempfile


def copy_ledger(src, dst):
    os.makedirs(dst)
    for name in os.listdir(src):
        if name == ".git":
            continue
        subprocess.run(["cp", "-al", os.path.join(src, name), os.path.join(dst, name)], check=True)
    git = os.path.join(dst, ".git")
    os.makedirs(git)
    for name in os.listdir(os.path.join(src, ".git")):
        if name in ("objects", "ledger"):
            continue
        subprocess.run(["cp", "-al", os.path.join(src, ".git", name), os.path.join(git, name)], check=True)


def run(bench):
    bench.section("Waterline: drink, water and status vs `ledger --version` (target ≤ 2x at every scale)")
    for scale in bench.scales:
        src = bench.data(scale)
        sessions = sum(len(files) for _, _, files in os.walk(os.path.join(src, "waterline", "sessions")))
        work = tempfile.mkdtemp(prefix=f"ledger-bench-waterline-x{scale}-")
        try:
            repo = os.path.join(work, "ledger")
            copy_ledger(src, repo)
            env = dict(bench.env, LEDGER_REPO=repo)
            led = bench.ledger
            # The first command after the copy scans once and records the device-local hint.
            subprocess.run([led, "waterline", "status"], env=env, check=True, stdout=subprocess.DEVNULL)
            version = ("ledger --version", [led, "--version"], {"env": env})
            note = f"scale {scale}: {sessions} sessions"
            for label, args in (("drink --preset beer", ["drink", "--preset", "beer"]),
                                ("water", ["water"]),
                                ("status", ["status"]),
                                ("status --json", ["status", "--json"])):
                bench.compare(f"waterline {label} x{scale}",
                              [(f"ledger waterline {label} (x{scale})", [led, "waterline"] + args, {"env": env}), version],
                              runs=15, target=2.0, note=note)
            hint = os.path.join(repo, ".git", "ledger", "waterline-active.json")

            def forget_hint():
                if os.path.exists(hint):
                    os.remove(hint)

            bench.compare(f"waterline status after a sync x{scale}",
                          [(f"ledger waterline status, hint invalid (x{scale})", [led, "waterline", "status"], {"env": env}), version],
                          runs=5, setup=forget_hint, note=note + " (one scan, for information)")
        finally:
            shutil.rmtree(work, ignore_errors=True)
