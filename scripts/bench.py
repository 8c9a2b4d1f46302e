#!/usr/bin/env python3
"""make bench: ledger against git, jq and python on a generated ledger.

Usage: bench.py BIN_DIR SCALE

Generates (once, under bench-data/) a seeded ledger of ten years of heavy use at scale 1 and,
when SCALE is 10, a hundred years of the same life (ten times the history), each committed in a git repository; then runs every plug-in
in scripts/bench.d/*.py. A plug-in defines `run(bench)` and uses the Bench methods below.
Timings are taken in one run, interleaved, so ratios compare like with like on a shared,
noisy machine; peak memory is each process's own maximum resident set (wait4).
"""
import hashlib
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Bench:
    def __init__(self, bin_dir, scale):
        self.bin_dir = os.path.abspath(bin_dir)
        self.ledger = os.path.join(self.bin_dir, "ledger")
        self.scales = [1] + ([scale] if scale != 1 else [])
        self.data_dir = os.path.join(ROOT, "bench-data")
        self.rows = []
        self.env = dict(os.environ, PATH=self.bin_dir + ":" + os.environ.get("PATH", ""), NO_COLOR="1",
                        LEDGER_NOW="2026-11-21T22:30:00+01:00", TZ="Europe/Paris",
                        GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com",
                        GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.com")

    # -- data -------------------------------------------------------------------------------
    def data(self, scale):
        """The path of the generated ledger at `scale` (a committed git repository)."""
        path = os.path.join(self.data_dir, f"ledger-x{scale}")
        stamp = os.path.join(self.data_dir, f"ledger-x{scale}.done")
        # Regenerated when the generator's sources change (not at every rebuild of the library
        # it links: remove bench-data/ after a change to the document format).
        sources = os.path.join(ROOT, "Sources", "ledger-bench")
        digest = hashlib.sha256()
        for name in sorted(os.listdir(sources)):
            with open(os.path.join(sources, name), "rb") as f:
                digest.update(name.encode() + b"\0" + f.read())
        made_by = digest.hexdigest()
        if os.path.exists(stamp) and open(stamp).read() == made_by:
            return path
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(self.data_dir, exist_ok=True)
        print(f"generating the benchmark ledger at scale {scale} in {path} (once)…", flush=True)
        subprocess.run([os.path.join(self.bin_dir, "ledger-bench"), "generate", path, "--scale", str(scale), "--seed", "42"],
                       check=True, env=self.env)
        subprocess.run(["git", "init", "-q", "-b", "main", path], check=True, env=self.env)
        for f in (".gitattributes", ".gitignore"):
            src = os.path.join(ROOT, "sample-data", f)
            if os.path.exists(src):
                shutil.copy(src, os.path.join(path, f))
        # No background `git gc --auto` after the commit: it would pack 10× the objects while
        # the benchmarks run (and while the sync benchmark clones the repository).
        subprocess.run(["git", "-C", path, "config", "gc.auto", "0"], check=True)
        subprocess.run(["git", "-C", path, "add", "-A"], check=True, env=self.env)
        subprocess.run(["git", "-C", path, "commit", "-q", "-m", "benchmark ledger"], check=True, env=self.env)
        subprocess.run(["git", "-C", path, "config", "merge.ledger.driver", "ledger merge-driver %O %A %B %P"], check=True)
        with open(stamp, "w") as f:
            f.write(made_by)  # regenerated whenever the generator changes
        return path

    def files(self, scale):
        """Every document path (relative) of the generated ledger."""
        out = subprocess.run(["git", "-C", self.data(scale), "ls-files", "*.json"], capture_output=True, text=True, check=True)
        return out.stdout.split()

    # -- measuring --------------------------------------------------------------------------
    def run_once(self, cmd, cwd=None, env=None, stdin=None, shell=False, memory=True):
        """Runs a command; returns (seconds, peak RSS in MiB, exit status, CPU seconds).

        With `memory`, the command runs under GNU time, whose report is the command's own peak
        resident set (a child forked from this Python process would otherwise inherit
        Python's), and the CPU time is time's and the command's; without, it runs alone, its
        CPU time (user + system, from wait4) is its own and its peak RSS is not known (0)."""
        if shell:
            cmd = ["/bin/sh", "-c", cmd]
        with tempfile.NamedTemporaryFile(mode="r") as report:
            prefix = ["/usr/bin/time", "-q", "-f", "%M", "-o", report.name] if memory else []
            start = time.perf_counter()
            p = subprocess.Popen(prefix + list(cmd), cwd=cwd,
                                 env=env or self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 stdin=subprocess.PIPE if stdin else subprocess.DEVNULL)
            if stdin:
                p.stdin.write(stdin)
                p.stdin.close()
            _, raw, usage = os.wait4(p.pid, 0)
            elapsed = time.perf_counter() - start
            p.returncode = status = os.waitstatus_to_exitcode(raw)
            lines = report.read().split()
            peak_kib = float(lines[-1]) if memory and lines and lines[-1].isdigit() else 0.0
        return elapsed, peak_kib / 1024.0, status, usage.ru_utime + usage.ru_stime

    def compare(self, name, candidates, runs=5, setup=None, target=None, note=""):
        """Times each (label, cmd, kwargs) in `candidates`, interleaved `runs` times (after
        `setup()` each round when given). The first candidate is ledger; the ratio is its
        median over each other's. `target` is the ratio it should stay under (for the report):
        one for every other candidate, or a dict of them by label (the others have none); a
        candidate's kwargs may hold its own ("target": 1.1, or None for none).

        The first round is not timed: it measures each candidate's peak memory (under GNU
        time); the timed rounds run the commands alone, recording their wall-clock and CPU
        times (the CPU time of a process is little changed by other processes competing for
        the cores, which the wall-clock time is: both are reported)."""
        times = {label: [] for label, _, _ in candidates}
        cpu = {label: [] for label, _, _ in candidates}
        rss = {label: 0.0 for label, _, _ in candidates}
        # The untimed round also lets freshly written data be flushed to disk, and pays for
        # the page cache of each file's first reader, for every candidate alike.
        for round in range(runs + 1):
            for label, cmd, kw in candidates:
                if setup:
                    setup()
                args = {k: v for k, v in kw.items() if k not in ("allow_fail", "target")}
                t, m, status, c = self.run_once(cmd, memory=round == 0, **args)
                if status != 0 and not kw.get("allow_fail"):
                    raise SystemExit(f"{name}: `{label}` exited {status}")
                if round == 0:
                    rss[label] = m
                    continue
                times[label].append(t)
                cpu[label].append(c)
        first = candidates[0][0]
        med = {k: statistics.median(v) for k, v in times.items()}
        mins = {k: min(v) for k, v in times.items()}
        cpu_med = {k: statistics.median(v) for k, v in cpu.items()}
        for label, _, kw in candidates:
            ratio = med[first] / med[label] if label != first else None
            cpu_ratio = cpu_med[first] / cpu_med[label] if label != first and cpu_med[label] > 0 else None
            default = target.get(label) if isinstance(target, dict) else target
            goal = kw.get("target", default) if ratio is not None else None
            self.rows.append((name, label, med[label], mins[label], rss[label], ratio, goal, note, cpu_med[label], cpu_ratio))
        self.print_rows(name)
        return med

    def record(self, name, label, seconds, rss=0.0, ratio=None, target=None, note=""):
        self.rows.append((name, label, seconds, seconds, rss, ratio, target, note))

    def print_rows(self, name):
        for r in self.rows:
            if r[0] != name:
                continue
            _, label, med, mn, rss, ratio, target, note = r[:8]
            cpu, cpu_ratio = r[8:] if len(r) > 8 else (None, None)
            line = f"  {label:<44} median {med*1000:9.1f} ms  min {mn*1000:9.1f} ms"
            if cpu is not None:
                line += f"  cpu {cpu*1000:8.1f} ms"
            line += f"  peak {rss:7.1f} MiB"
            if ratio is not None:
                verdict = "" if target is None else ("  ok" if ratio <= target else "  OVER TARGET")
                line += f"  ledger/this = {ratio:5.2f}x" + (f" (cpu {cpu_ratio:4.2f}x)" if cpu_ratio else "") + (f" (target ≤ {target}x){verdict}" if target else "")
            print(line, flush=True)

    @staticmethod
    def rss_mib(pid):
        """A running process's resident memory (VmRSS), in MiB."""
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        return int(fields["VmRSS"].split()[0]) / 1024.0

    @staticmethod
    def cpu_seconds(pid):
        """A running process's CPU time so far (utime + stime), in seconds."""
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def resident_day(self, p, rate, began):
        """A resident process's (RSS MiB, CPU seconds) at 1 and at 24 hours of its simulated
        clock (`LEDGER_CLOCK_RATE` = rate, started at `began`, `time.monotonic()`), then stops it."""
        samples = []
        for hours in (1, 24):
            time.sleep(max(0.0, began + hours * 3600 / rate - time.monotonic()))
            samples.append((self.rss_mib(p.pid), self.cpu_seconds(p.pid)))
        p.terminate()
        p.wait(timeout=30)
        return samples

    def section(self, title):
        print(f"\n== {title}", flush=True)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    bench = Bench(sys.argv[1], int(sys.argv[2]))
    plugins = sorted(f for f in os.listdir(os.path.join(ROOT, "scripts", "bench.d")) if f.endswith(".py"))
    only = [w for w in os.environ.get("BENCH_ONLY", "").split(",") if w]  # e.g. BENCH_ONLY=check,sync
    for f in plugins:
        if only and not any(w in f for w in only):
            continue
        spec = importlib.util.spec_from_file_location(f[:-3], os.path.join(ROOT, "scripts", "bench.d", f))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mod.run(bench)
    print("\nAll figures from this one run; ratios are ledger's median time over the other tool's.")


if __name__ == "__main__":
    main()
