"""The hub's autograder as the hub tests drive it: the grader account's `serve` commands, its grading switched on for
a module, lesson 01 with a catalogued mistake, a grade as formgrader shows it to the instructor, and a wait for what
the service does (it runs beside the tests: they can only look again)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from typing import TypeVar

import pytest
import requests

from grader.proof import catalogue
from tests.hub.hubclient import LESSON
from tests.support import COURSE

DEADLINE_S = 120  # from Submit to the feedback fetched, with no instructor action (docs/howto/hub.md says so)
WHOLE_ARRAY = next(m for m in catalogue.misconceptions("naive_normalize", LESSON) if m.id == "naive_sums_whole_array")
Seen = TypeVar("Seen")


def with_the_mistake():
    """Lesson 01 with every answer the reference's but naive_normalize, which divides by the whole array's total."""
    answers = {**COURSE.reference_answers(LESSON), "naive_normalize": WHOLE_ARRAY.source.strip()}
    return COURSE.learner_notebook(LESSON, answers)


def autograder(hub, *options: str) -> subprocess.CompletedProcess:
    """`python -m grader serve OPTIONS` as the grader account in the course directory (--pause, --resume, --status),
    as the hub page says to run them."""
    done = hub.run_as(
        hub.people.grader, ["python", "-m", "grader", "serve", *options], "instructor", hub.settings["course_dir"]
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def grading_on(hub, released):
    """The autograder grading (the tests' hub starts it paused: the other hub tests grade by hand); paused again after
    the module, the pages it released taken back from the exchange, so that the other tests find the hub as before."""
    before = set((hub.exchange / "feedback").glob("*.html"))
    assert autograder(hub, "--resume").stdout == "Grading is on.\n"
    yield
    autograder(hub, "--pause")
    for page in set((hub.exchange / "feedback").glob("*.html")) - before:
        page.unlink()


def graded_in_formgrader(hub, student: str) -> dict:
    """The student's lesson 01 as formgrader's REST API shows it to the instructor (their token)."""
    instructor = {"Authorization": f"token {hub.token_of(hub.people.instructor)}"}
    address = f"{hub.url}/services/{hub.course}/formgrader/api/submission/{LESSON}/{student}"
    seen = requests.get(address, headers=instructor, timeout=120)
    assert seen.status_code == 200, seen.text
    return seen.json()


def until(look: Callable[[], Seen], seconds: float, failure: str | Callable[[], str]) -> Seen:
    """What `look` sees, once it sees something (a true value), asked every half second for up to `seconds`; then
    an AssertionError saying `failure` (or what `failure()` says then)."""
    deadline = time.monotonic() + seconds
    while not (seen := look()):
        if time.monotonic() >= deadline:
            raise AssertionError(failure() if callable(failure) else failure)
        time.sleep(0.5)
    return seen
