"""Each idea is taught in one place: √d_k in full in lesson 07 only, lesson 08's ulp study an optional appendix.

Read from the built source notebooks, as a learner meets them: cells in order, headings from the Markdown.
"""

from __future__ import annotations

import ast
import re

from grader.course.directory import read_cached
from tests.support import COURSE

HEADING = re.compile(r"^## +(.+?)\s*$", re.MULTILINE)
CARRIES_FORWARD = "What carries forward"


def cells(lesson: str) -> list:
    return read_cached(COURSE.source_notebook(lesson)).cells


def computes_the_spread_of_dot_products(source: str) -> bool:
    """A cell that takes the standard deviation of dot products over key widths (a loop over d_k)."""
    return re.search(r"\bfor d_k in\b", source) is not None and re.search(r"\bstd\(", source) is not None


def test_the_spread_of_q_dot_k_over_widths_is_computed_in_lesson_07_only():
    """√d_k is taught once in full (lesson 07); another lesson refers to it and computes nothing of it."""
    computing = [
        lesson
        for lesson in COURSE.lesson_ids()
        for cell in cells(lesson)
        if cell.cell_type == "code" and computes_the_spread_of_dot_products(cell.source)
    ]
    assert computing == ["07_attention"]


def sections(lesson: str) -> list[tuple[str, list]]:
    """[(the heading of a `##` section, its cells, the heading's Markdown cell first)], in order."""
    found: list[tuple[str, list]] = [("", [])]
    for cell in cells(lesson):
        titles = HEADING.findall(cell.source) if cell.cell_type == "markdown" else []
        if titles:
            found.append((titles[-1], []))
        found[-1][1].append(cell)
    return found


def names(code_cells: list, kind: type) -> set[str]:
    """The names the code cells bind (kind ast.Store: also definitions, arguments, imports, `except ... as`)
    or read (ast.Load)."""
    found = set()
    for cell in code_cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, kind):
                found.add(node.id)
            elif kind is not ast.Store:
                continue
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                found.add(node.name)
            elif isinstance(node, ast.arg):
                found.add(node.arg)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                found.add(node.name)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                found |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return found


def test_lesson_08_s_ulp_study_is_an_optional_appendix_after_what_carries_forward():
    """The core reads complete without it: it comes last, says it is optional, holds no graded cell, the core
    neither relies on it in its summary nor uses a name only it defines, and the objectives call it optional."""
    found = sections("08_log_softmax")
    headings = [heading for heading, _ in found]
    [ulps] = [i for i, heading in enumerate(headings) if "ulp" in heading.lower()]
    appendix = [cell for _, section in found[ulps:] for cell in section]
    core = [cell for _, section in found[:ulps] for cell in section]
    assert headings.index(CARRIES_FORWARD) < ulps
    assert "optional" in headings[ulps].lower() and "appendix" in headings[ulps].lower()
    opening = appendix[0].source.split(headings[ulps], 1)[1].strip().split("\n\n")[0]
    assert "optional" in opening.lower(), "its first paragraph says it is optional"
    assert [c for c in appendix if c.metadata.get("nbgrader", {}).get("grade_id")] == [], "nothing in it is graded"
    assert "ulp" not in found[headings.index(CARRIES_FORWARD)][1][0].source
    assert names(core, ast.Load) & (names(appendix, ast.Store) - names(core, ast.Store)) == set()
    objectives = [line for line in found[0][1][0].source.split("\n- ") if "ulp" in line]
    assert objectives and all("optional" in line.lower() for line in objectives)
