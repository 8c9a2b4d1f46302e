"""`ledger sync` against the git CLI doing the same work (target: ≤ 1.0x of git with
`core.fsync=all`, which flushes what it writes as ledger does; the cost should grow with the
changes, not with the history).

At each scale, on the benchmark ledger: a bare remote and clones synced by ledger, by git with
its defaults and by git with `core.fsync=all` (`core.fsyncMethod=fsync`, set in that clone and
in its own copy of the remote, since git does not pass `-c` settings to the receiving end of a
push to a path). Every round starts from the same state (not timed): the remote's main is one
commit ahead with 10 changed documents, and the local clone has 10 other documents edited in
its work tree. Then, timed:
  ledger: `ledger sync` (validate the changed documents, commit, fetch, merge, push; every
          write flushed, here and in the remote);
  git:    `git add -A && git commit && git pull --no-rebase && git push`.
All end with the same merge pushed to the remote.

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
import sys
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
    bench.section("sync: 10 local + 10 remote changed documents, ledger sync vs git add/commit/pull/push (target ≤ 1.0x of git with core.fsync=all)")
    for scale in bench.scales:
        compare(bench, scale, ssh=False)
    bench.section("sync over ssh (the same, through OpenSSH to an sshd on 127.0.0.1; target ≤ 1.0x of git with core.fsync=all)")
    for scale in bench.scales:
        compare(bench, scale, ssh=True)
    maintenance(bench)


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
        # git with core.fsync=all pushes to a copy of the remote that flushes as well.
        remotes = {"ledger": remote, "git": remote, "git-fsync": os.path.join(work, "remote-fsync.git")}
        git("clone", "-q", "--bare", remote, remotes["git-fsync"], cwd=work)
        for key, value in (("gc.auto", "0"), ("receive.autogc", "false"), ("core.fsync", "all"), ("core.fsyncMethod", "fsync")):
            git("config", key, value, cwd=remotes["git-fsync"])
        clones = {}
        for name in ("ledger", "git", "git-fsync"):
            path = os.path.join(work, name)
            git("clone", "-q", remotes[name], path, cwd=work)
            if name == "git-fsync":
                git("config", "core.fsync", "all", cwd=path)
                git("config", "core.fsyncMethod", "fsync", cwd=path)
            git("config", "gc.auto", "0", cwd=path)
            git("config", "merge.ledger.driver", "ledger merge-driver %O %A %B %P", cwd=path)
            git("config", "user.name", "bench", cwd=path)
            git("config", "user.email", "bench@example.com", cwd=path)
            clones[name] = path
        if ssh:
            server = SSHServer(work)
            env["GIT_SSH_COMMAND"] = server.command
            for name, path in clones.items():
                git("remote", "set-url", "origin", server.url(remotes[name]), cwd=path)
        # A user's ledger has run check before (its record of clean files is warm).
        subprocess.run([bench.ledger, "--repo", clones["ledger"], "check"], env=env, stdout=subprocess.DEVNULL)

        def setup():
            for r in set(remotes.values()):
                git("update-ref", "refs/heads/main", ahead, cwd=r)
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
            ("the same, git with core.fsync=all",
             "git add -A && git commit -qm sync && git pull -q --no-rebase --no-edit && git push -q",
             {"cwd": clones["git-fsync"], "env": env, "shell": True}),
        ]
        name = f"sync{' over ssh' if ssh else ''} x{scale}"
        bench.compare(name, candidates, runs=5, setup=setup, target={"the same, git with core.fsync=all": 1.0},
                      note=f"{len(files):,} documents")
        # Each must have pushed a merge holding all 20 changes.
        for r in set(remotes.values()):
            for f in local_files + remote_files:
                blob = git_out("rev-parse", f"main:{f}", cwd=r)
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


# -- repository maintenance: a history of 3,000 syncs -------------------------------------------
#
# Two devices, A and B, take turns on the x1 ledger: every sync is one small change (A adds a
# moment, B edits a hydration day) committed, then merged with the other device's last push
# (a real merge) and pushed. The history is generated with git fast-import, one `checkpoint`
# per sync, so that every push is a pack of its own in the remote, as libgit2 leaves it; A's
# clone holds B's syncs as the packs its fetches brought and its own as loose objects.
#
# 1. Without maintenance (what ledger left before it maintained its repositories), after
#    SYNCS - SINCE_MAINTENANCE syncs: the size of .git, libgit2's packbuilder against git, and
#    `ledger gc` at that size.
# 2. As ledger keeps it: maintained then, followed by SINCE_MAINTENANCE more syncs — A's clone
#    then holds 48 fetched packs, one short of git's pack limit (50) with the next fetch; the
#    remote, maintained when its pushes passed the limit, 46. There, the 3,001st sync against a
#    sync on a fresh clone in the same position, and .git against what `git gc` reaches.

SYNCS = 3000
SINCE_MAINTENANCE = 96
REMOTE_PACK_LIMIT = 50


def du(path):
    """Disk usage in bytes (du -sk)."""
    out = subprocess.run(["du", "-sk", path], capture_output=True, text=True, check=True).stdout
    return int(out.split()[0]) * 1024


def mib(n):
    return f"{n / 1048576:.1f} MiB"


def count_objects(path):
    """`git count-objects -v` as numbers."""
    return {k: int(v) for k, v in (line.split(": ") for line in git_out("count-objects", "-v", cwd=path).splitlines())}


def pack_ids(idx_path):
    """The object ids a pack index (version 2) lists."""
    import struct
    with open(idx_path, "rb") as f:
        data = f.read()
    count = struct.unpack(">I", data[8 + 255 * 4:8 + 256 * 4])[0]
    ids = data[8 + 1024:8 + 1024 + 20 * count]
    return [ids[i * 20:(i + 1) * 20].hex() for i in range(count)]


def write_loose(git_dir, repository, ids):
    """Writes the objects `ids` of `repository` as loose objects into `git_dir`."""
    import zlib
    if not ids:
        return
    out = subprocess.run(["git", "cat-file", "--batch"], cwd=repository, input=("\n".join(ids) + "\n").encode(),
                         capture_output=True, check=True).stdout
    pos = 0
    while pos < len(out):
        end = out.index(b"\n", pos)
        sha, kind, size = out[pos:end].decode().split()
        size = int(size)
        body = out[end + 1:end + 1 + size]
        pos = end + 1 + size + 1
        d = os.path.join(git_dir, "objects", sha[:2])
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, sha[2:]), "wb") as f:
            f.write(zlib.compress(f"{kind} {size}\0".encode() + body, 1))


class History:
    """The remote of a generated sync history, and device A's clone of it."""

    def __init__(self, src, work):
        self.src, self.work = src, work
        self.remote = os.path.join(work, "remote.git")
        self.marks = os.path.join(work, "marks")
        git("clone", "-q", "--bare", "--no-local", src, self.remote, cwd=work)
        self.base = git_out("rev-parse", "main", cwd=self.remote)
        sample = os.path.join(src, "moments/experiences/2024/03")
        with open(os.path.join(sample, sorted(os.listdir(sample))[0])) as f:
            self.moment = json.load(f)
        self.synced = 0
        self.applied = 0  # syncs copied into A's clone
        self.clone = None

    # Marks: the blob of sync k is 3k-2, its local commit 3k-1, its merge 3k (sync 1: no merge).
    def head(self, k):
        return self.base if k <= 0 else f":{3 * k if k > 1 else 2}"

    def change(self, k):
        """The path and contents sync k writes: A (odd k) adds a moment, B (even k) edits a day."""
        import datetime
        day = datetime.date(2022, 1, 1) + datetime.timedelta(days=k // 2)
        stamp = f"{day.isoformat()}T{'08' if k % 2 else '20'}:30:00+01:00"
        path = f"hydrate/days/{day.year}/{day.isoformat()}.json"
        if k % 2 == 0 and os.path.exists(os.path.join(self.src, path)):
            with open(os.path.join(self.src, path)) as f:
                doc = json.load(f)
            doc["updatedAt"] = stamp
        else:  # A, or B on a day the ledger has no hydration record for
            doc = dict(self.moment, id=f"hist-{k}", createdAt=stamp, updatedAt=stamp, timestamp=stamp, payload=f"moment {k}")
            path = f"moments/experiences/{day.year}/{day.month:02d}/hist-{k}.json"
        return path, (json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()

    def generate(self, last):
        """Syncs up to `last` into the remote, one pack per sync (fast-import checkpoints)."""
        stream = bytearray()
        for k in range(self.synced + 1, last + 1):
            device = "a" if k % 2 else "b"
            path, content = self.change(k)
            who = f"committer ledger on bench-{device} <ledger@bench-{device}> {1640995200 + k * 43200} +0100\n".encode()
            stream += f"blob\nmark :{3 * k - 2}\ndata {len(content)}\n".encode() + content + b"\n"
            message = f"ledger sync on bench-{device}: sync {k}\n".encode()
            stream += f"commit refs/bench/{device}\nmark :{3 * k - 1}\n".encode() + who + f"data {len(message)}\n".encode() + message
            stream += f"from {self.head(k - 2)}\nM 100644 :{3 * k - 2} {path}\n".encode()
            if k > 1:
                other, _ = self.change(k - 1)
                message = f"ledger sync on bench-{device}: merge origin/main\n".encode()
                stream += f"commit refs/heads/main\nmark :{3 * k}\n".encode() + who + f"data {len(message)}\n".encode() + message
                stream += f"from :{3 * k - 1}\nmerge {self.head(k - 1)}\nM 100644 :{3 * k - 5} {other}\n".encode()
            stream += b"checkpoint\n\n"
        stream += f"reset refs/heads/main\nfrom {self.head(last)}\n\ndone\n".encode()
        # Every pack kept as a pack, however small (by default fast-import unpacks small ones).
        args = ["git", "-c", "fastimport.unpackLimit=1", "fast-import", "--quiet", "--done", f"--export-marks={self.marks}"]
        if self.synced:
            args.append(f"--import-marks={self.marks}")
        subprocess.run(args, cwd=self.remote, input=bytes(stream), check=True)
        self.synced = last

    def sha(self, k):
        h = self.head(k)
        if not h.startswith(":"):
            return h
        with open(self.marks) as f:
            return dict(line.split() for line in f)[h]

    def make_clone(self):
        """Device A's clone: the base ledger's pack, then the history as A's syncs leave it."""
        self.clone = os.path.join(self.work, "a")
        git("init", "-q", "-b", "main", self.clone, cwd=self.work)
        packs = os.path.join(self.remote, "objects", "pack")
        for f in os.listdir(packs):
            shutil.copy(os.path.join(packs, f), os.path.join(self.clone, ".git", "objects", "pack", f))
        for key, value in [("remote.origin.url", self.remote), ("remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"),
                           ("branch.main.remote", "origin"), ("branch.main.merge", "refs/heads/main"),
                           ("merge.ledger.name", "ledger"), ("merge.ledger.driver", "ledger merge-driver %O %A %B %P")]:
            git("config", key, value, cwd=self.clone)
        os.makedirs(os.path.join(self.clone, ".git", "ledger"), exist_ok=True)
        with open(os.path.join(self.clone, ".git", "ledger", "device.json"), "w") as f:
            f.write(json.dumps({"id": "a", "name": "bench-a"}) + "\n")

    def extend_clone(self, through=None):
        """Brings A's clone to A's last generated sync (or to sync `through`): B's syncs as the
        packs A's fetches brought, A's own as loose objects; refs and work tree at A's last
        sync. Call it before the remote's packs are consolidated."""
        git_dir = os.path.join(self.clone, ".git")
        packs = os.path.join(self.remote, "objects", "pack")
        owner = {}
        for f in os.listdir(packs):
            if f.endswith(".idx"):
                ids = pack_ids(os.path.join(packs, f))
                if len(ids) < 100:  # a sync's pack, not the base ledger's or a consolidated one
                    for sha in ids:
                        owner[sha] = f[:-4]
        with open(self.marks) as f:
            marks = dict(line.split() for line in f)
        last = through or (self.synced if self.synced % 2 else self.synced - 1)
        mine = []
        for k in range(self.applied + 1, last + 1):
            pack = owner[marks[f":{3 * k - 1}"]]
            if k % 2:
                mine += pack_ids(os.path.join(packs, pack + ".idx"))
            else:
                for ext in (".pack", ".idx"):
                    shutil.copy(os.path.join(packs, pack + ext), os.path.join(git_dir, "objects", "pack", pack + ext))
        write_loose(git_dir, self.remote, mine)
        self.applied = last
        last_a = last if last % 2 else last - 1
        git("update-ref", "refs/heads/main", self.sha(last_a), cwd=self.clone)
        git("update-ref", "refs/remotes/origin/main", self.sha(last_a), cwd=self.clone)
        git("reset", "-q", "--hard", "main", cwd=self.clone)


def maintained_history(src, work, syncs):
    """A remote with `syncs` generated syncs and device A's clone in step, its clone garbage
    collected (as ledger keeps a clone: maintained)."""
    h = History(src, work)
    h.make_clone()
    h.generate(syncs)
    h.extend_clone()
    git("gc", "-q", cwd=h.clone)
    return h


def objects_now(git_dir):
    """Every file under objects/ (to remove what a timed sync added)."""
    out = set()
    for root, _, files in os.walk(os.path.join(git_dir, "objects")):
        out.update(os.path.join(root, f) for f in files)
    return out


def libgit2_pack(git_dir):
    """libgit2's packbuilder writing one pack of every object reachable from the refs (what a
    maintenance built on libgit2 would start with), through ctypes, in a child process."""
    code = f"""
import ctypes, sys
g = ctypes.CDLL("libgit2.so.1.5")
g.git_libgit2_init()
repo, pb, walk = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
def ok(rc, what):
    if rc < 0: sys.exit(what + " failed")
ok(g.git_repository_open(ctypes.byref(repo), {git_dir.encode()!r}), "open")
ok(g.git_packbuilder_new(ctypes.byref(pb), repo), "packbuilder")
g.git_packbuilder_set_threads(pb, 0)
ok(g.git_revwalk_new(ctypes.byref(walk), repo), "revwalk")
for ref in (b"refs/heads/main", b"refs/remotes/origin/main"):
    ok(g.git_revwalk_push_ref(walk, ref), "push_ref")
ok(g.git_packbuilder_insert_walk(pb, walk), "insert_walk")
ok(g.git_packbuilder_write(pb, None, 0, None, None), "write")
"""
    return [sys.executable, "-c", code]


def newest_pack(git_dir):
    d = os.path.join(git_dir, "objects", "pack")
    return max((os.path.join(d, f) for f in os.listdir(d) if f.endswith(".pack")), key=os.path.getmtime)


def timed_syncs(bench, h, clones, env, name, target=None):
    """Times `ledger sync` in each of `clones` (label, path, its remote), all in device A's
    position (at A's last sync; the remote one sync ahead): commit a change, fetch the other
    device's last sync, merge, push. Before every run the remotes, the clones and their object
    stores are put back; afterwards the reflogs forget the timed runs' commits."""
    last = h.synced
    assert last % 2 == 0, "the remote's last sync is the other device's"
    a_head, r_head = h.sha(last - 1), h.sha(last)
    git_dirs = {}
    for _, path, remote in clones:
        git_dirs[path] = os.path.join(path, ".git")
        git_dirs[remote] = remote
    baseline = {path: objects_now(d) for path, d in git_dirs.items()}
    change, content = h.change(SYNCS + 1)

    def setup():
        for path, d in git_dirs.items():
            for f in objects_now(d) - baseline[path]:
                os.unlink(f)
        for _, path, remote in clones:
            git("update-ref", "refs/heads/main", r_head, cwd=remote)
            git("update-ref", "refs/heads/main", a_head, cwd=path)
            git("update-ref", "refs/remotes/origin/main", a_head, cwd=path)
            git("reset", "-q", "--hard", "main", cwd=path)
            with open(os.path.join(path, change), "wb") as f:
                f.write(content)

    bench.compare(name, [(label, [bench.ledger, "--repo", path, "sync"], {"cwd": path, "env": env}) for label, path, _ in clones],
                  runs=5 if target else 3, setup=setup, target=target, note="commit, fetch the other device's sync, merge, push")
    assert git_out("rev-parse", "main", cwd=clones[-1][2]) != r_head, "the timed sync did not push"  # setup runs before each candidate: the last one pushed last
    setup()
    for path in git_dirs:
        git("reflog", "expire", "--expire-unreachable=now", "--all", cwd=path)


def fresh_clone(bench, h, env, path, remote):
    """A clone of `remote` in device A's position (at A's last sync; the remote one sync ahead)
    with a single pack, as a fresh clone over the network has: made with `ledger clone` the
    first time, brought forward with a fetch later (a local clone copies the remote's packs:
    `git gc` makes them one)."""
    git("update-ref", "refs/heads/main", h.sha(h.synced - 1), cwd=remote)
    if os.path.exists(path):
        git("remote", "set-url", "origin", remote, cwd=path)
        git("fetch", "-q", "origin", cwd=path)
        git("update-ref", "refs/heads/main", h.sha(h.synced - 1), cwd=path)
        git("reset", "-q", "--hard", "main", cwd=path)
    else:
        subprocess.run([bench.ledger, "clone", remote, path], env=env, check=True, stdout=subprocess.DEVNULL)
    git("gc", "-q", "--prune=now", cwd=path)
    git("update-ref", "refs/heads/main", h.sha(h.synced), cwd=remote)


def maintenance(bench):
    before = SYNCS - SINCE_MAINTENANCE
    bench.section(f"maintenance: a generated history of {SYNCS:,} syncs between two devices "
                  f"(targets: sync {SYNCS + 1:,} ≤ 1.3x a fresh clone's; .git ≤ 2x what git gc reaches)")
    src = bench.data(1)
    work = tempfile.mkdtemp(prefix="ledger-bench-history-")
    env = dict(bench.env)
    try:
        start = time.perf_counter()
        h = History(src, work)
        h.make_clone()
        h.generate(before)
        h.extend_clone()
        a = h.clone
        print(f"  generated {before:,} syncs (fast-import, one pack per push) and device A's clone in {time.perf_counter() - start:.1f} s", flush=True)

        # 1. Without maintenance.
        for name, path, git_dir in (("clone A", a, os.path.join(a, ".git")), ("remote", h.remote, h.remote)):
            c = count_objects(path)
            print(f"  without maintenance, {name}: {c['count']:,} loose objects, {c['packs']:,} packs, {mib(du(git_dir))}", flush=True)
        # Against a fresh clone of a maintained copy of the remote (hard links: the copy's gc
        # leaves the original's packs alone).
        fresh, fresh_remote = os.path.join(work, "fresh"), os.path.join(work, "remote-fresh.git")
        subprocess.run(["cp", "-al", h.remote, fresh_remote], check=True)
        git("gc", "-q", cwd=fresh_remote)
        fresh_clone(bench, h, env, fresh, fresh_remote)
        for path in (a, fresh, h.remote, fresh_remote):
            git("config", "gc.auto", "0", cwd=path)
        timed_syncs(bench, h, [(f"ledger sync after {before:,} syncs, never maintained", a, h.remote),
                               ("ledger sync, fresh clone, maintained remote", fresh, fresh_remote)], env,
                    f"maintenance: sync {before + 1:,} without maintenance")
        for path in (a, fresh, h.remote):
            git("config", "--unset", "gc.auto", cwd=path)
        shutil.rmtree(fresh_remote)
        h.extend_clone(through=before)  # what that sync fetched, before the remote's packs are consolidated
        # libgit2's packbuilder against git, each run on its own (hard-linked) copy of clone A's repository.
        name = f"maintenance: packing clone A after {before:,} syncs"
        candidates = [
            ("libgit2 packbuilder: one pack, nothing removed", lambda d: libgit2_pack(d), lambda d: os.path.getsize(newest_pack(d))),
            ("git repack -a -d", lambda d: ["git", "--git-dir=" + d, "repack", "-a", "-d", "-q"], lambda d: os.path.getsize(newest_pack(d))),
            ("git gc (what ledger runs)", lambda d: ["git", "--git-dir=" + d, "gc", "-q"], lambda d: du(d)),
        ]
        times = {label: [] for label, _, _ in candidates}
        peak = {label: 0.0 for label, _, _ in candidates}
        sizes = {}
        copy = os.path.join(work, "copy")
        for _ in range(2):
            for label, cmd, size in candidates:
                subprocess.run(["cp", "-al", os.path.join(a, ".git"), copy], check=True)
                t, rss, status, _ = bench.run_once(cmd(copy))
                assert status == 0, label
                times[label].append(t)
                peak[label] = max(peak[label], rss)
                sizes[label] = size(copy)
                shutil.rmtree(copy)
        for label, _, _ in candidates:
            what = ".git " if label.startswith("git gc") else "pack "
            bench.record(name, label, sorted(times[label])[0], peak[label], note=f"{what}{mib(sizes[label])} (fastest of 2)")
        bench.print_rows(name)
        start = time.perf_counter()
        out = subprocess.run([bench.ledger, "--repo", a, "gc", "--json"], env=env, capture_output=True, text=True, check=True).stdout
        elapsed = time.perf_counter() - start
        bench.record(f"maintenance: ledger gc after {before:,} syncs", "ledger gc (clone A and its remote on a path)", elapsed)
        bench.print_rows(f"maintenance: ledger gc after {before:,} syncs")
        for r in json.loads(out)["maintenance"]:
            print(f"    {r['repository']}: {r['before']['looseObjects']:,} loose objects, {r['before']['packs']:,} packs, {mib(r['before']['bytes'])}"
                  f" → {r['after']['packs']} pack, {mib(r['after']['bytes'])} in {r['seconds']:.1f} s", flush=True)

        # 2. As ledger keeps it: the remote maintained again when its pushes passed git's pack
        # limit (at a sync of A's, whose clone has taken in every pack before).
        h.generate(before + REMOTE_PACK_LIMIT + 1)
        h.extend_clone()
        git("gc", "-q", cwd=h.remote)
        h.generate(SYNCS)
        h.extend_clone()
        fresh_clone(bench, h, env, fresh, h.remote)
        for label, path in (("clone A", a), ("remote", h.remote), ("fresh clone", fresh)):
            c = count_objects(path)
            print(f"  {SINCE_MAINTENANCE} syncs after a maintenance, {label}: {c['count']:,} loose objects, {c['packs']} packs", flush=True)
        timed_syncs(bench, h, [(f"ledger sync after {SYNCS:,} syncs", a, h.remote), ("ledger sync, fresh clone of the same tree", fresh, h.remote)], env,
                    f"maintenance: sync {SYNCS + 1:,}", target=1.3)

        # .git against what git gc reaches (the reflogs name the timed syncs' commits, removed again).
        copy = os.path.join(work, "copy-size")
        subprocess.run(["cp", "-a", os.path.join(a, ".git"), copy], check=True)
        subprocess.run(["git", "--git-dir=" + copy, "gc", "-q"], check=True, stderr=subprocess.DEVNULL)
        size, reached = du(os.path.join(a, ".git")), du(copy)
        ratio = size / reached
        print(f"  clone A .git {mib(size)}, {mib(reached)} after git gc: {ratio:.2f}x (target ≤ 2x){'  ok' if ratio <= 2 else '  OVER TARGET'}", flush=True)
        t, _, status, _ = bench.run_once([bench.ledger, "--repo", a, "gc", "--auto"], env=env)
        assert status == 0
        print(f"  ledger gc --auto with nothing due: {t * 1000:.0f} ms", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
