"""Which of a student's hand-ins of a lesson are graded under the course's limit of attempts
(GradingService.attempts): one rule for the grading service and for `collect` by hand, so that `collect` + `grade`
give the score the service gave.

A hand-in is over a limit of N when N of the same student's hand-ins of the lesson received before it (by the
exchange's receipt) were graded. Graded means done or held in the service's journal (grader.instructor.journal): one
superseded or failed there used no attempt, and one the journal does not hold (the service has not seen it yet)
neither. With no journal (no service ever ran) every earlier hand-in counts, so the first N by receipt are graded.
By hand, `collect` then takes each student's latest hand-in among those within the limit.
"""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import datetime
from pathlib import Path

from grader.instructor.journal import FILE, GRADED, HandIn


def within_limit(graded_before: int, limit: int) -> bool:
    """Whether a hand-in with `graded_before` graded hand-ins of its lesson before it may be graded (limit 0: none)."""
    return not limit or graded_before < limit


def over_limit(hand_in: HandIn, recorded: list[HandIn], limit: int) -> bool:
    """Whether the service must leave `hand_in` ungraded: `recorded` (Journal.all()) holds `limit` hand-ins of its
    student and lesson done and received before it."""
    done = [
        h
        for h in recorded
        if (h.student, h.lesson) == (hand_in.student, hand_in.lesson)
        and h.state in GRADED
        and (h.received, h.folder) < (hand_in.received, hand_in.folder)
    ]
    return not within_limit(len(done), limit)


def accepted(hand_ins: list[tuple[datetime, str]], limit: int, graded: set[str] | None) -> list[tuple[datetime, str]]:
    """Of one student's hand-ins of one lesson, (receipt, inbound folder) each, those within `limit`, in receipt
    order; `graded` is the folders the journal holds done (journal_graded), None when there is no journal."""
    kept, used = [], 0
    for received, folder in sorted(hand_ins):
        if within_limit(used, limit):
            kept.append((received, folder))
        used += graded is None or folder in graded
    return kept


def attempts_note(lesson: str, used: int, limit: int) -> str:
    """What a student's feedback page says of the lesson's limit, once `used` of their hand-ins were graded ("" with no
    limit): how many more will be, or that none will."""
    if not limit:
        return ""
    left = max(limit - used, 0)
    then = f"{left} more will be graded" if left else "a later hand-in of it will not be graded"
    return f"Graded hand-ins of {lesson}: {min(used, limit)} of the {limit} allowed; {then}."


def journal_graded(grading: Path) -> set[str] | None:
    """The inbound folders the service's journal under `grading` (the course's .grading/) holds graded, read without
    writing; None when there is no journal."""
    path = grading / FILE
    if not path.is_file():
        return None
    with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=30)) as db:
        marks = ", ".join("?" * len(GRADED))
        return {folder for (folder,) in db.execute(f"SELECT folder FROM hand_ins WHERE state IN ({marks})", GRADED)}
