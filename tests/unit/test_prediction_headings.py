"""A section that holds a graded prediction does not give its answer away in its heading.

The rule is kept simple so that anyone can apply it when writing a lesson: the heading over a graded
guess cell asks (it ends in "?"), or it is one of the neutral names below, each with the reason it
states nothing the guess asks for. Numbers such as "4." are left off, so that renumbering a lesson
does not touch this list.
"""

from __future__ import annotations

import re

import pytest

from grader.course.directory import read_cached
from tests.support import COURSE

NEUTRAL = {
    "The journey sentence": "names the example; the guess is the size of a weight, which it does not state",
    "The journey sentence, by hand": "names the example and its method, not the weight asked for",
    "Exercise: `is_distribution`": "names the function to write; the guess is whether 0.7 + 0.2 + 0.1 == 1.0",
    "Three choices, two temperatures": "names the setting; the guess is how much C keeps at T = 0.3",
    "Picture the masks": "names the figure; the guess is how many entries of the causal mask are allowed",
    "Weights and context vectors": "names the two results of the section; the guess is whether columns sum to 1",
    "Causal self-attention": "names the topic; the guess is whether cutting the sentence changes the context vectors",
    "Shift by the max, then add it back": "names the method derived above the question, not the number it yields",
    "Exercise: `cross_entropy`": "names the function to write; the guess is which row of a batch costs most",
}

HEADING = re.compile(r"^#{2,3} +(?:\d+\. +)?(.+?)\s*$", re.MULTILINE)


def headings_over_predictions(lesson: str) -> dict[str, str]:
    """{guess cell's grade_id: the heading of the section it is in, without its number}."""
    guesses = set(COURSE.predictions(lesson).values())
    found, heading = {}, ""
    for cell in read_cached(COURSE.source_notebook(lesson)).cells:
        if cell.cell_type == "markdown":
            titles = HEADING.findall(cell.source)
            heading = titles[-1] if titles else heading
        elif cell.metadata.get("nbgrader", {}).get("grade_id") in guesses:
            found[cell.metadata.nbgrader.grade_id] = heading
    return found


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_a_graded_prediction_s_heading_asks_rather_than_tells(lesson):
    headings = headings_over_predictions(lesson)
    assert len(headings) == len(COURSE.predictions(lesson))
    telling = {guess: title for guess, title in headings.items() if not title.endswith("?") and title not in NEUTRAL}
    assert telling == {}, "a heading over a graded prediction asks (ends in '?') or is in NEUTRAL with its reason"


def test_every_neutral_heading_is_still_over_a_graded_prediction():
    """An entry that no longer heads a prediction is dropped, so the list stays small."""
    used = {heading for lesson in COURSE.lesson_ids() for heading in headings_over_predictions(lesson).values()}
    assert set(NEUTRAL) - used == set()
