"""Build a lesson's nbgrader source notebook from its jupytext text source.

Lessons are written as jupytext percent-format files with short cell markers:

    # %% nbgrader="solution" grade_id="naive_normalize"
    # %% nbgrader="tests" grade_id="test_naive_normalize_rows" points=2 function="naive_normalize"
    # %% nbgrader="readonly" grade_id="setup"

and this module expands each marker into the metadata nbgrader expects. A tests cell names
the function it tests (`function=`, kept as the cell's "function" metadata), which must be the
grade_id of one of the lesson's solution cells, and is worth `points`, a number greater than 0
and at most MOST_POINTS.

Code that a later lesson reuses from an earlier one is written once, in the earlier lesson's
solution cell. A line

    # << reference masked_softmax from 06_masking >>

in a code cell of a later lesson is replaced, at build time, by that solution cell's
reference code (without its BEGIN/END SOLUTION lines), indented as the line is.

The build also writes what the learner's release needs to look finished: the kernel's
`language_info` (which JupyterLab would otherwise add on opening, and then ask to save), and, in
a tests cell that is hidden tests only (a blank locked cell in the release), a visible comment
saying what those tests check (the statements of its `# property` lines) and when they run.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import jupytext
import nbformat

from grader.course.contract import PROPERTY, hidden_and_visible, hidden_lines
from grader.course.directory import Course, lesson_ids_in, text_source_in

CELL_KINDS = {
    "solution": {"solution": True, "grade": False, "locked": False},
    "tests": {"solution": False, "grade": True, "locked": True},
    "readonly": {"solution": False, "grade": False, "locked": True},
}
# Metadata that only jupytext uses; it has no place in the built notebook.
JUPYTEXT_ONLY = ("lines_to_next_cell", "lines_to_end_of_cell_marker", "title")
MOST_POINTS = 10  # a tests cell worth more is a typo, not a design
SOLUTION_LINES = ("### BEGIN SOLUTION", "### END SOLUTION")
REFERENCE = re.compile(r"^(?P<indent>\s*)#\s*<<\s*reference\s+(?P<function>\w+)\s+from\s+(?P<lesson>[\w.-]+)\s*>>\s*$")
LOOKS_LIKE_REFERENCE = re.compile(r"^\s*#\s*<<")
# What ipykernel reports for the course's Python (the one the release is built and tested with). The release
# carries it so that an untouched lesson opens unmodified; `python -m grader workspace` writes the learner's
# own kernel's into the working copies, so a learner on another Python sees no change either.
LANGUAGE_INFO = {
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
    "version": "3.11.7",
}


class AuthoringError(ValueError):
    """A lesson's text source has a malformed cell marker, reference marker or points value."""


def references_of(lesson: str, root: Path) -> dict[str, str]:
    """{function: its reference code} for each solution cell of `lesson`'s text source, as a learner would type it."""
    nb = jupytext.read(text_source_in(root, lesson))
    return {
        c.metadata.get("grade_id"): "\n".join(
            line for line in c.source.splitlines() if line.strip() not in SOLUTION_LINES
        )
        for c in nb.cells
        if c.metadata.get("nbgrader") == "solution"
    }


def lessons_needed(root: Path, lessons: list[str]) -> list[str]:
    """The lessons and every earlier lesson their reference markers take code from (transitively), in course order."""
    needed, todo = set(), list(lessons)
    while todo:
        lesson = todo.pop()
        if lesson in needed:
            continue
        needed.add(lesson)
        text = text_source_in(root, lesson).read_text()
        todo += [match["lesson"] for match in map(REFERENCE.match, text.splitlines()) if match]
    return sorted(needed)


def with_references(source: str, lesson: str, root: Path | None, where: str) -> str:
    """`source` with every reference marker replaced by the earlier lesson's reference code."""
    if not any(LOOKS_LIKE_REFERENCE.match(line) for line in source.splitlines()):
        return source
    lines = []
    for line in source.splitlines():
        match = REFERENCE.match(line)
        if match is None:
            if LOOKS_LIKE_REFERENCE.match(line):
                raise AuthoringError(
                    f"{where}: malformed reference marker {line.strip()!r}; "
                    "write `# << reference <function> from <lesson> >>`"
                )
            lines.append(line)
            continue
        earlier, function = match["lesson"], match["function"]
        known = lesson_ids_in(root) if root is not None else []
        if root is None or earlier not in known:
            raise AuthoringError(
                f"{where}: reference to unknown lesson {earlier!r} "
                f"(lessons: {', '.join(known) or 'none, no course directory given'})"
            )
        if not earlier < lesson:
            raise AuthoringError(f"{where}: a reference comes from an earlier lesson; {earlier} is not before {lesson}")
        references = references_of(earlier, root)
        if function not in references:
            raise AuthoringError(
                f"{where}: {earlier} has no solution cell {function!r} to take a reference from "
                f"(its solution cells: {', '.join(sorted(map(str, references)))})"
            )
        lines += [match["indent"] + text if text.strip() else "" for text in references[function].splitlines()]
    return "\n".join(lines)


