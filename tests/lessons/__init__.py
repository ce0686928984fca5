"""What the tests need to know about each lesson, one module per lesson (lesson_NN.py).

Each module defines NUMBERS: text the executed solution notebook must print (the numbers
of the course contract). Wrong implementations live in grader/learner/hints/, correct alternatives
in grader/proof/alternatives/.
"""

from __future__ import annotations

import importlib


def load(lesson: str):
    """The test-data module of a lesson id such as '01_naive_division'."""
    return importlib.import_module(f"tests.lessons.lesson_{lesson[:2]}")
