"""An instructor opens formgrader (from JupyterLab's Nbgrader menu, or with the command the demo prints) and sees
the class's scores."""

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook
from playwright.sync_api import expect

from grader.course import Course, text_source_in
from tests.browser.conftest import Server, lab_tree, make_lab, screenshot, started_by_make
from tests.support import COURSE, SMALL_DEMO_LESSON, SMALL_DEMO_STUDENTS, once_per_run, run_small_demo

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


# --- the demo class, opened with the command `python -m grader.proof.demo` prints -------------------------------


@dataclass
class DemoClass:
    """The demo's course directory, the command its summary ends with, and what its gradebook holds."""

    root: Path
    command: str
    students: dict[str, tuple[str, str, float]]  # id -> (first name, last name, overall score)
    max_score: float  # of the whole course, as Manage Students shows it
    submission_scores: list[float]  # of LESSON's graded submissions


@pytest.fixture(scope="module")
def demo_class(tmp_path_factory, chromium) -> DemoClass:
    """The small demo class of tests/integration/test_demo.py, from the same one run per test session."""
    folder = once_per_run(tmp_path_factory, "demo", run_small_demo)
    stdout = (folder / "stdout.txt").read_text()
    assert (folder / "returncode.txt").read_text() == "0", stdout + (folder / "stderr.txt").read_text()
    root = folder / "course"
    with Gradebook(Course(root).nbgrader_settings().CourseDirectory.db_url) as gradebook:
        students = {s.id: (s.first_name, s.last_name, s.score) for s in gradebook.students}
        max_score = sum(a.max_score for a in gradebook.assignments)
        submission_scores = sorted(s.score for s in gradebook.find_assignment(SMALL_DEMO_LESSON).submissions)
    return DemoClass(root, stdout.rstrip().splitlines()[-1].strip(), students, max_score, submission_scores)


def start_printed_command(command: str, course: Path, folder: Path) -> Server:
    """Run the demo's printed command for `course` as the instructor would (headless, its log in `folder`)."""
    words = shlex.split(command)
    assert words[0] == "make" and "formgrader" in words, command
    return started_by_make(words, folder, course, folder / "formgrader.log")


@pytest.fixture
def demo_formgrader(demo_class, tmp_path):
    server = start_printed_command(demo_class.command, demo_class.root, tmp_path)
    yield server
    server.stop()


def score(points: float, out_of: float) -> str:
    return f"{points:g} / {out_of:g}"


def test_the_demo_command_opens_formgrader_on_the_demo_class(tab, demo_class, demo_formgrader):
    assert len(demo_class.students) == SMALL_DEMO_STUDENTS and demo_class.submission_scores
    tab.goto(demo_formgrader.url(""))  # where the printed command's browser lands
    expect(tab).to_have_url(re.compile(r"/formgrader/manage_assignments"))
    lessons = tab.locator("table tbody tr")
    expect(lessons).to_have_count(1)
    expect(lessons).to_contain_text(SMALL_DEMO_LESSON)
    expect(lessons).to_contain_text("released")
    screenshot(tab, "demo-formgrader-assignments")

    tab.get_by_role("link", name="Manage Students").click()
    rows = tab.locator("table tbody tr")
    expect(rows).to_have_count(len(demo_class.students))
    for student, (first, last, points) in demo_class.students.items():
        row = rows.filter(has=tab.locator("td:nth-child(2)", has_text=re.compile(f"^{student}$")))
        expect(row).to_contain_text(f"{last}, {first}")
        expect(row).to_contain_text(score(points, demo_class.max_score))
    screenshot(tab, "demo-formgrader-students")
    best = max(demo_class.students, key=lambda student: demo_class.students[student][2])
    first, last, points = demo_class.students[best]
    best_row = rows.filter(has=tab.locator("td:nth-child(2)", has_text=re.compile(f"^{best}$")))
    best_row.get_by_role("link", name=f"{last}, {first}", exact=True).click()  # the student's lessons
    expect(tab).to_have_url(re.compile(f"/formgrader/manage_students/{best}$"))
    lesson_row = tab.locator("table tbody tr")
    expect(lesson_row).to_have_count(1)
    expect(lesson_row).to_contain_text(SMALL_DEMO_LESSON)
    expect(lesson_row).to_contain_text(score(points, demo_class.max_score))

    tab.get_by_role("link", name="Manual Grading").click()
    tab.locator("table tbody").get_by_role("link", name=SMALL_DEMO_LESSON, exact=True).click()  # the lesson's notebooks
    expect(tab).to_have_url(re.compile(f"/formgrader/gradebook/{SMALL_DEMO_LESSON}$"))
    tab.locator("table tbody").get_by_role(
        "link", name=SMALL_DEMO_LESSON, exact=True
    ).click()  # the notebook's submissions
    expect(tab).to_have_url(re.compile(f"/formgrader/gradebook/{SMALL_DEMO_LESSON}/{SMALL_DEMO_LESSON}$"))
    overall = tab.locator("table tbody tr td:nth-child(3)")
    expect(overall).to_have_count(len(demo_class.submission_scores))
    lesson_max = demo_class.max_score  # the demo grades one lesson
    assert sorted(overall.all_inner_texts()) == sorted(score(p, lesson_max) for p in demo_class.submission_scores)
    screenshot(tab, "demo-formgrader-submissions")

    tab.get_by_role("link", name="Submission #1", exact=True).click()  # the graded notebook, from autograded/
    expect(tab.get_by_text(f"Submission 1 / {len(demo_class.submission_scores)}")).to_be_visible()
    expect(tab.locator(".cell").first).to_be_visible()
    screenshot(tab, "demo-formgrader-graded-notebook")