def points_problem(points) -> str | None:
    """Why `points` cannot be a tests cell's worth, or None when it can."""
    if isinstance(points, bool) or not isinstance(points, (int, float)):
        return f"points must be a number, not {points!r}"
    if not math.isfinite(points) or not 0 < points <= MOST_POINTS:
        return f"points must be greater than 0 and at most {MOST_POINTS}, not {points!r}"
    return None


def hidden_tests_note(function: str, points, statements: list[str]) -> str:
    """The comment a learner sees in place of a tests cell that is all hidden tests."""
    worth = f"{points:g} point{'' if points == 1 else 's'}"
    head = f"# Hidden tests of `{function}` ({worth}), run when your work is graded or by `make check`"
    return "\n".join([head + ("; they check:" if statements else "."), *(f"# - {text}" for text in statements)])


def label_hidden_tests(cells: list, lesson: str) -> None:
    """Put a visible note above the hidden tests of every tests cell that holds nothing else.

    The note lists the statements of the cell's property lines; a property stated in another cell of
    the lesson (`# property id` alone) is given that cell's statement.
    """
    tests = [c for c in cells if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")]
    stated = {}
    for cell in tests:
        for line in hidden_lines(cell.source):
            if (match := PROPERTY.match(line)) and match[2]:
                stated[(cell.metadata["function"], match[1])] = match[2].strip()
    for cell in tests:
        hidden, visible = hidden_and_visible(cell.source)
        if not hidden or any(line.strip() for line in visible):
            continue
        function = cell.metadata["function"]
        ids = [match[1] for match in map(PROPERTY.match, hidden) if match]
        statements = [stated[(function, pid)] for pid in dict.fromkeys(ids) if (function, pid) in stated]
        note = hidden_tests_note(function, cell.metadata.nbgrader["points"], statements)
        cell.source = f"{note}\n{cell.source.lstrip()}"


def build_notebook(text_path: Path, root: Path | None = None) -> nbformat.NotebookNode:
    """Read a lesson's text source and return its nbgrader source notebook.

    `root` is the course directory that reference markers take earlier lessons from; the
    lesson's id is the text source's name.
    """
    nb = jupytext.read(text_path)
    nb.metadata.pop("jupytext", None)
    lesson = Path(text_path).stem
    seen = set()
    tests = []
    for index, cell in enumerate(nb.cells):
        meta = cell.metadata
        where = f"{lesson}, cell {index}"
        if "incorrectly_encoded_metadata" in meta:
            raise AuthoringError(
                f"{where}: cannot read the cell marker {meta['incorrectly_encoded_metadata']!r} "
                "(write key=value pairs with JSON values)"
            )
        for key in JUPYTEXT_ONLY:
            meta.pop(key, None)
        has_points = "points" in meta
        kind, grade_id, points = meta.pop("nbgrader", None), meta.pop("grade_id", None), meta.pop("points", None)
        function = meta.get("function")
        cell.id = f"cell-{index:02d}"
        if cell.cell_type == "code":
            if kind == "solution" and any(REFERENCE.match(line) for line in cell.source.splitlines()):
                raise AuthoringError(f"{where}: a reference marker goes in given code, not in a solution cell")
            cell.source = with_references(cell.source, lesson, root, where)
        if kind is None:
            if grade_id is not None or has_points or function is not None:
                raise AuthoringError(f"{where} has grade_id/points/function but no nbgrader kind")
            continue
        if kind not in CELL_KINDS:
            raise AuthoringError(f"{where}: unknown nbgrader kind {kind!r}")
        if not isinstance(grade_id, str) or not grade_id or grade_id in seen:
            raise AuthoringError(f"{where}: grade_id missing or repeated: {grade_id!r}")
        where = f"{lesson}, cell {index} ({grade_id})"
        if (kind == "tests") != has_points:
            raise AuthoringError(f"{where}: points go on tests cells, and only there")
        if (kind == "tests") != (function is not None):
            raise AuthoringError(
                f'{where}: every tests cell names the function it tests (function="..."), and only a tests cell does'
            )
        if has_points and (problem := points_problem(points)):
            raise AuthoringError(f"{where}: {problem}")
        seen.add(grade_id)
        meta["nbgrader"] = {**CELL_KINDS[kind], "grade_id": grade_id, "schema_version": 3, "task": False}
        if has_points:
            meta["nbgrader"]["points"] = points
            tests.append((where, function))
        cell.id = grade_id
    defined = {c.metadata.nbgrader.grade_id for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")}
    for where, function in tests:
        if not isinstance(function, str) or function not in defined:
            raise AuthoringError(
                f"{where} names function {function!r}, which no solution cell of the lesson defines "
                f"(its functions: {', '.join(sorted(defined)) or 'none'})"
            )
    label_hidden_tests(nb.cells, lesson)
    nb.metadata["language_info"] = LANGUAGE_INFO
    nbformat.validate(nb)
    return nb


def build(course: Course, lesson: str) -> Path:
    """Write solutions/<lesson>/<lesson>.ipynb from its text source; return its path."""
    target = course.source_notebook(lesson)
    nbformat.write(build_notebook(course.text_source(lesson), course.root), target)
    return target
