"""The catalogue's fingerprints: what each misconception does on its function's probes, as plain data for the
learner's side (grader/learner/hints/fingerprints/lesson_NN.json), so that no code of it ships there.

A misconception's fingerprint holds its outcome on each probe where that outcome is not the reference's (the
course's solution), and each function's record holds the reference's outcome on every probe; a check that fails
names a misconception when the learner's function does what it does on every probe: its mistake where it differs,
the reference's answer elsewhere (grader.learner.checks). `python -m grader.proof.fingerprints` (`make
fingerprints`) writes them; a test fails when the written ones drift from what the catalogue computes.
"""

from __future__ import annotations

import ast
import json
import math
import random
import sys
import warnings
from pathlib import Path

import numpy as np

from grader.course import Course, read_cached
from grader.learner import checks, hints
from grader.proof import catalogue

COURSE_ROOT = Path(__file__).resolve().parents[2]  # the course the catalogue is of: this repository's


def references(course: Course, lesson: str) -> dict:
    """Function name -> the course's own solution of it, for each function the lesson grades.

    Every function the lesson's notebook defines outside its tests is defined first, in the notebook's order (a
    solution may call a function given in a cell above it, as attention_weights calls masked_softmax)."""
    namespace: dict = {"np": np, "math": math}
    for cell in read_cached(course.source_notebook(lesson)).cells:
        grading = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or (grading.get("grade") and not grading.get("solution")):
            continue
        defined: list[ast.stmt] = [node for node in ast.parse(cell.source).body if isinstance(node, ast.FunctionDef)]
        code = compile(ast.Module(body=defined, type_ignores=[]), f"<{lesson}>", "exec")
        exec(code, namespace)  # noqa: S102 - the course's own notebook
    return {function: namespace[function] for function in course.graded_functions(lesson)}


def outcomes(fn, probes) -> list[dict]:
    """`fn`'s outcome on each probe (checks.probe_outcome), with NumPy's and Python's random state seeded first,
    so that a misconception drawing from them gives the same outcome at every build."""
    found = []
    for args, kwargs in probes:
        np.random.seed(0)
        random.seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found.append(checks.probe_outcome(fn, args, kwargs))
    return found


def compute(course: Course, lesson: str) -> dict:
    """The lesson's fingerprints: {"lesson", "functions": {function: {"probes": how many, "reference": {probe index:
    outcome}, "misconceptions": {id: {probe index: outcome}}}}}, probe indices as text (JSON's keys)."""
    functions = {}
    for function, reference in references(course, lesson).items():
        probes = hints.probes(function)
        wrong = {m.id: catalogue.implementation(m) for m in catalogue.misconceptions(function, lesson)}
        functions[function] = {
            "probes": len(probes),
            "reference": reference_outcomes(reference, probes),
            "misconceptions": fingerprints_of(reference, wrong, probes),
        }
    return {"lesson": lesson, "functions": functions}


def reference_outcomes(reference, probes) -> dict[str, dict]:
    """{probe index (as text): outcome} of the reference on each probe, but for an outcome too large to record."""
    return {
        str(index): outcome
        for index, outcome in enumerate(outcomes(reference, probes))
        if len(json.dumps(outcome)) <= checks.LARGE_OUTCOME
    }


def fingerprints_of(reference, wrong: dict, probes) -> dict[str, dict[str, dict]]:
    """{id: {probe index (as text): outcome}} of each wrong implementation in `wrong` ({id: function}): its
    outcomes on the probes where they are not `reference`'s."""
    expected = outcomes(reference, probes)
    found = {}
    for ident, implementation in wrong.items():
        got = outcomes(implementation, probes)
        found[ident] = {
            str(index): differs
            for index, ((args, kwargs), outcome, right) in enumerate(zip(probes, got, expected, strict=True))
            if (differs := checks.fingerprint(outcome, right, checks.input_scale(args, kwargs))) is not None
        }
    return found


def as_text(fingerprints: dict) -> str:
    """The JSON text written for a lesson (keys sorted, one outcome a line is too long: indented)."""
    return json.dumps(fingerprints, indent=1, sort_keys=True, allow_nan=False) + "\n"


def write(course: Course, lessons: list[str] | None = None) -> list[str]:
    """Write the fingerprints of the given lessons (default: all) into the learner room; the files written."""
    written = []
    hints.FINGERPRINTS.mkdir(exist_ok=True)
    for lesson in lessons or course.lesson_ids():
        path = hints.fingerprints_file(lesson)
        path.write_text(as_text(compute(course, lesson)))
        written.append(str(path))
    return written


def main(argv: list[str]) -> int:
    """`python -m grader.proof.fingerprints [LESSON ...]`: write the fingerprints of this repository's course."""
    course = Course(COURSE_ROOT)
    unknown = [lesson for lesson in argv if lesson not in course.lesson_ids()]
    if unknown:
        print(f"unknown lesson(s): {', '.join(unknown)}; known: {', '.join(course.lesson_ids())}", file=sys.stderr)
        return 2
    for path in write(course, argv or None):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
