"""The outcome table of docs/reference/hostile.md: each kind, the status and score `grader grade` gave it, after the
date and the machine it was graded on."""

from __future__ import annotations

from pathlib import Path

from grader.proof import pages
from testbed.hostile.kinds import KINDS
from testbed.hostile.lesson import COURSE, FULL

PAGE = COURSE.root / pages.REFERENCE / "hostile.md"
BEGIN, END = pages.markers("hostile", "python -m testbed.hostile --page")


def render(outcomes: dict[str, tuple[str, float | None]]) -> str:
    """The table: each kind, the status and score it got (of FULL)."""
    rows = ["| submission | status | score |", "|---|---|---|"]
    for kind in KINDS:
        got_status, got_score = outcomes[kind.student_id]
        score = "-" if got_score is None else f"{got_score:g} / {FULL:g}"
        rows.append(f"| {kind.what} | {got_status} | {score} |")
    return "\n".join(rows)


def graded_on(date: str, machine: dict) -> str:
    """The block's first line: when and where (as root, the only grading that runs every kind as a class meets it)."""
    return f"Graded by `python -m testbed.hostile` on {pages.measured_on(date, machine)}, as root, kernels isolated."


def table(page: Path = PAGE) -> str:
    """The table now on the page, without the block's first line."""
    return pages.block(page, BEGIN, END).split("\n", 1)[1].strip()


def write(outcomes: dict[str, tuple[str, float | None]], page: Path = PAGE) -> None:
    """Replace the page's outcome table with these outcomes, dated; the rest of the page stays as it is."""
    stamp = graded_on(pages.now(), pages.this_machine())
    pages.write_block(page, BEGIN, END, stamp + "\n\n" + render(outcomes))
