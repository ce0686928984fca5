"""The autograder on the hub (issue 45): `python -m grader serve`, a hub-managed service of the grader account, grades
each hand-in as it comes and releases its feedback to its student, with no instructor action.

A student hands lesson 01 in through their own server (nbgrader's Assignment List, its REST API, then in Chromium)
with a catalogued mistake in it; within DEADLINE_S, nbgrader's Fetch Feedback in their server brings a page showing
the score and the mistake named, another student cannot read that page, and the instructor sees the same grade in
formgrader. The service runs as the grader account in the course directory, reaches nothing of the hub's API, and
runs again when it ends.
"""

from __future__ import annotations

import html
import json
import os
import pwd
import re
import subprocess
import time
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from grader.instructor.results import points
from grader.proof import catalogue
from tests.browser.conftest import screenshot
from tests.hub.hubbrowser import log_in, open_assignment_list, panel
from tests.hub.hubclient import ATTEMPTS, LESSON, notebook_path
from tests.support import COURSE

pytestmark = [pytest.mark.hub, pytest.mark.xdist_group("hub")]  # one hub, one worker
DEADLINE_S = 120  # from Submit to the feedback fetched, with no instructor action
SLOW = 300_000  # ms: a server's start on two loaded cores
WHOLE_ARRAY = next(m for m in catalogue.misconceptions("naive_normalize", LESSON) if m.id == "naive_sums_whole_array")


def with_the_mistake() -> dict:
    """Lesson 01 with every answer the reference's but naive_normalize, which divides by the whole array's total."""
    answers = {**COURSE.reference_answers(LESSON), "naive_normalize": WHOLE_ARRAY.source.strip()}
    return COURSE.learner_notebook(LESSON, answers)


