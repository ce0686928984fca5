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

import nbformat
from nbgrader.api import Gradebook

from grader.course import Course, text_source_in
from grader.course.release import release
from grader.learner import hints

COURSE = Course(Path(__file__).resolve().parent.parent)  # this repository's course


def simulated_class(students: int, lessons: list[str]) -> dict[tuple[str, str], nbformat.NotebookNode]:
    """Every student's notebook per lesson: a third correct, a third stubs, a third with one misconception."""
    class_ = {}
    for number in range(students):
        student = f"s{number + 1:02d}"
        for lesson in lessons:
            answers = COURSE.reference_answers(lesson)
            if number % 3 == 1:
                answers = {}
            elif number % 3 == 2:
                wrong = hints.misconceptions(lesson=lesson)
                entry = wrong[number % len(wrong)]
                answers[entry.function] = entry.source
            class_[student, lesson] = COURSE.learner_notebook(lesson, answers)
    return class_


def make_course(root: Path, lessons: list[str], class_) -> None:
    """A course directory with the lessons released into its gradebook and the class's submissions in place."""
    root.mkdir(parents=True)
    shutil.copy(COURSE.root / "nbgrader_config.py", root)  # roots itself where it lies
    for lesson in lessons:
        text_source_in(root, lesson).parent.mkdir(parents=True)
        shutil.copy(COURSE.text_source(lesson), text_source_in(root, lesson))
    release(Course(root), lessons, progress=lambda _: None)
    for (student, lesson), nb in class_.items():
        path = root / ".grading" / "submitted" / student / lesson / f"{lesson}.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(nb, path)


def scores(root: Path, lessons: list[str]) -> dict[tuple[str, str, str], float]:
    """(student, lesson, cell) -> score, from the course's gradebook."""
    with Gradebook(Course(root).nbgrader_config().CourseDirectory.db_url) as gb:
        return {(sub.student.id, lesson, grade.name): float(grade.score)
                for lesson in lessons for sub in gb.find_assignment(lesson).submissions
                for nb in sub.notebooks for grade in nb.grades}


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
    class_ = simulated_class(args.students, args.lessons)
    with tempfile.TemporaryDirectory(prefix="softmax-bench-") as tmp:
        plain, ours = Path(tmp) / "plain", Path(tmp) / "ours"
        make_course(plain, args.lessons, class_)
        shutil.copytree(plain, ours)
        print(f"{len(class_)} submissions ({args.students} students x {len(args.lessons)} lessons) on "
              f"{os.cpu_count()} cores", flush=True)
        baseline = sum(timed([sys.executable, "-m", "nbgrader", "autograde", lesson], plain)
                       for lesson in args.lessons)
        print(f"plain nbgrader autograde (one command per lesson): {baseline:6.1f} s", flush=True)
        jobs = ["--jobs", str(args.jobs)] if args.jobs else []
        ours_time = timed([sys.executable, "-m", "grader", "--course", str(ours), "grade", *jobs], ours)
        print(f"python -m grader grade:                            {ours_time:6.1f} s", flush=True)
        expected, got = scores(plain, args.lessons), scores(ours, args.lessons)
        if expected != got or not expected:
            differ = sorted(k for k in expected.keys() | got.keys() if expected.get(k) != got.get(k))
            print(f"SCORES DIFFER on {len(differ)} cells, e.g. {differ[:5]}")
            return 1
        print(f"identical scores on all {len(expected)} graded cells; speed-up {baseline / ours_time:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
