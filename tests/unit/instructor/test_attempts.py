"""The limit of graded attempts (grader.instructor.attempts), one rule for the grading service and `collect` by hand:
a hand-in is over a limit of N when N earlier hand-ins of its student and lesson were graded, done in the service's
journal, or, with no journal, the first N by receipt are graded. The journal is read as the service writes it, and
never written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from grader.instructor.attempts import accepted, attempts_note, journal_graded, over_limit
from grader.instructor.journal import DONE, FAILED, Journal

pytestmark = pytest.mark.fast  # make test-fast: starts no kernel and runs no nbgrader

START = datetime(2026, 12, 7, 9, tzinfo=UTC)
LESSON = "01_naive_division"


def at(minutes: int) -> datetime:
    return START + timedelta(minutes=minutes)


HAND_INS = [(at(minutes), f"ada+{LESSON}+{minutes}+x") for minutes in (30, 0, 10, 20)]  # in any order


def folders(kept) -> list[str]:
    return [folder for _, folder in kept]


def test_without_a_journal_the_first_hand_ins_by_receipt_are_graded():
    assert folders(accepted(HAND_INS, 2, None)) == [f"ada+{LESSON}+0+x", f"ada+{LESSON}+10+x"]
    assert folders(accepted(HAND_INS, 0, None)) == [folder for _, folder in sorted(HAND_INS)]  # no limit


def test_with_a_journal_only_those_graded_count():
    """The 0 was superseded or failed (no attempt used), the 10 and the 20 graded: under a limit of 2 the 30 is over
    it; with the 20 not graded yet (still waiting), the 30 is the second attempt."""
    assert folders(accepted(HAND_INS, 2, {f"ada+{LESSON}+10+x", f"ada+{LESSON}+20+x"})) == [
        f"ada+{LESSON}+0+x",
        f"ada+{LESSON}+10+x",
        f"ada+{LESSON}+20+x",
    ]
    assert f"ada+{LESSON}+30+x" in folders(accepted(HAND_INS, 2, {f"ada+{LESSON}+10+x"}))
    assert folders(accepted(HAND_INS, 1, {f"ada+{LESSON}+0+x"})) == [f"ada+{LESSON}+0+x"]


def test_the_service_and_collect_agree_on_the_journal_the_service_writes(tmp_path):
    grading = tmp_path / ".grading"
    assert journal_graded(grading) is None
    with Journal(grading) as journal:
        for received, folder in sorted(HAND_INS):
            journal.add(folder, "ada", LESSON, received.isoformat())
            journal.add(f"bo+{LESSON}+{folder}", "bo", LESSON, received.isoformat())  # another student's
            for claimed in journal.claim(most=2):  # ada's and bo's
                journal.finish(claimed.folder, FAILED if claimed.folder == folder and folder.endswith("+0+x") else DONE)
        recorded = journal.all()
    graded = journal_graded(grading)
    assert f"ada+{LESSON}+10+x" in graded and f"ada+{LESSON}+0+x" not in graded
    ada = [h for h in recorded if h.student == "ada"]
    for limit in (1, 2, 3):
        by_service = [h.folder for h in ada if not over_limit(h, recorded, limit)]
        assert by_service == folders(accepted(HAND_INS, limit, graded)), limit


def test_the_journal_is_read_without_being_written(tmp_path):
    grading = tmp_path / ".grading"
    with Journal(grading) as journal:
        journal.add(f"ada+{LESSON}+0+x", "ada", LESSON, START.isoformat())
    before = {path.name: path.stat().st_mtime_ns for path in grading.iterdir()}
    assert journal_graded(grading) == set()
    # SQLite may leave the WAL's shared-memory files beside it, as any reader does; the journal is as it was
    assert {path.name: path.stat().st_mtime_ns for path in grading.iterdir() if path.name in before} == before


def test_the_page_says_how_many_more_hand_ins_will_be_graded_or_that_none_will():
    assert attempts_note("01", 1, 0) == ""  # no limit: nothing to say
    assert attempts_note("01", 1, 3) == "Graded hand-ins of 01: 1 of the 3 allowed; 2 more will be graded."
    assert (
        attempts_note("01", 3, 3)
        == "Graded hand-ins of 01: 3 of the 3 allowed; a later hand-in of it will not be graded."
    )
    assert attempts_note("01", 4, 3).startswith("Graded hand-ins of 01: 3 of the 3 allowed;")  # a limit lowered later
