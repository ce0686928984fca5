"""Correct implementations written the other ways learners write them: the tests must accept each.

Each lesson has a module `lesson_NN.py` naming its `LESSON` and holding ALTERNATIVES and
optionally EQUIVALENT_MUTANTS = {mutant id: reason}: mechanical mutants of the reference
(see grader.proof.mutate) that compute the same thing, so no test can tell them apart.

These are solutions: they live in the proof room, which is never installed or mounted where
a learner's code runs. `grader prove` grades every entry with nbgrader.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from grader.learner import hints
from grader.proof import catalogue


@dataclass(frozen=True)
class Alternative:
    """A correct implementation of `function`, written another way than the reference."""

    id: str
    function: str
    description: str
    source: str


@functools.cache
def lessons() -> dict:
    """Lesson id -> its module of alternatives, in course order."""
    return hints.lesson_modules(__name__, __path__)


def alternatives(function: str | None = None, lesson: str | None = None) -> list[Alternative]:
    """Catalogued correct alternatives, optionally of one function or one lesson."""
    return [
        a
        for lid, module in lessons().items()
        if lesson in (None, lid)
        for a in module.ALTERNATIVES
        if function in (None, a.function)
    ]


def equivalent_mutants(lesson: str) -> dict[str, str]:
    """The lesson's mutants that compute what the reference computes: mutant id -> why."""
    module = lessons().get(lesson)
    return dict(getattr(module, "EQUIVALENT_MUTANTS", {}))


def lesson_of(entry: Alternative | catalogue.Misconception) -> str:
    """The lesson whose catalogue holds `entry` (an alternative or a misconception)."""
    for lid, module in lessons().items():
        if entry in module.ALTERNATIVES:
            return lid
    if isinstance(entry, Alternative):
        raise KeyError(entry.id)  # as catalogue.lesson_of does for an entry no catalogue holds
    return catalogue.lesson_of(entry)
