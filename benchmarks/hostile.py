"""The hostile corpus (tests/hostile/) graded by plain `nbgrader autograde` and by `grader grade`, side by side.

Plain nbgrader runs the tests in the learner's kernel, as the grading user, beside the
gradebook. Each kind is graded by plain nbgrader in a class of its own, next to one ordinary
classmate with a correct notebook who is graded first, so the table shows both what the
submission got and what it did to the classmate. The memory bomb is left out of the plain
run (no memory limit: it would exhaust the machine). Both allow 8 s per cell. About 5 minutes.

    .venv/bin/python benchmarks/hostile.py
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from nbgrader.api import Gradebook

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the corpus lives in the repository's tests/
from grader import course  # noqa: E402
from tests.hostile import COURSE, ENV, FULL, KINDS, LESSON, notebook, released_course, submit  # noqa: E402
from tests.test_hostile import grade_corpus, outcomes  # noqa: E402

UNSAFE_FOR_PLAIN = {"memory_bomb"}
CLASSMATE = "0classmate"  # sorts first: graded before the submission next to it


def plain(kind, template: Path, root: Path) -> tuple[float | None, float | None]:
    """(the submission's score, the classmate's score) after one plain `nbgrader autograde` of their class."""
    shutil.copytree(template, root)
    COURSE["root"] = str(root)
    submit(root, CLASSMATE, notebook())
    submit(root, kind.id, kind.make(), kind.beside)
    subprocess.run([sys.executable, "-m", "nbgrader", "autograde", LESSON, "--Execute.timeout=8"], cwd=root, env=ENV,
                   capture_output=True, timeout=900)
    with Gradebook(course.nbgrader_config(root).CourseDirectory.db_url) as gb:
        found = {sub.student.id: float(sub.score) for sub in gb.find_assignment(LESSON).submissions
                 if all(g.score is not None for nb in sub.notebooks for g in nb.grades)}
    return found.get(kind.id), found.get(CLASSMATE)


def main() -> int:
    rows = ["| submission | plain nbgrader: its score | plain nbgrader: a classmate's | `grader grade` |",
            "|---|---|---|---|"]
    with tempfile.TemporaryDirectory(prefix="softmax-hostile-") as tmp:
        (Path(tmp) / "ours").mkdir()
        grade_corpus(Path(tmp) / "ours")
        ours = outcomes(Path(tmp) / "ours" / "course")
        template = released_course(Path(tmp) / "template")
        for number, kind in enumerate(KINDS, 1):
            print(f"[{number}/{len(KINDS)}] {kind.id}", file=sys.stderr, flush=True)
            if kind.id in UNSAFE_FOR_PLAIN:
                before = ("not run (no memory limit)", "-")
            elif kind.make is None:
                before = ("no LMS collect", "-")
            else:
                score, classmate = plain(kind, template, Path(tmp) / kind.id)
                before = tuple("not graded" if s is None else f"{s:g} / {FULL:g}" for s in (score, classmate))
            status, score = ours[kind.student_id]
            after = f"{score:g} / {FULL:g} ({status})" if score is not None else status
            rows.append(f"| {kind.what} | {before[0]} | {before[1]} | {after} |")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
