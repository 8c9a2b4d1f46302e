"""`ledger sync` against the git CLI doing the same work (issue: ≤ 1.0x; the cost should grow
with the changes, not with the history).

At each scale, on the benchmark ledger: a bare remote and two pairs of clones, one pair
synced by ledger and one by git. Every round starts from the same state (not timed): the
remote's main is one commit ahead with 10 changed documents, and the local clone has 10
other documents edited in its work tree. Then, timed:
  ledger: `ledger sync` (validate the changed documents, commit, fetch, merge, push);
  git:    `git add -A && git commit && git pull --no-rebase && git push`.
Both end with the same merge pushed to the remote.
"""
import json
import os
import shutil
import subprocess
import tempfile


def git(*args, cwd, env=None):
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)


def git_out(*args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def touch(path, stamp):
    """Edits one document the way ledger would write it: a new updatedAt, canonical form."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    doc["updatedAt"] = stamp
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def run(bench):
    bench.section("sync: 10 local + 10 remote changed documents, ledger sync vs git add/commit/pull/push (target ≤ 1.0x)")
    for scale in bench.scales:
        src = bench.data(scale)
        files = [f for f in bench.files(scale) if "/" in f and f.count("/") >= 2]
        step = max(1, len(files) // 25)
        local_files, remote_files = files[0::step][:10], files[step // 2::step][:10]
        work = tempfile.mkdtemp(prefix=f"ledger-bench-sync-x{scale}-")
        try:
            env = dict(bench.env)
            remote = os.path.join(work, "remote.git")
            print(f"  preparing a remote and four clones of the x{scale} ledger…", flush=True)
            git("clone", "-q", "--bare", src, remote, cwd=work)
            # No background gc in the remote: it would repack while the next clone copies objects.
            git("config", "gc.auto", "0", cwd=remote)
            git("config", "receive.autogc", "false", cwd=remote)
            base = git_out("rev-parse", "HEAD", cwd=remote)
            # The remote's side: one commit with 10 other documents changed.
            other = os.path.join(work, "other")
            git("clone", "-q", remote, other, cwd=work)
            for f in remote_files:
                touch(os.path.join(other, f), "2026-11-21T23:00:00+01:00")
            git("commit", "-qam", "remote changes", cwd=other, env=env)
            ahead = git_out("rev-parse", "HEAD", cwd=other)
            git("push", "-q", "origin", "HEAD:refs/heads/side", cwd=other, env=env)
            clones = {}
            for name in ("ledger", "git"):
                path = os.path.join(work, name)
                git("clone", "-q", remote, path, cwd=work)
                git("config", "gc.auto", "0", cwd=path)
                git("config", "merge.ledger.driver", "ledger merge-driver %O %A %B %P", cwd=path)
                git("config", "user.name", "bench", cwd=path)
                git("config", "user.email", "bench@example.com", cwd=path)
                clones[name] = path
            # A user's ledger has run check before (its record of clean files is warm).
            subprocess.run([bench.ledger, "--repo", clones["ledger"], "check"], env=env, stdout=subprocess.DEVNULL)

            def setup():
                git("update-ref", "refs/heads/main", ahead, cwd=remote)
                for path in clones.values():
                    git("reset", "-q", "--hard", base, cwd=path)
                    git("update-ref", "refs/remotes/origin/main", base, cwd=path)
                    for f in local_files:
                        touch(os.path.join(path, f), "2026-11-21T22:45:00+01:00")

            bench.compare(f"sync x{scale}", [
                ("ledger sync", [bench.ledger, "--repo", clones["ledger"], "sync"], {"cwd": clones["ledger"], "env": env}),
                ("git add -A, commit, pull --no-rebase, push",
                 "git add -A && git commit -qm sync && git pull -q --no-rebase --no-edit && git push -q",
                 {"cwd": clones["git"], "env": env, "shell": True}),
            ], runs=5, setup=setup, target=1.0, note=f"{len(files):,} documents")
            # Both must have pushed a merge holding all 20 changes.
            for f in local_files + remote_files:
                blob = git_out("rev-parse", f"main:{f}", cwd=remote)
                assert blob, f
        finally:
            shutil.rmtree(work, ignore_errors=True)
