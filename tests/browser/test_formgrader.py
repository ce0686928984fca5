"""An instructor opens formgrader from JupyterLab's Nbgrader menu and sees the class's scores."""

import os
import re
import subprocess
import sys

import nbformat
import pytest
from nbgrader.api import Gradebook
from playwright.sync_api import expect

from grader.course import Course, text_source_in
from tests.browser.conftest import lab_tree, make_lab, screenshot
from tests.support import COURSE

LESSON = "01_naive_division"
# Three students: everything right, nothing done, and the first function only.
STUDENTS = {"ada": ("Ada", "Okafor"), "bo": ("Bo", "Lindqvist"), "cy": ("Cy", "Marín")}


def answers(student: str) -> dict[str, str]:
    reference = COURSE.reference_answers(LESSON)
    return {"ada": reference, "bo": {}, "cy": dict(list(reference.items())[:1])}[student]


def grader_cli(root, *args) -> None:
    """One instructor step through the course's own command line."""
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    run = subprocess.run(
        [sys.executable, "-m", "grader", "--course", str(root), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory, chromium):
    """A course directory with the lesson released and three students' work collected and graded."""
    root = lab_tree(tmp_path_factory.mktemp("class") / "course")
    source = text_source_in(root, LESSON)
    source.parent.mkdir(parents=True)
    source.write_text(COURSE.text_source(LESSON).read_text())
    grader_cli(root, "release", LESSON, "--no-exchange")
    downloads = root.parent / "downloads"
    for student in STUDENTS:
        (downloads / student).mkdir(parents=True)
        nbformat.write(COURSE.learner_notebook(LESSON, answers(student)), downloads / student / f"{LESSON}.ipynb")
    grader_cli(root, "collect", "--from", str(downloads))
    grader_cli(root, "grade", "--jobs", "2")
    with Gradebook(Course(root).nbgrader_config().CourseDirectory.db_url) as gradebook:
        for student, (first, last) in STUDENTS.items():
            gradebook.update_or_create_student(student, first_name=first, last_name=last)
        scores = {s: gradebook.find_submission(LESSON, s).score for s in STUDENTS}
        max_score = gradebook.find_assignment(LESSON).max_score
    return root, scores, max_score


@pytest.fixture
def instructor_lab(graded_class):
    server = make_lab(graded_class[0], target="lab-instructor")
    yield server
    server.stop()


def test_formgrader_shows_each_students_score(tab, graded_class, instructor_lab):
    _, scores, max_score = graded_class
    assert scores["ada"] == max_score > 0 and scores["bo"] == 0 and 0 < scores["cy"] < max_score
    tab.goto(instructor_lab.url("lab?reset"))
    tab.get_by_role("menuitem", name="Nbgrader", exact=True).click()
    tab.get_by_role("menuitem", name="Formgrader", exact=True).click()
    formgrader = tab.frame_locator("iframe[src*='formgrader']")
    formgrader.get_by_role("link", name="Manage Students").click()
    rows = formgrader.locator("table tbody tr")
    expect(rows).to_have_count(len(STUDENTS))
    for student, (first, last) in STUDENTS.items():
        row = rows.filter(has=formgrader.locator("td:nth-child(2)", has_text=re.compile(f"^{student}$")))
        expect(row).to_contain_text(f"{last}, {first}")
        expect(row).to_contain_text(f"{scores[student]:g} / {max_score:g}")
    screenshot(tab, "formgrader-students")
