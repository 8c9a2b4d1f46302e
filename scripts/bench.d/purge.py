"""`ledger purge` against the manual recipe it replaces (target: ≤ 2x).

On the ten-year ledger with the history of 3,000 syncs between two devices (generated as in
sync.py), device A purges the moment of the first sync — held by every commit since, so the
whole history is rewritten — against what the README told people to do before: `git
filter-repo --invert-paths --path` in A's clone (it expires the reflogs and prunes), a forced
push, and the remote's reflogs expired and garbage collected. Both end with the moment in no
object of the clone or of the remote (checked after each run); ledger also writes the purge
record, scans both repositories and leaves every other device a record to honour. Before each
run the clone and the remote are copied afresh from a pristine pair (not timed).
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
    if shutil.which("git-filter-repo") is None:
        print("  skipped: git filter-repo is not installed (Debian: git-filter-repo)")
        return
    bench.section(f"purge: one moment out of {sync.SYNCS:,} syncs of history, ledger purge vs git filter-repo + push --force + gc (target ≤ 2x)")
    work = tempfile.mkdtemp(prefix="ledger-bench-purge-")
    try:
        start = time.perf_counter()
        h = sync.maintained_history(bench.data(1), work, sync.SYNCS)
        sync.git("gc", "-q", cwd=h.remote)
        # The generator's own references go (a ledger's remote has its branch alone; ledger
        # replaces only that, as the recipe pushes only main); A's clone in step with the
        # remote (a purge needs it); then the pristine pair.
        for ref in sync.git_out("for-each-ref", "--format=%(refname)", "refs/bench", cwd=h.remote).split():
            sync.git("update-ref", "-d", ref, cwd=h.remote)
        sync.git("fetch", "-q", "origin", cwd=h.clone)
        sync.git("reset", "-q", "--hard", "origin/main", cwd=h.clone)
        pristine = {os.path.join(work, "pristine-" + os.path.basename(p)): p for p in (h.clone, h.remote)}
        for copy, original in pristine.items():
            shutil.move(original, copy)
        path, _ = h.change(1)
        print(f"  generated {sync.SYNCS:,} syncs ({2 * sync.SYNCS - 1:,} commits) and device A's clone in {time.perf_counter() - start:.1f} s", flush=True)

        def setup():
            for copy, original in pristine.items():
                shutil.rmtree(original, ignore_errors=True)
                subprocess.run(["cp", "-a", copy, original], check=True)

        recipe = (f"git filter-repo --quiet --force --invert-paths --path '{path}' && git remote add origin '{h.remote}' "
                  f"&& git push -q --force origin main && git -C '{h.remote}' reflog expire --expire=now --all "
                  f"&& git -C '{h.remote}' gc -q --prune=now")
        bench.compare("purge", [
            ("ledger purge hist-1 --yes", [bench.ledger, "--repo", h.clone, "purge", "hist-1", "--yes"], {"cwd": work}),
            ("git filter-repo, push --force, gc", ["sh", "-c", recipe], {"cwd": h.clone}),
        ], runs=3, setup=setup, target=2.0, note=f"{2 * sync.SYNCS - 1:,} commits rewritten, ten-year ledger")
        setup()  # the compare ran the recipe last: ledger once more, then the check
        subprocess.run([bench.ledger, "--repo", h.clone, "purge", "hist-1", "--yes"], env=bench.env, check=True, stdout=subprocess.DEVNULL)
        for repo in (h.clone, h.remote):
            found = subprocess.run(["git", "-C", repo, "cat-file", "--batch-all-objects", "--batch"], capture_output=True, check=True).stdout
            assert b"moment 1\"" not in found, f"the purged moment is still in {repo}"
    finally:
        shutil.rmtree(work, ignore_errors=True)
