"""The lesson gradebooks the sandbox grades against (the empty one they start from, made without `alembic`), and
nbgrader's metadata check kept per distinct metadata."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import nbformat
import nbgrader.api
import pytest
from nbgrader.nbgraderformat import ValidationError

from grader.course import Course
from grader.engine import sandbox
from tests.support import COURSE, tools_env


def schema(path) -> tuple[list, list, list]:
    """A database's tables and indexes as SQL, its alembic version and its courses."""
    with sqlite3.connect(path) as database:
        tables = sorted(row[0] for row in database.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL"))
        version = database.execute("SELECT version_num FROM alembic_version").fetchall()
        courses = database.execute("SELECT id FROM course").fetchall()
    return tables, version, courses


def test_the_schema_version_is_the_one_the_alembic_command_names():
    printed = subprocess.run(
        [sys.executable, "-c", "from nbgrader.api import get_alembic_version; print(get_alembic_version())"],
        env=tools_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert printed and sandbox.alembic_head() == printed


def test_the_empty_gradebook_is_nbgraders_own_without_its_command(tmp_path, monkeypatch):
    theirs = tmp_path / "nbgrader.db"
    with sandbox.quiet_stderr():
        nbgrader.api.Gradebook(f"sqlite:///{theirs}").close()  # nbgrader's way: it runs `alembic heads`
    with sqlite3.connect(theirs) as database:
        database.execute("DELETE FROM course")

    def no_command():
        raise AssertionError("the alembic command was run")

    monkeypatch.setattr(nbgrader.api, "get_alembic_version", no_command)
    monkeypatch.setattr(Course, "cache", property(lambda self: tmp_path / "cache"))
    ours = sandbox.empty_gradebook(COURSE)
    assert ours.parent == tmp_path / "cache" and ours.is_file()
    assert schema(ours) == schema(theirs)
    assert schema(ours)[2] == []  # no course: a lesson's gradebook records its own
    made = ours.stat().st_mtime_ns
    assert sandbox.empty_gradebook(COURSE) == ours and ours.stat().st_mtime_ns == made  # made once


def test_a_lesson_gradebook_starts_from_it(tmp_path, monkeypatch):
    def no_command():
        raise AssertionError("the alembic command was run")

    monkeypatch.setattr(nbgrader.api, "get_alembic_version", no_command)
    monkeypatch.setattr(Course, "cache", property(lambda self: tmp_path / "cache"))
    built = sandbox.lesson_gradebook(COURSE, "01_naive_division")
    assert built.parent == tmp_path / "cache"
    with nbgrader.api.Gradebook(f"sqlite:///{built}", "") as gradebook:
        assert [a.name for a in gradebook.assignments] == ["01_naive_division"]
        assert gradebook.find_notebook("01_naive_division", "01_naive_division").max_score == pytest.approx(15)


# nbgrader's metadata check, run once per distinct grading metadata


def lesson_notebook():
    return nbformat.read(COURSE.release_notebook("01_naive_division"), as_version=4)


def test_metadata_that_passed_is_not_checked_again_but_any_change_is(monkeypatch):
    checked = []
    original = sandbox.CheckCellMetadata.preprocess
    monkeypatch.setattr(
        sandbox.CheckCellMetadata, "preprocess", lambda self, nb, r: checked.append(1) or original(self, nb, r)
    )
    monkeypatch.setattr(sandbox.CheckCellMetadataOnce, "passed", {})
    step = sandbox.CheckCellMetadataOnce()
    step.preprocess(lesson_notebook(), {})
    step.preprocess(lesson_notebook(), {})
    assert checked == [1]  # the same metadata: nbgrader's verdict kept
    changed = lesson_notebook()
    graded = next(c for c in changed.cells if "nbgrader" in c.metadata)
    graded.metadata.nbgrader["points"] = 7
    step.preprocess(changed, {})
    assert checked == [1, 1]
    text_only = lesson_notebook()
    text_only.cells[0].source += "\nanother line"  # not read by the check
    assert sandbox.metadata_digest(text_only) == sandbox.metadata_digest(lesson_notebook())


def test_bad_metadata_fails_every_time_after_good_metadata_passed(monkeypatch):
    monkeypatch.setattr(sandbox.CheckCellMetadataOnce, "passed", {})
    sandbox.CheckCellMetadataOnce().preprocess(lesson_notebook(), {})
    duplicated = lesson_notebook()
    ids = [c for c in duplicated.cells if c.metadata.get("nbgrader", {}).get("grade_id")]
    ids[1].metadata.nbgrader["grade_id"] = ids[0].metadata.nbgrader["grade_id"]
    for _ in range(2):
        with pytest.raises(ValidationError, match="failed to validate"), sandbox.quiet_stderr():
            sandbox.CheckCellMetadataOnce().preprocess(duplicated, {})
    assert len(sandbox.CheckCellMetadataOnce.passed) == 1


def test_the_kept_verdicts_are_bounded(monkeypatch):
    monkeypatch.setattr(sandbox.CheckCellMetadataOnce, "passed", {})
    monkeypatch.setattr(sandbox.CheckCellMetadataOnce, "KEPT", 3)
    for points in range(5):
        nb = lesson_notebook()
        next(c for c in nb.cells if "nbgrader" in c.metadata).metadata.nbgrader["points"] = points + 1
        sandbox.CheckCellMetadataOnce().preprocess(nb, {})
    assert len(sandbox.CheckCellMetadataOnce.passed) == 3
