"""Live completion: what the shell runs on TAB (argument-parser's `---completion` protocol)
for a preset, a brew log id and a session id, against `git ls-files` listing the same folder
(the least a completion reading the ledger can do). The goal is ≤ 50 ms on the ten-year ledger."""


def run(bench):
    for scale in bench.scales:
        path = bench.data(scale)
        env = dict(bench.env, LEDGER_REPO=path)
        bench.section(f"completion, scale {scale}")
        cases = [
            ("--preset", ["waterline", "drink", "--", "--preset"], "waterline/presets"),
            ("brew log show", ["brew", "log", "show", "--", "positional@0"], "brew/logs"),
            ("waterline summary", ["waterline", "summary", "--", "positional@0"], "waterline/sessions"),
        ]
        for label, words, folder in cases:
            # The words typed: `ledger <subcommand…> [option]` and the empty word being completed.
            typed = ["ledger"] + words[:words.index("--")] + ([words[-1]] if words[-1].startswith("--") else []) + [""]
            command = [bench.ledger, "---completion"] + words + [str(len(typed) - 1), "0"] + typed
            bench.compare(f"complete {label} x{scale}", [
                (f"ledger: complete {label}", command, {"env": dict(env, SAP_SHELL="bash", SAP_SHELL_VERSION="5.2")}),
                (f"git ls-files {folder}", ["git", "-C", path, "ls-files", folder], {}),
            ], runs=9, note="target: ≤ 50 ms")
