"""Plain `nbgrader autograde` against `python -m grader grade`, on the same submissions, side by side.

Both grade a copy of one simulated class (reference answers, stubs and catalogued
misconceptions); the benchmark checks that every cell of every submission gets the same
score in both gradebooks, then prints both times and the ratio.

    .venv/bin/python benchmarks/autograde.py [--students 24] [--lessons 01_naive_division 06_masking] [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from grader.course import Course
from grader.proof.simulate import cell_scores, class_in_thirds, course_with_class

COURSE = Course(Path(__file__).resolve().parent.parent)  # this repository's course


def timed(command: list[str], cwd: Path) -> float:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    start = time.monotonic()
    subprocess.run(command, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=24)
    parser.add_argument("--lessons", nargs="+", default=["01_naive_division", "06_masking"])
    parser.add_argument("--jobs", type=int, help="grader grade --jobs (default: its own)")
    args = parser.parse_args(argv)
    class_ = class_in_thirds(COURSE, args.students, args.lessons)
    with tempfile.TemporaryDirectory(prefix="softmax-bench-") as tmp:
        plain, ours = Path(tmp) / "plain", Path(tmp) / "ours"
        course_with_class(COURSE, plain, args.lessons, class_)
        shutil.copytree(plain, ours)
        print(
            f"{len(class_)} submissions ({args.students} students x {len(args.lessons)} lessons) on "
            f"{os.cpu_count()} cores",
            flush=True,
        )
        baseline = sum(timed([sys.executable, "-m", "nbgrader", "autograde", lesson], plain) for lesson in args.lessons)
        print(f"plain nbgrader autograde (one command per lesson): {baseline:6.1f} s", flush=True)
        jobs = ["--jobs", str(args.jobs)] if args.jobs else []
        ours_time = timed([sys.executable, "-m", "grader", "--course", str(ours), "grade", *jobs], ours)
        print(f"python -m grader grade:                            {ours_time:6.1f} s", flush=True)
        expected, got = cell_scores(Course(plain), args.lessons), cell_scores(Course(ours), args.lessons)
        if expected != got or not expected:
            differ = sorted(k for k in expected.keys() | got.keys() if expected.get(k) != got.get(k))
            print(f"SCORES DIFFER on {len(differ)} cells, e.g. {differ[:5]}")
            return 1
        print(f"identical scores on all {len(expected)} graded cells; speed-up {baseline / ours_time:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
