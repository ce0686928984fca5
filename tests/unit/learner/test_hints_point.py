"""Hints point at the idea and never hand over code a learner could paste.

A hint hands over code when some piece of its text parses as a Python expression holding a call that
is a method or a module's function (`x.sum(...)`, `np.asarray(...)`, `.max()`) or that takes a keyword
argument (`sum(x, axis=-1)`). Naming a function or an argument (`np.sum`, "the `keepdims` argument",
"sum over the last axis") is pointing, and passes.

The hints checked: every catalogued misconception's, every hint the grader writes itself (a crash
explained, a broken property, a change in place, a warning), and each lesson's own: its `# Hint:`
paragraphs, the hints of the `Mistake`s its test cells name, and its test cells' assertion messages.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from grader.learner import checks, crashes, hints, properties
from tests.support import COURSE

# Where a piece of code may start: a name or a dot that does not continue a name (`x.sum(`, `.max(`, `np.all(`).
CODE_START = re.compile(r"(?<![\w.])[A-Za-z_.]")


def handed_over(text: str) -> str | None:
    """The first piece of `text` that is a Python expression with a method call, a module function's call, or a
    call with a keyword argument; None when there is none."""
    for start in CODE_START.finditer(text):
        for end in re.finditer(r"\)", text[start.start() :]):
            piece = text[start.start() : start.start() + end.end()]
            code = ("_" if piece.startswith(".") else "") + piece  # `.max()` is read as a method call on a name
            try:
                tree = ast.parse(code, mode="eval")
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and (isinstance(node.func, ast.Attribute) or node.keywords):
                    return ast.get_source_segment(code, node)
    return None


# ------------------------------------------------------------------ the detector itself


@pytest.mark.parametrize(
    "hint",
    [
        "weights must add up to 1: divide by the row's sum, x.sum(axis=-1, keepdims=True)",
        "convert first: x = np.asarray(scores, dtype=float)",
        "combine the rows' answers with np.all(...) and return a single bool",
        "return a float NumPy array (no `.tolist()`)",
        "shift each row by its own max before exp (`x - x.max(axis=-1, keepdims=True)`)",
        "compare numpy.abs(sum - 1) with atol",
        "sum(x, axis=-1) gives one total per row",
    ],
)
def test_a_hint_with_a_numpy_call_is_code(hint):
    assert handed_over(hint) is not None, hint


@pytest.mark.parametrize(
    "hint",
    [
        "sum over the last axis only, where each row's choices are, one total per row",
        "keep the summed axis (the `keepdims` argument of `np.sum`), so that each total lines up with its row",
        "weights must add up to 1: divide by the plain sum, not by np.linalg.norm",
        "a score of 0 is an ordinary score with evidence exp(0) = 1; which score has no evidence at all?",
        "T = 0 is not a temperature either (it divides by zero): refuse it, as lesson 04 (section 3) does",
        "the n x n matrix of all products p_i p_j is the outer product, not the dot product (.T leaves 1-D p as it is)",
        "",
    ],
)
def test_a_hint_in_prose_points(hint):
    assert handed_over(hint) is None, handed_over(hint)


# ------------------------------------------------------------------ every hint, and where it lives


def _rendered(node: ast.AST) -> list[str]:
    """The texts of the string literals in `node`: an f-string's fields shown as `x`, each branch of a choice."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value if isinstance(v, ast.Constant) else "x" for v in node.values)]
    return [text for child in ast.iter_child_nodes(node) for text in _rendered(child)]


def _hint_fields() -> dict[str, int]:
    """Class name -> the position of its `hint` field, for every kind of record that carries a hint."""
    kinds = {
        "Explanation": crashes.Explanation._fields,
        "Judge": properties.Judge._fields,
        "Broken": properties.Broken._fields,
        "Mistake": tuple(f.name for f in dataclasses.fields(checks.Mistake)),
        "Misconception": tuple(f.name for f in dataclasses.fields(hints.Misconception)),
    }
    return {name: fields.index("hint") for name, fields in kinds.items()}


def hints_in_code(source: str) -> list[tuple[int, str]]:
    """(line, text) of each hint `source` writes: a record's `hint` (positional or keyword), a value given to a
    name with "hint" in it, a string that starts a failure's `hint:` line, and an assertion's message."""
    fields, found = _hint_fields(), []
    for node in ast.walk(ast.parse(source)):
        given: list[ast.AST] = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in fields:
            position = fields[node.func.id]
            given += node.args[position : position + 1] + [k.value for k in node.keywords if k.arg == "hint"]
        elif isinstance(node, ast.Assign) and any("hint" in getattr(t, "id", "").lower() for t in node.targets):
            given.append(node.value)
        elif isinstance(node, ast.Assert) and node.msg is not None:
            given.append(node.msg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lstrip().startswith("hint:"):
            given.append(node)
        found += [(getattr(g, "lineno", 0), text) for g in given for text in _rendered(g)]
    return list(dict.fromkeys(found))  # a `hint:` line given to a name with "hint" in it is found twice


HINT_PARAGRAPH = re.compile(r"^# (?:Hints?:|<details><summary>Hint).*(?:\n# .+)*", re.MULTILINE)


def hints_in_markdown(source: str) -> list[tuple[int, str]]:
    """(line, text) of each `# Hint:` or `# Hints:` paragraph (or a `<details>` block whose summary is a hint)
    of a lesson's text source."""
    return [
        (source.count("\n", 0, m.start()) + 1, " ".join(line[2:] for line in m.group(0).splitlines()))
        for m in HINT_PARAGRAPH.finditer(source)
    ]


def every_hint() -> list[tuple[str, str]]:
    """(where it lives, text) of every hint a learner can be shown."""
    root = Path(__file__).resolve().parents[3]
    found = [
        (f"grader/learner/hints/lesson_{hints.lesson_of(m)[:2]}.py, {m.id}", m.hint) for m in hints.misconceptions()
    ]
    for module in (checks, crashes, properties):
        path = Path(module.__file__)
        found += [(f"{path.relative_to(root)}:{line}", text) for line, text in hints_in_code(path.read_text())]
    for lesson in COURSE.lesson_ids():
        path = COURSE.text_source(lesson)
        source = path.read_text()
        where = path.relative_to(root)
        found += [(f"{where}:{line}", text) for line, text in hints_in_code(source) + hints_in_markdown(source)]
    return found


def test_every_kind_of_hint_is_read():
    """The collection finds each kind it claims to (a kind it silently missed would pass every test below)."""
    places = [where for where, _ in every_hint()]
    for kind in ("hints/lesson_01.py", "crashes.py", "properties.py", "checks.py"):
        assert any(kind in where for where in places), kind
    first = COURSE.text_source(COURSE.lesson_ids()[0]).read_text()
    assert hints_in_markdown(first), "lesson 01's `# Hint:` paragraphs"
    assert hints_in_code(first), "lesson 01's Mistake hint"
    assert hints_in_code('assert ok, "name the idea"') == [(1, "name the idea")], "an assertion's message"
    assert any(where.startswith("solutions/09") for where in places), "lesson 09's hints"


def test_no_hint_hands_over_code():
    offending = [(where, text, code) for where, text in every_hint() if (code := handed_over(text)) is not None]
    assert not offending, "hints that hand over code (point at the idea instead):\n" + "\n".join(
        f"  {where}: {text!r}\n    code: {code}" for where, text, code in offending
    )
