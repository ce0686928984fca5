"""A learner hands in, from `make lab`'s Assignments tab, the lesson they solved in work/; the instructor on the same
machine collects and grades it, and it has full marks (docs/tutorials/first-lesson.md, "Hand it in"; first-class.md).

nbgrader's tab fetched into, and submitted from, a folder of its own in the checkout, which the lab does not show:
a learner whose work/ lesson scored 15 of 15 was graded 0.
"""

from __future__ import annotations

import csv
import getpass
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

from grader.course import RELEASE, SOLUTIONS, workspace
from tests.browser.conftest import lab_tree, make_lab, screenshot
from tests.browser.jupyterlab import KERNEL_IDLE, save
from tests.support import COURSE

SOLVED, FETCHED = COURSE.lesson_ids()[:2]  # solved and handed in; deleted from work/, then fetched again
NO_SETTINGS = "No nbgrader_config.py file found"  # nbgrader's warning, which a learner can do nothing about
# A line Jupyter ("[W 2026-..."), nbgrader ("[NbGrader | WARNING]") or a kernel ("[IPKernelApp] WARNING") logs
WARNING_LINE = re.compile(
    r"^\[(?:[WEC] |[^\]\n]*\b(?:WARNING|ERROR|CRITICAL)\b|[^\]\n]*\] (?:WARNING|ERROR|CRITICAL)\b)", re.M
)


def instructor(course: Path, *args: str) -> str:
    """`python -m grader ARGS` in the course directory, as docs/howto/run-a-class.md gives it."""
    run = subprocess.run(
        [sys.executable, "-m", "grader", *args], cwd=course, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout


def solve(work: Path, lesson: str) -> None:
    """Write the reference answers into the learner's copy of `lesson`, as a learner typing them would, and save."""
    path = work / lesson / f"{lesson}.ipynb"
    nb = nbformat.read(path, as_version=4)
    answers = COURSE.reference_answers(lesson)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") in answers:
            cell.source = answers[cell.metadata.nbgrader.grade_id]
    nbformat.write(nb, path)
    workspace.trust([path])  # as the lab's save signs what it writes (its log would say the file is not trusted)


def files_under(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def course(tmp_path, chromium) -> Path:
    """A throw-away course directory with lessons 01 and 02 released to its exchange by the instructor."""
    folder = lab_tree(tmp_path / "course")
    shutil.copytree(COURSE.root / SOLUTIONS, folder / SOLUTIONS, dirs_exist_ok=True)
    shutil.copytree(COURSE.root / RELEASE, folder / RELEASE)
    instructor(folder, "release", SOLVED, FETCHED)
    return folder


def test_the_assignments_tab_hands_in_the_lesson_solved_in_work(tab, course):
    lab = make_lab(course)
    try:
        work = lab.root
        assert work == course / workspace.DEFAULT_FOLDER
        solve(work, SOLVED)
        shutil.rmtree(work / FETCHED)  # the learner deleted lesson 02's folder

        # The address `make lab` prints opens lesson 01, solved; its setup cell, run, shows nothing.
        tab.goto(lab.url(""))
        expect(tab.locator("#jp-main-statusbar")).to_contain_text(KERNEL_IDLE, timeout=120_000)
        setup = tab.locator(".jp-CodeCell", has_text="point_at_stubs()")
        setup.locator(".jp-InputArea-editor").click()
        tab.keyboard.press("Control+Enter")
        expect(setup.locator(".jp-InputPrompt")).to_have_text(re.compile(r"\[1\]:"), timeout=120_000)
        expect(tab.locator("#jp-main-statusbar")).to_contain_text(KERNEL_IDLE)  # its outputs have all come
        expect(setup.locator(".jp-OutputArea-output")).to_have_count(0)
        screenshot(tab, "lab-setup-cell-run")
        save(tab, tab.locator(".jp-NotebookPanel:not(.lm-mod-hidden)"))  # as the tutorial says to, before a hand-in
        before = files_under(work)  # what the learner has, saved: JupyterLab has nothing left to save on its own
        expect(tab.locator(".jp-DirListing-item", has_text=SOLVED)).to_be_visible()  # the file browser shows work/

        tab.get_by_role("menuitem", name="Nbgrader", exact=True).click()
        tab.locator(".lm-Menu").get_by_text("Assignment List", exact=True).click()
        fetched, released = tab.locator("#fetched_assignments_list"), tab.locator("#released_assignments_list")
        submitted = tab.locator("#submitted_assignments_list")
        # The lesson in work/ is there to submit; the one no longer in work/ is there to fetch.
        solved_row = fetched.locator(".list_item", has_text=SOLVED).first
        expect(solved_row.get_by_role("button", name="Submit")).to_be_visible()
        expect(released.locator(".list_item", has_text=FETCHED).get_by_role("button", name="Fetch")).to_be_visible()
        expect(submitted).to_contain_text("There are no submitted assignments")
        screenshot(tab, "lab-assignments-tab")

        # Validate from the tab: the very notebook in work/, solved.
        solved_row.locator(".assignment-notebooks-link").click()
        fetched.locator(".nested_list_item", has_text=SOLVED).get_by_role("button", name="Validate").click()
        dialog = tab.locator(".jp-Dialog").filter(has_text="Validation Results")
        expect(dialog).to_contain_text("Success! Your notebook passes all the tests.", timeout=120_000)
        dialog.get_by_role("button").last.click()
        expect(tab.locator(".jp-Dialog")).to_have_count(0)

        released.locator(".list_item", has_text=FETCHED).get_by_role("button", name="Fetch").click()
        expect(fetched.locator(".list_item", has_text=FETCHED).get_by_role("button", name="Submit")).to_be_visible()
        assert (work / FETCHED / f"{FETCHED}.ipynb").is_file()  # fetched into work/, where the lab shows it

        solved_row.get_by_role("button", name="Submit").click()
        expect(submitted.locator(".list_item", has_text=SOLVED)).to_be_visible()
        screenshot(tab, "lab-assignments-tab-handed-in")
        log = (course / "jupyter-lab.log").read_text()  # before the server is stopped, which it logs as critical
    finally:
        lab.stop()

    # Nothing the learner had was written over; nbgrader made no folder of its own in the checkout.
    after = files_under(work)
    assert {name: after[name] for name in before} == before
    assert not (course / COURSE.nbgrader_settings().CourseDirectory.course_id).exists()
    # A quiet log: nbgrader found its settings, and no warning, error or critical line at all.
    assert NO_SETTINGS not in log
    assert not WARNING_LINE.findall(log), log

    # The instructor collects and grades it on the same machine: full marks.
    instructor(course, "collect", SOLVED)
    instructor(course, "grade")
    instructor(course, "export")
    with open(course / ".grading" / "exports" / "grades.csv", newline="") as grades:
        (row,) = [r for r in csv.DictReader(grades) if r["student"] == getpass.getuser()]
    (column,) = [name for name in row if name.startswith(f"{SOLVED} (")]
    full = re.fullmatch(rf"{SOLVED} \((\d+)\)", column)[1]
    assert row[column] == full, row
