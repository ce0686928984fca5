"""Nothing a submission holds stops `grade`, and edited grading metadata costs nothing but a flag.

One class is graded by the real CLI: an ordinary student beside a cell Python cannot parse
(200,000 terms), metadata of the wrong type and each edit of grading metadata on notebooks
whose answers are all right, JSON nested too deep to read, a timestamp that is no time, names
of modules, an error's class and a warning's class that the kernel sends and whose import
exits (SystemExit), and files beside the notebook whose names forge lines of grade's log.
Another is graded by grade_class with workers that die, and another with gradings that a
SystemExit, KeyboardInterrupt or GeneratorExit stops in the grading process: the batch
finishes, the others are graded, and each of those submissions gets a status of its own.
The instructor's own Ctrl-C still stops `grade`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from grader.course import Course
from grader.course.limits import Limits
from grader.engine import bridge, status
from grader.engine.grade import grade_submission
from grader.instructor.grading import grade_class, statuses
from grader.instructor.results import class_results
from testbed.hostile import edits
from testbed.hostile.lesson import DISTRIBUTION_ONLY, ENV, FULL, LESSON, notebook, reference, released_course, submit
from testbed.hostile.payloads import EXITS_ON_IMPORT, FORGED_LINE, FORGED_NAMES, MODULE_EXITS, NAIVE
from tests.support import once_per_run, run_apart, terminal_sigint

pytestmark = pytest.mark.xdist_group("batch-survives")  # its tests read one graded class (tests/conftest.py)


def long_expression(nb):
    nb.cells.insert(5, nbformat.v4.new_code_cell(edits.LONG))


DEEP = b'{"cells": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"  # too deep for Python's JSON reader
# The learner's error and warning classes name the module whose import exits (the bridge rebuilds each from its
# module and name).
ERROR_CLASS_EXITS = f"""
class Refused(ValueError):
    pass


Refused.__module__ = {EXITS_ON_IMPORT!r}


def naive_normalize(scores):
    raise Refused("no answer")
"""
WARNING_CLASS_EXITS = f"""
import warnings


class Slow(UserWarning):
    pass


Slow.__module__ = {EXITS_ON_IMPORT!r}
_normalize = naive_normalize


def naive_normalize(scores):
    warnings.warn("slow path", Slow)
    return _normalize(scores)
