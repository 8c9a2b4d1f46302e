"""DotLife Moments: the views read only the month shards they show.

Each view is timed against python doing the same work on the same files (json.load of the
shards the view covers, counting by the recorded wall-clock day or hour), and against python
reading every experience of the ledger, which is what the views avoid.
"""
import os

SHARDS = r'''
import json, os, sys
root, year, months = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
counts = {}
for m in months:
    d = os.path.join(root, "moments/experiences", year, m)
    for name in os.listdir(d) if os.path.isdir(d) else []:
        with open(os.path.join(d, name), "rb") as f:
            key = json.load(f)["timestamp"][:13 if len(months) == 1 else 10]
        counts[key] = counts.get(key, 0) + 1
print(json.dumps(counts))
'''

EVERYTHING = r'''
import json, os, sys
n = 0
for dirpath, _, names in os.walk(os.path.join(sys.argv[1], "moments/experiences")):
    for name in names:
        with open(os.path.join(dirpath, name), "rb") as f:
            json.load(f)
        n += 1
print(n)
'''


def run(bench):
    for scale in bench.scales:
        root = bench.data(scale)
        env = dict(bench.env, LEDGER_REPO=root)
        total = sum(len(files) for _, _, files in os.walk(os.path.join(root, "moments/experiences")))
        bench.section(f"DotLife Moments at scale {scale} ({total:,} experiences)")
        months = ",".join(f"{m:02d}" for m in range(1, 13))
        views = [
            ("today", ["--date", "2025-06-18"], "06"),
            ("week", ["--date", "2025-06-18"], "06"),
            ("month", ["--date", "2025-06-18"], "06"),
            ("year", ["--date", "2025-06-18"], months),
        ]
        for view, args, shard_months in views:
            bench.compare(f"moments {view} x{scale}", [
                (f"ledger moments {view} --json", [bench.ledger, "moments", view, *args, "--json"], {"env": env}),
                ("python: json.load of the same shards", ["python3", "-c", SHARDS, root, "2025", shard_months], {}),
            ], runs=5, target=1.5 if view == "year" else 3.0,
               note="small views are dominated by process start-up")
        bench.compare(f"moments show x{scale}", [
            ("ledger moments show 2025-W25 --json", [bench.ledger, "moments", "show", "2025-W25", "--json"], {"env": env}),
            ("python: every experience (what views avoid)", ["python3", "-c", EVERYTHING, root], {}),
        ], runs=3)
