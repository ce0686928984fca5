"""An instructor on one machine tries the simulated class, the tutorial's commands typed as written in a fresh
clone (docs/tutorials/first-class.md, "A simulated class"): the demo's summary counts every simulated hand-in graded
but the deliberately broken ones, and nothing missing; the report, the grades CSV and the feedback pages count the
same; `make formgrader` serves the class, every student and lesson in it. (The instructor's commands before
`make demo`, lesson 01 released, collected and graded, are walked with a learner's hand-in in test_learner.py.)

What the test adds to the tutorial's words, as a user would: HEADLESS=1 and a free PORT for `make formgrader`.
"""

from __future__ import annotations

import csv
import html
import json
import re

import pytest
from playwright.sync_api import expect

from grader.course import Course
from grader.instructor.results import class_counts
from grader.proof.demo import PLAN
from grader.proof.simulate import BROKEN
from tests.browser.conftest import screenshot
from tests.journey.newcomer import ARTIFACTS, Terminal, free_port, newcomer_environment, on_a_server, the_command
from tests.support import journey_commands

pytestmark = pytest.mark.journey

DEMO = ".grading/demo"  # where `make demo` builds the class (docs/tutorials/first-class.md)
SUBMISSIONS = 8  # the column of formgrader's Manage Assignments that counts a lesson's submissions


def what_each_handed_in(plan: dict) -> dict[tuple[str, str], set[bool]]:
    """(student, lesson) -> whether each of their hand-ins of the lesson was readable, from the demo's own plan of the
    class; a stray file of no lesson is none of them."""
    handed: dict[tuple[str, str], set[bool]] = {}
    for upload in plan["uploads"]:
        if upload["kind"] != "stray-text":
            handed.setdefault((upload["student"], upload["lesson"]), set()).add(upload["kind"] not in BROKEN)
    return handed


def test_make_demo_grades_every_simulated_hand_in_but_the_broken_ones_and_formgrader_shows_the_class(
    clone, page, tmp_path
):
    instructor = journey_commands("instructor", clone)
    demo = the_command(instructor, r"^make demo$", "instructor")
    formgrader = the_command(instructor, rf"^make formgrader COURSE={re.escape(DEMO)}$", "instructor")
    assert formgrader == demo + 1 == len(instructor) - 1, instructor  # the demo, then its class in formgrader
    terminal = Terminal(clone, newcomer_environment(clone, tmp_path / "home"), "instructor")
    server = None
    try:
        said = terminal.type(instructor[demo], timeout=900)
        summary = said[said.index("== Summary") :]
        port = free_port()
        server = terminal.start(on_a_server(instructor[formgrader], port), "instructor-make-formgrader")
        page.goto(server.address(port))
        plan = json.loads((clone / DEMO / PLAN).read_text())
        lessons, handed = plan["lessons"], what_each_handed_in(plan)
        for lesson in lessons:  # Manage Assignments: each lesson's row, its submissions those graded
            graded = sum(any(readable) for (_, of), readable in handed.items() if of == lesson)
            row = page.locator("tr", has=page.get_by_role("link", name=lesson, exact=True))
            expect(row.locator("td").nth(SUBMISSIONS)).to_have_text(str(graded))
        screenshot(page, "instructor-1-formgrader", folder=ARTIFACTS)
        page.get_by_role("link", name="Manage Students").click()
        students = sorted({student for student, _ in handed})
        for student in (students[0], students[-1]):
            expect(page.get_by_text(student, exact=True).first).to_be_visible()
        screenshot(page, "instructor-2-formgrader-students", folder=ARTIFACTS)
    finally:
        if server is not None:
            server.stop()
        terminal.close()

    # The summary: every hand-in graded, but those of which every file was broken; nothing missing.
    unreadable = sum(not any(readable) for readable in handed.values())
    counts = class_counts(Course(clone / DEMO))
    assert (counts.students, counts.lessons) == (len({s for s, _ in handed}), len(lessons))
    assert counts.expected == len(handed) and counts.missing == 0, summary
    assert (counts.graded, counts.unreadable) == (len(handed) - unreadable, unreadable), summary
    assert f"The class: {counts.sentence()}\n" in summary, summary

    # The report, the grades CSV and the feedback pages count the class the same way.
    grading = clone / DEMO / ".grading"
    report = (grading / "report.html").read_text()
    assert f'<p class="lede">{html.escape(counts.sentence())}</p>' in report
    with open(grading / "exports" / "grades.csv", newline="") as grades:
        rows = list(csv.DictReader(grades))
    problems = [row["problems"] for row in rows]
    assert sum(f"{lesson}: could not be read" in p for p in problems for lesson in lessons) == counts.unreadable
    assert not any(f"{lesson}: missing" in p for p in problems for lesson in lessons)
    pages = sorted(grading.glob("feedback-html/*.html"))
    assert [p.stem for p in pages] == sorted(row["student"] for row in rows) == sorted({s for s, _ in handed})
    standings = [re.search(r"over \d+ lesson\(s\): ([^.<]*)\.", p.read_text()) for p in pages]
    assert all(standings), pages
    graded = [re.search(r"(\d+) graded", standing[1]) for standing in standings]
    assert sum(int(one[1]) for one in graded if one) == counts.graded

    page.goto((grading / "report.html").as_uri())
    expect(page.locator("p.lede")).to_have_text(counts.sentence())
    screenshot(page, "instructor-3-class-report", folder=ARTIFACTS)
