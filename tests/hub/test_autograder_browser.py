"""The autograder on the hub in Chromium (issue 45): a student logs in through the hub's form with their generated
password, fetches lesson 01 in the Assignments tab, hands it in with a catalogued mistake, and with no instructor
action fetches the feedback and opens it: the score and the mistake named. Then the instructor logs in, and
formgrader's Manage Submissions shows the grade.

The screenshots go to SOFTMAX_SCREENSHOTS when it is set (`SOFTMAX_SCREENSHOTS=docs/images` takes the hub page's
pictures again), else to the test's own folder.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from grader.instructor.results import points
from tests.browser.conftest import screenshot
from tests.hub.autograding import (
    DEADLINE_S,
    WHOLE_ARRAY,
    graded_in_formgrader,
    grading_on,  # noqa: F401 (the module's fixture)
    until,
    with_the_mistake,
)
from tests.hub.hubbrowser import log_in, open_assignment_list, panel
from tests.hub.hubclient import LESSON, notebook_path

# one hub, one worker; the autograder grading while the module runs
pytestmark = [pytest.mark.hub, pytest.mark.xdist_group("hub"), pytest.mark.usefixtures("grading_on")]
SLOW = 300_000  # ms: a server's start on two loaded cores


def feedback_to_fetch(listed: dict) -> bool:
    """Whether nbgrader's list of a student's assignments says feedback waits in the exchange for one of their
    submissions (what the list shows as "feedback available to fetch")."""
    return '"has_exchange_feedback": true' in json.dumps(listed)


def shots_folder(tmp_path: Path) -> Path:
    return Path(os.environ.get("SOFTMAX_SCREENSHOTS") or tmp_path)


def test_a_student_submits_and_opens_the_autograder_s_feedback_then_formgrader_shows_the_instructor_the_grade(
    browser, hub, tmp_path
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
        expect(no_news).to_be_hidden()
    screenshot(page, "hub-submit", folder=shots)

    # No instructor action: the list refreshed once the student's server lists feedback to fetch (asked as the list
    # asks it, with the student's session).
    listed = f"{hub.url}/user/{student}/assignments?course_id={hub.course}"
    until(lambda: feedback_to_fetch(page.context.request.get(listed).json()), DEADLINE_S, "no feedback in time")
    page.get_by_title("Refresh assignments list").click()
    expect(submitted).to_contain_text("feedback available to fetch")
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
    assert graded["autograded"] and 0 < graded["score"] < graded["max_score"], graded
    glance = feedback.locator("#at-a-glance")
    expect(glance).to_contain_text(f"{points(graded['score'])} / {points(graded['max_score'])}", timeout=SLOW)
    expect(glance).to_contain_text(WHOLE_ARRAY.description)
    screenshot(feedback, "hub-feedback", folder=shots)

    formgrader = f"/services/{hub.course}/formgrader/manage_submissions/{LESSON}"
    instructor = log_in(browser, hub, hub.people.instructor, formgrader)
    row = instructor.locator("#main-table > tr", has=instructor.locator("td", has_text=student))
    expect(row).to_have_count(1, timeout=SLOW)
    expect(row).to_contain_text("graded")
    expect(row).to_contain_text(f"{graded['score']:g} / {graded['max_score']:g}")
    screenshot(instructor, "hub-formgrader-grade", folder=shots)
