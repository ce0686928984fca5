"""The course as the site shows it: each lesson's release executed as a learner's lab runs it, into docs/course/.

The release is what a learner is handed: no solutions, no hidden tests, no outputs. It runs from a temporary folder
(nothing is written into notebooks/), in a kernel told a person types into it (`allow_stdin`, as JupyterLab says),
so each cell that needs an exercise still unwritten shows the one line the learner sees there
(grader/learner/stubs.py) instead of a traceback. docs/conf.py runs this at every build; its copies are git-ignored.
A lesson runs again only when what it runs changed: its release, the package's learner room (all that a lesson
imports of the grader) or this file (`stamp`).
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

import grader
from grader.course import Course

REPOSITORY = Path(grader.__file__).resolve().parent.parent  # the checkout whose course and grader the site shows
LEARNER_ROOM = REPOSITORY / "grader" / "learner"
STAMP = "course_pages_stamp"  # the key, in an executed page's metadata, of the digest of what it was executed from
CELL_TIMEOUT = 120  # seconds a cell may run: the slowest cell of a lesson takes a few


def execute_as_a_learner(release: Path, into: Path, source: str) -> None:
    """Run `release` cell by cell, as a learner who has written nothing yet would, and write it with its outputs
    (and `source`, its stamp)."""
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
    notebook.metadata[STAMP] = source
    nbformat.write(notebook, into)


def stamp(release: Path) -> str:
    """A digest of what executing `release` depends on: the release, the learner room, this file."""
    digest = hashlib.sha256()
    for path in [release, Path(__file__), *sorted(p for p in LEARNER_ROOM.rglob("*") if p.suffix in (".py", ".json"))]:
        digest.update(str(path.relative_to(REPOSITORY) if path.is_relative_to(REPOSITORY) else path.name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def executed_from(page: Path) -> str | None:
    """The stamp an executed page records, or None."""
    try:
        return nbformat.read(page, as_version=4).metadata.get(STAMP)
    except (OSError, ValueError):
        return None


def write_course(course: Course, into: Path) -> list[Path]:
    """Every lesson's release executed into `into` (one notebook per lesson, named by its id), unless unchanged."""
    into.mkdir(parents=True, exist_ok=True)
    written = []
    for lesson in course.lesson_ids():
        page, release = into / f"{lesson}.ipynb", course.release_notebook(lesson)
        source = stamp(release)
        if executed_from(page) != source:
            started = time.perf_counter()
            execute_as_a_learner(release, page, source)
            print(f"course page {page.name}: executed in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        written.append(page)
    return written


if __name__ == "__main__":
    write_course(Course(REPOSITORY), Path(__file__).resolve().parent / "course")