def autograder(hub, *options: str) -> subprocess.CompletedProcess:
    """`python -m grader serve OPTIONS` as the grader account in the course directory (its --pause, --resume)."""
    done = hub.run_as(
        hub.people.grader, ["python", "-m", "grader", "serve", *options], "instructor", hub.settings["course_dir"]
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def grading_on(hub, released):
    """The autograder grading (the tests' hub starts it paused: the other hub tests grade by hand); paused again after
    this module, its pages taken back from the exchange, so that the other tests find the hub as they left it."""
    before = set((hub.exchange / "feedback").glob("*.html"))
    assert autograder(hub, "--resume").stdout == "Grading is on.\n"
    yield
    autograder(hub, "--pause")
    for page in set((hub.exchange / "feedback").glob("*.html")) - before:
        page.unlink()


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
def handed_in(hub, grading_on):
    """A student's hand-in with the mistake, and what Fetch Feedback brought them, asked every 2 s: (student, the
    page's text, seconds from Submit to the page)."""
    student = hub.people.student_names[2]
    token = hub.token_of(student)
    hub.start_server(student)
    hand_in(hub, student, token)
    submitted = time.monotonic()
    while time.monotonic() - submitted < DEADLINE_S:
        hub.assignment(student, token, "fetch_feedback")
        pages = feedback_pages(hub, student, token)
        if pages:
            return student, pages, time.monotonic() - submitted
        time.sleep(2)
    raise AssertionError(f"no feedback within {DEADLINE_S} s of the hand-in; the hub's log says why")


def graded_in_formgrader(hub, student: str) -> dict:
    """The student's lesson 01 as formgrader's REST API shows it to the instructor."""
    instructor = {"Authorization": f"token {hub.token_of(hub.people.instructor)}"}
    address = f"{hub.url}/services/{hub.course}/formgrader/api/submission/{LESSON}/{student}"
    seen = requests.get(address, headers=instructor, timeout=120)
    assert seen.status_code == 200, seen.text
    return seen.json()


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


# In Chromium: the student's Assignment List, then formgrader in the instructor's.


def shots_folder(tmp_path: Path) -> Path:
    """Where the screenshots go: SOFTMAX_SCREENSHOTS (docs/images, to take the docs' pictures again), else the
    test's own folder."""
    return Path(os.environ.get("SOFTMAX_SCREENSHOTS") or tmp_path)


def test_in_the_browser_a_student_submits_and_fetches_the_autograder_s_feedback_then_formgrader_shows_it(
    browser, hub, grading_on, tmp_path
):
    shots, student = shots_folder(tmp_path), hub.people.student_names[4]
    page = log_in(browser, hub, student, "/hub/")
    expect(page).to_have_url(re.compile(f"/user/{student}/lab"), timeout=SLOW)
    open_assignment_list(page)
    panel(page, "Released assignments").get_by_role("button", name="Fetch").click()
    downloaded = panel(page, "Downloaded assignments")
    expect(downloaded).to_contain_text(LESSON, timeout=SLOW)
    token = hub.token_of(student)  # the notebook written as saving it in the editor would leave it
    saved = hub.server(
        student,
        token,
        "PUT",
        notebook_path(hub),
        json={"type": "notebook", "format": "json", "content": with_the_mistake()},
    )
    assert saved.status_code == 200, saved.text
    downloaded.get_by_role("button", name="Submit").first.click()
    submitted = panel(page, "Submitted assignments")
    expect(submitted.locator(".nested_list_item")).to_have_count(1, timeout=SLOW)
    no_news = page.get_by_role("button", name="No", exact=True)  # JupyterLab asks whether to fetch its news
    if no_news.is_visible():
        no_news.click()
    screenshot(page, "hub-submit", folder=shots)

    started = time.monotonic()  # no instructor action: the list's own refresh until the feedback is there
    while "feedback available to fetch" not in (submitted.text_content() or ""):
        assert time.monotonic() - started < DEADLINE_S, f"no feedback to fetch within {DEADLINE_S} s"
        page.get_by_title("Refresh assignments list").click()
        page.wait_for_timeout(2000)
    submitted.get_by_role("button", name="Fetch Feedback").click()
    view = submitted.get_by_text("(view feedback)")
    expect(view).to_have_count(1, timeout=SLOW)
    view.click()
    expect(page.locator(".jp-DirListing-item", has_text=f"{LESSON}.html")).to_have_count(1, timeout=SLOW)
    crumbs = page.locator(".jp-FileBrowser .jp-BreadCrumbs").inner_text()
    folder = f"{hub.course}/{LESSON}/feedback/" + crumbs.strip("/ \n").rsplit("/", 1)[-1].strip()
    feedback = page.context.new_page()
    feedback.goto(f"{hub.url}/user/{student}/files/{folder}/{LESSON}.html")
    graded = graded_in_formgrader(hub, student)
    score = f"{points(graded['score'])} / {points(graded['max_score'])}"
    expect(feedback.locator("#at-a-glance")).to_contain_text(score, timeout=SLOW)
    expect(feedback.locator("#at-a-glance")).to_contain_text(WHOLE_ARRAY.description)
    screenshot(feedback, "hub-feedback", folder=shots)

    instructor = log_in(
        browser, hub, hub.people.instructor, f"/services/{hub.course}/formgrader/manage_submissions/{LESSON}"
    )
    row = instructor.locator("#main-table > tr", has=instructor.locator("td", has_text=student))
    expect(row).to_have_count(1, timeout=SLOW)
    expect(row).to_contain_text(f"{graded['score']:g} / {graded['max_score']:g}")
    screenshot(instructor, "hub-formgrader-grade", folder=shots)
    print(json.dumps({"student": student, "score": score, "shots": str(shots)}))


def test_the_hub_starts_the_autograder_again_when_it_ends(hub):
    [pid] = autograder_processes(hub)
    os.kill(pid, 9)
    deadline = time.monotonic() + 60
    while not [new for new in autograder_processes(hub) if new != pid]:
        assert time.monotonic() < deadline, "JupyterHub did not start the autograder again"
        time.sleep(0.5)
