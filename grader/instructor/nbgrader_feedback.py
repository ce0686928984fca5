"""nbgrader's own feedback (formgrader's Generate Feedback, `nbgrader generate_feedback`) with each failed hidden
test withheld as the course's feedback pages withhold it (grader.course.feedback_policy).

That feedback is the autograded notebook made into a page. nbgrader_config.py has ClearHiddenTests take the hidden
tests' code out of it; their outputs stay, and a failed check's output says what it called and expected. Listed
before ClearHiddenTests in `c.GenerateFeedback.preprocessors`, WithholdHiddenInputs puts in their place what a row
of the course's own page says while the lesson's hidden tests are withheld.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import NbGraderPreprocessor

from grader.course import Course
from grader.course.feedback_policy import NEVER, HiddenTestFeedback
from grader.engine.scores import TestResult, cell_message, cell_mistakes
from grader.engine.testrunner import error_output
from grader.instructor.feedback import withheld_message
from grader.instructor.results import Withheld, hidden_tests, latest_due_date

FAILED = "CheckFailed"  # the error a withheld test's output shows, as a failed check's does


def failed(cell) -> bool:
    """Whether a test cell's outputs fail it as nbgrader scores them: an error, or anything written to stderr."""
    return any(
        o.get("output_type") == "error" or (o.get("output_type") == "stream" and o.get("name") == "stderr")
        for o in cell.get("outputs", [])
    )


class WithholdHiddenInputs(NbGraderPreprocessor):
    """While a lesson's hidden tests are withheld (HiddenTestFeedback and the gradebook's due date), each failed
    hidden test's outputs become the message the course's feedback page gives it."""

    def preprocess(self, nb, resources):
        lesson = resources["nbgrader"]["assignment"]
        with Gradebook(resources["nbgrader"]["db_url"]) as gradebook:
            try:
                due = latest_due_date(gradebook.find_assignment(lesson))
            except MissingEntry:
                due = None
        policy = HiddenTestFeedback(parent=self)
        if policy.shows_inputs(lesson, due, datetime.now(UTC).replace(tzinfo=None)):
            return nb, resources
        course = Course(Path(self.config.CourseDirectory.get("root") or os.getcwd()))
        withheld = Withheld(due, policy.policy(lesson) == NEVER, hidden_tests(course, lesson))
        for cell in nb.cells:
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id in withheld.tests and cell.get("cell_type") == "code" and failed(cell):
                test = TestResult(grade_id, 0.0, 0.0, False, cell_message(cell), cell_mistakes(cell))
                message = withheld_message(lesson, test, withheld.tests[grade_id], withheld)
                cell.outputs = [nbformat.from_dict(error_output(FAILED, message))]
        return nb, resources
