"""The grading service's policy (grader.course.service_policy), as a course's nbgrader_config.py sets it: when feedback
is released and how many hand-ins are graded, for every lesson and lesson by lesson; what this repository's own
nbgrader_config.py sets (the defaults); and a setting that cannot be used refused in one line."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from traitlets import TraitError
from traitlets.config import Config

from grader.course import Course, NotACourse
from grader.course.service_policy import AFTER_DUE, EVERY_SUBMISSION, GradingService
from tests.support import COURSE

pytestmark = pytest.mark.fast  # make test-fast: starts no kernel and runs no nbgrader

NOW = datetime(2026, 12, 7, 12, 0)
LESSON, OTHER = "05_stable_softmax", "01_naive_division"


def policy(**settings) -> GradingService:
    config = Config()
    for name, value in settings.items():
        setattr(config.GradingService, name, value)
    return GradingService(config=config)


def course_with(folder, settings: str) -> Course:
    folder.mkdir()
    (folder / "nbgrader_config.py").write_text((COURSE.root / "nbgrader_config.py").read_text() + settings)
    (folder / "solutions").mkdir()
    return Course(folder)


def test_by_default_every_hand_in_is_graded_and_its_feedback_released_at_once():
    default = policy()
    assert default.release(LESSON) == EVERY_SUBMISSION and default.attempt_limit(LESSON) == 0
    assert default.releases_now(LESSON, NOW + timedelta(days=7), NOW) and default.releases_now(LESSON, None, NOW)
    # this repository's nbgrader_config.py says the defaults
    assert COURSE.grading_service().release(LESSON) == EVERY_SUBMISSION
    assert COURSE.grading_service().attempt_limit(LESSON) == 0


def test_after_due_releases_once_the_due_date_is_past_and_never_without_one():
    after = policy(feedback=AFTER_DUE)
    assert not after.releases_now(LESSON, NOW + timedelta(seconds=1), NOW)
    assert not after.releases_now(LESSON, NOW, NOW)
    assert after.releases_now(LESSON, NOW - timedelta(seconds=1), NOW)
    assert not after.releases_now(LESSON, None, NOW)


def test_a_lesson_s_own_settings_win_over_the_course_s_and_either_may_be_left_out():
    mixed = policy(attempts=5, lessons={LESSON: {"feedback": AFTER_DUE}, OTHER: {"attempts": 2}})
    assert (mixed.release(LESSON), mixed.attempt_limit(LESSON)) == (AFTER_DUE, 5)
    assert (mixed.release(OTHER), mixed.attempt_limit(OTHER)) == (EVERY_SUBMISSION, 2)
    assert (mixed.release("06_masking"), mixed.attempt_limit("06_masking")) == (EVERY_SUBMISSION, 5)


def test_the_course_reads_its_nbgrader_config(tmp_path):
    course = course_with(
        tmp_path / "course",
        f'\nc.GradingService.feedback = "{AFTER_DUE}"\nc.GradingService.lessons = {{"{OTHER}": {{"attempts": 3}}}}\n',
    )
    service = course.grading_service()
    assert (service.release(LESSON), service.release(OTHER), service.attempt_limit(OTHER)) == (AFTER_DUE, AFTER_DUE, 3)


@pytest.mark.parametrize(
    "settings",
    [
        {"feedback": "never"},
        {"attempts": -1},
        {"lessons": {LESSON: {"feedback": "weekly"}}},
        {"lessons": {LESSON: {"attempts": -2}}},
        {"lessons": {LESSON: {"attempts": "3"}}},
        {"lessons": {LESSON: {"tries": 3}}},
    ],
)
def test_a_setting_that_cannot_be_used_is_refused(settings, tmp_path):
    with pytest.raises(TraitError):
        policy(**settings)
    [(name, value)] = settings.items()
    course = course_with(tmp_path / "course", f"\nc.GradingService.{name} = {value!r}\n")
    with pytest.raises(NotACourse, match="GradingService"):
        course.grading_service()
