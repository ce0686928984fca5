"""The mistakes learners are known to make, which the checks use to name a learner's mistake.

Each lesson has a module `lesson_NN.py` naming its `LESSON` and holding
- MISCONCEPTIONS: wrong implementations that real learners write, each with a one-line
  description a learner understands and a hint. When a check fails, the checks run them on
  the input that failed and name the one the learner's answer behaves like. `breaks` names
  the properties of the function's contract (declared in its hidden test cells) that the
  entry violates.
and optionally
- PROBES: {function: [(args, kwargs), ...]}, inputs on which the function's misconceptions
  differ from each other; when several give the learner's wrong answer, the one that agrees
  with the learner on the most probes is named.

These are wrong answers only, so they may sit in the learner's kernel. Every source is
self-contained: it defines its function using only `np` (NumPy) and `math`.
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


def lesson_modules(package: str, path) -> dict:
    """Lesson id -> module, for every `lesson_NN` module of `package` (found on `path`), in course order."""
    found = {}
    for info in sorted(pkgutil.iter_modules(path), key=lambda i: i.name):
        if info.name.startswith("lesson_"):
            module = importlib.import_module(f"{package}.{info.name}")
            found[module.LESSON] = module
    return found


@functools.cache
def lessons() -> dict:
    """Lesson id -> its module of misconceptions, in course order."""
    return lesson_modules(__name__, __path__)


def misconceptions(function: str | None = None, lesson: str | None = None) -> list[Misconception]:
    """Catalogued misconceptions, optionally of one function or one lesson."""
    return [
        m
        for lid, module in lessons().items()
        if lesson in (None, lid)
        for m in module.MISCONCEPTIONS
        if function in (None, m.function)
    ]


def probes(function: str | None) -> list[tuple[tuple, dict]]:
    """The inputs that tell `function`'s misconceptions apart (its lesson's PROBES), as (args, kwargs)."""
    found = []
    for module in lessons().values():
        for args, kwargs in getattr(module, "PROBES", {}).get(function, []):
            found.append((tuple(args), dict(kwargs)))
    return found


def lesson_of(entry: Misconception) -> str:
    """The lesson whose module holds `entry`."""
    for lid, module in lessons().items():
        if entry in module.MISCONCEPTIONS:
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
