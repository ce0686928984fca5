"""The hostile corpus (testbed/hostile/) graded by plain `nbgrader autograde` and by `grader grade`, side by side.

Plain nbgrader runs the tests in the learner's kernel, as the grading user, beside the
gradebook, with no limit on memory, processes or network. Each kind is graded by plain
nbgrader in a class of its own, next to one ordinary classmate with a correct notebook who
is graded first, so the table shows both what the submission got and what it did to the
classmate; several classes are graded at once. Kinds that would hurt the machine under
plain nbgrader (memory, processes or segments that outlive the kernel, the machine's
network) are left out of the plain run, with the reason. Both allow 8 s per cell. About
5 minutes on 2 cores.

    .venv/bin/python benchmarks/hostile.py [--json PATH] [--page [PATH]]
    .venv/bin/python benchmarks/hostile.py --from-json PATH --page   # the page's table from a saved run

--page writes the table, with the date and the machine, into its block of docs/reference/hostile.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from nbgrader.api import Gradebook

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: the package and testbed/
from benchmarks.figures import REFERENCE, add_figures_options, figures_of  # noqa: E402
from grader.course import Course  # noqa: E402
from grader.proof import pages  # noqa: E402
from testbed.hostile.grading import grade_corpus, outcomes  # noqa: E402
from testbed.hostile.kinds import KINDS  # noqa: E402
from testbed.hostile.lesson import ENV, FULL, LESSON, TIMEOUT, notebook, released_course, submit  # noqa: E402

CLASSMATE = "0classmate"  # sorts first: graded before the submission next to it
PAGE = REFERENCE / "hostile.md"
BEGIN, END = pages.markers("against plain nbgrader", "make benchmark-hostile")
HEADER = ("submission", "plain nbgrader: its score", "plain nbgrader: a classmate's", "`grader grade`")


def plain_class(kind, template: Path, root: Path) -> Path:
    """The kind's own class: a copy of the released template with the classmate and the submission in it."""
    shutil.copytree(template, root)
    submit(root, CLASSMATE, notebook())
    submit(root, kind.id, kind.made(root), kind.beside)  # no answer service runs: its port is 0
    return root


def plain(kind, root: Path) -> tuple[float | None, float | None]:
    """(the submission's score, the classmate's score) after one plain `nbgrader autograde` of their class."""
    try:
        subprocess.run(
            [sys.executable, "-m", "nbgrader", "autograde", LESSON, f"--Execute.timeout={TIMEOUT}"],
            cwd=root,
            env=ENV,
            capture_output=True,
            timeout=900,
        )
    except subprocess.TimeoutExpired:
        pass  # what it graded before it was stopped still counts
    with Gradebook(Course(root).nbgrader_config().CourseDirectory.db_url) as gb:
        found = {
            sub.student.id: float(sub.score)
            for sub in gb.find_assignment(LESSON).submissions
            if all(g.score is not None for nb in sub.notebooks for g in nb.grades)
        }
    return found.get(kind.id), found.get(CLASSMATE)


def measure() -> dict:
    """Grade the corpus both ways; the figures for JSON: each kind's row of the table."""
    figures = {"date": pages.now(), "machine": pages.this_machine(), "rows": []}
    with tempfile.TemporaryDirectory(prefix="softmax-hostile-") as tmp:
        (Path(tmp) / "ours").mkdir()
        print("grading the corpus with `grader grade`", file=sys.stderr, flush=True)
        grade_corpus(Path(tmp) / "ours")
        ours = outcomes(Path(tmp) / "ours" / "course")
        template = released_course(Path(tmp) / "template")
        runnable = [kind for kind in KINDS if kind.make and not kind.unsafe_for_plain]
        classes = {kind.id: plain_class(kind, template, Path(tmp) / kind.id) for kind in runnable}
        print(f"grading {len(runnable)} kinds with plain nbgrader", file=sys.stderr, flush=True)
        with ThreadPoolExecutor(max_workers=len(os.sched_getaffinity(0))) as pool:
            plain_scores = dict(zip(classes, pool.map(plain, runnable, classes.values()), strict=False))
        for kind in KINDS:
            if kind.unsafe_for_plain:
                before = (f"not run ({kind.unsafe_for_plain})", "-")
            elif kind.make is None:
                before = ("no LMS collect", "-")
            else:
                before = tuple("not graded" if s is None else f"{s:g} / {FULL:g}" for s in plain_scores[kind.id])
            status, score = ours.get(kind.student_id, ("neither graded nor listed by collect", None))
            after = f"{score:g} / {FULL:g} ({status})" if score is not None else status
            figures["rows"].append([kind.what, *before, after])
    return figures


def markdown(figures: dict) -> str:
    """The page's block: when and where, then the table."""
    lines = [f"Graded by `benchmarks/hostile.py` on {pages.measured_on(figures['date'], figures['machine'])}.", ""]
    lines += ["| " + " | ".join(HEADER) + " |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in figures["rows"]]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_figures_options(parser, PAGE)
    args = parser.parse_args(argv)
    figures = figures_of(args, measure)
    text = markdown(figures)
    print(text)
    if args.page:
        pages.write_block(args.page, BEGIN, END, text)
        print(f"Rewrote the table against plain nbgrader in {args.page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
