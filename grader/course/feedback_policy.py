"""What a student's feedback may show of a failed hidden test: a setting of the course's nbgrader_config.py.

A hidden test's inputs and expected values, once shown, can be copied into a lookup table and
handed in again. So while a lesson can still be handed in — before its due date (nbgrader's, with
the latest extension any student has), and always when it has none — a student's page names the
mistake and the properties the test checks, never what it called and expected. After the due date
it shows them too (`after_due`, the default) or still not (`never`), lesson by lesson:

    c.HiddenTestFeedback.show_inputs = "after_due"                   # every lesson
    c.HiddenTestFeedback.lessons = {"05_stable_softmax": "never"}    # the lessons that differ

The course's pages (grader.instructor.feedback) and nbgrader's own feedback (grader.instructor.nbgrader_feedback)
follow it; the instructor's views (the report, formgrader's view of a submission, the autograded notebooks) show
everything.
"""

from __future__ import annotations

from datetime import datetime

from traitlets import Dict, Enum, Unicode
from traitlets.config import Configurable

AFTER_DUE, NEVER = "after_due", "never"
POLICIES = (AFTER_DUE, NEVER)


class HiddenTestFeedback(Configurable):
    """When a student's feedback shows what a failed hidden test called and expected (see the module's docstring)."""

    show_inputs = Enum(
        POLICIES,
        default_value=AFTER_DUE,
        help="Every lesson's policy: 'after_due' shows a failed hidden test's inputs and expected values once the "
        "lesson's due date has passed for every student (never when it has no due date); 'never' never shows them.",
    ).tag(config=True)
    lessons = Dict(
        key_trait=Unicode(),
        value_trait=Enum(POLICIES),
        help="Lesson id -> 'after_due' or 'never', for the lessons whose policy differs from show_inputs.",
    ).tag(config=True)

    def policy(self, lesson: str) -> str:
        """AFTER_DUE or NEVER for `lesson`."""
        return self.lessons.get(lesson, self.show_inputs)

    def shows_inputs(self, lesson: str, due: datetime | None, now: datetime) -> bool:
        """Whether pages written `now` show the inputs and expected values of `lesson`'s failed hidden tests: only
        under AFTER_DUE, once `due` (the latest due date of any student, naive UTC as nbgrader keeps it) is past."""
        return self.policy(lesson) == AFTER_DUE and due is not None and now > due
