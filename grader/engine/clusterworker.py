"""The worker side of grading on a Dask cluster: what each `dask worker` runs for one submission.

A worker is started with this module as its preload, which names the course directory it grades
against and starts its warm kernel zygote once, for every task it will run:

    dask worker tcp://SCHEDULER:8786 --nthreads 1 --preload grader.engine.clusterworker --course DIR

A task is one JSON text (task()) and its result is one JSON text (grade_task()): the notebook's bytes
travel as base64, its names, timestamp and limits as strings and numbers, and the outcome comes back
as grade_submission's plain data, with a failure as a message. So nothing the instructor's process
reads back from a worker is more than a string, and json.loads is all that parses it.

The task also carries what it was built against: a digest of the lesson's source and release
notebooks and the versions of Python, the grading package, nbgrader and NumPy. A worker whose course or
installation differs refuses the task (WrongWorker), so a submission is never graded against
tests other than the instructor's.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import platform
from importlib import metadata
from pathlib import Path

import click

from grader.course import Course
from grader.course.gradebook import lesson_gradebook
from grader.course.limits import Limits
from grader.course.nbgrader_calls import GradingFailed
from grader.engine import warmkernel
from grader.engine.grade import grade_submission, named_error

PROFILER = ("profile", "profile-cycle")  # the names of a Dask worker's profiling callbacks
# installed versions a worker must share with the instructor: the grader, nbgrader, and NumPy (the answers)
PACKAGES = ("softmax-grader", "nbgrader", "numpy")
_course: Course | None = None  # the course this worker process was started with (dask_setup)


class WrongWorker(GradingFailed):
    """The worker's course or installation is not the one the task was built against: it refuses to grade."""


def lesson_digest(course: Course, lesson: str) -> str:
    """What the lesson's tests are, in one digest: its source notebook (hidden tests) and its release."""
    try:
        parts = [course.source_notebook(lesson).read_bytes(), course.release_notebook(lesson).read_bytes()]
    except OSError:
        return "missing"
    return hashlib.sha256(b"\0".join(parts)).hexdigest()


@functools.cache
def versions() -> dict[str, str]:
    """Python's and PACKAGES' versions (read once: a running process keeps the code it imported)."""
    return {"python": platform.python_version(), **{name: metadata.version(name) for name in PACKAGES}}


def task(call: tuple, digest: str) -> str:
    """grade_submission's arguments as the JSON text of one task, stamped with its lesson's digest
    (lesson_digest, on the instructor's course) and the installed versions."""
    root, lesson, notebook, timestamp, beside, limits = call
    data = notebook.encode() if isinstance(notebook, str) else notebook
    return json.dumps(
        {
            "course": root,
            "lesson": lesson,
            "digest": digest,
            "versions": versions(),
            "notebook": base64.b64encode(data).decode("ascii"),
            "timestamp": timestamp,
            "beside": list(beside),
            "limits": None if limits is None else limits.as_data(),
        }
    )


def grade_task(text: str) -> str:
    """On a worker: check that it holds the task's lesson as the instructor does, then grade the submission.

    Returns {"outcome": grade_submission's data}, {"failed": why} (the machine's failure, or a
    refusal) or {"error": what stopped it} (what is not an Exception, which would stop the worker: Dask lets a
    SystemExit or KeyboardInterrupt of a task through), as JSON text: no exception, and so no pickled object,
    goes back."""
    try:
        fields = json.loads(text)
        course = _course or Course(Path(fields["course"]))
        _check(course, fields)
        lesson_gradebook(course, fields["lesson"])  # built once per worker's course (atomic), if missing
        outcome = grade_submission(
            str(course.root),
            fields["lesson"],
            base64.b64decode(fields["notebook"]),
            fields["timestamp"],
            fields["beside"],
            None if fields["limits"] is None else Limits.from_data(fields["limits"]),
        )
    except GradingFailed as error:
        return json.dumps({"failed": str(error)})
    except Exception as error:  # noqa: BLE001 - a bug of the grader: told as text, graded by the next run
        return json.dumps({"failed": f"the worker could not grade it ({named_error(error)})"})
    except BaseException as error:  # noqa: BLE001 - the submission's grader error (see grade.grade_outcome)
        return json.dumps({"error": named_error(error)})
    return json.dumps({"outcome": outcome})


def _check(course: Course, fields: dict) -> None:
    lesson, wanted = fields["lesson"], fields["digest"]
    have = lesson_digest(course, lesson)
    if have != wanted:
        what = "lacks the lesson" if have == "missing" else "has another version of the lesson"
        raise WrongWorker(
            f"the worker's course {course.root} {what} {lesson} (its digest {have[:12]}, the instructor's "
            f"{wanted[:12]}): give every worker the instructor's lessons (solutions/ and notebooks/)"
        )
    if fields["versions"] != versions():
        raise WrongWorker(f"the worker runs {versions()}, the instructor {fields['versions']}: install the same")


@click.command()
@click.option(
    "--course",
    type=click.Path(exists=True, file_okay=False),
    help="the course directory this worker grades against (default: the instructor's path, as sent)",
)
def dask_setup(worker, course: str | None) -> None:
    """dask worker's preload: take the course, and start the zygote this worker's kernels fork from.

    It also turns off the worker's statistical profiler (its periodic callbacks are started after the
    preloads): sampling the grading thread's deep stack every 10 ms costs CPU the kernels need."""
    global _course
    if course is not None:
        _course = Course(Path(course))
    for name in PROFILER:
        worker.periodic_callbacks.pop(name, None)
    warmkernel.start_zygote()
