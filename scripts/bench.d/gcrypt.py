"""`ledger sync` over an encrypted remote (git-remote-gcrypt, `gcrypt::<path>`) against the git
CLI over the same kind of remote: `git add -A && git commit && git pull --no-rebase && git push`.

On the x1 benchmark ledger: two gcrypt remotes made from it (one for ledger, one for git, so
that neither waits for the other's pushes), a throwaway GnuPG key in a private GNUPGHOME with a
gpg-agent of the benchmark's own (stopped by its PID at the end). Every round starts (not timed)
with another device pushing 10 changed documents through gcrypt, and 10 other documents edited
in the clone's work tree; then, timed, the sync: commit, fetch (gcrypt decrypts the manifest and
the new pack), merge, push (gcrypt encrypts a pack and a new manifest). ledger reads the remote's
branch once more before pushing (gcrypt replaces it whatever it holds), which git does not.
"""
import itertools
import os
import shutil
import signal
import subprocess
import tempfile

from importlib import util as _util

_spec = _util.spec_from_file_location("bench_sync", os.path.join(os.path.dirname(__file__), "sync.py"))
_sync = _util.module_from_spec(_spec)
_spec.loader.exec_module(_sync)
git, git_out, touch = _sync.git, _sync.git_out, _sync.touch


class GnuPG:
    """A private GnuPG home with a key that signs and encrypts, and its own gpg-agent."""

    def __init__(self, work):
        self.home = os.path.join(work, "gnupg")
        os.mkdir(self.home, 0o700)
        with open(os.path.join(self.home, "gpg.conf"), "w") as f:
            f.write("no-autostart\n")
        with open(os.path.join(self.home, "gpg-agent.conf"), "w") as f:
            f.write("disable-scdaemon\n")
        env = dict(os.environ, GNUPGHOME=self.home)
        # `--daemon` forks and returns once the agent listens; the agent tells its own PID.
        subprocess.run(["gpg-agent", "--homedir", self.home, "--daemon"], env=env, check=True, capture_output=True)
        said = subprocess.run(["gpg-connect-agent", "--homedir", self.home, "--no-autostart", "getinfo pid", "/bye"], env=env,
                              check=True, capture_output=True, text=True).stdout
        self.pid = int(next(line[2:] for line in said.splitlines() if line.startswith("D ")))
        subprocess.run(["gpg", "--batch", "--passphrase", "", "--quick-gen-key", "Ledger Bench <bench@example.invalid>",
                        "future-default", "default", "never"], env=env, check=True, capture_output=True)

    def stop(self):
        os.kill(self.pid, signal.SIGTERM)


def run(bench):
    if not shutil.which("git-remote-gcrypt"):
        raise SystemExit("the gcrypt benchmark needs git-remote-gcrypt (apt-get install git-remote-gcrypt; make test-deps installs it)")
    bench.section("sync over an encrypted remote (git-remote-gcrypt): ledger sync vs git add/commit/pull/push over gcrypt")
    src = bench.data(1)
    files = [f for f in bench.files(1) if f.count("/") >= 2]
    step = max(1, len(files) // 25)
    local_files, remote_files = files[0::step][:10], files[step // 2::step][:10]
    work = tempfile.mkdtemp(prefix="ledger-bench-gcrypt-")
    gpg = None
    try:
        print("  preparing a GnuPG key, two gcrypt remotes and their clones (the first push encrypts the whole ledger)…", flush=True)
        gpg = GnuPG(work)
        env = dict(bench.env, GNUPGHOME=gpg.home)
        clones, others = {}, {}
        for name in ("ledger", "git"):
            remote = os.path.join(work, name + "-remote.git")
            git("init", "-q", "--bare", "-b", "main", remote, cwd=work)
            url = "gcrypt::" + remote
            seed = os.path.join(work, name + "-seed")
            git("clone", "-q", src, seed, cwd=work)
            git("push", "-q", url, "main", cwd=seed, env=env)
            shutil.rmtree(seed)
            for role, into in (("clone", clones), ("other", others)):
                path = os.path.join(work, f"{name}-{role}")
                git("clone", "-q", "-b", "main", url, path, cwd=work, env=env)
                for key, value in (("gc.auto", "0"), ("user.name", "bench"), ("user.email", "bench@example.com"),
                                   ("merge.ledger.driver", "ledger merge-driver %O %A %B %P")):
                    git("config", key, value, cwd=path)
                into[name] = path
        subprocess.run([bench.ledger, "--repo", clones["ledger"], "check"], env=env, stdout=subprocess.DEVNULL)
        rounds = itertools.count()
        order = itertools.cycle(["ledger", "git"])

        def setup():
            # Before each candidate: another device pushes 10 changes to that candidate's remote,
            # and 10 other documents are edited here.
            name, n = next(order), next(rounds)
            other = others[name]
            git("pull", "-q", "--ff-only", cwd=other, env=env)
            for f in remote_files:
                touch(os.path.join(other, f), f"2026-11-21T23:{n % 60:02d}:00+01:00")
            git("commit", "-qam", "remote changes", cwd=other, env=env)
            git("push", "-q", "origin", "main", cwd=other, env=env)
            for f in local_files:
                touch(os.path.join(clones[name], f), f"2026-11-21T22:{n % 60:02d}:30+01:00")

        candidates = [
            ("ledger sync (gcrypt)", [bench.ledger, "--repo", clones["ledger"], "sync"], {"cwd": clones["ledger"], "env": env}),
            ("git add -A, commit, pull --no-rebase, push (gcrypt)",
             "git add -A && git commit -qm sync && git pull -q --no-rebase --no-edit && git push -q",
             {"cwd": clones["git"], "env": env, "shell": True}),
        ]
        bench.compare("sync over gcrypt x1", candidates, runs=5, setup=setup, note=f"{len(files):,} documents")
        # Both pushed merges holding all 20 changes: the remote's tree is the clone's.
        for name in ("ledger", "git"):
            git("pull", "-q", "--ff-only", cwd=others[name], env=env)
            assert git_out("rev-parse", "HEAD", cwd=others[name]) == git_out("rev-parse", "HEAD", cwd=clones[name]), name
    finally:
        if gpg:
            gpg.stop()
        shutil.rmtree(work, ignore_errors=True)
