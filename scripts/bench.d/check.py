"""`ledger check` against python's json.load and jq over the same files, and a revalidation
after one hand edit against `git status` on the same repository (targets: check ≤ 1.0x python;
revalidation ≤ 0.9x git status; peak memory ≤ 64 MiB, flat from scale 1 to scale 10).

Then bad data: the ten-year ledger with 9,300 copies of one night out (sessions that all
overlap each other), which `check` must report one line per session, in bounded memory."""
import os
import shutil
import subprocess

COPIES = 9300


def run(b):
    for scale in b.scales:
        path = b.data(scale)
        files = b.files(scale)
        listing = ("\n".join(files) + "\n").encode()
        b.section(f"check — scale {scale}: {len(files):,} documents")
        py = "import json,sys\nfor p in sys.stdin.read().split('\\n'):\n    p and json.load(open(p, 'rb'))"
        b.compare(f"full check x{scale}", [
            ("ledger check --no-cache", [b.ledger, "--repo", path, "check", "--no-cache"], {"cwd": path}),
            ("python3 json.load of every file", ["python3", "-c", py], {"cwd": path, "stdin": listing}),
            ("jq empty over every file", ["xargs", "jq", "empty"], {"cwd": path, "stdin": listing}),
        ], runs=3, target=1.0)

        # One hand edit: the file is saved again (new mtime and ctime); check must notice it
        # and can trust the rest.
        edited = os.path.join(path, files[len(files) // 2])
        with open(edited, "rb") as f:
            content = f.read()

        def save_again():
            with open(edited, "wb") as f:
                f.write(content)

        b.run_once([b.ledger, "--repo", path, "check"], cwd=path)  # write the record of clean files
        b.compare(f"revalidation x{scale}", [
            ("ledger check after one hand edit", [b.ledger, "--repo", path, "check"], {"cwd": path}),
            ("git status (same repository)", ["git", "status", "--porcelain"], {"cwd": path}),
        ], runs=7, setup=save_again, target=0.9)
    overlaps(b)


def overlapping_ledger(b):
    """The ten-year ledger (hard links, .git without its objects) with COPIES copies of one
    ended night out under new ids: made once, under bench-data/."""
    src = b.data(1)
    path = os.path.join(b.data_dir, "ledger-overlaps")
    stamp = path + ".done"
    with open(src + ".done") as f:
        made_by = f.read() + f"/{COPIES}"
    if os.path.exists(stamp) and open(stamp).read() == made_by:
        return path
    shutil.rmtree(path, ignore_errors=True)
    print(f"making the ledger with {COPIES:,} copies of one night in {path} (once)…", flush=True)
    os.makedirs(path)
    for name in os.listdir(src):
        if name != ".git":
            subprocess.run(["cp", "-al", os.path.join(src, name), os.path.join(path, name)], check=True)
    os.makedirs(os.path.join(path, ".git"))
    for name in os.listdir(os.path.join(src, ".git")):
        if name not in ("objects", "ledger"):
            subprocess.run(["cp", "-al", os.path.join(src, ".git", name), os.path.join(path, ".git", name)], check=True)
    shard = os.path.join(path, "waterline", "sessions", "2025")
    night = sorted(f for f in os.listdir(shard) if f.endswith(".json"))[0]
    with open(os.path.join(shard, night), "rb") as f:
        text = f.read()
    old = night[:-5]
    line = b'\n  "id": "' + old.encode() + b'",\n'
    assert text.count(line) == 1, "the session's id line"
    for i in range(COPIES):
        new = f"copy{i:05d}{old}"[:64]
        with open(os.path.join(shard, new + ".json"), "wb") as f:
            f.write(text.replace(line, b'\n  "id": "' + new.encode() + b'",\n'))
    with open(stamp, "w") as f:
        f.write(made_by)
    return path


def overlaps(b):
    path = overlapping_ledger(b)
    files = subprocess.run(["find", ".", "-name", "*.json", "-not", "-path", "./.git/*"], cwd=path, capture_output=True, text=True,
                           check=True).stdout.split()
    listing = ("\n".join(files) + "\n").encode()
    b.section(f"check with bad data: {COPIES:,} copies of one night among {len(files):,} documents (target: peak memory ≤ 64 MiB)")
    out = subprocess.run([b.ledger, "--repo", path, "check", "--no-cache"], env=b.env, capture_output=True, text=True)
    reported = [l for l in out.stdout.splitlines() if "overlaps" in l]
    print(f"  ledger check exit {out.returncode}: {len(out.stdout.splitlines()):,} lines, {len(reported):,} sessions reported as overlapping "
          f"({len(out.stdout) / 1e6:.1f} MB of output)", flush=True)
    py = "import json,sys\nfor p in sys.stdin.read().split('\\n'):\n    p and json.load(open(p, 'rb'))"
    b.compare("check with bad data", [
        ("ledger check --no-cache", [b.ledger, "--repo", path, "check", "--no-cache"], {"cwd": path, "allow_fail": True}),
        ("python3 json.load of every file", ["python3", "-c", py], {"cwd": path, "stdin": listing}),
    ], runs=3, note=f"{COPIES:,} overlapping copies")
    peak = max(r[4] for r in b.rows if r[0] == "check with bad data" and r[1].startswith("ledger"))
    print(f"  peak memory of ledger check: {peak:.1f} MiB (target ≤ 64 MiB){'  ok' if peak <= 64 else '  OVER TARGET'}", flush=True)
