"""An instructor opens formgrader (with the command the demo prints, or from JupyterLab's Nbgrader menu) and sees
the class's scores: the small demo class of tests/integration/test_demo.py, one run per test session."""

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from nbgrader.api import Gradebook
from playwright.sync_api import expect

from grader.course import Course
from tests.browser.conftest import Server, screenshot, started_by_make
from tests.support import SMALL_DEMO_LESSON, SMALL_DEMO_STUDENTS, once_per_run, run_small_demo

pytestmark = pytest.mark.xdist_group("demo")  # both tests read the demo build and share its server


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


@pytest.fixture(scope="module")
def demo_formgrader(demo_class, tmp_path_factory):
    """The printed command's server (JupyterLab with nbgrader's tools, landing on formgrader), for both tests."""
    server = start_printed_command(demo_class.command, demo_class.root, tmp_path_factory.mktemp("formgrader"))
    yield server
    server.stop()


def score(points: float, out_of: float) -> str:
    return f"{points:g} / {out_of:g}"


def shows_each_students_score(formgrader, demo_class: DemoClass):
    """Open Manage Students in `formgrader` (its page, or the frame JupyterLab shows it in) and check each student's
    row: name and overall score; return the rows."""
    formgrader.get_by_role("link", name="Manage Students").click()
    rows = formgrader.locator("table tbody tr")
    expect(rows).to_have_count(len(demo_class.students))
    for student, (first, last, points) in demo_class.students.items():
        row = rows.filter(has=formgrader.locator("td:nth-child(2)", has_text=re.compile(f"^{student}$")))
        expect(row).to_contain_text(f"{last}, {first}")
        expect(row).to_contain_text(score(points, demo_class.max_score))
    return rows


def test_the_demo_command_opens_formgrader_on_the_demo_class(tab, demo_class, demo_formgrader):
    assert len(demo_class.students) == SMALL_DEMO_STUDENTS and demo_class.submission_scores
    tab.goto(demo_formgrader.url(""))  # where the printed command's browser lands
    expect(tab).to_have_url(re.compile(r"/formgrader/manage_assignments"))
    lessons = tab.locator("table tbody tr")
    expect(lessons).to_have_count(1)
    expect(lessons).to_contain_text(SMALL_DEMO_LESSON)
    expect(lessons).to_contain_text("released")
    screenshot(tab, "demo-formgrader-assignments")

    rows = shows_each_students_score(tab, demo_class)
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


def test_formgrader_opens_from_jupyterlabs_nbgrader_menu_and_shows_each_students_score(
    tab, demo_class, demo_formgrader
):
    """The other way in: JupyterLab's Nbgrader menu, in the same server (it is JupyterLab, as `make lab-instructor`
    is; tests/browser/test_lab_learner.py sees the menu there)."""
    tab.goto(demo_formgrader.url("lab?reset"))
    tab.get_by_role("menuitem", name="Nbgrader", exact=True).click()
    tab.get_by_role("menuitem", name="Formgrader", exact=True).click()
    shows_each_students_score(tab.frame_locator("iframe[src*='formgrader']"), demo_class)
    screenshot(tab, "formgrader-students")
