#!/usr/bin/env python3
"""Hostile hand edits against ledger: a deterministic fuzz harness.

Usage: fuzz.py LEDGER [--quick] [--seed N] [--mutations N] [--jobs N] [--timeout S] [--budget S]
                      [--only I] [--keep DIR]

  make fuzz            the quick run, on the debug build: scripts/fuzz.py LEDGER --quick
  --quick              200 mutations on every core, a 10 s hang limit, stopped after 10 minutes
  --budget S           start no new mutation after S seconds (the figures say how many ran)

Builds a sample ledger (sample-data/ in a git repository with a bare remote), then, for each
mutation i (its random choices seeded by SEED and i, so a run is reproducible), copies it,
damages one thing — a document's bytes (flips, truncation, control characters, NUL, invalid
UTF-8, a BOM), its JSON (huge numbers, deep nesting, duplicate keys, escape sequences and
newlines in strings, wrong types or ids, missing fields), or the file itself (an oversize or
compact-but-huge file, a symbolic link to a file or a folder outside, a FIFO, a directory, a
wrong shard) — and runs every read and write command of the damaged file's app, `ledger
status`, `check`, `check --json`, `check --fix`, the merge driver and `sync`. It counts:

  crashes      a process killed by a signal (a Swift trap, a segfault)
  hangs        a process still running after --timeout seconds (it is killed)
  bad-json     a `--json` run whose stdout is not exactly one JSON value (or empty on exit 0)
  passed       a document `check` reports no error for, which an independent reader rejects
               (not a regular file, behind a link, over 4 MiB, not UTF-8 JSON, duplicate
               keys, non-finite numbers, nesting over 64, an id that is not its file name)
  fix-worse    `check --fix` leaving more errors than it found
  outside      any file created, changed or removed outside the ledger (the link targets
               are a folder beside it; the merge driver's files; the parent directory)
  raw-control  a control character from data on a terminal: stdout and stderr of the
               human-readable commands run on a pseudo-terminal, where nothing but SGR
               colour sequences may be a raw ESC, and no other C0, DEL, C1 or bidi control
               may appear

Prints the figures and the first failures (with the mutation to rerun with --only); exits 1
when any count is not zero (or no mutation ran). --keep DIR keeps each mutation's ledger in DIR/<i>.
"""
import argparse
import json
import os
import pty
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOW = "2026-11-21T23:30:00+01:00"
LIMIT = 4 * 1024 * 1024
HOSTILE = ["\u001b]0;owned\u0007\u001b[2J", "one\ntwo", "tab\there\rreturn", "\u202eevil", "c1\u0085\u009b31m",
           "nul\u0000byte", "bell\u0007", "del\u007f", "\u001b[31mred\u001b[0m", "\u2066isolate\u2069"]
NUMBERS = [b"1e400", b"-1e400", b"1e-400", b"123456789012345678901234567890", b"9007199254740993", b"-0",
           b"1E+308", b"0.00000000000000000000000000001", b"18446744073709551616", b"-9223372036854775809"]

READS = {
    "waterline": [["waterline", "status"], ["waterline", "entries"], ["waterline", "summary"], ["waterline", "sessions", "--all"],
                  ["waterline", "presets"], ["waterline", "settings"], ["waterline", "reminders"]],
    "brew": [["brew", "recipes"], ["brew", "recipe", "show", "v60-starter"], ["brew", "logs"], ["brew", "plan"]],
    "hydrate": [["hydrate", "status"], ["hydrate", "plan"], ["hydrate", "due"]],
    "moments": [["moments", "today"], ["moments", "week"], ["moments", "month"], ["moments", "year"],
                ["moments", "show", "2026-11"], ["moments", "template"]],
}
WRITES = {
    "waterline": [["waterline", "drink", "--preset", "beer"], ["waterline", "water"], ["waterline", "end", "--yes"],
                  ["waterline", "start"], ["waterline", "presets", "add", "Cider", "--std", "1"]],
    "brew": [["brew", "save", "--rating", "4", "--note", "fine"], ["brew", "recipe", "duplicate", "v60-starter", "--name", "Copy"]],
    "hydrate": [["hydrate", "drank"], ["hydrate", "setup", "--interval", "60"]],
    "moments": [["moments", "add", "a walk"], ["moments", "add", "--dot"]],
}
APPS = sorted(READS)

