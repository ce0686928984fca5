"""A submission's grading metadata, rebuilt from the instructor's copy (the release) before nbgrader reads it.

nbgrader trusts the nbgrader metadata of the notebook it grades: it puts back a locked
cell's source and points, but a fake grade cell, a markdown cell with grade metadata, a
schema version changed on one cell or metadata of the wrong type fail the whole notebook,
and a test cell marked as a solution is not put back at all. Here each cell the release
knows gets the release's metadata and cell type, every other cell loses its nbgrader
metadata, and each difference is a finding: edited metadata earns nothing and costs
nothing but the flag. A cell with no nbgrader metadata stays a plain cell (a test stripped
of it counts as deleted, as before).
"""

from __future__ import annotations

import copy
import reprlib
from collections import Counter

import nbformat

SHOWN = 40  # characters of a submitted value quoted in a finding
MOST_FINDINGS = 12  # findings listed one by one; the rest are counted
FLAGS = ("grade", "solution", "locked", "task")
SHORT = reprlib.Repr()
SHORT.maxstring = SHORT.maxother = SHOWN


def restore(
    submitted: nbformat.NotebookNode, release: nbformat.NotebookNode
) -> tuple[nbformat.NotebookNode, list[str]]:
    """The submission with the release's grading metadata, and how the submitted metadata differed."""
    known = {
        meta["grade_id"]: cell
        for cell in release.cells
        if isinstance(meta := cell.metadata.get("nbgrader"), dict) and "grade_id" in meta
    }
    cells = [_shallow(cell) for cell in submitted.cells]
    findings: list[str] = []
    owner: dict[str, int] = {}  # release grade id -> the submitted cell graded as it
    claimed: dict[int, dict] = {}  # submitted cell -> its metadata, which names a release cell
    garbled: dict[int, str] = {}  # submitted cell -> why its metadata names no cell
    unknown: list[str] = []  # cells whose grade metadata names no cell of the release
    for index, cell in enumerate(cells):
        if "nbgrader" not in cell.metadata:
            continue
        meta = cell.metadata.pop("nbgrader")
        grade_id = meta.get("grade_id") if isinstance(meta, dict) else None
        if not isinstance(meta, dict):
            garbled[index] = f"its nbgrader metadata is {_kind(meta)}, not a mapping"
        elif "grade_id" in meta and not isinstance(grade_id, str):
            garbled[index] = f"its grade_id is {_kind(grade_id)}, not a string"
        elif isinstance(grade_id, str) and grade_id in known:
            if grade_id in owner and _is_test_or_locked(known[grade_id]):
                findings.append(f"{grade_id} duplicated")
            owner[grade_id] = index  # nbgrader's rule: the last cell of a grade id is the one graded
            claimed[index] = meta
        elif grade_id is not None or any(meta.get(flag) for flag in FLAGS):
            unknown.append(
                f"cell {index}: grade metadata the release does not have"
                + (f" (grade_id {_shown(grade_id)})" if grade_id is not None else "")
            )
    if len(unknown) > 1 and not any(known[grade_id].metadata["nbgrader"].get("grade") for grade_id in owner):
        # another lesson's notebook, most likely: one line says it
        unknown = [f"{len(unknown)} cells with grade metadata the release does not have, and none of its tests"]
    findings += unknown
    placed = _placed(garbled, owner, cells, known)
    for index, reason in garbled.items():
        where = f"; read as {placed[index]} from its place" if index in placed else ""
        findings.append(f"cell {index}: {reason}{where}")
    owner.update({grade_id: index for index, grade_id in placed.items()})
    for grade_id, index in owner.items():
        cell, wanted = cells[index], known[grade_id]
        if index in claimed:
            findings += _differences(grade_id, claimed[index], wanted.metadata["nbgrader"])
        if cell.cell_type != wanted.cell_type:
            findings.append(f"{grade_id}: a {cell.cell_type} cell (the release's is {wanted.cell_type})")
            _set_type(cell, wanted.cell_type)
        cell.metadata["nbgrader"] = copy.deepcopy(wanted.metadata["nbgrader"])
    restored = copy.copy(submitted)
    restored["cells"] = cells
    return restored, _bounded(findings)


def _shallow(cell) -> nbformat.NotebookNode:
    """A copy whose metadata can be changed without touching the submission (its source is shared)."""
    cell = copy.copy(cell)
    cell["metadata"] = copy.copy(cell.get("metadata", nbformat.NotebookNode()))
    return cell


def _is_test_or_locked(cell) -> bool:
    meta = cell.metadata["nbgrader"]
    return bool(meta.get("locked") or (meta.get("grade") and not meta.get("solution")))


def _differences(grade_id: str, got: dict, wanted: dict) -> list[str]:
    """How the submitted metadata of a cell differs from the release's (not in its checksum, which
    nbgrader always overwrites and only a changed release changes)."""
    found = []
    for key in [key for key in wanted if key != "checksum"] + [key for key in got if key not in wanted]:
        if key not in got:
            found.append(f"{grade_id}: {key} missing (the release's: {_shown(wanted[key])})")
        elif key not in wanted:
            found.append(f"{grade_id}: {_shown(key)} added ({_shown(got[key])}), which the release has not")
        elif got[key] != wanted[key] or isinstance(got[key], bool) != isinstance(wanted[key], bool):
            found.append(f"{grade_id}: {key} {_shown(got[key])} (the release's: {_shown(wanted[key])})")
    return found


def _placed(garbled: dict[int, str], owner: dict[str, int], cells, known) -> dict[int, str]:
    """Unreadable cells read as a release cell: each that stands alone where exactly one release cell
    is missing (between the cells that carry a grade id) and, if that cell is locked, holds its source."""
    order = list(known)
    position = {index: order.index(grade_id) for grade_id, index in owner.items()}
    gaps = {}
    for index in garbled:
        start = max((p for i, p in position.items() if i < index), default=-1)
        end = min((p for i, p in position.items() if i > index), default=len(order))
        gaps[index] = (start, end)
    crowded = {gap for gap, count in Counter(gaps.values()).items() if count > 1}
    found: dict[int, str] = {}
    for index, (start, end) in gaps.items():
        missing = [grade_id for grade_id in order[start + 1 : end] if grade_id not in owner]
        if (start, end) in crowded or len(missing) != 1:
            continue
        wanted = known[missing[0]]
        fits = not _is_test_or_locked(wanted) or wanted.source.strip() == cells[index].source.strip()
        if fits and missing[0] not in found.values():  # (cells out of the release's order)
            found[index] = missing[0]
    return found


def _set_type(cell, cell_type: str) -> None:
    """Make `cell` a cell of the release's type, as nbgrader's OverwriteCells does."""
    cell["cell_type"] = cell_type
    if cell_type == "code":
        cell.pop("attachments", None)
        cell["outputs"], cell["execution_count"] = [], None
    else:
        cell.pop("outputs", None)
        cell.pop("execution_count", None)


def _kind(value) -> str:
    return {
        list: "a list",
        str: "a string",
        type(None): "null",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        dict: "a mapping",
    }.get(type(value), type(value).__name__)


def _shown(value) -> str:
    """A short repr, however large or deep the value."""
    return SHORT.repr(value)


def _bounded(findings: list[str]) -> list[str]:
    findings = list(dict.fromkeys(findings))
    if len(findings) <= MOST_FINDINGS:
        return findings
    return findings[:MOST_FINDINGS] + [f"and {len(findings) - MOST_FINDINGS} more edits of the grading metadata"]
