"""Water Reminder: the every-minute `due` job, `status`, and checking every day document."""
import os


def run(bench):
    for scale in bench.scales:
        path = bench.data(scale)
        days = [f for f in bench.files(scale) if f.startswith("hydrate/days/")]
        ledger = [bench.ledger, "--repo", path]
        today = max(days)  # the most recent day document
        bench.section(f"hydrate, scale {scale}: {len(days):,} day documents")
        # The job cron runs every minute: it must not grow with history.
        bench.compare(f"hydrate due x{scale}", [
            ("ledger hydrate due --json", ledger + ["hydrate", "due", "--json"], {}),
            ("python3: read today's document", ["python3", "-c", f"import json; json.load(open({today!r}))"], {"cwd": path}),
        ], runs=9, note="constant in the size of the history")
        bench.compare(f"hydrate status x{scale}", [
            ("ledger hydrate status --json", ledger + ["hydrate", "status", "--json"], {}),
            ("python3: read today's document", ["python3", "-c", f"import json; print(json.load(open({today!r}))['completed'])"], {"cwd": path}),
        ], runs=9)
        # Validating every day (schema, schedule rules, recomputed totals) against a bare parse.
        script = "import json,sys\nfor f in sys.stdin.read().split():\n    json.load(open(f))\n"
        bench.compare(f"hydrate check x{scale}", [
            ("ledger check --no-cache hydrate", ledger + ["check", "--no-cache", "hydrate"], {"cwd": path}),
            ("python3 json.load every hydrate file", ["python3", "-c", script], {"cwd": path, "stdin": "\n".join(days).encode()}),
        ], runs=3 if scale > 1 else 5, target=2.0)