DOCUMENT = re.compile(r"^(ledger\.json|waterline/settings\.json|waterline/presets/[^/]+\.json|waterline/sessions/\d{4}/[^/]+\.json"
                      r"|brew/recipes/[^/]+\.json|brew/logs/\d{4}/[^/]+\.json|brew/preferences\.json|hydrate/schedule\.json"
                      r"|hydrate/days/\d{4}/[^/]+\.json|moments/settings\.json|moments/experiences/\d{4}/(0[1-9]|1[0-2])/[^/]+\.json)$")
COLLECTION = re.compile(r"^(waterline/presets|waterline/sessions|brew/recipes|brew/logs|hydrate/days|moments/experiences)/")
ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
SGR = re.compile(rb"\x1b\[[0-9;]*m")


class Runner:
    def __init__(self, ledger, timeout, home):
        self.ledger = os.path.abspath(ledger)
        self.timeout = timeout
        self.env = {"PATH": os.path.dirname(self.ledger) + ":/usr/local/bin:/usr/bin:/bin", "HOME": home,
                    "LEDGER_NOW": NOW, "TZ": "Europe/Paris", "TERM": "xterm-256color", "LANG": "C.UTF-8",
                    "GIT_AUTHOR_NAME": "fuzz", "GIT_AUTHOR_EMAIL": "fuzz@example.com",
                    "GIT_COMMITTER_NAME": "fuzz", "GIT_COMMITTER_EMAIL": "fuzz@example.com",
                    "GIT_CONFIG_NOSYSTEM": "1"}

    def run(self, args, repo, tty=False, cwd=None):
        """(exit status or None when it hung, stdout bytes, stderr bytes); a negative status is a
        signal. `repo` is passed as --repo, except to the merge driver (it runs in the work tree)."""
        cmd = [self.ledger] + args + ([] if args[0] == "merge-driver" else ["--repo", repo])
        if tty:
            return self._run_tty(cmd, cwd or repo)
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=self.timeout, env=self.env, cwd=cwd or repo)
            return p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            return None, e.stdout or b"", e.stderr or b""

    def _run_tty(self, cmd, cwd):
        master, slave = pty.openpty()
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=self.env, cwd=cwd, close_fds=True)
        os.close(slave)
        out = bytearray()
        deadline = time.monotonic() + self.timeout
        hung = False
        while True:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                out += chunk
            elif p.poll() is not None:
                continue  # drain what is left, then EOF (EIO) ends the loop
            if time.monotonic() > deadline:
                hung = True
                p.kill()
                break
        os.close(master)
        p.wait()
        return (None if hung else p.returncode), bytes(out), b""


def git(args, cwd, env):
    subprocess.run(["git"] + args, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def build_base(runner, directory):
    """sample-data/ as a ledger with a bare remote, synced, at `directory`/ledger."""
    ledger, remote = os.path.join(directory, "ledger"), os.path.join(directory, "remote.git")
    git(["init", "-q", "--bare", "-b", "main", remote], directory, runner.env)
    status, _, err = runner.run(["init", "--remote", remote], ledger, cwd=directory)
    if status != 0:
        sys.exit(f"ledger init failed: {err.decode(errors='replace')}")
    sample = os.path.join(ROOT, "sample-data")
    for name in os.listdir(sample):
        target = os.path.join(ledger, name)
        if os.path.isdir(target):
            shutil.rmtree(target)
        src = os.path.join(sample, name)
        (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, target)
    status, _, err = runner.run(["sync"], ledger)
    if status != 0:
        sys.exit(f"the first sync failed: {err.decode(errors='replace')}")
    os.makedirs(os.path.join(directory, "outside"))
    with open(os.path.join(directory, "outside", "canary.json"), "w") as f:
        f.write('{"canary": true}\n')


# -- mutations --------------------------------------------------------------------------------

def files_of(ledger):
    out = []
    for app in APPS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ledger, app)):
            dirnames.sort()
            for name in sorted(filenames):
                out.append(os.path.relpath(os.path.join(dirpath, name), ledger))
    return ["ledger.json"] + out


