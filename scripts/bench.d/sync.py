"""`ledger sync` against the git CLI doing the same work (issue: ≤ 1.0x; the cost should grow
with the changes, not with the history).

At each scale, on the benchmark ledger: a bare remote and two pairs of clones, one pair
synced by ledger and one by git. Every round starts from the same state (not timed): the
remote's main is one commit ahead with 10 changed documents, and the local clone has 10
other documents edited in its work tree. Then, timed:
  ledger: `ledger sync` (validate the changed documents, commit, fetch, merge, push);
  git:    `git add -A && git commit && git pull --no-rebase && git push`.
Both end with the same merge pushed to the remote.

Then the same over ssh: an sshd of its own on 127.0.0.1 serves the remote, both clones reach
it as ssh://…, and both run the same OpenSSH client (GIT_SSH_COMMAND with a config of the
benchmark's own, so the account's ~/.ssh is not read). The ssh connections each makes per sync
are counted from sshd's log.
"""
import json
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time


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


class SSHServer:
    """OpenSSH's sshd on a free port of 127.0.0.1 with throwaway keys, and the GIT_SSH_COMMAND
    that reaches it without reading the account's ~/.ssh."""

    def __init__(self, work):
        d = os.path.join(work, "sshd")
        os.makedirs(d)
        for key in ("host", "client"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(d, key)], check=True)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.user = pwd.getpwuid(os.geteuid()).pw_name
        self.log = os.path.join(d, "log")
        shutil.copy(os.path.join(d, "client.pub"), os.path.join(d, "authorized_keys"))
        with open(os.path.join(d, "sshd_config"), "w") as f:
            f.write(f"Port {self.port}\nListenAddress 127.0.0.1\nHostKey {d}/host\nPidFile {d}/pid\n"
                    f"AuthorizedKeysFile {d}/authorized_keys\nStrictModes no\nUsePAM no\nPasswordAuthentication no\n"
                    f"KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\nAllowUsers {self.user}\nLogLevel VERBOSE\n")
        with open(os.path.join(d, "known_hosts"), "w") as f:
            f.write(f"[127.0.0.1]:{self.port} " + " ".join(open(os.path.join(d, "host.pub")).read().split()[:2]) + "\n")
        with open(os.path.join(d, "ssh_config"), "w") as f:
            f.write(f"Host *\n  IdentityFile {d}/client\n  IdentitiesOnly yes\n  UserKnownHostsFile {d}/known_hosts\n  StrictHostKeyChecking yes\n")
        self.command = f"ssh -F {d}/ssh_config"
        if os.geteuid() == 0:
            os.makedirs("/run/sshd", exist_ok=True)
        self.process = subprocess.Popen([shutil.which("sshd") or "/usr/sbin/sshd", "-D", "-e", "-f", os.path.join(d, "sshd_config")],
                                        stdout=subprocess.DEVNULL, stderr=open(self.log, "w"))
        for _ in range(200):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise SystemExit("sshd did not start: " + open(self.log).read())

    def url(self, path):
        return f"ssh://{self.user}@127.0.0.1:{self.port}{path}"

    def connections(self):
        return open(self.log).read().count("Accepted publickey")

    def stop(self):
        self.process.terminate()
        self.process.wait()


def run(bench):
    bench.section("sync: 10 local + 10 remote changed documents, ledger sync vs git add/commit/pull/push (target ≤ 1.0x)")
    for scale in bench.scales:
        compare(bench, scale, ssh=False)
    bench.section("sync over ssh (the same, through OpenSSH to an sshd on 127.0.0.1; target ≤ 1.0x)")
    for scale in bench.scales:
        compare(bench, scale, ssh=True)


def compare(bench, scale, ssh):
    src = bench.data(scale)
    files = [f for f in bench.files(scale) if "/" in f and f.count("/") >= 2]
    step = max(1, len(files) // 25)
    local_files, remote_files = files[0::step][:10], files[step // 2::step][:10]
    work = tempfile.mkdtemp(prefix=f"ledger-bench-sync-x{scale}-")
    server = None
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
        if ssh:
            server = SSHServer(work)
            env["GIT_SSH_COMMAND"] = server.command
            for path in clones.values():
                git("remote", "set-url", "origin", server.url(remote), cwd=path)
        # A user's ledger has run check before (its record of clean files is warm).
        subprocess.run([bench.ledger, "--repo", clones["ledger"], "check"], env=env, stdout=subprocess.DEVNULL)

        def setup():
            git("update-ref", "refs/heads/main", ahead, cwd=remote)
            for path in clones.values():
                git("reset", "-q", "--hard", base, cwd=path)
                git("update-ref", "refs/remotes/origin/main", base, cwd=path)
                for f in local_files:
                    touch(os.path.join(path, f), "2026-11-21T22:45:00+01:00")

        candidates = [
            ("ledger sync", [bench.ledger, "--repo", clones["ledger"], "sync"], {"cwd": clones["ledger"], "env": env}),
            ("git add -A, commit, pull --no-rebase, push",
             "git add -A && git commit -qm sync && git pull -q --no-rebase --no-edit && git push -q",
             {"cwd": clones["git"], "env": env, "shell": True}),
        ]
        name = f"sync{' over ssh' if ssh else ''} x{scale}"
        bench.compare(name, candidates, runs=5, setup=setup, target=1.0, note=f"{len(files):,} documents")
        # Both must have pushed a merge holding all 20 changes.
        for f in local_files + remote_files:
            blob = git_out("rev-parse", f"main:{f}", cwd=remote)
            assert blob, f
        if server:
            # One more round of each, counting the ssh sessions sshd accepts.
            for label, cmd, kw in candidates:
                setup()
                before = server.connections()
                bench.run_once(cmd, **kw)
                time.sleep(0.2)  # sshd writes its log line as it accepts
                print(f"  {label:<44} {server.connections() - before} ssh connections per sync", flush=True)
    finally:
        if server:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
