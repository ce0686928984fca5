"""Build a lesson's nbgrader source notebook from its jupytext text source.

Lessons are written as jupytext percent-format files with short cell markers:

    # %% nbgrader="solution" grade_id="naive_normalize"
    # %% nbgrader="tests" grade_id="test_naive_normalize_rows" points=2 function="naive_normalize"
    # %% nbgrader="readonly" grade_id="setup"

and this module expands each marker into the metadata nbgrader expects. A tests cell names
the function it tests (`function=`, kept as the cell's "function" metadata), which must be the
grade_id of one of the lesson's solution cells, and is worth `points`, a number greater than 0
and at most MOST_POINTS.

A graded prediction is two cells: a guess cell, where the learner writes a guess before the cell
that computes the answer, and the tests cell that grades it, whose grade_id (the prediction's id)
starts with `predict_`:

    # %% nbgrader="guess" grade_id="guess_sum_is_one" prediction="predict_sum_is_one"
    guess_sum_is_one = ""  # your guess: "yes" or "no"
    ### BEGIN SOLUTION
    guess_sum_is_one = "no"
    ### END SOLUTION

    # %% nbgrader="tests" grade_id="predict_sum_is_one" points=1
    check_guess("predict_sum_is_one", guess_sum_is_one, choices=["yes", "no"])
    ### BEGIN HIDDEN TESTS
    ...check_prediction("predict_sum_is_one", guess_sum_is_one, "<digest>")...
    ### END HIDDEN TESTS

    # %%
    reveal("predict_sum_is_one", guess_sum_is_one)
    print(0.7 + 0.2 + 0.1 == 1.0)

The cell under the tests cell computes the answer, and starts with `reveal`, which shows it only
once the guess is committed (grader.learner.predictions). The guess cell's grade_id is its
variable, set to "" outside the solution region (what the release keeps, once
`clear_guess_stubs` has dropped nbgrader's stub) and to a plain literal inside it. Both cells keep
the prediction's id as their "prediction" metadata; the tests cell names no function.

Code that a later lesson reuses from an earlier one is written once, in the earlier lesson's
solution cell. A line

    # << reference masked_softmax from 06_masking >>

in a code cell of a later lesson is replaced, at build time, by that solution cell's
reference code (without its BEGIN/END SOLUTION lines), indented as the line is. A course of
some lessons only (the demo's) takes each lesson's `self_contained` text, the code written in
place of its markers: a lesson borrowed from is not copied along, where it would be a lesson too.

The build also writes what the learner's release needs to look finished: the kernel's
`language_info` (which JupyterLab would otherwise add on opening, and then ask to save), and, in
a tests cell that is hidden tests only (a blank locked cell in the release), a visible comment
saying what those tests check (the statements of its `# property` lines) and when they run.
"""

from __future__ import annotations

import ast
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
    "guess": {"solution": True, "grade": False, "locked": False},  # a prediction's guess: an answer cell
}
PREDICTION_PREFIX = "predict_"  # a prediction's id, the grade_id of the tests cell that grades its guess
HEX = re.compile(r"\b[0-9a-f]{12,}\b")  # a stored digest, which a visible line must not show
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


def self_contained(lesson: str, root: Path) -> str:
    """The text source of `lesson` in the course at `root`, each reference marker replaced by the code it takes, as
    the build replaces it: what a course that does not teach the earlier lesson holds instead (the demo's course of
    some lessons, say), so that its lessons are its own and build alone."""
    text = text_source_in(root, lesson).read_text()
    expanded = with_references(text, lesson, root, lesson)
    return expanded if expanded == text else expanded + "\n"


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
                f"(lessons: {', '.join(known) or 'none, no course directory given'}); "
                "a course that does not teach it holds the code itself in place of the marker"
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
                stated[(cell.metadata.get("function"), match[1])] = match[2].strip()
    for cell in tests:
        hidden, visible = hidden_and_visible(cell.source)
        if not hidden or any(line.strip() for line in visible):
            continue
        function = cell.metadata.get("function")
        ids = [match[1] for match in map(PROPERTY.match, hidden) if match]
        statements = [stated[(function, pid)] for pid in dict.fromkeys(ids) if (function, pid) in stated]
        note = hidden_tests_note(function, cell.metadata.nbgrader["points"], statements)
        cell.source = f"{note}\n{cell.source.lstrip()}"


