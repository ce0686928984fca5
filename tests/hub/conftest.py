"""The hub of the tests: testbed/hub.py's (`python -m grader.hub`, what `make hub` runs, on this machine, as root,
with accounts of a prefix of its own and a folder of its own under /srv; removed when the tests end, pass or fail),
one for the session.

Without root (or setfacl, or the proxy) the hub tests skip, and in CI they fail instead.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import pytest

from grader.hub.__main__ import missing
from testbed import hub as testbed_hub
from testbed.hub import Hub, free_ports, stop, wait_for
from tests.browser.conftest import browser, chromium  # noqa: F401 (the browser tests' Chromium, for the walk)

__all__ = ["STUDENTS", "free_ports", "lacking", "running_hub", "stop", "wait_for"]
STUDENTS = 30


def lacking() -> None:
    """Skips the hub tests when this machine cannot run the hub, or fails them in CI."""
    problem = missing()
    if problem:
        if os.environ.get("CI"):
            pytest.fail(f"the hub tests cannot run in CI: {problem}")
        pytest.skip(problem)


@contextlib.contextmanager
def running_hub(tmp_path_factory, students: int) -> Iterator[Hub]:
    """A hub of `students` students (testbed/hub.py), stopped and removed when the block ends."""
    lacking()
    with testbed_hub.running_hub(students, tmp_path_factory.mktemp("hub")) as running:
        yield running


@pytest.fixture(scope="session")
def hub(tmp_path_factory):
    """The tests' hub, its autograder paused: the tests grade by hand, and tests/hub/test_autograder.py resumes it
    while it runs."""
    with running_hub(tmp_path_factory, STUDENTS) as running:
        paused = running.run_as(
            running.people.grader,
            ["python", "-m", "grader", "serve", "--pause"],
            "instructor",
            running.settings["course_dir"],
        )
        assert paused.returncode == 0, paused.stdout + paused.stderr
        yield running


@pytest.fixture(scope="session")
def released(hub):
    """Lesson 01 released by the grader account (nbgrader release_assignment, the strict exchange's class)."""
    return hub.release()
