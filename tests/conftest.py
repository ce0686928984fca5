"""Shared helpers: learner notebooks built from the release, graded by real nbgrader."""
from __future__ import annotations

import concurrent.futures
import fcntl
import os
from pathlib import Path

import nbformat
import pytest
from hypothesis import settings

from grader.course import Course
from grader.engine.sandbox import grade_notebook
from grader.engine.scores import Report

# Kernels run beside the property tests, so time per example means nothing; in CI, the same
# examples every run.
settings.register_profile("course", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "course")


COURSE = Course(Path(__file__).resolve().parent.parent)  # this repository's course
solution_sources = COURSE.reference_answers
learner_notebook = COURSE.learner_notebook


@pytest.fixture
def grade(tmp_path):
    """Grade a notebook object with the lesson's full tests; return the Report."""
    def _grade(nb: nbformat.NotebookNode, name: str = "submission.ipynb") -> Report:
        path = tmp_path / name
        nbformat.write(nb, path)
        return grade_notebook(COURSE, path)
    return _grade


def once_per_run(tmp_path_factory, name: str, build) -> Path:
    """A folder that `build(folder)` fills once per test run, shared by every xdist worker.

    The first worker to ask builds it while holding a lock; the others wait for it and
    reuse the result, so expensive grading is not repeated on each worker.
    """
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    folder = base / name
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".built").exists():
            folder.mkdir(exist_ok=True)
            build(folder)
            (folder / ".built").touch()
    return folder


def run_apart(function, *args):
    """Call `function(*args)` in a thread of its own and return its result.

    A worker that has run the browser tests keeps Playwright's event loop running in its
    main thread; asyncio.run and nbclient need a thread without one."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function, *args).result()