def plain_literal(node: ast.expr | None):
    """The value a literal expression (-2, "no") stands for; None for anything else."""
    try:
        return ast.literal_eval(node) if node is not None else None
    except ValueError:
        return None


def guess_problem(source: str, variable: str, prediction, where: str) -> None:
    """Refuse a guess cell that would show an answer in the release or that a check could not read.

    Outside its solution region (what the release keeps) it sets its variable, its grade_id, to ""
    and holds nothing else but comments; inside, it sets the variable to the reference guess, a
    plain string, whole number or bool.
    """
    if not isinstance(prediction, str) or not prediction.startswith(PREDICTION_PREFIX):
        raise AuthoringError(f"{where}: prediction= is the id of its tests cell, starting {PREDICTION_PREFIX}")
    if not variable.isidentifier():
        raise AuthoringError(f"{where}: a guess cell's grade_id is the variable it sets, a Python name")
    lines = source.splitlines()
    marks = [index for index, line in enumerate(lines) if line.strip() in SOLUTION_LINES]
    if len(marks) != 2:
        raise AuthoringError(f"{where}: a guess cell holds the reference guess between one BEGIN/END SOLUTION pair")
    kept = "\n".join(lines[: marks[0]] + lines[marks[1] + 1 :])
    reference = "\n".join(lines[marks[0] + 1 : marks[1]])
    for part, wanted, what in ((kept, ("",), "outside"), (reference, None, "inside")):
        try:
            body = ast.parse(part).body
        except SyntaxError:
            raise AuthoringError(f"{where}: the code {what} the solution region is not Python") from None
        assign = body[0] if len(body) == 1 and isinstance(body[0], ast.Assign) else None
        value = assign.value if assign is not None else None
        target = assign.targets if assign is not None else []
        if not (
            type(plain_literal(value)) in (str, int, bool)
            and len(target) == 1
            and isinstance(target[0], ast.Name)
            and target[0].id == variable
        ):
            raise AuthoringError(
                f"{where}: {what} the solution region, a guess cell sets `{variable}` and does nothing else"
                + (' (to "", which the release shows)' if wanted else " (to the reference guess, a plain literal)")
            )
        if wanted is not None and plain_literal(value) not in wanted:
            raise AuthoringError(f'{where}: outside the solution region `{variable}` is "", not an answer')


def check_predictions(cells: list, lesson: str) -> None:
    """Each guess cell is graded by its prediction's tests cell, after it; each prediction's tests cell
    reads its guess, checks it visibly, and stores its digest in its hidden tests only."""
    guesses: dict[str, str] = {}
    for index, cell in enumerate(cells):
        meta = cell.metadata.get("nbgrader", {})
        where = f"{lesson}, cell {index} ({meta.get('grade_id')})"
        if meta.get("solution") and "prediction" in cell.metadata:
            if cell.metadata["prediction"] in guesses:
                raise AuthoringError(f"{where}: prediction {cell.metadata['prediction']!r} has a guess cell already")
            guesses[cell.metadata["prediction"]] = meta["grade_id"]
        elif meta.get("grade") and "prediction" in cell.metadata:
            variable = guesses.pop(meta["grade_id"], None)
            if variable is None:
                raise AuthoringError(
                    f'{where}: no guess cell above names this prediction (prediction="{meta["grade_id"]}")'
                )
            hidden, visible = hidden_and_visible(cell.source)
            read = {n.id for n in ast.walk(ast.parse(cell.source)) if isinstance(n, ast.Name)}
            if variable not in read or not any(line.strip() and not line.strip().startswith("#") for line in visible):
                raise AuthoringError(f"{where}: a prediction's tests cell checks `{variable}` in a visible line")
            if not any(line.strip() for line in hidden):
                raise AuthoringError(f"{where}: a prediction's tests cell compares the guess in its hidden tests")
            shown = {digest for line in visible for digest in HEX.findall(line)}
            if shown:
                raise AuthoringError(f"{where}: a visible line shows the digest {sorted(shown)[0]}: keep it hidden")
            check_reveal(cells[index + 1] if index + 1 < len(cells) else None, meta["grade_id"], variable, where)
    if guesses:
        missing = next(iter(guesses))
        raise AuthoringError(f"{lesson}: guess cell {guesses[missing]} has no tests cell {missing} after it")


