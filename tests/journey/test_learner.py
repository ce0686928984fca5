"""A learner and an instructor on one machine, the tutorials' commands typed as written in a fresh clone
(docs/tutorials/first-lesson.md and first-class.md): the instructor releases lesson 01; the learner starts `make lab`,
opens the lesson from the address it prints, pastes the reference code into each exercise in Chromium, runs it, sees
Validate pass and `make check` give full marks, and hands it in from the Assignments tab; the instructor collects,
grades, writes feedback, the grades and the report, and each shows full marks.

What the test adds to the tutorials' words, as a user would: HEADLESS=1 and a free PORT for `make lab` (a machine
without a browser of its own). The lesson is the one `make lab` opens, which the tutorials' commands name.
"""

from __future__ import annotations

import csv
import getpass
import re

import nbformat
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.jupyterlab import KERNEL_IDLE, code_cell_count, run_all, save
from tests.journey.newcomer import ARTIFACTS, Terminal, free_port, newcomer_environment, on_a_server, the_command
from tests.support import COURSE, journey_commands

pytestmark = pytest.mark.journey

LESSON = COURSE.lesson_ids()[0]  # the lesson `make lab` opens
DIALOG = ".jp-Dialog"


def go_to_cell(page, index: int):
    """Make the notebook's cell `index` the active one with the arrow keys (command mode), as the status bar's
    "Cell N/M" counts; return it. JupyterLab draws only the cells near the screen, so cells are found by place."""
    at = int(re.search(r"Cell (\d+)/\d+", page.locator("#jp-main-statusbar").inner_text())[1]) - 1
    for _ in range(abs(index - at)):
        page.keyboard.press("ArrowDown" if index > at else "ArrowUp")
    expect(page.locator("#jp-main-statusbar")).to_contain_text(re.compile(rf"Cell {index + 1}/\d+"))
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell.jp-mod-active")


def paste_the_answers(page, panel, cells, answers: dict[str, str]) -> None:
    """As a learner copying code in: each exercise's cell (and each guess's) reached with the arrow keys, its stub
    selected whole and the answer pasted over it."""
    panel.locator(".jp-Cell").first.locator(".jp-InputPrompt").click()
    page.keyboard.press("Escape")  # command mode: the arrow keys move between cells
    for index, cell in enumerate(cells):
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id not in answers:
            continue
        active = go_to_cell(page, index)
        expect(active).to_contain_text(cell.source.strip().splitlines()[0].strip())  # the stub the lab shows
        page.evaluate("text => navigator.clipboard.writeText(text)", answers[grade_id])
        page.keyboard.press("Enter")  # into the cell's editor
        page.keyboard.press("Control+a")
        page.keyboard.press("Control+v")
        page.keyboard.press("Escape")
        expect(active).to_contain_text(answers[grade_id].strip().splitlines()[-1].strip())


def test_a_learner_hands_in_lesson_01_from_make_lab_and_the_instructor_grades_it_full(clone, page, tmp_path):
    learner = journey_commands("learner", clone)
    instructor = journey_commands("instructor", clone)
    collect = the_command(instructor, r"^python -m grader collect\b", "instructor")
    demo = the_command(instructor, r"^make demo\b", "instructor")
    release = the_command(instructor, r"^python -m grader release\b", "instructor")
    assert the_command(learner, r"^make lab$", "learner") == 0, learner  # the learner starts there
    for command in (*learner[1:], instructor[release], instructor[collect]):
        assert LESSON in command, f"the tutorial's command `{command}` is not about {LESSON}, which make lab opens"
    me = getpass.getuser()  # the learner, and the student id the lab hands in under
    terminal = Terminal(clone, newcomer_environment(clone, tmp_path / "home"), "learner")
    lab = None
    try:
        for command in instructor[:collect]:  # the instructor's set-up and the release
            terminal.type(command)

        port = free_port()
        lab = terminal.start(on_a_server(learner[0], port), "learner-make-lab")
        page.goto(lab.address(port))
        status = page.locator("#jp-main-statusbar")
        expect(status).to_contain_text(KERNEL_IDLE, timeout=120_000)
        panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
        expect(page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")).to_contain_text(f"{LESSON}.ipynb")
        screenshot(page, "learner-1-lesson-opened", folder=ARTIFACTS)

        notebook = clone / "work" / LESSON / f"{LESSON}.ipynb"
        cells = nbformat.read(notebook, as_version=4).cells
        paste_the_answers(page, panel, cells, COURSE.reference_answers(LESSON))
        run_all(page, panel, code_cell_count(notebook))
        save(page, panel)
        first = COURSE.graded_functions(LESSON)[0]
        exercise = next(n for n, c in enumerate(cells) if c.metadata.get("nbgrader", {}).get("grade_id") == first)
        expect(go_to_cell(page, exercise + 1)).to_contain_text(f"✓ {first}: the public checks passed")  # its check
        go_to_cell(page, exercise)  # the exercise on screen, its check under it
        screenshot(page, "learner-2-first-exercise-checked", folder=ARTIFACTS)

        panel.locator(".validate-button").get_by_text("Validate").click()
        dialog = page.locator(DIALOG).filter(has_text="Validation Results")
        expect(dialog).to_contain_text("Success! Your notebook passes all the tests.", timeout=180_000)
        screenshot(page, "learner-3-validate", folder=ARTIFACTS)
        dialog.get_by_role("button").last.click()
        expect(page.locator(DIALOG)).to_have_count(0)

        totals = [re.search(r"^Total: (\S+) / (\S+)$", terminal.type(command), re.M) for command in learner[1:]]
        assert totals and all(total and total[1] == total[2] for total in totals), totals  # make check: full marks

        page.get_by_role("menuitem", name="Nbgrader", exact=True).click()
        page.locator(".lm-Menu").get_by_text("Assignment List", exact=True).click()
        downloaded = page.locator("#fetched_assignments_list").locator(".list_item", has_text=LESSON).first
        downloaded.get_by_role("button", name="Submit").click()
        expect(page.locator("#submitted_assignments_list").locator(".list_item", has_text=LESSON)).to_be_visible()
        screenshot(page, "learner-4-handed-in", folder=ARTIFACTS)
        lab.stop()

        said = "".join(terminal.type(command) for command in instructor[collect:demo])
        counted = r"^The class: 1 student\(s\), 1 lesson\(s\): .* 1 graded, 0 could not be read; 0 missing\.$"
        assert re.search(counted, said, re.M), said
    finally:
        if lab is not None:
            lab.stop()
        terminal.close()

    grading = clone / ".grading"
    with open(grading / "exports" / "grades.csv", newline="") as grades:
        (row,) = list(csv.DictReader(grades))
    (column,) = [name for name in row if name.startswith(f"{LESSON} (")]
    assert row["student"] == me and row[column] == re.fullmatch(rf"{LESSON} \((\d+)\)", column)[1], row
    full = row[column]
    assert {total[2] for total in totals} == {full}, (totals, full)  # what make check said
    page.goto((grading / "feedback-html" / f"{me}.html").as_uri())
    expect(page.locator("body")).to_contain_text(f"Total: {full} / {full} over 1 lesson(s): 1 graded.")
    screenshot(page, "learner-5-feedback-page", folder=ARTIFACTS)
    page.goto((grading / "report.html").as_uri())
    expect(page.locator("p.lede")).to_contain_text("1 graded, 0 could not be read; 0 missing.")
    screenshot(page, "learner-6-class-report", folder=ARTIFACTS)
