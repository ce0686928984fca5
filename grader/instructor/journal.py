"""The grading service's durable record of every hand-in it found in the exchange: an SQLite file beside the gradebook.

One row per inbound folder (its name is nbgrader's student+lesson+time+random, so unique), with the time of its
receipt read from that name, and its state:

    pending -> grading -> done (graded, its feedback released)
                       -> held -> done (graded, its feedback waiting for the lesson's due date)
    pending -> over_limit (past the lesson's limit of graded attempts; never graded)
    failed (with the reason), superseded (a newer hand-in of the same student and lesson came while it waited, or,
    held, a newer one's feedback was released in its place; never released)

Each change is one SQLite transaction, so a service killed at any moment leaves every row in one of these states;
`recover` puts back to pending what was left in `grading`. The instructor's pause is a row of its own: a paused
service goes on recording what comes, and grades nothing until it is resumed.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

FILE = "serve.sqlite"  # under the course's .grading/

PENDING, GRADING, DONE, FAILED, SUPERSEDED = "pending", "grading", "done", "failed", "superseded"
HELD, OVER_LIMIT = "held", "over_limit"
GRADED = (DONE, HELD)  # the states of a hand-in that was graded

SCHEMA = """
CREATE TABLE IF NOT EXISTS hand_ins (
    folder TEXT PRIMARY KEY,  -- the inbound folder's name
    student TEXT NOT NULL,
    lesson TEXT NOT NULL,
    received TEXT NOT NULL,   -- the exchange's receipt, UTC, ISO 8601 (sorts as it reads)
    state TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    changed TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS paused (
    since TEXT NOT NULL       -- at most one row: the service is paused since then
)
"""


@dataclass(frozen=True)
class HandIn:
    folder: str
    student: str
    lesson: str
    received: str
    state: str
    reason: str


def now() -> str:
    return datetime.now(UTC).isoformat()


class Journal:
    """The hand-ins of one course, opened from its .grading/ folder (use it in a `with`)."""

    def __init__(self, grading: Path):
        grading.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(grading / FILE, timeout=30, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(SCHEMA)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *_) -> None:
        self.db.close()

    def add(self, folder: str, student: str, lesson: str, received: str) -> bool:
        """Record a hand-in found in the exchange (False if it was already known); of the student's hand-ins of the
        lesson, only the newest received stays pending (one being graded or done counts as newer if it is)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            added = self.db.execute(
                "INSERT OR IGNORE INTO hand_ins VALUES (?, ?, ?, ?, ?, '', ?)",
                (folder, student, lesson, received, PENDING, now()),
            ).rowcount
            newest = self.db.execute(
                "SELECT folder FROM hand_ins WHERE student = ? AND lesson = ? AND state IN (?, ?, ?, ?) "
                "ORDER BY received DESC, folder DESC LIMIT 1",
                (student, lesson, PENDING, GRADING, DONE, HELD),
            ).fetchone()
            if newest is not None:
                self.db.execute(
                    "UPDATE hand_ins SET state = ?, reason = ?, changed = ? "
                    "WHERE student = ? AND lesson = ? AND state = ? AND folder != ?",
                    (SUPERSEDED, f"superseded by {newest[0]}", now(), student, lesson, PENDING, newest[0]),
                )
        return bool(added)

    def recover(self) -> int:
        """Put back to pending every hand-in left in `grading` (by a service that was killed); how many."""
        with self.db:
            return self.db.execute(
                "UPDATE hand_ins SET state = ?, changed = ? WHERE state = ?", (PENDING, now(), GRADING)
            ).rowcount

    def claim(self, most: int = 1) -> list[HandIn]:
        """Up to `most` pending hand-ins, first received first, now marked `grading` (at most one per student and
        lesson: `add` keeps only the newest pending); empty when none waits."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            rows = self.db.execute(
                "SELECT folder FROM hand_ins WHERE state = ? ORDER BY received, folder LIMIT ?", (PENDING, most)
            ).fetchall()
            self.db.executemany(
                "UPDATE hand_ins SET state = ?, changed = ? WHERE folder = ?", [(GRADING, now(), r[0]) for r in rows]
            )
        return [self.get(row[0]) for row in rows]

    def pause(self, paused: bool) -> None:
        """The instructor's pause (True) or resume (False) of grading."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM paused")
            if paused:
                self.db.execute("INSERT INTO paused VALUES (?)", (now(),))

    def paused_since(self) -> str | None:
        """When the instructor paused grading (UTC, ISO 8601); None when it is not paused."""
        row = self.db.execute("SELECT since FROM paused").fetchone()
        return row[0] if row else None

    def in_state(self, state: str) -> list[HandIn]:
        """The hand-ins in `state`, in the order received."""
        rows = self.db.execute(
            "SELECT folder, student, lesson, received, state, reason FROM hand_ins WHERE state = ? "
            "ORDER BY received, folder",
            (state,),
        )
        return [HandIn(*row) for row in rows]

    def counts(self) -> dict[str, int]:
        """How many hand-ins are in each state."""
        return dict(self.db.execute("SELECT state, COUNT(*) FROM hand_ins GROUP BY state").fetchall())

    def finish(self, folder: str, state: str, reason: str = "") -> None:
        """Set a hand-in's state (done, failed with a reason, or pending again)."""
        with self.db:
            self.db.execute(
                "UPDATE hand_ins SET state = ?, reason = ?, changed = ? WHERE folder = ?",
                (state, reason, now(), folder),
            )

    def get(self, folder: str) -> HandIn:
        row = self.db.execute(
            "SELECT folder, student, lesson, received, state, reason FROM hand_ins WHERE folder = ?", (folder,)
        ).fetchone()
        return HandIn(*row)

    def all(self) -> list[HandIn]:
        """Every hand-in recorded, in the order received."""
        rows = self.db.execute(
            "SELECT folder, student, lesson, received, state, reason FROM hand_ins ORDER BY received, folder"
        )
        return [HandIn(*row) for row in rows]
