"""The misconception catalogue and the catalogue of correct alternatives.

Each lesson has a module `lesson_NN.py` naming its `LESSON` and holding two lists:
- MISCONCEPTIONS: wrong implementations that real learners write, each with a one-line
  description a learner understands and a hint. The checks run them on the input that
  failed and name the one the learner's answer behaves like. `breaks` names the
  properties of the function's contract (declared in its hidden test cells, see
  grader.contract) that the entry violates.
- ALTERNATIVES: correct implementations written the other ways learners write them.
and optionally
- PROBES: {function: [(args, kwargs), ...]}, inputs on which the function's misconceptions
  differ from each other; when several give the learner's wrong answer, the one that
  agrees with the learner on the most probes is named.
- EQUIVALENT_MUTANTS: {mutant id: reason}, mechanical mutants of the reference (see
  grader.mutate) that compute the same thing, so no test can tell them apart.

`grader prove` grades every entry with nbgrader to show that the tests catch each
misconception and accept each alternative. Every source is self-contained: it defines
its function using only `np` (NumPy) and `math`.
"""
from __future__ import annotations

import functools
import importlib
import math
import pkgutil
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Misconception:
    """A wrong implementation of `function` that a real learner writes."""

    id: str
    function: str
    description: str
    hint: str
    source: str
    breaks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Alternative:
    """A correct implementation of `function`, written another way than the reference."""

    id: str
    function: str
    description: str
    source: str


@functools.cache
def lessons() -> dict:
    """Lesson id -> its catalogue module, in course order."""
    found = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("lesson_"):
            module = importlib.import_module(f"{__name__}.{info.name}")
            found[module.LESSON] = module
    return found


def misconceptions(function: str | None = None, lesson: str | None = None) -> list[Misconception]:
    """Catalogued misconceptions, optionally of one function or one lesson."""
    return [m for lid, module in lessons().items() if lesson in (None, lid)
            for m in module.MISCONCEPTIONS if function in (None, m.function)]


def alternatives(function: str | None = None, lesson: str | None = None) -> list[Alternative]:
    """Catalogued correct alternatives, optionally of one function or one lesson."""
    return [a for lid, module in lessons().items() if lesson in (None, lid)
            for a in module.ALTERNATIVES if function in (None, a.function)]


def probes(function: str | None) -> list[tuple[tuple, dict]]:
    """The inputs that tell `function`'s misconceptions apart (its lesson's PROBES), as (args, kwargs)."""
    found = []
    for module in lessons().values():
        for args, kwargs in getattr(module, "PROBES", {}).get(function, []):
            found.append((tuple(args), dict(kwargs)))
    return found


def lesson_of(entry: Misconception | Alternative) -> str:
    """The lesson whose catalogue holds `entry`."""
    for lid, module in lessons().items():
        if entry in module.MISCONCEPTIONS or entry in module.ALTERNATIVES:
            return lid
    raise KeyError(entry.id)


@functools.cache
def _compiled(function: str, source: str):
    namespace = {"np": np, "math": math}
    exec(compile(source, f"<catalogue: {function}>", "exec"), namespace)  # noqa: S102 - our own catalogue text
    return namespace[function]


def implementation(entry: Misconception | Alternative):
    """The entry's function, defined from its source."""
    return _compiled(entry.function, entry.source)
