"""A term of lesson 01 on the hub, in Chromium (issue 18, item 2): the instructor releases it in formgrader;
student 1 fetches it in JupyterLab's Assignments tab, answers, validates and submits; student 2 submits the
stubs, then the answer; the instructor collects in formgrader, grades with `python -m grader grade` as the
grader account, and generates and releases feedback in formgrader; each student fetches their feedback and
opens it. Everyone logs in through the hub's form with their own password, in a browser context of their own;
each step leaves a screenshot in artifacts/hub/."""

from __future__ import annotations

import html
import re
from itertools import count
from pathlib import Path

import pytest
from nbgrader.api import Gradebook
from playwright.sync_api import expect

from tests.browser.conftest import fresh_context, screenshot
from tests.hub.hubclient import LESSON, entries_of
from tests.support import COURSE, marked_lines

pytestmark = [pytest.mark.hub, pytest.mark.xdist_group("hub")]  # one hub, one worker
SHOTS = COURSE.root / "artifacts" / "hub"
SLOW = 300_000  # ms: a server's start, a validation or a release, on two loaded cores
STEP = count(1)


def shot(page, step: str) -> None:
    screenshot(page, f"{next(STEP):02d}-{step}", folder=SHOTS)


def role(user: str) -> str:
    """`user` without the run's random prefix (which ends in "-"): screenshots keep their names from run to run."""
    return user.rsplit("-", 1)[-1]


def log_in(browser, hub, user: str, then: str):
    """A new browser context of `user`'s own, logged in through the hub's form; its page, at `then`."""
    page = fresh_context(browser).new_page()
    page.goto(f"{hub.url}/hub/login?next={then}")
    page.get_by_label("Username").fill(user)
    page.get_by_label("Password").fill(hub.passwords[user])
    page.get_by_role("button", name="Sign in").click()
    return page


def formgrader(browser, hub):
    """The instructor's formgrader, at Manage Assignments; and lesson 01's row."""
    page = log_in(browser, hub, hub.people.instructor, f"/services/{hub.course}/formgrader")
    expect(page).to_have_url(re.compile(r"/formgrader/manage_assignments"), timeout=SLOW)
    return page, lesson_row(page)


def lesson_row(page):
    row = page.locator("#main-table tr", has=page.locator("td.name", has_text=LESSON))
    expect(row).to_be_visible(timeout=SLOW)
    return row


def press(page, row, column: str, said: str, step: str) -> None:
    """One of the row's buttons (release, collect, feedback): wait for formgrader's success window, then close it."""
    row.locator(f"td.{column} a").click()
    success = page.locator("#success-modal")
    expect(success).to_contain_text(said, timeout=SLOW)
    shot(page, step)
    success.get_by_role("button", name="OK").click()
    expect(success).to_have_count(0)


def assignments_tab(browser, hub, student: str):
    """`student` logged in, their server started by the hub, and JupyterLab's Assignments tab open."""
    page = log_in(browser, hub, student, "/hub/")
    expect(page).to_have_url(re.compile(f"/user/{student}/lab"), timeout=SLOW)
    page.get_by_role("menuitem", name="Nbgrader", exact=True).click()
    page.locator(".lm-Menu").get_by_text("Assignment List", exact=True).click()
    expect(page.locator("#released_assignments_list, #fetched_assignments_list")).not_to_have_count(0)
    return page


def fetch(page, student: str) -> None:
    released = page.locator("#released_assignments_list")
    expect(released).to_contain_text(LESSON, timeout=SLOW)
    expect(released.locator(".item_course")).to_have_text(["softmax"])  # the course's lesson, and nothing else
    released.get_by_role("button", name="Fetch").click()
    expect(page.locator("#fetched_assignments_list")).to_contain_text(LESSON, timeout=SLOW)
    shot(page, f"{role(student)}-fetched")


