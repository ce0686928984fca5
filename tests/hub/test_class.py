"""A class of 30 on the hub (issue 18, point 3): 30 simulated students, each through the hub's REST API and
their own single-user server's nbgrader assignment list (no browser), fetch and hand in twice, all at once,
within a minute; the grader account's collect then takes each student's latest submission exactly once,
and nothing is lost or mixed up."""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.hub.hubclient import LESSON, entries_of, write_marker

pytestmark = [pytest.mark.hub, pytest.mark.xdist_group("hub")]  # one hub, one worker
WITHIN_S = 60


def fetch_and_submit_twice(hub, student: str, token: str) -> list[str]:
    """What one student does: fetch, hand in a first version, then a second. Returns the statuses listed."""
    listed = hub.assignment(student, token, "fetch")
    for version in ("first", "second"):
        write_marker(hub, student, token, f"# {version} version by {student}")
        listed = hub.assignment(student, token, "submit")
    return sorted(entry["status"] for entry in listed)


@pytest.fixture(scope="module")
def class_of_30(hub, released):
    """Every student's token and running server (the servers' start is not timed: it is the hub's, not the
    exchange's), then the timed fetch-and-submit of all of them at once."""
    students = hub.people.student_names
    tokens = {student: hub.token_of(student) for student in students}
    with ThreadPoolExecutor(len(students)) as pool:
        list(pool.map(hub.start_server, students))
    started = time.monotonic()
    with ThreadPoolExecutor(len(students)) as pool:
        done = pool.map(lambda student: fetch_and_submit_twice(hub, student, tokens[student]), students)
        statuses = dict(zip(students, done, strict=True))
    return statuses, time.monotonic() - started


def test_thirty_students_fetch_and_submit_twice_within_a_minute(hub, class_of_30):
    statuses, took = class_of_30
    print(f"30 students fetched and submitted twice in {took:.1f} s")
    assert took < WITHIN_S, took
    assert all(listed == ["fetched", "submitted"] for listed in statuses.values()), statuses


def test_every_hand_in_arrived_under_its_own_student(hub, class_of_30):
    """Each student's two hand-ins of this run are in inbound, owned by that student, holding that student's
    text; none is missing and none holds another's."""
    for student in hub.people.student_names:
        last_two = entries_of(hub, student)[-2:]
        assert len(last_two) == 2, student
        texts = [(entry / f"{LESSON}.ipynb").read_text() for entry in last_two]
        assert f"# first version by {student}" in texts[0] and "# second version" not in texts[0], student
        assert f"# second version by {student}" in texts[1], student
        others = set(re.findall(r"version by (\S+?)\\n", "".join(texts))) - {student}
        assert not others, (student, others)


def test_collect_takes_each_students_latest_exactly_once(hub, class_of_30):
    collected = hub.nbgrader_as_grader("collect", LESSON, "--update")
    assert collected.returncode == 0, collected.stdout + collected.stderr
    said = collected.stdout + collected.stderr
    taken = re.findall(r"(?:Collecting|Updating) submission: (\S+) " + LESSON, said)
    assert sorted(taken) == sorted(hub.people.student_names), said
    course = hub.settings["course_dir"]
    for student in hub.people.student_names:
        text = open(f"{course}/.grading/submitted/{student}/{LESSON}/{LESSON}.ipynb").read()
        latest = (entries_of(hub, student)[-1] / f"{LESSON}.ipynb").read_text()
        assert text == latest and f"# second version by {student}" in text, student
    again = hub.nbgrader_as_grader("collect", LESSON, "--update")
    said_again = again.stdout + again.stderr
    assert again.returncode == 0 and not re.search(r"(?:Collecting|Updating) submission", said_again), said_again
    assert said_again.count("No newer submission to collect") == len(hub.people.student_names)
