"""The reading of learner code (grader.engine.suspicious): its verdicts are kept per cell text, but only for short
texts, and one notebook's reading is paid from a budget, so no text makes the grading process read it for long.

IPython rewrites a cell once per magic or `!` line and reads the whole cell again each time, so a cell of
8,000 shell lines cost the grading process a minute of CPU (twice that: it was read twice) before it was
budgeted. The CPU bounds below are wide (the pathological notebooks take a small part of them).
"""

from __future__ import annotations

import time

import nbformat

from grader.engine import suspicious
from tests.support import COURSE

LESSON = "01_naive_division"
SHELL_LINES = "\n".join(["!ls -a"] * 8_000)  # 55 kB
MORE_SHELL_LINES = "\n".join(["!ls -a"] * 200_000)  # 1.4 MB
SCAN_CPU_SECONDS = 5  # what reading a pathological notebook may take (before the budget: a minute per 8,000 lines)


def notebook(*sources: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in sources])


def with_reference(*sources: str) -> nbformat.NotebookNode:
    """Lesson 01 with its reference answers, and cells of `sources` at the end."""
    nb = COURSE.learner_notebook(LESSON, COURSE.reference_answers(LESSON))
    nb.cells += [nbformat.v4.new_code_cell(source) for source in sources]
    return nb


def inspected(nb) -> tuple[list[str], list[int], float]:
    """(reasons, uncompilable cells, CPU-seconds this thread spent) of reading `nb` as grading does."""
    start = time.thread_time()
    inspection = suspicious.inspect(nb)
    return inspection.reasons, inspection.uncompilable, time.thread_time() - start


def test_a_verdict_read_again_is_the_one_read_first():
    risky = "import subprocess\nsubprocess.run(['ls'])"
    first = suspicious.reasons(notebook("x = 1", risky))
    assert first == ["cell 1 runs programs"]
    assert suspicious.reasons(notebook(risky, "x = 1")) == ["cell 0 runs programs"]  # kept per text, named per place
    assert suspicious.reasons(notebook("x = 1", risky)) == first


def test_a_long_cell_is_read_each_time_and_not_kept():
    padding = "# " + "x" * suspicious.CACHED_TEXT + "\n"
    long_risky = padding + "import ctypes"
    before = suspicious.kept_texts()
    assert suspicious.reasons(notebook(long_risky)) == ["cell 0 uses ctypes"]
    assert suspicious.uncompilable(notebook(long_risky)) == []
    assert suspicious.kept_texts() == before
    suspicious.reasons(notebook("import ctypes as kept_here"))
    assert suspicious.kept_texts() > before  # a short one is kept


def test_magics_shell_lines_and_prompts_are_read_as_the_kernel_reads_them():
    cells = ("%time x = 1\nfiles = !ls\n!echo nbgrader\nimport socket", "In [1]: np.allclose = print")
    reasons, uncompilable, _ = inspected(notebook(*cells))
    assert reasons == [
        "cell 0 opens network sockets",
        "cell 0 runs shell commands",
        "cell 0 names nbgrader or its settings",
        "cell 1 patches np.allclose",  # as Python, an annotation; IPython strips the prompt and runs the assignment
    ]
    assert uncompilable == []


def test_a_cell_of_thousands_of_shell_lines_is_flagged_in_seconds_and_the_cells_before_are_read():
    reasons, uncompilable, seconds = inspected(with_reference("import subprocess", SHELL_LINES, "import ctypes"))
    shell_cell = len(with_reference().cells) + 1
    assert reasons == [
        f"cell {shell_cell - 1} runs programs",
        f"cell {shell_cell} and the cell after it {suspicious.TOO_LARGE}",
    ]
    assert uncompilable == [] and seconds < SCAN_CPU_SECONDS


def test_a_bigger_one_is_flagged_at_once_and_an_ordinary_notebook_is_read_whole():
    reasons, uncompilable, seconds = inspected(with_reference(MORE_SHELL_LINES, SHELL_LINES))
    assert reasons == [f"cell {len(with_reference().cells)} and the cell after it {suspicious.TOO_LARGE}"]
    assert seconds < SCAN_CPU_SECONDS
    ordinary = with_reference()
    assert inspected(ordinary)[:2] == ([], []) and suspicious.reasons(ordinary) == []


def test_each_cell_is_transformed_once_for_its_reasons_and_its_compiling(monkeypatch):
    """Read once: the reasons and the cells too deep to compile come from one reading of each text."""
    calls = []
    transform = suspicious.Rewriter.transform_cell
    monkeypatch.setattr(
        suspicious.Rewriter, "transform_cell", lambda self, text: calls.append(text) or transform(self, text)
    )
    long_magic = "%time x = 1\n" + "# " + "x" * suspicious.CACHED_TEXT + "\nimport ctypes"  # never kept
    assert inspected(notebook(long_magic, "y = 2"))[:2] == (["cell 0 uses ctypes"], [])
    assert calls == [long_magic, "y = 2"]


def test_the_threat_model_states_the_budget_the_scan_holds_to():
    page = " ".join((COURSE.root / "docs" / "explanation" / "threat-model.md").read_text().split())
    assert f"a budget per notebook: {suspicious.READ_LIMIT:,} characters" in page
    assert f"and {suspicious.CPU_LIMIT:g} CPU-s" in page and "a flag, not a barrier" in page


def test_whether_a_cell_is_inspected_does_not_depend_on_what_was_read_before():
    """A kept verdict costs what reading it did: a notebook at the budget's edge is cut at the same cell,
    its texts read afresh or kept."""
    cell = "\n".join(f"value_{i} = {i}  # a line of an ordinary cell" for i in range(120))  # kept: short
    cells = [f"{cell}\n# {place}" for place in range(60)]
    first = suspicious.reasons(notebook(*cells))
    assert len(first) == 1 and suspicious.TOO_LARGE in first[0]
    assert suspicious.reasons(notebook(*cells)) == first
