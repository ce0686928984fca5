"""How long the suite takes here: `make test` and `make test-fast`, each against its target.

Each command runs as a person runs it, from this repository, with every process it starts
counted (treeusage: a cgroup per command, kernels and browsers included). The figures are the
wall time (what the person waits), the CPU seconds of all its processes, and the count pytest
prints; the venv must be built already (`make venv`), so that no run installs anything. Each run's
whole output stays in the git-ignored artifacts/suite/ (a failed run's message shows only its end).

    .venv/bin/python benchmarks/suite.py [--runs 1] [--json PATH] [--page [PATH]]
    .venv/bin/python benchmarks/suite.py --from-json PATH --page   # the page's passage from a saved run

--page writes the figures, with the date and the machine, into the suite-time block of
docs/reference/performance.md; --json keeps them, so that --from-json can write the block again.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # run as a script: the repository's benchmarks/
from benchmarks import treeusage  # noqa: E402
from benchmarks.figures import REFERENCE, add_figures_options, figures_of  # noqa: E402
from grader.proof import pages  # noqa: E402

PAGE = REFERENCE / "performance.md"
LOGS = REPOSITORY / "artifacts" / "suite"  # each run's whole output, kept (git-ignored): a failed run is read there
# seconds on 2 cores: the whole suite but the proof, and the day-to-day loop
TARGETS = {"make test": 300.0, "make test-fast": 60.0}
BEGIN, END = pages.markers("suite time", "benchmarks/suite.py --page")
PASSED = re.compile(r"(\d+) passed")


def timed(target: str, log: Path) -> dict:
    """One run of `make <target>`: wall and CPU seconds, and how many tests passed; fails loudly if it fails."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    usage = treeusage.run(["make", "--no-print-directory", target], REPOSITORY, env, log)
    passed = PASSED.findall(log.read_text(errors="replace"))
    return {"wall_s": usage.wall_s, "cpu_s": usage.cpu_s, "passed": int(passed[-1]) if passed else 0}


def reference_workload_s(repeats: int = 5) -> float:
    """CPU seconds of one fixed single-core Python workload (the median of `repeats`).

    The same model of core runs at different speeds on different days here (the same code's `make test` has
    taken 4:53 one day and 5:49 the next), and the suite is CPU-bound: this figure, taken beside each
    measurement, tells a slower machine from a slower suite."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        numbers = list(range(200_000))
        for _ in range(5):  # what the suite's Python does most: build, encode and decode data, and sort it
            numbers = sorted(json.loads(json.dumps([n * 7919 % 1_000_003 for n in numbers])), key=str)
        times.append(time.process_time() - start)
    return statistics.median(times)


def measure(runs: int) -> dict:
    """Each command `runs` times, printing each run, the reference workload before and after; the figures for
    JSON."""
    machine = pages.this_machine()
    machine["reference_workload_s"] = {"before": reference_workload_s()}
    print(f"reference workload: {machine['reference_workload_s']['before']:.3f} CPU-s", flush=True)
    figures = {
        "date": pages.now(),
        "machine": machine,
        "measure": treeusage.measure_name(),
        "commands": {},
    }
    LOGS.mkdir(parents=True, exist_ok=True)
    for command in TARGETS:
        done = []
        for number in range(runs):
            log = LOGS / f"{command.split()[-1]}-{number + 1}.log"
            print(
                f"{command} (run {number + 1} of {runs}, its output in {log.relative_to(REPOSITORY)}) ...", flush=True
            )
            done.append(timed(command.split()[-1], log))
            print(f"  {minutes(done[-1]['wall_s'])}, {done[-1]['cpu_s']:.0f} CPU-s, {done[-1]['passed']} passed")
        figures["commands"][command] = done
    machine["reference_workload_s"]["after"] = reference_workload_s()
    print(f"reference workload after: {machine['reference_workload_s']['after']:.3f} CPU-s", flush=True)
    return figures


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}:{round(seconds % 60):02d}" if seconds >= 60 else f"{seconds:.1f} s"


def median(runs: list[dict], key: str) -> float:
    return statistics.median(run[key] for run in runs)


def verdict(command: str, runs: list[dict]) -> str:
    wall, target = median(runs, "wall_s"), TARGETS[command]
    outcome = "meets" if wall <= target else "MISSES"
    return f"{command}: {minutes(wall)} ({outcome} its {minutes(target)} target, {wall / target:.2f}x of it)"


def summary(figures: dict) -> str:
    """The page's passage on the suite's time, from a run's figures (as `measure` returns them)."""
    machine, commands = figures["machine"], figures["commands"]
    said = []
    for command, runs in commands.items():
        walls = [run["wall_s"] for run in runs]
        spread = ""
        if len(runs) > 1:
            spread = f" (median of {len(runs)} runs, {minutes(min(walls))} to {minutes(max(walls))})"
        said.append(
            f"`{command}` takes {minutes(median(runs, 'wall_s'))}{spread} for {runs[-1]['passed']} tests "
            f"({median(runs, 'cpu_s'):.0f} CPU-seconds, every process counted), against a target of "
            f"{minutes(TARGETS[command])}"
        )
    speed = machine.get("reference_workload_s")  # absent from figures saved before it was measured
    core = (
        f"; its fixed Python workload took {speed['before']:.2f} CPU-s before, {speed['after']:.2f} after"
        if speed
        else ""
    )
    return (
        f"Measured by `benchmarks/suite.py` on {figures['date'][:10]}: {machine['cores']} cores ({machine['cpu']}, "
        f"load average {machine['load_average_at_start']:.1f} at the start{core}). " + "; ".join(said) + "."
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each command (default: %(default)s)")
    add_figures_options(parser, PAGE)
    args = parser.parse_args(argv)
    figures = figures_of(args, lambda: measure(args.runs))
    for command, runs in figures["commands"].items():
        print(verdict(command, runs))
    load = figures["machine"]["load_average_at_start"]
    if load > 1.0:
        print(f"note: the load average was {load:.1f} when it started: other work shared the cores")
    if args.page:
        line = summary(figures)
        pages.write_block(args.page, BEGIN, END, line)
        print(f"{args.page} updated:", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
