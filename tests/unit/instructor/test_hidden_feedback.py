"""What a student's feedback page shows of a failed hidden test (grader.course.feedback_policy): before the
lesson's due date, with none set, or under the setting "never", the mistake and the properties the test checks,
never what it called and expected; after the due date under "after_due", everything. The instructor's report
shows everything always.

Lesson 01 is graded for real (a kernel, the hidden tests) for a student whose naive_normalize divides by the whole
array's total, and recorded in a course directory by hand (tests/results_by_hand.py)."""

from __future__ import annotations

import html
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import nbformat
import pytest
from nbgrader.api import Gradebook

from grader.course import Course
from grader.engine import scores
from grader.engine.sandbox import autograde_sandboxed
from grader.instructor.feedback import student_page
from grader.instructor.report import write_report
from grader.instructor.results import Student, class_results
from grader.proof.catalogue import misconceptions
from grader.proof.prove import as_notebook_code
from tests.results_by_hand import Graded, course_by_hand
from tests.support import COURSE, run_apart, tools_env

pytestmark = pytest.mark.xdist_group("hidden-feedback")  # its tests share a module-scoped fixture (tests/conftest.py)

LESSON, STUDENT = "01_naive_division", "cy"
WHOLE_ARRAY = next(m for m in misconceptions() if m.id == "naive_sums_whole_array")
# test_naive_normalize_rows's first hand-picked input, [[1.0, 2.0, 5.0], [4.0, 4.0, 2.0]], and what it expects, as
# a check's message shows them
HIDDEN_INPUT, HIDDEN_EXPECTED = "[[1., 2., 5.], [4., 4., 2.]]", "[[0.125, 0.25 , 0.625]"
AFTER_DUE, NEVER = "after_due", "never"  # the settings' values (grader.course.feedback_policy)
ROWS_PROPERTY = "each row is divided by its own sum over the last axis (hand-picked and generated rows)"
PUBLIC_EXPECTED = "expected: [[0.25, 0.75]"  # the failed public test's: [[1, 3], [2, 2]] row by row


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The course directory with the student's submission graded for real, and the settings it was written with."""
    answers = {**COURSE.reference_answers(LESSON), "naive_normalize": as_notebook_code(WHOLE_ARRAY.source)}
    sandboxed = run_apart(autograde_sandboxed, COURSE, LESSON, COURSE.learner_notebook(LESSON, answers))
    autograded = nbformat.reads(sandboxed.autograded, as_version=4)
    root = tmp_path_factory.mktemp("hidden-feedback")
    course = course_by_hand(COURSE, root, [LESSON], {(STUDENT, LESSON): Graded(autograded)})
    return course, (root / "nbgrader_config.py").read_text()


def page(graded, due: datetime | None, settings: str = "", extension: timedelta | None = None) -> str:
    """The student's page as a student reads it, with the lesson due at `due` (naive UTC, as nbgrader keeps it),
    `settings` added to nbgrader_config.py and the student's extension of the due date."""
    course, config = graded
    (course.root / "nbgrader_config.py").write_text(config + settings)
    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gradebook:
        gradebook.update_or_create_assignment(LESSON, duedate=due)
        gradebook.find_submission(LESSON, STUDENT).extension = extension
        gradebook.db.commit()
    return html.unescape(student_page(class_results(Course(course.root)), Student(STUDENT)))


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def hidden_lines_of_messages(graded) -> list[str]:
    """Every line of the failed hidden tests' messages, as the instructor's views keep them, that says what a test
    called, expected or got (the mistakes and hints left out)."""
    report = class_results(graded[0]).report(STUDENT, LESSON)
    # the details cell fails on its visible lines, the public cell's list calls, which the learner sees
    visible = {"test_naive_normalize_public", "test_naive_normalize_details"}
    failed = [t for t in report.tests if not t.passed and t.grade_id not in visible]
    assert len(failed) >= 4 and all(t.mistakes == [WHOLE_ARRAY.description] for t in failed), failed
    lines = [line.strip() for t in failed for line in t.message.splitlines()]
    return [line for line in lines if line and not line.startswith(("likely mistake:", "hint:"))]


def test_before_the_due_date_a_failed_hidden_test_names_the_mistake_and_property_but_not_its_input(graded):
    due = now() + timedelta(days=7)
    shown = page(graded, due)
    assert WHOLE_ARRAY.description in shown and WHOLE_ARRAY.hint in shown
    assert ROWS_PROPERTY in shown and "A hidden test of naive_normalize. It checks:" in shown
    assert f"shown here after the due date, {due:%Y-%m-%d %H:%M} UTC" in shown
    assert HIDDEN_INPUT not in shown and HIDDEN_EXPECTED not in shown
    secret = hidden_lines_of_messages(graded)
    assert not [line for line in secret if line in shown]


def test_the_public_tests_keep_their_messages(graded):
    assert PUBLIC_EXPECTED in page(graded, now() + timedelta(days=7))


def test_without_a_due_date_hidden_inputs_stay_hidden(graded):
    shown = page(graded, None)
    assert ROWS_PROPERTY in shown and "after the lesson's due date (none is set yet)" in shown
    assert HIDDEN_INPUT not in shown and HIDDEN_EXPECTED not in shown


