"""How a graded function's points divide between the meaning of its contract and input-type details.

Most points must reward the idea a function carries (the weights, their rows, their shapes, what they
leave unchanged), not the details a careful programmer also gets right: which dtype comes back for
which input, that nothing warns, that a buffer is reused, that the answer is a plain array or int.
So each function keeps at most a fifth of its points on details (`MAX_DETAIL_SHARE`).

A hidden test cell's points count as detail in proportion to the distinct properties it checks
(its `# property` lines, grader.course.contract) that are details: a 1-point cell checking `dtype`
and `unchanged` is 0.5 detail. A public cell, with no property lines, counts as meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from grader.course.contract import PROPERTY, hidden_lines, tested_functions
from grader.course.directory import Course, read_cached

DETAILS = frozenset({"dtype", "quiet", "reused_buffer", "returns_array", "returns_int"})
MAX_DETAIL_SHARE = Fraction(1, 5)


@dataclass(frozen=True)
class Split:
    """One graded function's points: its total, the part on details, and its number of test cells."""

    points: Fraction
    detail: Fraction
    cells: int

    @property
    def share(self) -> Fraction:
        """The part of the points on details, from 0 to 1."""
        return self.detail / self.points if self.points else Fraction(0)

    def within_rule(self) -> bool:
        return self.share <= MAX_DETAIL_SHARE


def cell_detail(points: Fraction, property_ids: set[str]) -> Fraction:
    """The part of a test cell's points on details: points × (details among its properties / its properties)."""
    if not property_ids:
        return Fraction(0)
    return points * len(property_ids & DETAILS) / len(property_ids)


def splits(course: Course, lesson: str) -> dict[str, Split]:
    """{graded function: its Split} for one lesson, in lesson order, from its source notebook."""
    tested = tested_functions(course, lesson)
    found = {function: Split(Fraction(0), Fraction(0), 0) for function in course.graded_functions(lesson)}
    for cell in read_cached(course.source_notebook(lesson)).cells:
        meta = cell.metadata.get("nbgrader", {})
        function = tested.get(meta.get("grade_id"))
        if not meta.get("grade") or meta.get("solution") or function not in found:
            continue
        points = Fraction(meta["points"])
        ids = {m[1] for m in map(PROPERTY.match, hidden_lines(cell.source)) if m}
        was = found[function]
        found[function] = Split(was.points + points, was.detail + cell_detail(points, ids), was.cells + 1)
    return found


def as_text(value: Fraction) -> str:
    """A number of points as docs/COURSE.md writes it: at most two decimals, no trailing zeros (2/3 is 0.67)."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def course_splits(course: Course) -> dict[str, Split]:
    """Every lesson's graded functions with their Split."""
    merged = {}
    for lesson in course.lesson_ids():
        merged.update(splits(course, lesson))
    return merged
