"""The grading service's journal: one pending hand-in per student and lesson, the newest; what a killed service left
in grading pending again; every state kept across a reopening (tests/integration/test_serve.py runs it for real)."""

from __future__ import annotations

import pytest

from grader.instructor.journal import DONE, FAILED, GRADING, PENDING, SUPERSEDED, Journal

pytestmark = pytest.mark.fast


def states(journal: Journal) -> dict[str, str]:
    return {hand_in.folder: hand_in.state for hand_in in journal.all()}


def claimed(journal: Journal) -> str:
    [hand_in] = journal.claim()
    return hand_in.folder


def test_the_newest_hand_in_of_a_student_and_lesson_is_the_one_left_pending(tmp_path):
    with Journal(tmp_path) as journal:
        assert journal.add("a2", "ada", "01", "2026-01-01T10:02:00+00:00")
        assert journal.add("a1", "ada", "01", "2026-01-01T10:01:00+00:00")  # found later, received earlier
        assert journal.add("b1", "bo", "01", "2026-01-01T10:00:00+00:00")
        assert journal.add("a3", "ada", "02", "2026-01-01T09:00:00+00:00")  # another lesson
        assert not journal.add("a2", "ada", "01", "2026-01-01T10:02:00+00:00")  # known already
        assert states(journal) == {"a1": SUPERSEDED, "a2": PENDING, "b1": PENDING, "a3": PENDING}
        assert journal.get("a1").reason == "superseded by a2"


def test_hand_ins_are_claimed_first_received_first_as_many_as_asked(tmp_path):
    with Journal(tmp_path) as journal:
        journal.add("c1", "cy", "01", "2026-01-01T10:09:00+00:00")
        journal.add("b1", "bo", "01", "2026-01-01T10:05:00+00:00")
        journal.add("a1", "ada", "01", "2026-01-01T10:00:00+00:00")
        assert claimed(journal) == "a1" and journal.get("a1").state == GRADING
        assert [h.folder for h in journal.claim(most=5)] == ["b1", "c1"]
        assert journal.claim() == []
        assert journal.counts() == {GRADING: 3}


def test_a_pause_is_kept_until_resumed_and_across_a_reopening(tmp_path):
    with Journal(tmp_path) as journal:
        assert journal.paused_since() is None
        journal.pause(True)
        since = journal.paused_since()
        journal.pause(True)  # paused twice is paused once
    with Journal(tmp_path) as reopened:
        assert reopened.paused_since() is not None and reopened.paused_since() >= since
        reopened.pause(False)
        assert reopened.paused_since() is None


def test_a_hand_in_coming_while_an_earlier_one_is_graded_waits_and_an_older_one_found_late_is_superseded(tmp_path):
    with Journal(tmp_path) as journal:
        journal.add("a2", "ada", "01", "2026-01-01T10:02:00+00:00")
        journal.claim()
        journal.add("a3", "ada", "01", "2026-01-01T10:03:00+00:00")
        journal.add("a1", "ada", "01", "2026-01-01T10:01:00+00:00")
        assert states(journal) == {"a1": SUPERSEDED, "a2": GRADING, "a3": PENDING}


def test_what_a_killed_service_left_in_grading_is_pending_at_the_next_start(tmp_path):
    with Journal(tmp_path) as journal:
        for folder in ("a1", "b1", "c1"):
            journal.add(folder, folder, "01", f"2026-01-01T10:00:0{len(folder)}+00:00")
        journal.finish(claimed(journal), DONE)
        journal.finish(claimed(journal), FAILED, "not collected")
        claimed(journal)
    with Journal(tmp_path) as reopened:  # as after kill -9: the states were written as they changed
        assert sorted(states(reopened).values()) == [DONE, FAILED, GRADING]
        assert reopened.recover() == 1
        assert sorted(states(reopened).values()) == [DONE, FAILED, PENDING]
        assert [h.reason for h in reopened.all() if h.state == FAILED] == ["not collected"]