def mutate(rng, work):
    """Damages one thing in the ledger at work/ledger; returns (description, path, bytes before or None)."""
    ledger, outside = os.path.join(work, "ledger"), os.path.join(work, "outside")
    docs = [f for f in files_of(ledger) if f.endswith(".json")]
    path = rng.choice(docs)
    full = os.path.join(ledger, path)
    with open(full, "rb") as f:
        data = f.read()
    kind = rng.choices(
        ["flip", "truncate", "control", "nul", "utf8", "bom", "empty", "number", "nesting", "duplicate", "hostile", "hostile-key",
         "type", "missing", "id", "oversize", "compact-huge", "link-file", "link-folder", "fifo", "directory", "shard", "unknown"],
        weights=[6, 4, 4, 3, 4, 2, 1, 6, 4, 4, 10, 3, 6, 4, 4, 1, 1, 3, 4, 3, 1, 3, 3])[0]
    new = None
    if kind == "flip":
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            if b:
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        new = bytes(b)
    elif kind == "truncate":
        new = data[:rng.randrange(len(data) + 1)]
    elif kind in ("control", "nul", "utf8"):
        insert = {"control": bytes([rng.choice(list(range(0x20)) + [0x7F])]), "nul": b"\x00",
                  "utf8": rng.choice([b"\xff", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\xc0\xaf"])}[kind]
        # Inside a string most of the time: that is where a hand edit puts it.
        quotes = [m.start() + 1 for m in re.finditer(rb'"', data)]
        at = rng.choice(quotes) if quotes and rng.random() < 0.8 else rng.randrange(len(data) + 1)
        new = data[:at] + insert + data[at:]
    elif kind == "bom":
        new = b"\xef\xbb\xbf" + data
    elif kind == "empty":
        new = b""
    elif kind == "number":
        numbers = list(re.finditer(rb"(?<![\w.])-?\d+(\.\d+)?([eE][+-]?\d+)?", data))
        if numbers:
            m = rng.choice(numbers)
            new = data[:m.start()] + rng.choice(NUMBERS) + data[m.end():]
        else:
            new = data.replace(b"{", b'{"n": ' + rng.choice(NUMBERS) + b",", 1)
    elif kind == "nesting":
        depth = rng.choice([63, 64, 65, 100, 5000, 100000])
        value = (b"[" * depth + b"1" + b"]" * depth) if rng.random() < 0.5 else (b'{"a":' * depth + b"1" + b"}" * depth)
        new = data.replace(b"{", b'{"deep": ' + value + b",", 1)
    elif kind == "duplicate":
        m = re.search(rb'"([A-Za-z]+)"\s*:', data)
        key = m.group(1) if m and rng.random() < 0.7 else b"id"
        new = data.replace(b"{", b'{"' + key + b'": "dup", ', 1)
    elif kind in ("hostile", "hostile-key", "type", "missing", "id", "unknown", "compact-huge"):
        try:
            doc = json.loads(data)
        except ValueError:
            doc = None
        if not isinstance(doc, dict):
            new = data + b"\n\x1b]0;owned\x07"
        else:
            doc = mutate_json(rng, kind, doc)
            if kind == "compact-huge":
                new = json.dumps(doc, separators=(",", ":"), ensure_ascii=rng.random() < 0.5).encode()
            else:
                new = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=rng.random() < 0.5).encode() + b"\n"
    elif kind == "oversize":
        new = data.rstrip()[:-1] + b"," + b'"pad": "' + b"x" * (LIMIT + rng.randrange(1024)) + b'"}\n'
    elif kind == "link-file":
        shutil.copy(full, os.path.join(outside, "linked-" + os.path.basename(path)))
        os.remove(full)
        os.symlink(os.path.join(outside, "linked-" + os.path.basename(path)), full)
    elif kind == "link-folder":
        parts = path.split("/")[:-1]
        if not parts:
            parts = ["waterline"]
        folder = "/".join(parts[:rng.randint(1, len(parts))])
        target = os.path.join(outside, "folder-" + folder.replace("/", "-"))
        shutil.move(os.path.join(ledger, folder), target)
        os.symlink(target, os.path.join(ledger, folder))
        path = folder
    elif kind == "fifo":
        os.remove(full)
        os.mkfifo(full)
    elif kind == "directory":
        os.remove(full)
        os.makedirs(os.path.join(full, "inner.json"))
    elif kind == "shard":
        m = re.search(r"/(\d{4})/", path)
        if m:
            moved = path.replace(m.group(0), "/%04d/" % rng.choice([1999, 2019, int(m.group(1)) + 1]), 1)
            os.makedirs(os.path.dirname(os.path.join(ledger, moved)), exist_ok=True)
            shutil.move(full, os.path.join(ledger, moved))
            path = moved
        else:
            new = data + b"\n"
    if new is not None:
        with open(full, "wb") as f:
            f.write(new)
    return kind, path, data


def mutate_json(rng, kind, doc):
    """A structural change to a parsed document."""
    def strings(value, here=()):
        if isinstance(value, dict):
            for k, v in value.items():
                yield from strings(v, here + (k,))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                yield from strings(v, here + (i,))
        else:
            yield here, value

    def put(value, where, new):
        for step in where[:-1]:
            value = value[step]
        value[where[-1]] = new

    leaves = [(w, v) for w, v in strings(doc) if w]
    if kind == "hostile":
        texts = [(w, v) for w, v in leaves if isinstance(v, str)] or leaves
        where, _ = rng.choice(texts)
        put(doc, where, rng.choice(["", "x"]) + rng.choice(HOSTILE) + rng.choice(["", " tail"]))
    elif kind == "hostile-key":
        doc[rng.choice(HOSTILE)] = rng.choice(HOSTILE)
    elif kind == "type" and leaves:
        where, value = rng.choice(leaves)
        put(doc, where, rng.choice([None, True, 0, -1, 1.5, "text", [], {}, [value], {"v": value}]))
    elif kind == "missing" and doc:
        del doc[rng.choice(sorted(doc))]
    elif kind == "id":
        doc["id"] = rng.choice(["", "UPPER", "a" * 65, "../escape", "other-document", "x/y", "-leading", "a b", 7])
    elif kind == "unknown":
        doc[rng.choice(["notes", "nots", "extra", "createdat"])] = rng.choice(["mine", 1, [1, 2], {"a": None}])
    elif kind == "compact-huge":
        # Valid, and under the limit compactly; over it in canonical form (one element per line).
        doc["imported"] = [1234567] * rng.choice([400_000, 523_000])
    return doc


# -- the independent reader -------------------------------------------------------------------

def reject(ledger, path):
    """Why an independent reader rejects the document at `path`, or None."""
    walked = ledger
    for part in path.split("/"):
        walked = os.path.join(walked, part)
        if os.path.islink(walked):
            return "a symbolic link on its way"
    st = os.lstat(os.path.join(ledger, path))
    if not (st.st_mode & 0o170000 == 0o100000):
        return "not a regular file"
    if st.st_size > LIMIT:
        return "over 4 MiB"
    with open(os.path.join(ledger, path), "rb") as f:
        data = f.read()
    if data.startswith(b"\xef\xbb\xbf"):
        return "a BOM"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8"

    def pairs(items):
        keys = [k for k, _ in items]
        if len(set(keys)) != len(keys):
            raise ValueError("duplicate key")
        return dict(items)

    def constant(name):
        raise ValueError(name)

    try:
        doc = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except (ValueError, RecursionError) as e:
        return f"not JSON ({e})"
    if not isinstance(doc, dict):
        return "not an object"

    def depth(v):
        if isinstance(v, dict):
            return 1 + max([depth(x) for x in v.values()] or [0])
        if isinstance(v, list):
            return 1 + max([depth(x) for x in v] or [0])
        return 0

    def finite(v):
        if isinstance(v, float):
            return v == v and abs(v) != float("inf")
        if isinstance(v, dict):
            return all(finite(x) for x in v.values())
        if isinstance(v, list):
            return all(finite(x) for x in v)
        return True

    if depth(doc) > 64:
        return "nested deeper than 64"
    if not finite(doc):
        return "a number out of range"
    if COLLECTION.match(path):
        stem = os.path.basename(path)[:-5]
        if not ID.match(stem) or doc.get("id") != stem:
            return "its id is not its file name"
    return None


def problems_by_path(stdout):
    try:
        report = json.loads(stdout)
        return report, {p["path"] for p in report["problems"] if p["severity"] == "error"}
    except (ValueError, KeyError, TypeError):
        return None, set()


def snapshot(directory, skip):
    """Every entry under `directory` but `skip`, with its type, size, mtime and (for files) bytes."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(directory):
        if os.path.abspath(dirpath) == os.path.abspath(directory):
            dirnames[:] = [d for d in dirnames if d != skip]
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            st = os.lstat(full)
            content = b""
            if st.st_mode & 0o170000 == 0o100000 and st.st_size < 1 << 20:
                with open(full, "rb") as f:
                    content = f.read()
            out[os.path.relpath(full, directory)] = (st.st_mode, st.st_size, st.st_mtime_ns, content)
    return out


# -- one mutation -----------------------------------------------------------------------------

def raw_controls(output):
    """The control characters in terminal output that are not SGR colour sequences."""
    rest = SGR.sub(b"", output)
    found = set()
    for ch in rest.decode("utf-8", errors="replace"):
        o = ord(ch)
        if (o < 0x20 and ch not in "\r\n\t") or 0x7F <= o <= 0x9F or 0x202A <= o <= 0x202E or 0x2066 <= o <= 0x2069:
            found.add("U+%04X" % o)
    return found


def one(args):
    i, seed, base, ledger_bin, timeout, keep = args
    runner = Runner(ledger_bin, timeout, os.path.join(base, "home"))
    rng = random.Random(f"{seed}:{i}")
    counts = {k: 0 for k in ("crashes", "hangs", "bad-json", "passed", "fix-worse", "outside", "raw-control")}
    failures = []
    invocations = 0
    parent = tempfile.mkdtemp(prefix=f"ledger-fuzz-{i}-")
    work = os.path.join(parent, "w")
    shutil.copytree(base, work, symlinks=True)
    ledger = os.path.join(work, "ledger")
    kind, path, original = mutate(rng, work)
    what = f"mutation {i} ({kind} {path})"
    outside_before = snapshot(work, "ledger")

    def note(counter, command, detail):
        counts[counter] += 1
        if sum(f.startswith(counter + ":") for f in failures) < 2:
            failures.append(f"{counter}: {what}: ledger {' '.join(command)}: {detail}")

    def run(command, tty=False, cwd=None):
        nonlocal invocations
        invocations += 1
        status, out, err = runner.run(command, ledger, tty=tty, cwd=cwd)
        if status is None:
            note("hangs", command, f"still running after {timeout} s")
        elif status < 0:
            note("crashes", command, f"killed by signal {-status}: {(out + err)[-300:]!r}")
        if tty and status is not None:
            controls = raw_controls(out)
            if controls:
                note("raw-control", command, f"{sorted(controls)} in {out[-400:]!r}")
        if "--json" in command and status is not None and status >= 0:
            try:
                if out.strip() or status == 0:
                    json.loads(out)
            except ValueError:
                note("bad-json", command, f"exit {status}, stdout {out[:200]!r}")
        return status, out, err

    app = path.split("/")[0] if path.split("/")[0] in READS else rng.choice(APPS)
    for command in [["status"]] + READS[app]:
        run(command, tty=True)
        run(command + ["--json"])
    status, out, _ = run(["check", "--json"])
    report, errors = problems_by_path(out)
    if report is not None:
        for doc in files_of(ledger):
            if not DOCUMENT.match(doc) or "/." in "/" + doc or any(doc == e or doc.startswith(e + "/") for e in errors):
                continue
            try:
                why = reject(ledger, doc)
            except OSError as e:
                why = f"unreadable ({e})"
            if why:
                note("passed", ["check", "--json"], f"{doc}: {why}")
    run(["check"], tty=True)
    for command in WRITES[app]:
        run(command, tty=True)
    before_fix = report["errors"] if report else None
    run(["check", "--fix"], tty=True)
    status, out, _ = run(["check", "--json"])
    after, _ = problems_by_path(out)
    if before_fix is not None and after is not None and after["errors"] > before_fix:
        note("fix-worse", ["check", "--fix"], f"{before_fix} errors before, {after['errors']} after")
    # The merge driver, as git runs it: the original as base, an edit of it as ours, the
    # damaged file as theirs (both sides changed: the kind's rule must cope).
    if original is not None and not os.path.islink(os.path.join(ledger, path)) and os.path.isfile(os.path.join(ledger, path)):
        try:
            edited = json.loads(original)
            edited["fuzzEdit"] = i
            ours = json.dumps(edited, indent=2, sort_keys=True, ensure_ascii=False).encode() + b"\n"
        except (ValueError, TypeError):
            ours = original + b"\n"
        with tempfile.TemporaryDirectory(dir=work) as tmp:
            for name, data in (("base", original), ("ours", ours)):
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(data)
            shutil.copy(os.path.join(ledger, path), os.path.join(tmp, "theirs"))
            run(["merge-driver", os.path.join(tmp, "base"), os.path.join(tmp, "ours"), os.path.join(tmp, "theirs"), path], tty=True, cwd=ledger)
    run(["sync"], tty=True)
    outside_after = snapshot(work, "ledger")
    changed = sorted(k for k in set(outside_before) | set(outside_after)
                     if outside_before.get(k) != outside_after.get(k) and not k.startswith("remote.git/") and k != "remote.git")
    if changed:
        note("outside", ["(all)"], f"changed outside the ledger: {changed[:5]}")
    strays = sorted(set(os.listdir(parent)) - {"w"})
    if strays:
        note("outside", ["(all)"], f"written beside the work directory: {strays}")
    if keep:
        shutil.copytree(work, os.path.join(keep, str(i)), symlinks=True)
    shutil.rmtree(parent, ignore_errors=True)
    return i, kind, invocations, counts, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ledger", help="the ledger executable")
    parser.add_argument("--quick", action="store_true", help="200 mutations, every core, 10 s hang limit, 600 s budget")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mutations", type=int)
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--timeout", type=float, help="seconds before a run counts as a hang (20)")
    parser.add_argument("--budget", type=float, help="seconds after which no new mutation starts")
    parser.add_argument("--only", type=int, help="run this mutation only")
    parser.add_argument("--keep", help="keep each mutation's ledger under this directory")
    a = parser.parse_args()
    defaults = {"mutations": 200, "jobs": os.cpu_count() or 1, "timeout": 10.0, "budget": 600.0} if a.quick else \
        {"mutations": 100, "jobs": 1, "timeout": 20.0, "budget": None}
    for name, value in defaults.items():
        if getattr(a, name) is None:
            setattr(a, name, value)
    if not os.access(a.ledger, os.X_OK):
        sys.exit(f"fuzz.py: {a.ledger} is not an executable; build it first (swift build) and pass its path")
    started = time.monotonic()
    base_dir = tempfile.mkdtemp(prefix="ledger-fuzz-base-")
    os.makedirs(os.path.join(base_dir, "home"))
    try:
        build_base(Runner(a.ledger, a.timeout, os.path.join(base_dir, "home")), base_dir)
        indices = [a.only] if a.only is not None else list(range(a.mutations))
        jobs = [(i, a.seed, base_dir, a.ledger, a.timeout, a.keep) for i in indices]
        totals = {k: 0 for k in ("crashes", "hangs", "bad-json", "passed", "fix-worse", "outside", "raw-control")}
        kinds = {}
        failures = []
        invocations = 0
        ran = 0
        with ProcessPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            # At most `jobs` mutations in flight, so that the budget stops new ones promptly.
            pending, queue = set(), list(reversed(jobs))
            while queue or pending:
                while queue and len(pending) < max(1, a.jobs) and (a.budget is None or time.monotonic() - started < a.budget):
                    pending.add(pool.submit(one, queue.pop()))
                if not pending:
                    break
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    i, kind, n, counts, fails = future.result()
                    ran += 1
                    invocations += n
                    kinds[kind] = kinds.get(kind, 0) + 1
                    for k, v in counts.items():
                        totals[k] += v
                    failures += fails
        stopped = f" (stopped by the {a.budget:.0f} s budget)" if ran < len(indices) else ""
        print(f"seed {a.seed}: {ran} of {len(indices)} mutations{stopped}, {invocations} invocations in {time.monotonic() - started:.0f} s")
        print("mutations: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
        print("  ".join(f"{k} {v}" for k, v in totals.items()))
        for counter in totals:
            for f in [f for f in failures if f.startswith(counter + ":")][:3]:
                print("  " + f[:600])
        return 1 if any(totals.values()) or ran == 0 else 0
    finally:
        shutil.rmtree(base_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