"""
# student -> (the notebook, what is handed in beside it, status, score, detail it must name): every
# edited notebook has every answer right
CLASS = {
    "ordinary": (notebook(), (), status.GRADED, FULL, ""),
    "long_expression": (notebook(edit=long_expression), (), status.SUSPICIOUS, FULL, "cell 5 could not be read"),
    **{edit.__name__: (notebook(edit=edit), (), status.TAMPERED, FULL, detail) for edit, detail in edits.EDITS.items()},
    "deep_json": (DEEP, (), status.INVALID, 0.0, "not"),  # "not a notebook" or "not readable as a notebook"
    "bad_timestamp": (
        notebook(),
        (("timestamp.txt", b"9" * 60),),
        status.BAD_TIMESTAMP,
        FULL,
        "timestamp.txt is not a time nbgrader can read (OverflowError",
    ),
    # what the kernel names is never imported here: each is graded for what it does
    "module_exits": (notebook({NAIVE: MODULE_EXITS}), (), status.GRADED, DISTRIBUTION_ONLY, ""),
    "error_class_exits": (notebook({NAIVE: ERROR_CLASS_EXITS}), (), status.GRADED, DISTRIBUTION_ONLY, ""),
    "warning_class_exits": (
        notebook({NAIVE: reference()[NAIVE] + WARNING_CLASS_EXITS}),
        (),
        status.GRADED,
        FULL,
        "",
    ),
    "forged_names": (notebook(), FORGED_NAMES, status.SUSPICIOUS, FULL, "notes\\n  mallory"),
}


def grade_the_class(folder):
    """The class graded by `grade`, then `grade` again (nothing changed); each run's exit status, output and errors
    in grade.txt and again.txt, its output alone in grade-stdout.txt."""
    root = released_course(folder / "course")
    for student, (data, beside, _, _, _) in CLASS.items():
        submit(root, student, data, beside)
    for log in ("grade", "again"):
        done = subprocess.run(
            [sys.executable, "-m", "grader", "--course", str(root), "grade", "--timeout", "10"],
            env=ENV,
            capture_output=True,
            text=True,
            timeout=900,
        )
        (folder / f"{log}.txt").write_text(f"{done.returncode}\n{done.stdout}\n{done.stderr}")
        (folder / f"{log}-stdout.txt").write_text(done.stdout)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return once_per_run(tmp_path_factory, "batch-survives", grade_the_class)


def test_the_batch_finishes_with_exit_0(graded):
    returncode, output = (graded / "grade.txt").read_text().split("\n", 1)
    assert returncode == "0", output
    assert f"Graded {len(CLASS)} submission(s)" in output and "Could not grade" not in output


def test_a_second_run_finishes_and_finds_everyone_graded(graded):
    returncode, output = (graded / "again.txt").read_text().split("\n", 1)
    assert returncode == "0", output
    assert "Graded 0 submission(s) in " in output and f"; {len(CLASS)} unchanged since last graded" in output


def test_names_in_the_grade_log_are_escaped_so_none_forges_a_line(graded):
    """A name beside the notebook holds a newline and a forged line, ANSI escapes and a bidi override: the log
    shows each as its escape, on the line of the student who handed it in."""
    output = (graded / "grade-stdout.txt").read_text()
    assert [c for c in output if not c.isprintable() and c != "\n"] == [], "a raw control character was printed"
    assert not [line for line in output.splitlines() if line.startswith(FORGED_LINE)], output
    (line,) = [line for line in output.splitlines() if line.startswith(f"  forged_names / {LESSON}: ")]
    assert f"notes\\n{FORGED_LINE}\\x1b[2K\\x1b[1A.py" in line and "photo\\u202egnp.py" in line, line


@pytest.mark.parametrize("student", CLASS)
def test_each_gets_its_status_and_the_points_it_earned(graded, student):
    _, _, expected_status, score, detail = CLASS[student]
    root = graded / "course"
    got_status, got_detail = statuses(Course(root))[student, LESSON]
    assert (got_status, class_results(Course(root)).score(student, LESSON)) == (expected_status, score), got_detail
    assert detail in got_detail


def test_the_cell_python_cannot_compile_costs_no_time_limit(graded):
    autograded = graded / "course" / ".grading" / "autograded" / "long_expression" / LESSON / f"{LESSON}.ipynb"
    cell = nbformat.read(autograded, as_version=4).cells[5]
    assert [output.ename for output in cell.outputs if output.output_type == "error"] == ["RecursionError"]


# A worker that dies: `grade` below runs in the worker processes in place of grade_submission.
KILLER, KILLED_ONCE = "kills_its_worker", "worker_killed_once"


def grade(course_root, lesson, data, *rest):
    """grade_submission, but the worker grading KILLER dies at once (every time), and the one grading
    KILLED_ONCE dies two seconds into its first grading (its kernel running)."""
    student = json.loads(data)["metadata"]["student"]  # each notebook names its student (see the test)
    if student == KILLER:
        os.kill(os.getpid(), signal.SIGKILL)
    marker = Path(course_root) / ".grading" / f"killed-{student}"
    if student == KILLED_ONCE and not marker.exists():
        marker.touch()
        threading.Timer(2, os.kill, (os.getpid(), signal.SIGKILL)).start()
    return grade_submission(course_root, lesson, data, *rest)


def test_a_worker_that_dies_is_replaced_and_the_batch_finishes(tmp_path):
    root = released_course(tmp_path / "course")
    students = ["ordinary_a", KILLER, KILLED_ONCE, "ordinary_b", "ordinary_c"]
    for student in students:
        submit(root, student, notebook(edit=lambda nb, student=student: nb.metadata.update(student=student)))
    log = run_apart(lambda: grade_class(Course(root), jobs=2, limits=Limits(10), grade=grade))
    assert log.failed == []
    assert (tmp_path / "course" / ".grading" / f"killed-{KILLED_ONCE}").is_file()  # it did die once
    found, results = statuses(Course(root)), class_results(Course(root))
    for student in students:
        expected = (status.GRADER_DIED, 0.0) if student == KILLER else (status.GRADED, FULL)
        assert (found[student, LESSON][0], results.score(student, LESSON)) == expected, found[student, LESSON]
    assert f"{KILLER} / {LESSON}: {status.GRADER_DIED} (the grading process died twice" in log.render()
    with Gradebook(Course(root).nbgrader_config().CourseDirectory.db_url) as gb:
        flagged = {
            sub.student.id for sub in gb.find_assignment(LESSON).submissions for nb in sub.notebooks if nb.flagged
        }
    assert flagged == {KILLER}
    # a worker's death may be the machine's
    again = run_apart(lambda: grade_class(Course(root), jobs=2, limits=Limits(10), grade=grade))
    assert [student for student, *_ in again.graded] == [KILLER] and len(again.unchanged) == len(students) - 1


# Gradings stopped in the grading process by what is not an Exception: `stopped` below runs in the worker processes
# in place of grade_submission.
STOPS = {"exits": SystemExit, "interrupted": KeyboardInterrupt, "generator_exit": GeneratorExit}
EXITS_OUTSIDE = "exits_outside_grading"  # its worker raises SystemExit before it grades anything


def stopped(course_root, lesson, data, *rest):
    """grade_submission, but a test cell's first request to the kernel raises STOPS[student] in the grading process
    (as a module the bridge imported by the kernel's word did), and EXITS_OUTSIDE's worker exits before grading."""
    student = json.loads(data)["metadata"]["student"]  # each notebook names its student (see the test)
    if student == EXITS_OUTSIDE:
        raise SystemExit(f"{student} exits")
    if student not in STOPS:
        return grade_submission(course_root, lesson, data, *rest)

    def describe(session, names):
        raise STOPS[student](f"raised for {student} while a test cell ran")

    original, bridge.KernelSession.describe = bridge.KernelSession.describe, describe
    try:
        return grade_submission(course_root, lesson, data, *rest)
    finally:
        bridge.KernelSession.describe = original


def test_a_systemexit_keyboardinterrupt_or_generatorexit_in_a_worker_is_that_submissions_grader_error(tmp_path):
    root = released_course(tmp_path / "course")
    students = ["ordinary_a", *STOPS, EXITS_OUTSIDE, "ordinary_b"]
    tampered = dict(edits.EDITS)  # "exits" also has an edited test cell: both problems are named
    for student in students:
        edit = next(iter(tampered)) if student == "exits" else None

        def named(nb, student=student, edit=edit):
            nb.metadata.update(student=student)
            if edit:
                edit(nb)

        submit(root, student, notebook(edit=named))
    log = run_apart(lambda: grade_class(Course(root), jobs=2, limits=Limits(10), grade=stopped))
    assert log.failed == [] and len(log.graded) == len(students), log.render()
    found, results = statuses(Course(root)), class_results(Course(root))
    for student in students:
        got, detail = found[student, LESSON]
        if student.startswith("ordinary"):
            assert (got, results.score(student, LESSON)) == (status.GRADED, FULL), detail
            continue
        raised = "SystemExit" if student == EXITS_OUTSIDE else STOPS[student].__name__
        assert status.GRADER_ERROR in got.split(", ") and results.score(student, LESSON) == 0.0, (got, detail)
        assert raised in detail and detail.endswith("the next `grade` tries again"), detail
    assert found["exits", LESSON][0] == f"{status.TAMPERED}, {status.GRADER_ERROR}"
    assert f"  interrupted / {LESSON}: {status.GRADER_ERROR} (grading stopped (KeyboardInterrupt" in log.render()
    with Gradebook(Course(root).nbgrader_config().CourseDirectory.db_url) as gb:
        flagged = {
            sub.student.id for sub in gb.find_assignment(LESSON).submissions for nb in sub.notebooks if nb.flagged
        }
    assert flagged == {*STOPS, EXITS_OUTSIDE}
    # graded again by the next run, which finishes too
    again = run_apart(lambda: grade_class(Course(root), jobs=2, limits=Limits(10), grade=stopped))
    assert sorted(student for student, *_ in again.graded) == sorted([*STOPS, EXITS_OUTSIDE])
    assert len(again.unchanged) == 2 and again.failed == []


# How long each kernel's `sleep` runs, and how the test finds it: its own, by this process's id (the kernels of another
# run of the suite on the machine sleep too, and the test would send its Ctrl-C before any of its own slept).
SLEEPS = f"97.{os.getpid()}"


def sleeping() -> list[int]:
    """The pids of the `sleep SLEEPS` processes the kernels run."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if (entry / "cmdline").read_bytes().split(b"\0")[:2] == [b"sleep", SLEEPS.encode()]:
                found.append(int(entry.name))
        except (OSError, ValueError):
            continue
    return found


def test_the_instructors_ctrl_c_still_stops_grade(tmp_path):
    """The terminal sends SIGINT to `grade` and its workers: each worker's grading ends as a grader error, but the
    KeyboardInterrupt of `grade` itself is no job's, and it stops."""
    root = released_course(tmp_path / "course")
    waits = f"import subprocess\nsubprocess.run(['sleep', '{SLEEPS}'])\n" + reference()[NAIVE]
    for student in ("slow_a", "slow_b", "slow_c"):
        submit(root, student, notebook({NAIVE: waits}))
    with terminal_sigint():
        process = subprocess.Popen(
            [sys.executable, "-m", "grader", "--course", str(root), "grade", "--timeout", "300", "--jobs", "2"],
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # a process group of its own, as a terminal's foreground job
        )
    try:
        until = time.monotonic() + 120
        while not sleeping() and time.monotonic() < until and process.poll() is None:
            time.sleep(0.2)
        assert sleeping(), "no kernel started its sleep"
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in the terminal does
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode != 0 and "Graded" not in stdout, (process.returncode, stdout, stderr[-3000:])
    assert "stopped (Ctrl-C)" in stderr and "Traceback" not in stderr, stderr[-3000:]  # in one line (test_errors)
    assert statuses(Course(root)) == {}  # nothing recorded: the grading was stopped, not finished
