"""One plain `nbgrader autograde` build for every test that compares our grading with it, once per run.

Plain nbgrader pays its start-up (1 to 2 CPU-s of imports) once per run of the command and a kernel per notebook,
so the notebooks these tests compare go through two runs of it (one per half of the lessons, side by side), each
in a copy of one course directory: every lesson's hand-ins KINDS (test_predictions compares them with our engine's
grading of the same notebooks, the `lesson_reports` build; lesson 01's three are also the class of the pipeline,
test_pipeline) and the PyTorch lesson with a probe cell (test_torch_cells). The pipeline's class (a course of its
own, with lesson 01 alone) is graded beside them by `grader grade` in a process of its own, as the docs show it
(test_torch_cells grades its notebook itself).

Every test that reads the build carries GROUP, so one pytest-xdist worker makes it and no other waits on it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader.course import Course
from grader.proof.simulate import cell_scores, course_with_class, hand_in
from tests.support import COURSE, lesson_notebooks, once_per_run, tools_env

GROUP = pytest.mark.xdist_group("predictions-graded")  # the build's readers, on one worker (tests/conftest.py)

PREDICTION_LESSONS = [lesson for lesson in COURSE.lesson_ids() if COURSE.predictions(lesson)]
KINDS = ("reference", "stub", "wrong")  # the predictions' hand-ins: each a student of the class
# The lessons of each plain run, the larger half first: lesson 01 is the quickest to run, and the second half has the
# PyTorch probe besides. Every copy holds every lesson released.
MIDDLE = (len(PREDICTION_LESSONS) + 1) // 2
HALVES = (PREDICTION_LESSONS[:MIDDLE], PREDICTION_LESSONS[MIDDLE:])

PLAIN_AUTOGRADE = [sys.executable, "-m", "nbgrader", "autograde", "*"]
# A TCP port jupyter_client found free for a kernel can be taken by another process's kernel before its own binds it;
# plain nbgrader then gives that notebook up (and removes what it made of it), so the run is made again, once: it
# grades only what is missing.
PORT_TAKEN = "Address already in use"

PIPELINE_LESSON = "01_naive_division"  # its hand-ins KINDS are the pipeline's class, its students named after them

TORCH_LESSON = "08_log_softmax"
TORCH_STUDENT = "torch-probe"
PROBE = 'import sys\nprint("torch imported in this kernel:", "torch" in sys.modules)'


def hand_ins(lesson: str) -> dict[str, nbformat.NotebookNode]:
    """The lesson's notebooks of KINDS: the reference, the untouched release, the reference with every guess wrong."""
    notebooks = lesson_notebooks(lesson)
    return {kind: notebooks[kind] for kind in KINDS}


def with_probe(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook with a last cell of the learner's own that says whether the kernel has imported torch."""
    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    return nb


def torch_probe() -> nbformat.NotebookNode:
    """The PyTorch lesson's reference answers, with the probe cell."""
    return with_probe(COURSE.learner_notebook(TORCH_LESSON, COURSE.reference_answers(TORCH_LESSON)))


def grade_all(folder: Path) -> None:
    """folder/plain-0 and plain-1: plain nbgrader's gradings (copies of folder/class, the course with every hand-in,
    never graded itself); folder/pipeline: the pipeline's class (lesson 01's hand-ins) graded by `grader grade`,
    what it printed in folder/first-run.txt."""
    notebooks = {(kind, lesson): nb for lesson in PREDICTION_LESSONS for kind, nb in hand_ins(lesson).items()}
    course_with_class(COURSE, folder / "class", PREDICTION_LESSONS, notebooks)
    pipeline = {(kind, lesson): nb for (kind, lesson), nb in notebooks.items() if lesson == PIPELINE_LESSON}
    course_with_class(COURSE, folder / "pipeline", [PIPELINE_LESSON], pipeline)
    runs = []
    for number, half in enumerate(HALVES):
        copy = shutil.copytree(folder / "class", folder / f"plain-{number}")
        for kind, lesson in notebooks:
            if lesson not in half:
                shutil.rmtree(copy / ".grading" / "submitted" / kind / lesson)
        if TORCH_LESSON in half:
            hand_in(copy, TORCH_STUDENT, TORCH_LESSON, nbformat.writes(torch_probe()).encode())
        runs.append(start(PLAIN_AUTOGRADE, copy, folder / f"plain-{number}.log"))
    first = start(
        [sys.executable, "-m", "grader", "--course", folder / "pipeline", "grade"], folder, folder / "first-run.txt"
    )
    for number, (run, log) in enumerate(runs):
        if run.wait(timeout=1200) and PORT_TAKEN in errors(log).read_text():
            run, log = start(PLAIN_AUTOGRADE, folder / f"plain-{number}", folder / f"plain-{number}-again.log")
        finished(run, log)
    finished(*first)


def finished(run: subprocess.Popen, log: Path) -> None:
    """Wait for `run`, which must succeed; else fail with the end of what it printed."""
    assert run.wait(timeout=1200) == 0, log.read_text()[-3000:] + errors(log).read_text()[-3000:]


def errors(log: Path) -> Path:
    return log.with_name(f"{log.name}.stderr")


def start(command: list, cwd: Path, log: Path) -> tuple[subprocess.Popen, Path]:
    """`command` started in a process of its own, what it prints going to `log` and its errors beside (files:
    no pipe fills while this process works)."""
    with open(log, "w") as out, open(errors(log), "w") as err:
        process = subprocess.Popen([str(a) for a in command], cwd=cwd, env=tools_env(), stdout=out, stderr=err)
    return process, log


def graded_class(tmp_path_factory) -> Path:
    """The build's folder (grade_all), made once per run."""
    return once_per_run(tmp_path_factory, "predictions-graded", grade_all)


def plain_scores(folder: Path, students, lessons) -> dict[tuple[str, str, str], float]:
    """(student, lesson, cell) -> score that plain nbgrader gave, for these students' notebooks of these lessons."""
    scores: dict[tuple[str, str, str], float] = {}
    for number in range(len(HALVES)):
        scores |= cell_scores(Course(folder / f"plain-{number}"), lessons)
    students = set(students)
    return {key: score for key, score in scores.items() if key[0] in students}


def plain_autograded(folder: Path, student: str, lesson: str) -> Path:
    """The notebook plain nbgrader executed for this student's hand-in."""
    [path] = folder.glob(f"plain-*/.grading/autograded/{student}/{lesson}/{lesson}.ipynb")
    return path
