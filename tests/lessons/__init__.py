"""What the tests need to know about each lesson, one module per lesson (lesson_NN.py).

Each module defines
- NUMBERS: text the executed solution notebook must print (the numbers of COURSE.md);
- WRONG: wrong implementations a real learner writes, each a `Wrong`.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Wrong:
    """One wrong implementation of a graded function.

    It replaces the function's solution cell in an otherwise correct notebook. `loses`
    lists the test cells that must lose points; `named` is text the failing feedback must
    contain (the misconception named back to the learner), or None.
    """

    id: str
    function: str
    source: str
    loses: tuple[str, ...]
    named: str | None = None


def load(lesson: str):
    """The test-data module of a lesson id such as '01_naive_division'."""
    return importlib.import_module(f"tests.lessons.lesson_{lesson[:2]}")