def write_answers(page, hub, student: str, answers: dict[str, str]) -> None:
    """The fetched notebook replaced, through the student's own server's contents API with their session cookie,
    by the release with `answers` filled in (what typing them and saving would leave)."""
    [xsrf] = [c["value"] for c in page.context.cookies() if c["name"] == "_xsrf" and c["path"] == f"/user/{student}/"]
    saved = page.context.request.put(
        f"{hub.url}/user/{student}/api/contents/{hub.course}/{LESSON}/{LESSON}.ipynb",
        data={"type": "notebook", "format": "json", "content": COURSE.learner_notebook(LESSON, answers)},
        headers={"X-XSRFToken": xsrf},
    )
    assert saved.status == 200, saved.text()


def validate(page, student: str) -> None:
    """The Assignments tab's Validate of the fetched notebook, which must pass."""
    fetched = page.locator("#fetched_assignments_list")
    notebooks = fetched.locator(".assignment-notebooks")
    if not notebooks.is_visible():
        fetched.locator("a.assignment-notebooks-link").click()
    notebooks.get_by_role("button", name="Validate").click()
    dialog = page.locator(".jp-Dialog")
    expect(dialog).to_contain_text("Validation Results", timeout=SLOW)
    expect(dialog).to_contain_text("Success! Your notebook passes all the tests.")
    shot(page, f"{role(student)}-validated")
    dialog.get_by_role("button", name="Ok").click()
    expect(dialog).to_have_count(0)


def submit(page, student: str, times: int) -> None:
    """Submit from the Assignments tab; the submitted list then holds `times` hand-ins of the lesson."""
    page.locator("#fetched_assignments_list").get_by_role("button", name="Submit").click()
    expect(page.locator("#submitted_assignments_list .nested_list_item")).to_have_count(times, timeout=SLOW)
    shot(page, f"{role(student)}-submitted-{times}")


def test_a_term_of_lesson_01_in_the_browser(browser, small_hub):
    hub = small_hub
    first, second = hub.people.student_names
    instructor = release(browser, hub)
    pages = {
        first: hand_in_the_answer(browser, hub, first),
        second: hand_in_stubs_then_the_answer(browser, hub, second),
    }
    top = grade_and_give_feedback(instructor, hub)
    # Every hidden test's line, and each solution line the student did not write themselves (both hand in the
    # reference's answers, whose lines are theirs to see).
    handed_in = "\n".join(
        cell.source for cell in COURSE.learner_notebook(LESSON, COURSE.reference_answers(LESSON)).cells
    )
    solution = marked_lines("### BEGIN SOLUTION", "### END SOLUTION", [LESSON])
    secret = marked_lines("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS", [LESSON])
    secret += [line for line in solution if line not in handed_in]
    assert len(secret) > 10, secret
    for student, page in pages.items():
        read_feedback(page, hub, student, f"{LESSON} (Score: {top:.1f} / {top:.1f})", secret)


def release(browser, hub):
    """The instructor releases lesson 01 with formgrader's button; their formgrader page.

    First `python -m grader release --no-exchange` as the grader account: formgrader's Release publishes the
    hub's copy of notebooks/ as it is, but grading needs the lesson in the gradebook, which our release puts
    there (formgrader's Generate would too, but without our release's clearing of the guess stubs)."""
    made = hub.grader_as_grader("release", LESSON, "--no-exchange")
    assert made.returncode == 0, made.stdout + made.stderr
    instructor, row = formgrader(browser, hub)
    shot(instructor, "formgrader")
    press(instructor, row, "release", f"Successfully released '{LESSON}'", "released")
    expect(lesson_row(instructor).locator("td.status")).to_have_text("released")
    return instructor


def hand_in_the_answer(browser, hub, student: str):
    page = assignments_tab(browser, hub, student)
    fetch(page, student)
    write_answers(page, hub, student, COURSE.reference_answers(LESSON))
    validate(page, student)
    submit(page, student, 1)
    return page


