"""The autograder on the hub (issue 45): `python -m grader serve`, a hub-managed service of the grader account, grades
each hand-in as it comes and releases its feedback to its student, with no instructor action.

A student hands lesson 01 in through their own server (nbgrader's Assignment List, its REST API) with a catalogued
mistake in it; within DEADLINE_S, nbgrader's Fetch Feedback in their server brings a page showing the score and the
mistake named, another student cannot read that page, and the instructor sees the same grade in formgrader. The
service runs as the grader account in the course directory, reaches nothing of the hub's API, and runs again when it
ends. test_autograder_browser.py does the student's part, and the instructor's look, in Chromium.
"""

from __future__ import annotations

import html
import os
import pwd
import re
import subprocess
import time
from pathlib import Path

import pytest

from grader.instructor.results import points
from tests.hub.autograding import (
    DEADLINE_S,
    WHOLE_ARRAY,
    graded_in_formgrader,
    grading_on,  # noqa: F401 (the module's fixture)
    until,
    with_the_mistake,
)
from tests.hub.hubclient import ATTEMPTS, LESSON, notebook_path

# one hub, one worker; the autograder grading while the module runs
pytestmark = [pytest.mark.hub, pytest.mark.xdist_group("hub"), pytest.mark.usefixtures("grading_on")]


def hand_in(hub, student: str, token: str) -> None:
    """`student` fetches lesson 01, saves it with the mistake through their server's contents API, and submits it."""
    hub.assignment(student, token, "fetch")
    saved = hub.server(
        student,
        token,
        "PUT",
        notebook_path(hub),
        json={"type": "notebook", "format": "json", "content": with_the_mistake()},
    )
    assert saved.status_code == 200, saved.text
    hub.assignment(student, token, "submit")


def feedback_pages(hub, student: str, token: str) -> list[str]:
    """The feedback pages in `student`'s lesson folder, read through their own server's contents API."""
    folder = f"/api/contents/{hub.course}/{LESSON}/feedback"
    listed = hub.server(student, token, "GET", folder)
    if listed.status_code == 404:
        return []
    assert listed.status_code == 200, listed.text
    pages = []
    for entry in listed.json()["content"]:
        page = hub.server(student, token, "GET", f"{folder}/{entry['name']}/{LESSON}.html", params={"format": "text"})
        if page.status_code == 200:
            pages.append(page.json()["content"])
    return pages


@pytest.fixture(scope="module")
def handed_in(hub):
    """A student's hand-in with the mistake, and what Fetch Feedback brought them, asked again until a page comes:
    (student, the pages' text, seconds from Submit to the page)."""
    student = hub.people.student_names[2]
    token = hub.token_of(student)
    hub.start_server(student)
    hand_in(hub, student, token)
    submitted = time.monotonic()

    def fetched() -> list[str]:
        hub.assignment(student, token, "fetch_feedback")
        return feedback_pages(hub, student, token)

    pages = until(fetched, DEADLINE_S, f"no feedback within {DEADLINE_S} s of the hand-in; the hub's log says why")
    return student, pages, time.monotonic() - submitted


def test_a_hand_in_s_feedback_reaches_its_student_with_the_mistake_named_and_no_instructor_action(hub, handed_in):
    student, pages, took = handed_in
    print(f"feedback fetched {took:.1f} s after the hand-in")
    [page] = map(html.unescape, pages)
    graded = graded_in_formgrader(hub, student)
    assert graded["autograded"] and 0 < graded["score"] < graded["max_score"], graded
    assert f"{points(graded['score'])} / {points(graded['max_score'])}" in page
    assert WHOLE_ARRAY.description in page, page


def test_the_instructor_sees_the_grade_in_formgrader(hub, handed_in):
    student, _, _ = handed_in
    graded = graded_in_formgrader(hub, student)
    assert graded["student"] == student and graded["autograded"] and graded["submitted"], graded
    assert 0 < graded["score"] < graded["max_score"], graded


def readers_of(page: Path) -> set[str]:
    """The users a feedback page's ACL names."""
    acl = subprocess.run(["getfacl", "--omit-header", page], capture_output=True, text=True, check=True).stdout
    return set(re.findall(r"^user:([^:]+):", acl, re.M))


def test_another_student_cannot_read_the_page_its_student_can(hub, handed_in):
    student, _, _ = handed_in
    [page] = [page for page in (hub.exchange / "feedback").glob("*.html") if readers_of(page) == {student}]
    code = ATTEMPTS + f"seen = attempt(lambda: read({str(page)!r}))"
    assert hub.probe_as(hub.people.student_names[3], code) == "PermissionError"
    assert hub.probe_as(student, code).startswith("read ")


def autograder_processes(hub) -> list[int]:
    """The pids of `python -m grader serve` processes of the grader account (the service, not its workers)."""
    grader = pwd.getpwnam(hub.people.grader).pw_uid
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if os.stat(f"/proc/{pid}").st_uid == grader and command[1:4] == [b"-m", b"grader", b"serve"]:
                found.append(int(pid))
        except (FileNotFoundError, IndexError):
            continue
    return found


def test_the_autograder_runs_as_the_grader_account_in_the_course_directory_with_the_instructors_python(hub):
    [pid] = autograder_processes(hub)
    assert os.readlink(f"/proc/{pid}/cwd") == hub.settings["course_dir"]
    command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    assert command[0].decode() == f"{hub.settings['instructor_env']}/bin/python"
    assert os.stat(f"/proc/{pid}/status").st_uid == pwd.getpwnam(hub.people.grader).pw_uid
    assert "Umask:\t0007\n" in Path(f"/proc/{pid}/status").read_text()  # what it writes stays the instructors'


def token_of_process(pid: int) -> str:
    """The hub API token JupyterHub gave the process (its JUPYTERHUB_API_TOKEN)."""
    variables = dict(
        entry.split("=", 1) for entry in Path(f"/proc/{pid}/environ").read_text().split("\0") if "=" in entry
    )
    return variables["JUPYTERHUB_API_TOKEN"]


def test_the_autograder_s_token_reaches_nothing_of_the_hub_s_api(hub):
    [pid] = autograder_processes(hub)
    token = token_of_process(pid)
    whoami = hub.api("GET", "/user", token=token)
    assert whoami.status_code == 200 and whoami.json()["kind"] == "service", whoami.text
    assert whoami.json()["scopes"] == [], whoami.json()
    for path in ("/users", f"/users/{hub.people.student_names[0]}", f"/groups/nbgrader-{hub.course}", "/services"):
        assert hub.api("GET", path, token=token).status_code == 403, path


def test_the_hub_starts_the_autograder_again_when_it_ends(hub):
    [pid] = autograder_processes(hub)
    os.kill(pid, 9)
    until(lambda: [new for new in autograder_processes(hub) if new != pid], 60, "JupyterHub did not start it again")
