"""The class report in chromium, as an instructor opens it on a laptop (1280 × 800): read at a glance.

The class is made by hand, as tests/results_by_hand.py makes a graded one, without running a kernel:
30 students over every lesson, each submission right, partly stubbed, holding one of the catalogued
misconceptions the demo's class draws (the classic ones far more often), or missing.
"""

import random

import pytest
from playwright.sync_api import expect

from grader.course import contract
from grader.engine import status
from grader.engine.scores import report_of
from grader.instructor.report import write_report
from grader.instructor.results import ClassResults, Student
from grader.learner.hints import misconceptions
from grader.proof.simulate import common_mistake
from tests.browser.conftest import ARTIFACTS, screenshot
from tests.results_by_hand import executed, not_written, wrong
from tests.support import COURSE

LAPTOP = {"width": 1280, "height": 800}
# The same class's report before it was laid out to be read at a glance (main at 56d6a15), at 1280 px wide:
# a 120 px column of mistakes each wrapped over many lines, then two figures and a table per lesson.
HEIGHT_BEFORE = 23_519


def simulated_class(students: int = 30, seed: int = 16) -> ClassResults:
    """A seeded class over every lesson: 40% right, 15% with one function left a stub, 35% with a catalogued
    misconception of one function, 10% missing; the last student holds each lesson's longest-worded
    misconception, and one submission ran past the time limit."""
    rng = random.Random(seed)
    lessons = COURSE.lesson_ids()
    ids = [f"student{n:02d}" for n in range(1, students + 1)]
    reports = {}
    for lesson in lessons:
        tests = contract.tested_functions(COURSE, lesson)
        functions = sorted({function for function in tests.values() if function})  # predictions test none
        stubs = not_written(COURSE, lesson)
        for student in ids:
            roll = rng.random()
            if roll < 0.1:
                continue
            if roll < 0.5:
                outcomes = {}
            elif roll < 0.65:
                stubbed = rng.choice(functions)
                outcomes = {test: outcome for test, outcome in stubs.items() if tests[test] == stubbed}
            else:
                outcomes = wrong(COURSE, lesson, common_mistake(rng.choice(functions), rng))
            reports[student, lesson] = report_of(COURSE, executed(COURSE, lesson, outcomes), lesson)
        longest = max(misconceptions(lesson=lesson), key=lambda m: len(m.description))  # the widest a table gets
        reports[ids[-1], lesson] = report_of(COURSE, executed(COURSE, lesson, wrong(COURSE, lesson, longest)), lesson)
    max_scores = {report.lesson: report.max_score for report in reports.values()}
    first = next(iter(reports))
    problems = {first: (status.TIMEOUT, "test_naive_normalize_rows ran past the time limit and was stopped")}
    return ClassResults([Student(s) for s in ids], lessons, max_scores, reports, problems)


@pytest.fixture
def laptop(browser):
    """A tab the size of a laptop's screen."""
    context = browser.new_context(viewport=LAPTOP)
    yield context.new_page()
    context.close()


def layout(page) -> dict:
    """What the page shows where: each image's box and natural size, the line boxes of each mistake, the page's size."""
    return page.evaluate("""() => {
        const box = e => { const r = e.getBoundingClientRect();
                           return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width}; };
        const clips = e => { const s = getComputedStyle(e);
                             return s.overflowX !== 'visible' || s.overflowY !== 'visible'; };
        const clippers = img => { const found = []; for (let e = img.parentElement; e; e = e.parentElement) {
            if (clips(e)) found.push(box(e)); } return found; };
        const lines = cell => { const range = document.createRange(); range.selectNodeContents(cell);
            return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; };
        return {
            images: [...document.images].map(img => ({alt: img.alt, natural: [img.naturalWidth, img.naturalHeight],
                                                    box: box(img), clippers: clippers(img)})),
            mistakes: [...document.querySelectorAll('#misconceptions td.mistake')].map(
                cell => ({text: cell.textContent, lines: lines(cell)})),
            main: box(document.querySelector('main')),
            width: document.documentElement.scrollWidth,
            height: document.documentElement.scrollHeight,
        };
    }""")


def test_the_report_reads_at_a_glance_on_a_laptop(laptop, tmp_path):
    path = tmp_path / "report.html"
    write_report(simulated_class(), path)
    laptop.goto(path.as_uri())
    shown = layout(laptop)
    screenshot(laptop, "class-report-first-screen")
    laptop.screenshot(path=str(ARTIFACTS / "class-report.png"), full_page=True)

    images = shown["images"]
    assert len(images) == 2 + len(COURSE.lesson_ids())  # the chart, the heatmap, a histogram per lesson
    chart, heatmap = images[:2]
    assert chart["alt"].startswith("Bar chart of the 10 misconception(s)")
    assert heatmap["alt"].startswith("Heatmap of the pass rate of every test")
    for figure in (chart, heatmap):  # both whole in the first screen
        assert 0 <= figure["box"]["top"] and figure["box"]["bottom"] <= LAPTOP["height"], figure["box"]
    for image in images:
        assert len(image["alt"]) > 80, image["alt"]
        width, height = image["natural"]
        assert width > 300 and height > 200
        box = image["box"]
        assert abs(box["width"] - width) < 1, (image["alt"][:60], box, width)  # shown at the size it was drawn
        for container in [shown["main"], *image["clippers"]]:  # and nothing it sits in cuts it
            assert container["left"] <= box["left"] and box["right"] <= container["right"], (box, container)
    assert shown["width"] <= LAPTOP["width"]  # nothing sticks out sideways

    mistakes = shown["mistakes"]
    assert len(mistakes) > 30
    assert max(len(m["text"]) for m in mistakes) == max(len(m.description) for m in misconceptions())
    too_long = [m for m in mistakes if not 1 <= m["lines"] <= 2]
    assert not too_long, too_long
    assert shown["height"] < HEIGHT_BEFORE / 2, shown["height"]

    first = laptop.locator("#misconceptions tbody tr").first
    expect(first.locator("details p").first).to_be_hidden()  # who holds it is folded away until asked
    first.locator("summary").click()
    expect(first.locator("details p").first).to_contain_text("student")
