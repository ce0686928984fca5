"""The code of each catalogued misconception: the wrong implementations real learners write.

Each lesson has a module `lesson_NN.py` naming its `LESSON` and holding SOURCES = {misconception id:
source}; the misconception's description, hint and probes are the learner room's
(grader/learner/hints/). The code stays here, on the instructor's side: many entries are the
reference with one line changed, and some are whole correct functions of another exercise. The
learner's side holds only what each does on fixed probes (grader.proof.fingerprints writes it).

Every source is self-contained: it defines its function using only `np` (NumPy) and `math`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from grader.learner import hints


@dataclass(frozen=True)
class Misconception:
    """A wrong implementation of `function` that a real learner writes: the learner room's record and its code.

    Also what a file given to `grader prove --entries` writes its own misconceptions with."""

    id: str
    function: str
    description: str
    hint: str
    source: str
    breaks: tuple[str, ...] = field(default=())


@functools.cache
def lessons() -> dict:
    """Lesson id -> its module of sources, in course order."""
    return hints.lesson_modules(__name__, __path__)


def with_source(entry: hints.Misconception) -> Misconception:
    """The learner room's record of a misconception, with its code."""
    sources = lessons()[hints.lesson_of(entry)].SOURCES
    return Misconception(entry.id, entry.function, entry.description, entry.hint, sources[entry.id], entry.breaks)


def misconceptions(function: str | None = None, lesson: str | None = None) -> list[Misconception]:
    """Catalogued misconceptions with their code, optionally of one function or one lesson, in catalogue order."""
    return [with_source(m) for m in hints.misconceptions(function, lesson)]


def lesson_of(entry: Misconception) -> str:
    """The lesson whose catalogue holds `entry`."""
    for lid, module in lessons().items():
        if module.SOURCES.get(entry.id) == entry.source:
            return lid
    raise KeyError(entry.id)


@functools.cache
def compiled(function: str, source: str):
    """The function `function` defined by `source`, which may use only `np` and `math`."""
    namespace = {"np": np, "math": math}
    exec(compile(source, f"<catalogue: {function}>", "exec"), namespace)  # noqa: S102 - our own catalogue text
    return namespace[function]


def implementation(entry) -> object:
    """The entry's function (a Misconception, or any entry with `function` and `source`), defined from its source."""
    return compiled(entry.function, entry.source)
