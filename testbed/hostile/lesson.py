"""The lesson the hostile corpus hands in (01), its points, the limits it is graded with, and its notebooks: the
release with the reference's answers, some cells replaced or edited."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat

from grader.course import Course
from grader.proof import simulate

COURSE = Course(Path(__file__).resolve().parent.parent.parent)  # this repository's course

LESSON = "01_naive_division"
FULL, DISTRIBUTION_ONLY = 12.0, 5.0  # the functions' tests (no predictions: see reference()); is_distribution's
NORMALIZE_ONLY = FULL - DISTRIBUTION_ONLY  # the naive_normalize tests alone, which come first
# what the corpus is graded with: seconds per cell, megabytes per kernel. Filling memory costs 0.5 to 3 s of CPU
# per GB here (fresh pages of this virtual machine are slow), and a kernel of a batch graded beside the rest
# of the suite gets a quarter of a core or less: at 512 MB the memory kinds reach their limit well within 8 s.
# (At 5 s, which saved 8 CPU-s of the kinds that spin, two memory kinds timed out in a fresh clone's first run.)
TIMEOUT, MEMORY_MB = 8, 512
# what commands run with: nbgrader shells out to the venv's alembic
ENV = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}"}


def released_course(root: Path) -> Path:
    """A course directory with lesson 01 released into its gradebook and no submissions yet."""
    return simulate.released_course(COURSE, root, [LESSON])


def submit(root: Path, student: str, data: bytes, beside=()) -> None:
    """Put a student's file of lesson 01 (and what they handed in beside it) where nbgrader's autograde looks."""
    simulate.hand_in(root, student, LESSON, data, beside)


def reference() -> dict[str, str]:
    """The reference's functions, its guesses left unwritten: the corpus is about what code does, so every kind's
    predictions earn nothing, and each kind's score is that of its graded functions alone."""
    guesses = set(COURSE.predictions(LESSON).values())
    return {cell: answer for cell, answer in COURSE.reference_answers(LESSON).items() if cell not in guesses}


def notebook(replace: dict[str, str] | None = None, edit=None) -> bytes:
    """The release with reference answers, some solution cells replaced, then edited by `edit(nb)`."""
    nb = COURSE.learner_notebook(LESSON, {**reference(), **(replace or {})})
    if edit:
        edit(nb)
    return nbformat.writes(nb).encode()


def stub() -> bytes:
    return nbformat.writes(COURSE.learner_notebook(LESSON, {})).encode()
