"""What went wrong with a submission, beyond its test results: the status each grading records.

A status is one of GRADED or the problems below (several may apply). It is read from the
executed notebook (a cell interrupted at the time limit, a MemoryError), from how the
grading ended (the kernel died, the file was not a notebook), and from comparing the
submission's test cells with the release's (deleted, edited, duplicated, stripped).
"""
from __future__ import annotations

from collections import Counter

import nbformat

GRADED = "graded"
TIMEOUT = "timeout"
MEMORY = "memory limit"
KERNEL_DIED = "kernel died"
INVALID = "invalid notebook"
TAMPERED = "tests tampered"
SUSPICIOUS = "suspicious code"


def execution_problems(executed: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(status, detail) for cells the grading stopped at the time limit or that ran out of memory."""
    found = []
    for index, cell in enumerate(executed.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") != "error":
                continue
            name = cell.metadata.get("nbgrader", {}).get("grade_id", f"cell {index}")
            if output.ename in ("KeyboardInterrupt", "CellTimeoutError", "TimeoutError"):
                found.append((TIMEOUT, f"{name} ran past the time limit and was stopped"))
            elif output.ename == "MemoryError":
                found.append((MEMORY, f"{name} ran out of memory"))
    return found


def _test_cells(nb) -> list[tuple[str, str]]:
    """(grade_id, source) of every test cell: graded and not a solution."""
    return [(c.metadata["nbgrader"]["grade_id"], c.source.strip()) for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata["nbgrader"].get("solution")
            and "grade_id" in c.metadata["nbgrader"]]


def tampering(submitted: nbformat.NotebookNode, release: nbformat.NotebookNode) -> list[str]:
    """How the submission's test cells differ from the release's (nbgrader restores edited ones)."""
    expected = dict(_test_cells(release))
    seen = _test_cells(submitted)
    counts = Counter(grade_id for grade_id, _ in seen)
    if not set(counts) & set(expected):
        return ["none of the lesson's test cells is there (deleted, stripped of their nbgrader metadata, "
                "or another lesson's notebook)"]
    found = [f"{grade_id} deleted" for grade_id in expected if grade_id not in counts]
    found += [f"{grade_id} duplicated" for grade_id, n in counts.items() if n > 1 and grade_id in expected]
    found += [f"{grade_id} edited" for grade_id, source in dict(seen).items()
              if grade_id in expected and source != expected[grade_id]]
    plain = {c.source.strip() for c in submitted.cells if "nbgrader" not in c.metadata}
    found += [f"{grade_id} lost its nbgrader metadata" for grade_id, source in expected.items()
              if grade_id not in counts and source in plain]
    return found


def modules_beside(folder) -> list[str]:
    """Python modules handed in beside the notebook (a numpy.py or grader/ meant to shadow the real ones)."""
    found = sorted(str(p.relative_to(folder)) for p in folder.rglob("*.py"))
    return [f"hands in Python modules beside the notebook: {', '.join(found)}"] if found else []


def combine(problems: list[tuple[str, str]]) -> tuple[str, str]:
    """One status line ("timeout, tests tampered") and the details, or GRADED."""
    if not problems:
        return GRADED, ""
    statuses = list(dict.fromkeys(status for status, _ in problems))
    return ", ".join(statuses), "; ".join(dict.fromkeys(detail for _, detail in problems))