def hand_in_stubs_then_the_answer(browser, hub, student: str):
    page = assignments_tab(browser, hub, student)
    fetch(page, student)
    submit(page, student, 1)  # the stubs, as fetched
    write_answers(page, hub, student, COURSE.reference_answers(LESSON))
    validate(page, student)
    submit(page, student, 2)
    stubs, _ = entries_of(hub, student)
    assert "raise NotImplementedError" in (stubs / f"{LESSON}.ipynb").read_text()
    return page


def grade_and_give_feedback(instructor, hub) -> float:
    """Collect in formgrader, `python -m grader grade` as the grader account in the hub's course directory, then
    formgrader's Generate and Release Feedback. Each student's collected submission is their latest, and full
    marks; the lesson's top score."""
    instructor.reload()
    press(instructor, lesson_row(instructor), "collect", "Successfully collected", "collected")
    course = Path(hub.settings["course_dir"])
    for student in hub.people.student_names:
        collected = course / ".grading" / "submitted" / student / LESSON / f"{LESSON}.ipynb"
        latest = entries_of(hub, student)[-1] / f"{LESSON}.ipynb"
        assert collected.read_bytes() == latest.read_bytes(), student
    graded = hub.grader_as_grader("grade", LESSON)
    assert graded.returncode == 0, graded.stdout + graded.stderr
    with Gradebook(f"sqlite:///{course}/.grading/gradebook.db") as gradebook:
        top = gradebook.find_assignment(LESSON).max_score
        scores = {s: gradebook.find_submission(LESSON, s).score for s in hub.people.student_names}
    assert top > 0 and set(scores.values()) == {top}, (scores, top)
    instructor.reload()
    row = lesson_row(instructor)
    expect(row.locator("td.num-submissions")).to_have_text(str(len(scores)))
    press(instructor, row, "generate-feedback", "Successfully generated feedback", "feedback-generated")
    press(instructor, lesson_row(instructor), "release-feedback", "Successfully released feedback", "feedback-released")
    return top


def read_feedback(page, hub, student: str, score: str, secret: list[str]) -> None:
    """Fetch Feedback in the Assignments tab and open the page fetched, for the latest hand-in only: the student's
    score and our checks' messages are on it, and no line of a hidden test or of the solution."""
    page.reload()
    page.get_by_role("menuitem", name="Nbgrader", exact=True).click()
    page.locator(".lm-Menu").get_by_text("Assignment List", exact=True).click()
    submitted = page.locator("#submitted_assignments_list")
    expect(submitted).to_contain_text("feedback available to fetch", timeout=SLOW)
    submitted.get_by_role("button", name="Fetch Feedback").click()
    view = submitted.get_by_text("(view feedback)")
    expect(view).to_have_count(1, timeout=SLOW)
    expect(submitted.locator(".nested_list_item").last).to_contain_text("(view feedback)")
    shot(page, f"{role(student)}-feedback-fetched")
    feedback = open_feedback(page, hub, student)
    expect(feedback).to_contain_text(score, timeout=SLOW)
    expect(feedback).to_contain_text("the public checks passed")
    shot(feedback.page, f"{role(student)}-feedback")
    text = html.unescape(feedback.inner_text())
    assert not [line for line in secret if line in text], student


def open_feedback(page, hub, student: str):
    """The one feedback page fetched, opened in a tab of the student's own from their server (/files/, with their
    cookie): its body. One folder only: student 2's first hand-in (the stubs) got none."""
    folder = f"{hub.course}/{LESSON}/feedback"
    listed = page.context.request.get(f"{hub.url}/user/{student}/api/contents/{folder}")
    assert listed.status == 200, listed.text()
    [fetched] = [entry["name"] for entry in listed.json()["content"]]
    tab = page.context.new_page()
    tab.goto(f"{hub.url}/user/{student}/files/{folder}/{fetched}/{LESSON}.html")
    return tab.locator("body")