def test_after_the_due_date_under_after_due_the_page_shows_what_the_hidden_tests_called_and_expected(graded):
    shown = page(graded, now() - timedelta(hours=1), f'\nc.HiddenTestFeedback.show_inputs = "{AFTER_DUE}"\n')
    assert HIDDEN_INPUT in shown and HIDDEN_EXPECTED in shown
    assert all(line in shown for line in hidden_lines_of_messages(graded))
    assert "A hidden test of" not in shown and WHOLE_ARRAY.description in shown


def test_a_students_extension_keeps_them_hidden_from_everyone(graded):
    shown = page(graded, now() - timedelta(hours=1), extension=timedelta(days=2))
    assert HIDDEN_INPUT not in shown and ROWS_PROPERTY in shown


def test_never_keeps_them_hidden_after_the_due_date_for_the_whole_course_or_one_lesson(graded):
    past = now() - timedelta(days=1)
    for settings in (
        f'\nc.HiddenTestFeedback.show_inputs = "{NEVER}"\n',
        f'\nc.HiddenTestFeedback.lessons = {{"{LESSON}": "{NEVER}"}}\n',
    ):
        shown = page(graded, past, settings)
        assert HIDDEN_INPUT not in shown and HIDDEN_EXPECTED not in shown, settings
        assert ROWS_PROPERTY in shown and "this lesson's hidden tests stay hidden" in shown, settings
    shown = page(graded, past, f'\nc.HiddenTestFeedback.lessons = {{"06_masking": "{NEVER}"}}\n')
    assert HIDDEN_INPUT in shown


def test_the_instructors_report_shows_everything_before_the_due_date(graded, tmp_path):
    page(graded, now() + timedelta(days=7))
    write_report(class_results(graded[0]), tmp_path / "report.html")
    report = html.unescape((tmp_path / "report.html").read_text(encoding="utf-8"))
    assert WHOLE_ARRAY.description in report
    results = class_results(graded[0])
    rows = next(t for t in results.report(STUDENT, LESSON).tests if t.grade_id == "test_naive_normalize_rows")
    assert HIDDEN_INPUT in rows.message and HIDDEN_EXPECTED in rows.message  # what the instructor's views read


def nbgrader_feedback(graded, due: datetime | None, settings: str = "") -> str:
    """The page nbgrader's own generate_feedback (formgrader's Generate Feedback) makes of the student's notebook,
    with the course's nbgrader_config.py, the lesson due at `due` and `settings`, as a student reads it."""
    page(graded, due, settings)
    course, _ = graded
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", "generate_feedback", LESSON, "--force"],
        cwd=course.root,
        env=tools_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    made = course.root / ".grading" / "feedback" / STUDENT / LESSON / f"{LESSON}.html"
    return html.unescape(made.read_text(encoding="utf-8"))


def test_nbgrader_s_own_feedback_withholds_them_as_the_pages_do(graded):
    before = nbgrader_feedback(graded, now() + timedelta(days=7))
    assert HIDDEN_INPUT not in before and HIDDEN_EXPECTED not in before
    assert ROWS_PROPERTY in before and WHOLE_ARRAY.description in before and PUBLIC_EXPECTED in before
    after = nbgrader_feedback(graded, now() - timedelta(hours=1))
    assert HIDDEN_INPUT in after and HIDDEN_EXPECTED in after and "A hidden test of" not in after


def test_a_policy_the_setting_does_not_know_is_refused():
    from traitlets import TraitError
    from traitlets.config import Config

    from grader.course.feedback_policy import HiddenTestFeedback

    config = Config()
    config.HiddenTestFeedback.show_inputs = "always"
    with pytest.raises(TraitError):
        HiddenTestFeedback(config=config)


# ----------------------------------------------------------------- hints a withheld row takes only from the check

CHECKS_OWN_HINT = "return bool(...)"


def test_a_withheld_row_takes_a_hint_from_the_checks_own_last_lines_never_from_the_learners_text():
    from grader.instructor.feedback import check_hints

    described = "answered with a NumPy bool"  # no catalogued misconception: the hint comes from the message
    forged = f"  likely mistake: {described}\n  hint: [[1., 2., 5.], [4., 4., 2.]]"
    message = f"f(x) raised ValueError: bad\n{forged}\n  likely mistake: {described}\n  hint: {CHECKS_OWN_HINT}"
    test = scores.TestResult("test_x", 0.0, 1.0, False, message, [described])
    assert check_hints(LESSON, test) == {described: CHECKS_OWN_HINT}
    clipped = scores.TestResult(
        "test_x",
        0.0,
        1.0,
        False,
        f"f(x) raised ValueError: bad\n{forged} [... clipped: 9 more characters]",
        [described],
    )
    assert check_hints(LESSON, clipped) == {}  # the check's own lines were cut off: no hint rather than the learner's
    catalogued = scores.TestResult(
        "test_x", 0.0, 1.0, False, f"{forged.replace(described, WHOLE_ARRAY.description)}", [WHOLE_ARRAY.description]
    )
    assert check_hints(LESSON, catalogued) == {WHOLE_ARRAY.description: WHOLE_ARRAY.hint}
