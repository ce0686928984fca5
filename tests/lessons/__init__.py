"""What the tests need to know about each lesson, one module per lesson (lesson_NN.py).

Each module defines NUMBERS: text the executed solution notebook must print (the numbers
of COURSE.md). Wrong and correct alternative implementations live in grader/catalogue/.
"""
from __future__ import annotations

import importlib


def load(lesson: str):
    """The test-data module of a lesson id such as '01_naive_division'."""
    return importlib.import_module(f"tests.lessons.lesson_{lesson[:2]}")