def check_reveal(cell, prediction: str, variable: str, where: str) -> None:
    """The cell under a prediction's tests cell computes its answer, and shows it only once the guess is committed:
    its first line is `reveal(prediction, variable)` (grader.learner.predictions)."""
    wanted = f'reveal("{prediction}", {variable})'
    first = next((line.strip() for line in (cell.source.splitlines() if cell else []) if line.strip()), "")
    if cell is None or cell.cell_type != "code" or first != wanted:
        raise AuthoringError(f"{where}: the cell computing a prediction's answer starts {wanted}")


def clear_guess_stubs(path: Path) -> None:
    """Drop from the release's guess cells the stub nbgrader's ClearSolutions put in place of the reference guess.

    A guess cell of the release then reads `guess_... = ""` (its line outside the solution
    region), so the cells after it run, and its check says the guess is not written yet,
    instead of stopping at `raise NotImplementedError()`. The cell's checksum is computed again.
    """
    from nbgrader.preprocessors import ClearSolutions
    from nbgrader.utils import compute_checksum

    stub = {line.strip() for line in ClearSolutions().code_stub["python"].splitlines()}
    nb = nbformat.read(path, as_version=4)
    changed = False
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("solution") and "prediction" in cell.metadata:
            kept = [line for line in cell.source.splitlines() if line.strip() not in stub]
            if kept != cell.source.splitlines():
                cell.source, changed = "\n".join(kept), True
                if "checksum" in meta:
                    meta["checksum"] = compute_checksum(cell)
    if changed:
        nbformat.write(nb, path)


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
            if grade_id is not None or has_points or function is not None or "prediction" in meta:
                raise AuthoringError(f"{where} has grade_id/points/function/prediction but no nbgrader kind")
            continue
        if kind not in CELL_KINDS:
            raise AuthoringError(f"{where}: unknown nbgrader kind {kind!r}")
        if not isinstance(grade_id, str) or not grade_id or grade_id in seen:
            raise AuthoringError(f"{where}: grade_id missing or repeated: {grade_id!r}")
        where = f"{lesson}, cell {index} ({grade_id})"
        if (kind == "tests") != has_points:
            raise AuthoringError(f"{where}: points go on tests cells, and only there")
        predicted = kind == "tests" and grade_id.startswith(PREDICTION_PREFIX)
        if (kind == "tests" and not predicted) != (function is not None):
            raise AuthoringError(
                f'{where}: every tests cell names the function it tests (function="..."), and only a tests cell does '
                f"(a prediction's, grade_id {PREDICTION_PREFIX}..., names none)"
            )
        if grade_id.startswith(PREDICTION_PREFIX) and kind != "tests":
            raise AuthoringError(f"{where}: a grade_id starting {PREDICTION_PREFIX} is a prediction's tests cell's")
        if (kind == "guess") != ("prediction" in meta):
            raise AuthoringError(f'{where}: a guess cell names its prediction (prediction="predict_..."), and only it')
        if kind == "guess":
            guess_problem(cell.source, grade_id, meta["prediction"], where)
        if predicted:
            meta["prediction"] = grade_id
        if has_points and (problem := points_problem(points)):
            raise AuthoringError(f"{where}: {problem}")
        seen.add(grade_id)
        meta["nbgrader"] = {**CELL_KINDS[kind], "grade_id": grade_id, "schema_version": 3, "task": False}
        if has_points:
            meta["nbgrader"]["points"] = points
            if not predicted:
                tests.append((where, function))
        cell.id = grade_id
    check_predictions(nb.cells, lesson)
    defined = {
        c.metadata.nbgrader.grade_id
        for c in nb.cells
        if c.metadata.get("nbgrader", {}).get("solution") and "prediction" not in c.metadata
    }
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
