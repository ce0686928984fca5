"""The autograder on the hub (issue 45): `python -m grader serve`, a hub-managed service, grades
each hand-in as it comes and releases its feedback to its student, with no instructor action.

A student hands lesson 01 in through their own server (nbgrader's Assignment List, its REST API) with a catalogued
mistake in it; within DEADLINE_S, nbgrader's Fetch Feedback in their server brings a page showing the score and the
mistake named, another student cannot read that page, and the instructor sees the same grade in formgrader. The
service runs as root in the course directory, so a hand-in's code runs in an isolated kernel and reaches nothing of the
course directory, while its steps on the exchange are the grader account's; it reaches nothing of the hub's API, and
runs again when it ends. test_autograder_browser.py does the student's part, and the instructor's look, in Chromium.
"""

from __future__ import annotations

import html
import os
import pwd
import re
import subprocess
import textwrap
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
from tests.support import COURSE

WRITTEN = "written-by-a-hand-in"  # what a hand-in's code tries to leave in the course directory

# one hub, one worker; the autograder grading while the module runs
pytestmark = [pytest.mark.hub, pytest.mark.xdist_group("hub"), pytest.mark.usefixtures("grading_on")]


def hand_in(hub, student: str, token: str, notebook=None) -> None:
    """`student` fetches lesson 01, saves it (with the mistake unless another `notebook` is given) through their
    server's contents API, and submits it."""
    hub.assignment(student, token, "fetch")
    saved = hub.server(
        student,
        token,
        "PUT",
        notebook_path(hub),
        json={"type": "notebook", "format": "json", "content": notebook or with_the_mistake()},
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


def fed_back(hub, student: str, notebook=None) -> tuple[list[str], float]:
    """`student` hands in (hand_in) and asks Fetch Feedback again until a page comes: the pages' text, and seconds
    from Submit to the page."""
    token = hub.token_of(student)
    hub.start_server(student)
    hand_in(hub, student, token, notebook)
    submitted = time.monotonic()

    def fetched() -> list[str]:
        hub.assignment(student, token, "fetch_feedback")
        return feedback_pages(hub, student, token)

    pages = until(fetched, DEADLINE_S, f"no feedback within {DEADLINE_S} s of the hand-in; the hub's log says why")
    return pages, time.monotonic() - submitted


@pytest.fixture(scope="module")
def handed_in(hub):
    """A student's hand-in with the mistake, and what Fetch Feedback brought them: (student, the pages' text, seconds
    from Submit to the page)."""
    student = hub.people.student_names[2]
    return student, *fed_back(hub, student)


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


def serve_processes() -> dict[int, int]:
    """pid -> parent pid of every `python -m grader serve` process (the service, its exchange agent, its workers)."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if command[1:4] == [b"-m", b"grader", b"serve"] and b"--exchange-as" in command:
                found[int(pid)] = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, IndexError):
            continue
    return found


def autograder_processes(hub) -> list[int]:
    """The pids of the hub's autograder services: those whose parent is not a serve process itself."""
    found = serve_processes()
    return [pid for pid, parent in found.items() if parent not in found]


def uids_of(pid: int) -> list[int]:
    """Its real, effective, saved and file-system user ids."""
    [line] = [line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("Uid:")]
    return [int(uid) for uid in line.split()[1:]]


def test_the_autograder_runs_as_root_in_the_course_directory_its_exchange_steps_as_the_grader_account(hub):
    [pid] = autograder_processes(hub)
    assert os.readlink(f"/proc/{pid}/cwd") == hub.settings["course_dir"]
    command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    assert command[0].decode() == f"{hub.settings['instructor_env']}/bin/python"
    assert uids_of(pid) == [0] * 4  # so that every kernel it grades in is isolated
    assert "Umask:\t0007\n" in Path(f"/proc/{pid}/status").read_text()  # what it writes stays the instructors'
    [agent] = [child for child, parent in serve_processes().items() if parent == pid and uids_of(child)[0] != 0]
    assert uids_of(agent) == [pwd.getpwnam(hub.people.grader).pw_uid] * 4  # the exchange's steps, never root's


def with_attempts_on(course_directory: str):
    """Lesson 01 whose answer cell, as it runs, tries to read the course directory (its solutions, its settings) and
    to write in it (a file, the gradebook), then defines naive_normalize as the reference does if every attempt
    failed, and with the whole-array mistake if any succeeded."""
    answers = COURSE.reference_answers(LESSON)
    attempts = f"""
import os
COURSE_DIRECTORY = {course_directory!r}


def succeeds(action) -> bool:
    try:
        action()
        return True
    except OSError:
        return False


REACHED = [
    succeeds(lambda: os.listdir(COURSE_DIRECTORY + "/solutions")),
    succeeds(lambda: open(COURSE_DIRECTORY + "/nbgrader_config.py").read()),
    succeeds(lambda: open(COURSE_DIRECTORY + "/{WRITTEN}", "w").write("a hand-in was here")),
    succeeds(lambda: open(COURSE_DIRECTORY + "/gradebook.db", "r+b").close()),
]
if any(REACHED):
{textwrap.indent(WHOLE_ARRAY.source.strip(), "    ")}
else:
{textwrap.indent(answers["naive_normalize"].strip(), "    ")}
"""
    return COURSE.learner_notebook(LESSON, {**answers, "naive_normalize": attempts})


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


def test_a_hand_in_s_code_reaches_nothing_of_the_course_directory(hub):
    student = hub.people.student_names[5]
    fed_back(hub, student, with_attempts_on(hub.settings["course_dir"]))
    graded = graded_in_formgrader(hub, student)
    assert graded["score"] == graded["max_score"] > 0, graded  # every attempt failed: its kernel is isolated
    assert not (Path(hub.settings["course_dir"]) / WRITTEN).exists()
