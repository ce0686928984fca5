"""The reading of learner code (grader.engine.suspicious) keeps its verdicts per cell text, but only for short
texts: the same verdict from the cache as from a fresh reading, and long cells never kept."""

from __future__ import annotations

import nbformat

from grader.engine import suspicious


def notebook(*sources: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in sources])


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
