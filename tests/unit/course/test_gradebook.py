"""New gradebooks made without nbgrader's `alembic` command: the empty one each lesson's gradebook (the one grading
restores tests from) and a released course's gradebook start from, equal to the file nbgrader makes with the command."""

from __future__ import annotations

import os
import sqlite3

import nbgrader.api
import pytest

from grader.course import Course
from grader.course.gradebook import alembic_head, empty_gradebook, lesson_gradebook, start_gradebook
from grader.proof.simulate import released_course
from tests.support import COURSE, tools_env

pytestmark = pytest.mark.xdist_group("gradebook")  # its tests share a module-scoped fixture (tests/conftest.py)


def schema(path) -> tuple[list, list, list]:
    """A database's tables and indexes as SQL, its alembic version and its courses."""
    with sqlite3.connect(path) as database:
        tables = sorted(row[0] for row in database.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL"))
        version = database.execute("SELECT version_num FROM alembic_version").fetchall()
        courses = database.execute("SELECT id FROM course").fetchall()
    return tables, version, courses


@pytest.fixture(scope="module")
def nbgraders(tmp_path_factory):
    """(the version the alembic command printed, a new gradebook as nbgrader's Gradebook makes it with the command,
    which it stamps with that version)."""
    path = tmp_path_factory.mktemp("nbgrader") / "gradebook.db"
    printed = []

    def command():
        printed.append(asked())
        return printed[-1]

    asked, nbgrader.api.get_alembic_version = nbgrader.api.get_alembic_version, command
    saved = os.environ["PATH"]
    os.environ["PATH"] = tools_env()["PATH"]  # nbgrader runs the venv's `alembic`
    try:
        nbgrader.api.Gradebook(f"sqlite:///{path}").close()
    finally:
        os.environ["PATH"], nbgrader.api.get_alembic_version = saved, asked
    assert len(printed) == 1 and schema(path)[1] == [(printed[0],)]  # the command ran once, for the stamp
    return printed[0], path


@pytest.fixture
def no_alembic_command(monkeypatch, tmp_path):
    """nbgrader's way to the schema version fails the test; the course's cache is a folder of the test's own."""

    def no_command():
        raise AssertionError("the alembic command was run")

    monkeypatch.setattr(nbgrader.api, "get_alembic_version", no_command)
    monkeypatch.setattr(Course, "cache", property(lambda self: tmp_path / "cache"))


def test_the_schema_version_is_the_one_the_alembic_command_names(nbgraders):
    printed, _ = nbgraders
    assert printed and alembic_head() == printed


def test_the_empty_gradebook_is_nbgraders_own_without_its_command(nbgraders, no_alembic_command, tmp_path):
    _, theirs = nbgraders
    ours = empty_gradebook(COURSE)
    assert ours.parent == tmp_path / "cache" and ours.is_file()
    assert schema(ours)[:2] == schema(theirs)[:2]
    assert schema(theirs)[2] == [("default_course",)] and schema(ours)[2] == []  # a lesson's gradebook adds its own
    made = ours.stat().st_mtime_ns
    assert empty_gradebook(COURSE) == ours and ours.stat().st_mtime_ns == made  # made once


def test_a_released_course_s_gradebook_starts_from_it(nbgraders, no_alembic_command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nbgrader's release changes the process's directory
    root = released_course(COURSE, tmp_path / "course", ["01_naive_division"])
    gradebook = root / ".grading" / "gradebook.db"
    assert schema(gradebook)[:2] == schema(nbgraders[1])[:2]
    with nbgrader.api.Gradebook(f"sqlite:///{gradebook}", "softmax") as opened:
        assert [a.name for a in opened.assignments] == ["01_naive_division"]
        assert opened.find_notebook("01_naive_division", "01_naive_division").max_score == pytest.approx(15)
    # as nbgrader's own release leaves it: the course's id, and the default one a Gradebook opened without it adds
    assert sorted(schema(gradebook)[2]) == [("default_course",), ("softmax",)]
    # and the lesson's own, which grading restores the tests from: made by the release, not by the first grading
    assert [path.name for path in Course(root).cache.glob("01_naive_division-*.db")] == [
        lesson_gradebook(Course(root), "01_naive_division").name
    ]


def test_a_gradebook_that_exists_or_lives_on_a_server_is_left_as_it_is(no_alembic_command, tmp_path):
    kept = tmp_path / "gradebook.db"
    kept.write_bytes(b"an instructor's gradebook")
    start_gradebook(COURSE, f"sqlite:///{kept}")
    assert kept.read_bytes() == b"an instructor's gradebook"
    start_gradebook(COURSE, "postgresql://grader@localhost/softmax")  # nothing to copy, nothing written
    assert not (tmp_path / "cache").exists()
    new = tmp_path / "new" / "gradebook.db"
    start_gradebook(COURSE, f"sqlite:///{new}")
    assert new.read_bytes() == empty_gradebook(COURSE).read_bytes()
    assert sorted(path.name for path in new.parent.iterdir()) == ["gradebook.db"]  # nothing staged left behind


def test_a_lesson_gradebook_starts_from_it(tmp_path, monkeypatch):
    def no_command():
        raise AssertionError("the alembic command was run")

    monkeypatch.setattr(nbgrader.api, "get_alembic_version", no_command)
    monkeypatch.setattr(Course, "cache", property(lambda self: tmp_path / "cache"))
    built = lesson_gradebook(COURSE, "01_naive_division")
    assert built.parent == tmp_path / "cache"
    with nbgrader.api.Gradebook(f"sqlite:///{built}", "") as gradebook:
        assert [a.name for a in gradebook.assignments] == ["01_naive_division"]
        assert gradebook.find_notebook("01_naive_division", "01_naive_division").max_score == pytest.approx(15)
