"""How long a learner waits for `python -m grader check` on one lesson notebook, against its targets.

The notebook is the lesson's release with the reference answers filled in, as a learner's
finished work; the course is a copy of this one with nothing cached, so the first check builds
the lesson's gradebook (as the first check of a new lesson version does) and the later ones
find it. Each check is a fresh process, as when a learner runs it; the figures are wall time
(what the learner waits) and the CPU time of the check and its kernel.

    .venv/bin/python benchmarks/check.py [--lesson 01_naive_division] [--runs 7] [--json PATH] [--page [PATH]]
    .venv/bin/python benchmarks/check.py --from-json PATH --page   # the page's passage from a saved run

--page writes the measured figures, with the date and the machine, into the check-time block of
docs/reference/performance.md; --json keeps them, so that --from-json can write the block again
without measuring.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # run as a script: the repository's package and benchmarks/
from benchmarks.autograde import tools_env  # noqa: E402
from benchmarks.figures import REFERENCE, add_figures_options, figures_of  # noqa: E402
from grader.course import SOLUTIONS, Course  # noqa: E402
from grader.proof import pages  # noqa: E402

COURSE = Course(REPOSITORY)  # this repository's course
PAGE = REFERENCE / "performance.md"
WARM_TARGET = 1.5  # seconds, issue 20: a check once the lesson's gradebook is cached
FIRST_TARGET = 3.0  # seconds: the first check of a new lesson version, which builds the gradebook
BEGIN, END = pages.markers("check time", "benchmarks/check.py --page")


def children_cpu() -> float:
    """User and system seconds of every child process that has ended so far (kernels included)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_check(course: Path, notebook: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one `python -m grader check` in a fresh process; fails loudly if it fails."""
    cpu, start = children_cpu(), time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "grader", "--course", str(course), "check", str(notebook), "--json"],
        env=tools_env(),
        cwd=COURSE.root,  # so that `python -m grader` is this checkout's
        capture_output=True,
        text=True,
    )
    wall = time.monotonic() - start
    if run.returncode != 0:
        raise SystemExit(f"check failed ({run.returncode}): {run.stderr.strip()[-2000:]}")
    return wall, children_cpu() - cpu


def course_copy(root: Path) -> Course:
    """A copy of this course's settings and lessons at `root`, with no .grading/ (nothing cached)."""
    root.mkdir()
    shutil.copy(COURSE.root / "nbgrader_config.py", root)
    shutil.copytree(COURSE.root / SOLUTIONS, root / SOLUTIONS)
    return Course(root)


def verdict(seconds: float, target: float) -> str:
    return f"{'meets' if seconds <= target else 'MISSES'} the {target:g} s target ({seconds / target:.2f}x of it)"


def summary(figures: dict) -> str:
    """The page's sentence on check time, from a run's figures (as `measure` returns them)."""
    warm = figures["warm_s"]
    return (
        f"Measured by `benchmarks/check.py` on {pages.measured_on(figures['date'], figures['machine'])}. "
        f"`grader check` of a finished "
        f"`{figures['lesson']}` takes {statistics.median(warm):.1f} s (median of {len(warm)} runs, {min(warm):.1f} "
        f"to {max(warm):.1f} s; {statistics.median(figures['warm_cpu_s']):.1f} s of CPU) and "
        f"{figures['first_s']:.1f} s the first time a lesson version is checked, while it caches the lesson's "
        "gradebook."
    )


def measure(lesson: str, runs: int) -> dict:
    """Time the first check and `runs` warm ones of a finished `lesson`, printing each; the figures for JSON."""
    import nbformat  # here, after grader (imported above), which makes it cheaper; --from-json needs it not

    figures = {"date": pages.now(), "machine": pages.this_machine(), "lesson": lesson}
    with tempfile.TemporaryDirectory(prefix="softmax-check-bench-") as tmp:
        course = course_copy(Path(tmp) / "course")
        notebook = Path(tmp) / f"{lesson}.ipynb"
        nbformat.write(COURSE.learner_notebook(lesson, COURSE.reference_answers(lesson)), notebook)
        load = figures["machine"]["load_average_at_start"]
        print(f"grader check of a finished {lesson} on {os.cpu_count()} cores (load average {load:.1f})")
        first, first_cpu = timed_check(course.root, notebook)
        cached = ", ".join(sorted(p.name for p in course.cache.glob(f"{lesson}-*.db"))) or "NOTHING"
        print(f"first check (caches the gradebook: {cached}): {first:5.2f} s, CPU {first_cpu:.2f} s")
        timed = [timed_check(course.root, notebook) for _ in range(runs)]
    figures.update(first_s=first, first_cpu_s=first_cpu, warm_s=[w for w, _ in timed], warm_cpu_s=[c for _, c in timed])
    return figures


def report(figures: dict) -> None:
    """Print the warm checks and how the run compares with its targets."""
    warm, cpu = figures["warm_s"], figures["warm_cpu_s"]
    print("warm checks:", " ".join(f"{wall:.2f}" for wall in warm), "s")
    median = statistics.median(warm)
    print(
        f"warm: median {median:.2f} s, {min(warm):.2f} to {max(warm):.2f} s over {len(warm)} runs; "
        f"CPU median {statistics.median(cpu):.2f} s"
    )
    print(f"first check: {verdict(figures['first_s'], FIRST_TARGET)}")
    print(f"warm check:  {verdict(median, WARM_TARGET)}")
    load = figures["machine"]["load_average_at_start"]
    if load > 1.0:
        print(f"note: the load average was {load:.1f} when it started: other work shared the cores")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", default="01_naive_division", choices=COURSE.lesson_ids())
    parser.add_argument("--runs", type=int, default=7, help="warm checks after the first (default: %(default)s)")
    add_figures_options(parser, PAGE)
    args = parser.parse_args(argv)
    figures = figures_of(args, lambda: measure(args.lesson, args.runs))
    report(figures)
    line = summary(figures)
    if args.page:
        pages.write_block(args.page, BEGIN, END, line)
        print(f"{args.page} updated:", re.sub(r"\s+", " ", line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
