"""What went wrong with a submission, beyond its test results: the status each grading records.

A status is one of GRADED or the problems below (several may apply). It is read from the
executed notebook (a cell interrupted at the time limit, a notebook past its own, a MemoryError), from how the
grading ended (the kernel died, the file was not a notebook, the grading process died or was
stopped by what no step handles), and from comparing the submission's test cells and their
metadata with the release's (deleted, edited, duplicated, stripped; metadata edits are found
by metadata.restore).
"""

from __future__ import annotations

import re

import nbformat

from grader.engine.untrusted import shown

GRADED = "graded"
TIMEOUT = "timeout"
MEMORY = "memory limit"
KERNEL_DIED = "kernel died"
INVALID = "invalid notebook"
TAMPERED = "tests tampered"
SUSPICIOUS = "suspicious code"
GRADER_DIED = "grader died"  # the grading process died twice on it (see batch.in_workers)
BAD_TIMESTAMP = "bad timestamp"  # its timestamp.txt was left out
# its grading was stopped by what no step handles (a SystemExit, KeyboardInterrupt or GeneratorExit in the grading
# process, say); graded again by the next run
GRADER_ERROR = "grader error"


def execution_problems(executed: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(status, detail) for cells the grading stopped at the time limit, that ran out of memory or
    during which the kernel died, the cell at which the notebook's own time limit ran out, and for the
    cells not run after that (grader.testrunner's errors)."""
    found, stopped, not_run = [], KERNEL_DIED, 0
    for index, cell in enumerate(executed.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") != "error":
                continue
            name = cell.metadata.get("nbgrader", {}).get("grade_id", f"cell {index}")
            if output.ename in ("KeyboardInterrupt", "CellTimeoutError", "TimeoutError"):
                stopped = TIMEOUT
                found.append((TIMEOUT, f"{name} ran past the time limit and was stopped"))
            elif output.ename == "MemoryError":
                stopped = MEMORY
                found.append((MEMORY, f"{name} ran out of memory"))
            elif output.ename == "NotebookTimeoutError":
                stopped = TIMEOUT
                seconds = re.search(r"\((\d+(?:\.\d+)?) s\)", str(output.get("evalue", "")))
                limit = f"{seconds.group(1)} s limit" if seconds else "time limit"
                found.append((TIMEOUT, f"the notebook ran past its {limit} at {name}"))
            elif output.ename == "KernelDied":
                stopped = KERNEL_DIED
                found.append((KERNEL_DIED, f"the kernel stopped (it exited or crashed) while {name} ran"))
            elif output.ename == "NotRun":
                not_run += 1
    if not_run:
        found.append((stopped, f"{not_run} cells after it were not run"))
    return found


def _test_cells(nb) -> list[tuple[str, str]]:
    """(grade_id, source) of every test cell: graded and not a solution."""
    found = []
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader")
        if isinstance(meta, dict) and meta.get("grade") and not meta.get("solution") and "grade_id" in meta:
            found.append((meta["grade_id"], cell.source.strip()))
    return found


def tampering(submitted: nbformat.NotebookNode, release: nbformat.NotebookNode) -> list[str]:
    """How the submission's test cells differ from the release's (nbgrader restores edited ones).

    `submitted` is read with its metadata restored from the release (metadata.restore), which
    reports duplicated cells and edited metadata itself.
    """
    expected = dict(_test_cells(release))
    seen = dict(_test_cells(submitted))
    if not set(seen) & set(expected):
        return [
            "none of the lesson's test cells is there (deleted, stripped of their nbgrader metadata, "
            "or another lesson's notebook)"
        ]
    found = [f"{grade_id} deleted" for grade_id in expected if grade_id not in seen]
    found += [
        f"{grade_id} edited"
        for grade_id, source in seen.items()
        if grade_id in expected and source != expected[grade_id]
    ]
    plain = {c.source.strip() for c in submitted.cells if "nbgrader" not in c.metadata}
    found += [
        f"{grade_id} lost its nbgrader metadata"
        for grade_id, source in expected.items()
        if grade_id not in seen and source and source in plain
    ]  # hidden tests are empty in the release
    return found


def modules_beside(names: list[str]) -> list[str]:
    """Python modules among the files handed in beside the notebook (paths relative to its folder): a numpy.py
    or grader/ meant to shadow the real ones."""
    found = sorted(shown(name) for name in names if name.endswith(".py"))  # a name may hold a newline or an escape
    return [f"hands in Python modules beside the notebook: {', '.join(found)}"] if found else []


def combine(problems: list[tuple[str, str]]) -> tuple[str, str]:
    """One status line ("timeout, tests tampered") and the details, or GRADED."""
    if not problems:
        return GRADED, ""
    statuses = list(dict.fromkeys(status for status, _ in problems))
    return ", ".join(statuses), "; ".join(dict.fromkeys(detail for _, detail in problems))
