"""Points for ideas: each graded function keeps at most a fifth of its points on input-type details (dtypes and
integer widths, warnings, reused buffers, the plain type returned), counted from its test cells' property lines by
grader/course/points.py, the numbers docs/COURSE.md states."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grader.course import points, read_cached
from tests.support import COURSE

SPLITS = points.course_splits(COURSE)


@pytest.mark.parametrize("function", sorted(SPLITS))
def test_at_most_a_fifth_of_a_function_s_points_are_on_details(function):
    split = SPLITS[function]
    assert split.within_rule(), (
        f"{function}: {points.as_text(split.detail)} of its {split.points} points on details "
        f"({float(split.share):.0%}), more than a fifth"
    )


def test_a_cell_counts_as_detail_in_proportion_to_its_detail_properties():
    assert points.cell_detail(Fraction(1), {"dtype", "unchanged"}) == Fraction(1, 2)
    assert points.cell_detail(Fraction(2), {"quiet", "reused_buffer", "value"}) == Fraction(4, 3)
    assert points.cell_detail(Fraction(1), {"dtype", "quiet"}) == 1
    assert points.cell_detail(Fraction(3), {"value", "shapes"}) == 0
    assert points.cell_detail(Fraction(2), set()) == 0  # a public cell: no property lines, all meaning


def test_a_function_s_split_adds_up_its_cells():
    split = points.splits(COURSE, "05_stable_softmax")["stable_softmax"]
    cells = [
        c
        for c in read_cached(COURSE.source_notebook("05_stable_softmax")).cells
        if c.metadata.get("function") == "stable_softmax" and c.metadata.get("nbgrader", {}).get("grade")
    ]
    assert split.cells == len(cells)
    assert split.points == sum(c.metadata.nbgrader.points for c in cells)
    assert 0 < split.detail < split.points


def test_shares_are_written_as_short_numbers():
    assert [points.as_text(Fraction(n, d)) for n, d in ((1, 1), (3, 4), (2, 3), (6, 5), (0, 1))] == [
        "1",
        "0.75",
        "0.67",
        "1.2",
        "0",
    ]
