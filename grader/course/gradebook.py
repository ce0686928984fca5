"""New gradebook files made without the `alembic` command nbgrader's Gradebook runs for a new database.

nbgrader's Gradebook stamps a new database with its schema's version, which it asks of the
`alembic` command (`alembic heads`: 1.5 CPU-seconds, 2-4 s). A database stamped first with the
same version, read in this process (alembic_head), looks made already, and Gradebook only adds
its tables: the same file, without the command. The engine copies the empty gradebook for each
lesson's cached gradebook; a release copies it to a course whose gradebook does not exist yet.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import warnings
from pathlib import Path

import nbgrader
from nbgrader.api import Gradebook

from grader.course.directory import Course

SQLITE = "sqlite:///"


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
