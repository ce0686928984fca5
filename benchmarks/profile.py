"""Where the wall time of grading one submission goes: kernel ready, learner cells, test cells, nbgrader's steps.

It grades one notebook of a lesson (the reference answers, a stub or a catalogued mistake) with the
engine's entry point, as a worker of `grader grade` does, with timers wrapped around the parts of the
work, and prints the median of each part over several gradings (the first, which warms caches and
starts the kernel zygote, is left out), its share of the wall time, and the CPU seconds of the grading
process and of everything (its kernels included, when cgroup v1's cpuacct is there).

    .venv/bin/python benchmarks/profile.py [--lesson 06_masking] [--answers reference|stub|mistake] [--runs 5]
"""

from __future__ import annotations

import asyncio
import functools
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from grader.commandline import OneLineParser, positive
from grader.course import Course
from grader.engine import grade, sandbox, testrunner, warmkernel
from grader.proof import catalogue

if TYPE_CHECKING:
    import nbformat

COURSE = Course(Path(__file__).resolve().parent.parent)  # this repository's course
CPU_GROUP = Path("/sys/fs/cgroup/cpuacct")
spent: dict[str, float] = defaultdict(float)  # part -> seconds in the grading being timed


def timed(owner, name: str, part: str) -> None:
    """Add the wall time of every call of owner.name (a function or a coroutine function) to spent[part]."""
    original = getattr(owner, name)
    if asyncio.iscoroutinefunction(original):

        async def wrapper(*args, **kwargs):
            start = time.monotonic()
            try:
                return await original(*args, **kwargs)
            finally:
                spent[part] += time.monotonic() - start
    else:

        def wrapper(*args, **kwargs):
            start = time.monotonic()
            try:
                return original(*args, **kwargs)
            finally:
                spent[part] += time.monotonic() - start

    setattr(owner, name, functools.wraps(original)(wrapper))


def instrument() -> None:
    """Timers around the parts of one grading (each is counted once: none of them calls another)."""
    timed(grade.metadata, "restore", "reading the submission and restoring its metadata")
    timed(grade.suspicious, "reasons", "inspecting its code")
    timed(grade.status_, "tampering", "inspecting its code")
    for step in sandbox.SANITIZE_STEPS:
        timed(step, "preprocess", "nbgrader's sanitizing steps (restoring the tests)")
    for step in sandbox.AUTOGRADE_STEPS[1:]:
        timed(step, "preprocess", "nbgrader's steps after execution")
    # nbclient's setup_kernel calls the synchronous forms, bound when its class was made
    timed(testrunner.TestsOutsideKernel, "start_new_kernel", "kernel: starting (fork, isolation)")
    timed(testrunner.TestsOutsideKernel, "start_new_kernel_client", "kernel: until ready")
    timed(testrunner.TestsOutsideKernel, "_run_learner_cell", "learner's cells, in the kernel")
    timed(testrunner.TestsOutsideKernel, "_run_test_cell", "test cells, here (calls into the kernel)")
    timed(testrunner.TestsOutsideKernel, "_cleanup_kernel", "kernel: stopping")
    timed(sandbox.nbformat.validator, "normalize", "validating and writing the notebook")
    timed(sandbox.nbformat, "validate", "validating and writing the notebook")
    timed(sandbox.nbformat.v4, "writes", "validating and writing the notebook")
    timed(sandbox, "report_of", "reading scores and messages")
    timed(sandbox, "scores_of", "reading scores and messages")
    timed(grade.status_, "execution_problems", "reading scores and messages")


def notebook(lesson: str, answers: str) -> nbformat.NotebookNode:
    if answers == "reference":
        return COURSE.learner_notebook(lesson, COURSE.reference_answers(lesson))
    if answers == "stub":
        return COURSE.learner_notebook(lesson, {})
    mistake = catalogue.misconceptions(lesson=lesson)[0]
    return COURSE.learner_notebook(lesson, {**COURSE.reference_answers(lesson), mistake.function: mistake.source})


def all_cpu_seconds() -> float | None:
    """CPU seconds of this process's cpuacct group (it and the kernels it starts), if it has one of its own."""
    usage = CPU_GROUP / "softmax-profile" / "cpuacct.usage"
    return int(usage.read_text()) / 1e9 if usage.is_file() else None


def own_cpu_group() -> None:
    """Move this process into a cpuacct group of its own, so that its kernels' CPU is counted too (as root)."""
    group = CPU_GROUP / "softmax-profile"
    try:
        group.mkdir(exist_ok=True)
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:
        pass  # not root, or no cgroup v1: only this process's CPU is shown


def main(argv=None) -> int:
    parser = OneLineParser(prog="benchmarks/profile.py", description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", default="06_masking", choices=COURSE.lesson_ids())
    parser.add_argument("--answers", default="reference", choices=["reference", "stub", "mistake"])
    parser.add_argument("--runs", type=positive, default=5)
    args = parser.parse_args(argv)
    own_cpu_group()
    import nbformat  # after grader's own import (above), which makes it about a second cheaper (grader/__init__.py)

    data = nbformat.writes(notebook(args.lesson, args.answers)).encode()
    instrument()
    warmkernel.start_zygote()
    rows: dict[str, list[float]] = defaultdict(list)
    for run in range(args.runs + 1):
        spent.clear()
        wall, cpu, everything = time.monotonic(), time.process_time(), all_cpu_seconds()
        outcome = grade.grade_submission(str(COURSE.root), args.lesson, data, None, [])
        spent["wall time"] = time.monotonic() - wall
        spent["CPU, this process"] = time.process_time() - cpu
        if everything is not None:
            spent["CPU, with its kernels"] = (all_cpu_seconds() or 0.0) - everything
        if run:  # the first warms the caches
            for part, seconds in spent.items():
                rows[part].append(seconds)
        print(f"grading {run}/{args.runs}: {spent['wall time']:.2f} s, status {outcome['status']}", file=sys.stderr)
    wall = statistics.median(rows.pop("wall time"))
    totals = {part: rows.pop(part) for part in ("CPU, this process", "CPU, with its kernels") if part in rows}
    print(f"One submission of {args.lesson} ({args.answers} answers), median of {args.runs} gradings")
    print(f"{'part':52s} {'seconds':>8s} {'share':>6s}")
    for part, seconds in sorted(rows.items(), key=lambda item: -statistics.median(item[1])):
        print(f"{part:52s} {statistics.median(seconds):8.3f} {statistics.median(seconds) / wall:6.0%}")
    accounted = sum(statistics.median(seconds) for seconds in rows.values())
    print(f"{'the rest (between the parts)':52s} {wall - accounted:8.3f} {(wall - accounted) / wall:6.0%}")
    print(f"{'wall time':52s} {wall:8.3f}")
    for part, seconds in totals.items():
        print(f"{part:52s} {statistics.median(seconds):8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
