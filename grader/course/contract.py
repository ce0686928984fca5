"""Each graded function's contract, as the list of properties its hidden tests check.

A property is declared where it is tested: a line in a hidden test cell of the lesson's
source,

    # property forbidden: the weights do not depend on forbidden scores at all

defines it (once per function), and `# property forbidden` in another hidden test cell of
the same function says that cell checks it too. The test cell belongs to the function its
marker names (`function="..."`, kept by authoring as the cell's "function" metadata). The
catalogue's misconceptions say which properties they break (`Misconception.breaks`), which
is how the tests show that every property has a hidden test that an implementation
breaking it fails.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from grader.course.directory import Course, read_cached

PROPERTY = re.compile(r"^\s*#\s*property\s+([a-z][a-z0-9_]*)\s*(?::\s*(\S.*))?$")
BEGIN, END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"


class ContractError(ValueError):
    """A lesson's property lines are malformed: a property defined twice, or used but never defined."""


@dataclass
class Property:
    """One promise of a graded function, and the hidden test cells that check it."""

    function: str
    id: str
    text: str = ""
    tests: list[str] = field(default_factory=list)


def tested_functions(course: Course, lesson: str) -> dict[str, str]:
    """{test cell grade_id: the function it tests} for one lesson, as each test cell's marker names it."""
    nb = read_cached(course.source_notebook(lesson))
    return {
        c.metadata.nbgrader.grade_id: c.metadata.get("function")
        for c in nb.cells
        if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata.nbgrader.get("solution")
    }


def function_of_test(course: Course, grade_id: str, lesson: str) -> str | None:
    """The graded function the test cell `grade_id` of `lesson` tests, or None for no such test cell."""
    return tested_functions(course, lesson).get(grade_id)


def hidden_and_visible(source: str) -> tuple[list[str], list[str]]:
    """A test cell's lines between its hidden-test markers, and those outside them (markers left out)."""
    hidden: list[str] = []
    visible: list[str] = []
    inside = False
    for line in source.splitlines():
        if line.strip() in (BEGIN, END):
            inside = line.strip() == BEGIN
        else:
            (hidden if inside else visible).append(line)
    return hidden, visible


def hidden_lines(source: str) -> list[str]:
    """The lines of a test cell between its hidden-test markers."""
    return hidden_and_visible(source)[0]


def properties(course: Course, lesson: str) -> dict[str, dict[str, Property]]:
    """{function: {property id: Property}} for one lesson, read from its source notebook."""
    nb = read_cached(course.source_notebook(lesson))
    functions = course.graded_functions(lesson)
    found: dict[str, dict[str, Property]] = {f: {} for f in functions}
    tested = tested_functions(course, lesson)
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if not meta.get("grade") or meta.get("solution"):
            continue
        function = tested[meta["grade_id"]]
        for line in hidden_lines(cell.source):
            match = PROPERTY.match(line)
            if not match:
                continue
            if function not in found:
                raise ContractError(f"{lesson}: {meta['grade_id']} declares a property but tests no graded function")
            pid, text = match.groups()
            prop = found[function].setdefault(pid, Property(function, pid))
            if text:
                if prop.text:
                    raise ContractError(f"{lesson}: property {function}.{pid} is defined twice")
                prop.text = text.strip()
            if meta["grade_id"] not in prop.tests:
                prop.tests.append(meta["grade_id"])
    for function, props in found.items():
        for prop in props.values():
            if not prop.text:
                raise ContractError(f"{lesson}: property {function}.{prop.id} is used but never defined")
    return found


def course_properties(course: Course) -> dict[str, dict[str, Property]]:
    """Every lesson's contracts: {function: {property id: Property}}."""
    merged = {}
    for lesson in course.lesson_ids():
        merged.update(properties(course, lesson))
    return merged


# The learner's side of the contracts: the ids of each graded function's properties, as data the learner room
# reads (grader.learner.properties names a broken one). Written by `python -m grader.course.contract`;
# tests/unit/learner/test_properties.py fails when the lessons' properties and this file drift apart.
LEARNER_CONTRACTS = "grader/learner/contracts.py"


def learner_contracts(course: Course) -> str:
    """The source of grader/learner/contracts.py for `course`: {function: (property id, ...)}, sorted."""
    lines = [
        '"""Each graded function\'s promised properties, by id: made from the lessons\' hidden tests by',
        "`python -m grader.course.contract` (see grader.course.contract); do not edit by hand.",
        '"""',
        "",
        "PROPERTIES = {",
    ]
    for function, found in course_properties(course).items():
        ids = [json.dumps(pid) for pid in sorted(found)]
        line = f"    {json.dumps(function)}: ({', '.join(ids)}),"
        # as `ruff format` writes it: one line when it fits, else one id a line
        lines += (
            [line]
            if len(line) <= 120
            else [f"    {json.dumps(function)}: (", *[f"        {i}," for i in ids], "    ),"]
        )
    return "\n".join([*lines, "}", ""])


if __name__ == "__main__":
    from pathlib import Path

    here = Course(Path(__file__).resolve().parent.parent.parent)
    (here.root / LEARNER_CONTRACTS).write_text(learner_contracts(here))
    print(f"wrote {LEARNER_CONTRACTS}")
