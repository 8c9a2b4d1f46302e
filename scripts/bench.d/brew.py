"""BrewGuide: listing brew logs (all, and the most recent) and planning a brew. Validating
brew/ is `ledger check`'s (a check reads every document for cross-document references:
see check.py)."""


def run(bench):
    for scale in bench.scales:
        path = bench.data(scale)
        files = [f for f in bench.files(scale) if f.startswith("brew/")]
        logs = [f for f in files if f.startswith("brew/logs/")]
        ledger = [bench.ledger, "--repo", path]
        bench.section(f"brew, scale {scale}: {len(logs):,} brew logs")
        # Every log, in order, as JSON: read, validate and sort them all.
        load_all = ("import json,sys\nlogs=[json.load(open(f)) for f in sys.stdin.read().split()]\n"
                    "logs.sort(key=lambda l:(l['timestamp'],l['id']))\njson.dump(logs,sys.stdout)\n")
        bench.compare(f"brew logs --json x{scale}", [
            ("ledger brew logs --json", ledger + ["brew", "logs", "--json"], {}),
            ("python3: load, sort, dump every log", ["python3", "-c", load_all], {"cwd": path, "stdin": "\n".join(logs).encode()}),
        ], runs=3 if scale > 1 else 5, target=2.0)
        # The ten most recent: ledger reads only the newest year's folder.
        newest = max(f.split("/")[2] for f in logs)
        recent = [f for f in logs if f.split("/")[2] == newest]
        last_ten = ("import json,sys\nlogs=[json.load(open(f)) for f in sys.stdin.read().split()]\n"
                    "logs.sort(key=lambda l:(l['timestamp'],l['id']))\nprint(logs[-10:])\n")
        bench.compare(f"brew logs --limit 10 x{scale}", [
            ("ledger brew logs --limit 10", ledger + ["brew", "logs", "--limit", "10"], {}),
            ("python3: the newest year's logs, last 10", ["python3", "-c", last_ten], {"cwd": path, "stdin": "\n".join(recent).encode()}),
        ], runs=5, note="reads one year, whatever the history")
        # The confirm-inputs screen: constant in the size of the history.
        bench.compare(f"brew plan x{scale}", [
            ("ledger brew plan --json", ledger + ["brew", "plan", "--json"], {}),
            ("python3: read the preferences", ["python3", "-c", "import json; json.load(open('brew/preferences.json'))"], {"cwd": path}),
        ], runs=9, note="constant in the size of the history")
