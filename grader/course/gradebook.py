"""Gradebook files: the empty one new gradebooks start from, and each lesson's, which grading restores tests from.

nbgrader's Gradebook stamps a new database with its schema's version, which it asks of the
`alembic` command (`alembic heads`: 1.5 CPU-seconds, 2-4 s). A database stamped first with the
same version, read in this process (alembic_head), looks made already, and Gradebook only adds
its tables: the same file, without the command. Each lesson's gradebook (lesson_gradebook, cached in
the course's .grading/cache/) starts as a copy of it; a release copies it to a course whose
gradebook does not exist yet.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sqlite3
import warnings
from pathlib import Path

import nbformat
import nbgrader
from nbgrader.api import Gradebook
from nbgrader.preprocessors import (
    CheckCellMetadata,
    ClearOutput,
    ClearSolutions,
    ComputeChecksums,
    IncludeHeaderFooter,
    InstantiateTests,
    LockCells,
    SaveCells,
)

from grader.course.directory import Course, read_cached
from grader.course.nbgrader_calls import GradingFailed, failure_line, quiet_stderr

SQLITE = "sqlite:///"
# nbgrader's GenerateAssignment up to the step that records the lesson in the gradebook
GRADEBOOK_STEPS = (
    IncludeHeaderFooter,
    InstantiateTests,
    LockCells,
    ClearSolutions,
    ClearOutput,
    CheckCellMetadata,
    ComputeChecksums,
    SaveCells,
)


class NoSchemaVersion(RuntimeError):
    """nbgrader's gradebook migrations name no version (a broken nbgrader installation)."""


def empty_gradebook(course: Course) -> Path:
    """A new gradebook with no course in it, made once per nbgrader version in the course's cache."""
    empty = course.cache / f"empty-nbgrader-{nbgrader.__version__}.db"
    if not empty.is_file():
        empty.parent.mkdir(parents=True, exist_ok=True)
        staged = empty.with_suffix(f".{os.getpid()}.tmp")
        staged.unlink(missing_ok=True)
        with contextlib.closing(sqlite3.connect(staged)) as database, database:
            database.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)")
            database.execute("INSERT INTO alembic_version (version_num) VALUES (?)", (alembic_head(),))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Gradebook(f"{SQLITE}{staged}").close()
        with contextlib.closing(sqlite3.connect(staged)) as database, database:
            database.execute("DELETE FROM course")  # the default course it records; a lesson's gradebook adds its own
        os.replace(staged, empty)  # atomic: parallel graders never see half a file
    return empty


def alembic_head() -> str:
    """The version of nbgrader's gradebook schema, as `alembic heads` prints it for nbgrader's migrations."""
    from alembic.script import ScriptDirectory
    from nbgrader.dbutil import ALEMBIC_DIR

    head = ScriptDirectory(ALEMBIC_DIR).get_current_head()
    if head is None:
        raise NoSchemaVersion("nbgrader's gradebook migrations name no version")
    return head


def start_gradebook(course: Course, db_url: str) -> None:
    """Give a course whose gradebook is an SQLite file that does not exist yet the empty gradebook to start
    from; a gradebook that exists, or one on a database server, is left as it is."""
    if not db_url.startswith(SQLITE):
        return
    target = Path(db_url[len(SQLITE) :])
    if target.exists():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    staged = target.with_suffix(f".{os.getpid()}.tmp")
    shutil.copy(empty_gradebook(course), staged)
    try:
        os.link(staged, target)  # never over a gradebook another process made meanwhile
    except FileExistsError:
        pass
    finally:
        staged.unlink()


def lesson_gradebook(course: Course, lesson: str) -> Path:
    """A gradebook that holds the lesson as nbgrader's generate_assignment records it: its source, test and
    solution cells with their checksums, which OverwriteCells restores a submission from.

    nbgrader's own steps of generate_assignment up to SaveCells run on the source notebook in
    memory (the later ones only shape the student's copy). Built once per version of the
    course's source notebook and nbgrader, and cached in the course's .grading/cache/.
    """
    source = course.source_notebook(lesson)
    digest = hashlib.sha256(source.read_bytes() + nbgrader.__version__.encode()).hexdigest()[:16]
    cached = course.cache / f"{lesson}-{digest}.db"
    if cached.is_file():
        return cached
    staged = cached.with_suffix(f".{os.getpid()}.tmp")
    try:
        shutil.copy(empty_gradebook(course), staged)
    except NoSchemaVersion as error:
        raise GradingFailed(str(error)) from error
    try:
        record_lesson(course, lesson, f"{SQLITE}{staged}")
    except BaseException:
        staged.unlink(missing_ok=True)
        raise
    os.replace(staged, cached)  # atomic: parallel graders never see half a file
    return cached


def record_lesson(course: Course, lesson: str, db_url: str) -> None:
    """Record a lesson of `course` in the gradebook at `db_url` as nbgrader's generate_assignment does: its
    steps up to SaveCells, run on the lesson's source notebook in memory."""
    config = course.nbgrader_settings()
    source = course.source_notebook(lesson)
    resources = {
        "unique_key": lesson,
        "nbgrader": {"notebook": lesson, "assignment": lesson, "db_url": db_url},
        "metadata": {"name": lesson, "path": str(source.parent)},
    }
    try:
        with quiet_stderr():
            with Gradebook(db_url, config.CourseDirectory.get("course_id", "")) as gradebook:
                gradebook.update_or_create_assignment(lesson)
            _, nb = nbformat.validator.normalize(read_cached(source))
            for step in GRADEBOOK_STEPS:
                nb, resources = step(config=config)(nb, resources)
    except Exception as error:
        raise GradingFailed(f"nbgrader generate_assignment failed: {failure_line(error)}") from error
