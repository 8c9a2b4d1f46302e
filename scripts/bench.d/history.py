"""`ledger log` and `ledger sync --dry-run` (targets: log ≤ 2x `git log --stat`; a dry run ≤ 1.0x
the sync it previews).

1. The history of 3,000 syncs between two devices on the ten-year ledger (generated as in
   sync.py: device A adds a moment, device B edits a hydration day, each sync merged with the
   other's last and pushed), seen from device A's clone as ledger keeps it (maintained):
   `ledger log --limit 50` — each commit told per document in the app's words, which reads
   and parses both versions of every document it changed — against `git log --stat -50`,
   which reads the same trees and blobs to count lines.
2. On the ten-year ledger, the sync of sync.py (10 local and 10 remote changed documents,
   merged): `ledger sync --dry-run` against the `ledger sync` it previews, each from the same
   state (reset before every run, not timed).
"""
import importlib.util
import os
import shutil
import subprocess
import tempfile
import time

_spec = importlib.util.spec_from_file_location("bench_sync", os.path.join(os.path.dirname(os.path.abspath(__file__)), "sync.py"))
sync = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sync)


def run(bench):
    log(bench)
    dry_run(bench)


def log(bench):
    bench.section(f"history: ledger log --limit 50 after {sync.SYNCS:,} syncs vs git log --stat -50 (target ≤ 2x)")
    work = tempfile.mkdtemp(prefix="ledger-bench-log-")
    try:
        start = time.perf_counter()
        h = sync.maintained_history(bench.data(1), work, sync.SYNCS)
        a = h.clone
        print(f"  generated {sync.SYNCS:,} syncs and device A's clone in {time.perf_counter() - start:.1f} s", flush=True)
        out = subprocess.run([bench.ledger, "--repo", a, "log", "--limit", "50", "--json"], env=bench.env, capture_output=True, text=True, check=True).stdout
        assert out.count('"commit":') == 50, "ledger log did not list 50 commits"
        bench.compare("history: log", [
            ("ledger log --limit 50", [bench.ledger, "--repo", a, "log", "--limit", "50"], {"cwd": a}),
            ("git log --stat -50", ["git", "-C", a, "log", "--stat", "-50"], {"cwd": a}),
            # What every ledger command pays before it does anything: the process's start.
            ("ledger --version (the start of any command)", [bench.ledger, "--version"], {"cwd": a}),
        ], runs=11, target=2.0, note=f"{sync.SYNCS:,} syncs, ten-year ledger")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def dry_run(bench):
    bench.section("sync --dry-run: 10 local + 10 remote changed documents, the preview vs the sync (target ≤ 1.0x)")
    src = bench.data(1)
    files = [f for f in bench.files(1) if "/" in f and f.count("/") >= 2]
    step = max(1, len(files) // 25)
    local_files, remote_files = files[0::step][:10], files[step // 2::step][:10]
    work = tempfile.mkdtemp(prefix="ledger-bench-dry-run-")
    try:
        remote = os.path.join(work, "remote.git")
        sync.git("clone", "-q", "--bare", src, remote, cwd=work)
        sync.git("config", "gc.auto", "0", cwd=remote)
        base = sync.git_out("rev-parse", "HEAD", cwd=remote)
        other = os.path.join(work, "other")
        sync.git("clone", "-q", remote, other, cwd=work)
        for f in remote_files:
            sync.touch(os.path.join(other, f), "2026-11-21T23:00:00+01:00")
        sync.git("commit", "-qam", "remote changes", cwd=other, env=bench.env)
        ahead = sync.git_out("rev-parse", "HEAD", cwd=other)
        sync.git("push", "-q", "origin", "HEAD:refs/heads/side", cwd=other, env=bench.env)
        clone = os.path.join(work, "ledger")
        sync.git("clone", "-q", remote, clone, cwd=work)
        for key, value in [("gc.auto", "0"), ("merge.ledger.driver", "ledger merge-driver %O %A %B %P"), ("user.name", "bench"),
                           ("user.email", "bench@example.com")]:
            sync.git("config", key, value, cwd=clone)
        subprocess.run([bench.ledger, "--repo", clone, "check"], env=bench.env, stdout=subprocess.DEVNULL)
        objects = os.path.join(clone, ".git")
        baseline = sync.objects_now(objects)
        remote_baseline = sync.objects_now(remote)

        def setup():
            # Back to the base first (git records where it was, which must still exist), then
            # the objects the last run wrote go.
            sync.git("reset", "-q", "--hard", base, cwd=clone)
            for d, before in ((objects, baseline), (remote, remote_baseline)):
                for f in sync.objects_now(d) - before:
                    os.unlink(f)
            sync.git("update-ref", "-d", "ORIG_HEAD", cwd=clone)
            sync.git("update-ref", "refs/heads/main", ahead, cwd=remote)
            sync.git("update-ref", "refs/remotes/origin/main", base, cwd=clone)
            for f in local_files:
                sync.touch(os.path.join(clone, f), "2026-11-21T22:45:00+01:00")

        bench.compare("sync --dry-run", [
            ("ledger sync --dry-run", [bench.ledger, "--repo", clone, "sync", "--dry-run"], {"cwd": clone}),
            ("ledger sync", [bench.ledger, "--repo", clone, "sync"], {"cwd": clone}),
        ], runs=5, setup=setup, target=1.0, note=f"{len(files):,} documents")
    finally:
        shutil.rmtree(work, ignore_errors=True)
