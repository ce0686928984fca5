"""The course as the site shows it: each lesson's release executed as a learner's lab runs it, into docs/course/.

The release is what a learner is handed: no solutions, no hidden tests, no outputs. It runs from a temporary folder
(nothing is written into notebooks/), in a kernel told a person types into it (`allow_stdin`, as JupyterLab says),
so each cell that needs an exercise still unwritten shows the one line the learner sees there
(grader/learner/stubs.py) instead of a traceback. docs/conf.py runs this at every build; its copies are git-ignored.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from grader.course import Course

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent
CELL_TIMEOUT = 120  # seconds a cell may run: the slowest cell of a lesson takes a few


def execute_as_a_learner(release: Path, into: Path) -> None:
    """Run `release` cell by cell, as a learner who has written nothing yet would, and write it with its outputs."""
    notebook = nbformat.read(release, as_version=4)
    with tempfile.TemporaryDirectory(prefix="site-") as folder:
        client = NotebookClient(
            notebook,
            timeout=CELL_TIMEOUT,
            allow_errors=True,  # an unwritten exercise's check fails, and the cells after it run on
            resources={"metadata": {"path": folder}},
            store_widget_state=False,  # the page shows the slider's picture, not a live widget
        )
        client.km = client.create_kernel_manager()
        client.km.transport_encryption = "auto"  # as make lab's kernels: no warning that it runs unencrypted
        # nbclient says no person is there; say one is, as JupyterLab does (no lesson asks for input)
        client.on_notebook_start = lambda notebook: setattr(client.kc, "allow_stdin", True)
        client.execute()
    nbformat.write(notebook, into)


def write_course(course: Course, into: Path) -> list[Path]:
    """Every lesson's release executed into `into` (one notebook per lesson, named by its id)."""
    into.mkdir(parents=True, exist_ok=True)
    written = []
    for lesson in course.lesson_ids():
        page = into / f"{lesson}.ipynb"
        started = time.perf_counter()
        execute_as_a_learner(course.release_notebook(lesson), page)
        print(f"course page {page.name}: executed in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        written.append(page)
    return written


if __name__ == "__main__":
    write_course(Course(REPOSITORY), HERE / "course")
