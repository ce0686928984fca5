"""The mistakes learners are known to make, which the checks use to name a learner's mistake.

Each lesson has a module `lesson_NN.py` naming its `LESSON` and holding
- MISCONCEPTIONS: the mistakes real learners make, each with a one-line description a learner
  understands and a hint. `breaks` names the properties of the function's contract (declared in
  its hidden test cells) that the mistake violates.
- PROBES: {function: [(args, kwargs), ...]}, fixed inputs on which the function's misconceptions
  differ from the reference and from each other.

What each misconception does on its function's probes is its fingerprint: `fingerprints/lesson_NN.json`,
computed from the catalogue's code (which stays on the instructor's side, grader/proof/catalogue/)
by `make fingerprints`. Only data sits here: no implementation of a graded function, right or wrong,
ever reaches a learner's kernel.
"""

from __future__ import annotations

import copy
import functools
import importlib
import json
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path

FINGERPRINTS = Path(__file__).parent / "fingerprints"


@dataclass(frozen=True)
class Misconception:
    """A mistake real learners make in `function`: what it is, and how to put it right (its code is the proof's)."""

    id: str
    function: str
    description: str
    hint: str
    breaks: tuple[str, ...] = field(default=(), kw_only=True)


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
    """The inputs that tell `function`'s misconceptions apart (its lesson's PROBES), as (args, kwargs).

    Each argument is a copy of its own: an array given twice (`(q, q)`) would be one array here and two in a
    grading kernel, where the learner's function runs, and an in-place change would tell them apart."""
    found = []
    for module in lessons().values():
        for args, kwargs in getattr(module, "PROBES", {}).get(function, []):
            found.append((tuple(map(copy.deepcopy, args)), {k: copy.deepcopy(v) for k, v in kwargs.items()}))
    return found


def lesson_of(entry: Misconception) -> str:
    """The lesson whose module holds `entry`."""
    for lid, module in lessons().items():
        if entry in module.MISCONCEPTIONS:
            return lid
    raise KeyError(entry.id)


def fingerprints_file(lesson: str) -> Path:
    """Where the lesson's fingerprints are written (`lesson` is its id, such as 01_naive_division)."""
    return FINGERPRINTS / f"lesson_{lesson[:2]}.json"


@functools.cache
def _fingerprints(lesson: str) -> dict:
    path = fingerprints_file(lesson)
    return json.loads(path.read_text()) if path.is_file() else {}


def fingerprints(function: str) -> dict[str, dict[int, dict]]:
    """Misconception id -> {probe index: its outcome there}, for each of `function`'s misconceptions, on the
    probes where it does not do what the reference does (see grader.proof.fingerprints for an outcome's form)."""
    found = {}
    for lesson, module in lessons().items():
        if any(m.function == function for m in module.MISCONCEPTIONS):
            recorded = _fingerprints(lesson).get("functions", {}).get(function, {})
            for ident, outcomes in recorded.get("misconceptions", {}).items():
                found[ident] = {int(index): outcome for index, outcome in outcomes.items()}
    return found


def reference_outcomes(function: str) -> dict[int, dict]:
    """Probe index -> the reference's outcome there, for each of `function`'s probes whose outcome is recorded."""
    for lesson, module in lessons().items():
        if any(m.function == function for m in module.MISCONCEPTIONS):
            recorded = _fingerprints(lesson).get("functions", {}).get(function, {})
            return {int(index): outcome for index, outcome in recorded.get("reference", {}).items()}
    return {}
