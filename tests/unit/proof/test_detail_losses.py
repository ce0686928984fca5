"""Points for ideas, measured: a catalogued mistake that breaks only input-type details (its `breaks` all in
grader.course.points.DETAILS) loses at most a fifth of its function's points when `grader prove` grades it.

tests/unit/course/test_points.py holds the split each function's test cells declare; this holds what grading
does, which a meaning cell that pins a dtype or calls with a plain list would break while the declared split
still held. Lesson 10 joins once its meaning cells compare values too (issue 43)."""

from __future__ import annotations

from grader.course import points
from grader.learner import hints
from tests.support import COURSE, by_id

LESSONS = [lesson for lesson in COURSE.lesson_ids() if lesson < "10"]
SPLITS = {function: split for lesson in LESSONS for function, split in points.splits(COURSE, lesson).items()}
DETAIL_ONLY = [
    m for lesson in LESSONS for m in hints.misconceptions(lesson=lesson) if m.breaks and set(m.breaks) <= points.DETAILS
]


def detail_offenders(proofs: dict) -> list[str]:
    """Each detail-only misconception graded in `proofs` that loses more than a fifth of its function's points."""
    graded = by_id(proofs)
    offenders = []
    for mistake in DETAIL_ONLY:
        if mistake.id not in graded:
            continue
        total = SPLITS[mistake.function].points
        lost = graded[mistake.id]["lost"]
        if lost > total * points.MAX_DETAIL_SHARE:
            offenders.append(f"{mistake.id} loses {lost:g} of {mistake.function}'s {total} points ({lost / total:.0%})")
    return offenders


def test_the_catalogue_has_detail_only_mistakes_to_measure():
    assert len(DETAIL_ONLY) > 50 and {m.function for m in DETAIL_ONLY} <= set(SPLITS)


def test_a_detail_only_mistake_loses_at_most_a_fifth_of_its_function_s_points(proofs):
    assert {m.id for m in DETAIL_ONLY} <= set(by_id(proofs))
    offenders = detail_offenders(proofs)
    assert not offenders, f"{len(offenders)} of {len(DETAIL_ONLY)} detail-only mistakes lose more than a fifth:\n" + (
        "\n".join(offenders)
    )
