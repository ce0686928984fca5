"""Wrong guesses for a lesson's predictions: what the proof and the simulated classes hand in for them.

A wrong guess is one of the answers the prediction's visible check takes (its `choices`) whose
digest is not the one its hidden test stores; both are read from the tests cell's code, never run.
"""

from __future__ import annotations

import ast

from grader.course import Course, read_cached
from grader.learner.predictions import digest


def call_arguments(source: str, name: str) -> list[ast.Call]:
    """The calls of `name` in a cell's code."""
    return [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    ]


def choices_of(source: str) -> list:
    """The answers a prediction's tests cell says it takes: check_guess's `choices`, a literal or a range."""
    [call] = call_arguments(source, "check_guess")
    given = next((k.value for k in call.keywords if k.arg == "choices"), call.args[2] if len(call.args) > 2 else None)
    if isinstance(given, ast.Call) and isinstance(given.func, ast.Name) and given.func.id == "range":
        return list(range(*(ast.literal_eval(a) for a in given.args)))
    if given is None:
        raise ValueError("check_guess is given no choices")
    return list(ast.literal_eval(given))


def stored_digest(source: str) -> str:
    """The digest a prediction's hidden test compares the guess with."""
    [call] = call_arguments(source, "check_prediction")
    return ast.literal_eval(call.args[2])


def wrong_guesses(course: Course, lesson: str) -> dict[str, str]:
    """{guess cell: the code of a wrong but well-formed guess} for every prediction of the lesson."""
    tests = {
        c.metadata.nbgrader.grade_id: c.source
        for c in read_cached(course.source_notebook(lesson)).cells
        if c.metadata.get("nbgrader", {}).get("grade")
    }
    found = {}
    for prediction, variable in course.predictions(lesson).items():
        source = tests[prediction]
        wrong = next(c for c in choices_of(source) if digest(prediction, c) != stored_digest(source))
        found[variable] = f"{variable} = {wrong!r}\n"
    return found
