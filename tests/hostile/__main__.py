"""Print the README's table of hostile submissions, from a fresh grading (a few minutes)."""

import tempfile
from pathlib import Path

from tests.hostile import render
from tests.hostile.grading import grade_corpus, outcomes

with tempfile.TemporaryDirectory() as tmp:
    grade_corpus(Path(tmp))
    print(render(outcomes(Path(tmp) / "course")))
