"""The grading service's policy (`python -m grader serve`), lesson by lesson: a setting of the course's
nbgrader_config.py.

When a student's feedback is released: at once, for every graded hand-in (`every_submission`, the default), or only
once the lesson's due date has passed (`after_due`: the hand-in is graded at once, its page released after the due
date, nbgrader's, with the latest extension any student has; never while the lesson has none). And how many of a
student's hand-ins of a lesson are graded: `attempts` (0, the default, is no limit); one past the limit is not graded
(grader.instructor.attempts says which, for the service and `collect` alike):

    c.GradingService.feedback = "every_submission"                                  # every lesson
    c.GradingService.attempts = 0
    c.GradingService.lessons = {"05_stable_softmax": {"feedback": "after_due", "attempts": 3}}  # those that differ

The due date and the late penalty are nbgrader's own settings (`nbgrader db assignment add LESSON --duedate=...`,
`c.LateSubmissionPlugin.penalty_method`), read by the grading as nbgrader's autograde reads them.
"""

from __future__ import annotations

from datetime import datetime

from traitlets import Dict, Enum, Int, TraitError, Unicode, validate
from traitlets.config import Configurable

EVERY_SUBMISSION, AFTER_DUE = "every_submission", "after_due"
RELEASES = (EVERY_SUBMISSION, AFTER_DUE)


class GradingService(Configurable):
    """When the grading service releases a lesson's feedback, and how many hand-ins it grades (the module's
    docstring)."""

    feedback = Enum(
        RELEASES,
        default_value=EVERY_SUBMISSION,
        help="Every lesson's release of feedback: 'every_submission' releases each graded hand-in's page at once; "
        "'after_due' grades at once and releases the page once the lesson's due date (the latest of any student's "
        "extension) has passed, never while the lesson has no due date.",
    ).tag(config=True)
    attempts = Int(
        0,
        min=0,
        help="Every lesson's number of a student's hand-ins that are graded; a later hand-in is not graded. "
        "0: no limit.",
    ).tag(config=True)
    lessons = Dict(
        key_trait=Unicode(),
        value_trait=Dict(),
        help="Lesson id -> {'feedback': ..., 'attempts': ...}, for the lessons whose policy differs (either key may "
        "be left out: that setting is then every lesson's).",
    ).tag(config=True)

    @validate("lessons")
    def _valid_lessons(self, proposal):
        """Each lesson's settings are feedback and attempts only, each a value the course-wide setting could take."""
        for lesson, settings in proposal["value"].items():
            unknown = set(settings) - {"feedback", "attempts"}
            if unknown:
                raise TraitError(f"GradingService.lessons[{lesson!r}] sets {sorted(unknown)}: only feedback, attempts")
            if settings.get("feedback", EVERY_SUBMISSION) not in RELEASES:
                raise TraitError(f"GradingService.lessons[{lesson!r}]['feedback'] must be one of {list(RELEASES)}")
            limit = settings.get("attempts", 0)
            if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
                raise TraitError(f"GradingService.lessons[{lesson!r}]['attempts'] must be a whole number >= 0")
        return proposal["value"]

    def release(self, lesson: str) -> str:
        """EVERY_SUBMISSION or AFTER_DUE for `lesson`."""
        return self.lessons.get(lesson, {}).get("feedback", self.feedback)

    def attempt_limit(self, lesson: str) -> int:
        """How many of a student's hand-ins of `lesson` are graded; 0: no limit."""
        return self.lessons.get(lesson, {}).get("attempts", self.attempts)

    def releases_now(self, lesson: str, due: datetime | None, now: datetime) -> bool:
        """Whether a graded hand-in's feedback of `lesson` is released `now`: always under EVERY_SUBMISSION; under
        AFTER_DUE once `due` (the latest due date of any student, naive UTC as nbgrader keeps it) is past."""
        return self.release(lesson) == EVERY_SUBMISSION or (due is not None and now > due)
