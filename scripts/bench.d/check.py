"""`ledger check` against python's json.load and jq over the same files, and a revalidation
after one hand edit against `git status` on the same repository (issue: check ≤ 1.0× python;
revalidation ≤ 1.0× git status; peak memory flat from scale 1 to scale 10)."""
import os


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
        ], runs=7, setup=save_again, target=1.0)
