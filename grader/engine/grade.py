"""Grade one submission, whatever its file holds: the engine's entry point, run in a worker process.

Its grading metadata is rebuilt from the release, its code inspected, and nbgrader's autograde run in a
sandbox (sandbox.autograde_sandboxed); every way this can go wrong ends as the submission's status.
What goes in and what comes out is plain data (the notebook's bytes, names, numbers; a JSON-able dict),
so the grading may run in another process or on another machine.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

import nbformat

from grader.course import Course, read_cached
from grader.course.limits import Limits
from grader.course.nbgrader_calls import GradingFailed
from grader.engine import metadata, suspicious
from grader.engine import status as status_
from grader.engine.sandbox import Sandboxed, autograde_sandboxed
from grader.engine.submission import BadInput, read_notebook_bytes

# How jupyter_client says a kernel never became ready, before any of the learner's code ran.
KERNEL_NEVER_STARTED = ("before replying to kernel_info", "didn't respond in")
DETAIL_LIMIT = 300  # characters of an error quoted in a status detail
NOT_COMPILED = "maximum recursion depth exceeded during compilation (the cell was not run)"


@dataclass
class Outcome:
    """A grading's result: nbgrader's, unless the notebook could not run at all; and its status."""

    result: Sandboxed | None
    status: str = status_.GRADED
    detail: str = ""

    def also(self, status: str, detail: str) -> Outcome:
        """This outcome with one more problem."""
        if self.status == status_.GRADED:
            return Outcome(self.result, status, detail)
        return Outcome(self.result, f"{self.status}, {status}", f"{self.detail}; {detail}")

    def as_data(self) -> dict:
        """JSON-able data: what crosses the process boundary."""
        return {
            "status": self.status,
            "detail": self.detail,
            "result": None if self.result is None else self.result.as_data(),
        }

    @classmethod
    def from_data(cls, data: dict) -> Outcome:
        """The outcome back from as_data's output."""
        return cls(
            None if data["result"] is None else Sandboxed.from_data(data["result"]), data["status"], data["detail"]
        )


def grade_submission(
    course_root: str,
    lesson: str,
    notebook: bytes | str,
    timestamp: str | None,
    beside: list[str],
    limits: Limits | None = None,
) -> dict:
    """Grade one submission of `lesson` (in a worker process); whatever `notebook` holds ends as an Outcome,
    returned as its JSON-able data (Outcome.as_data).

    `course_root` is the course directory, `notebook` the file's bytes (or text), `timestamp` its
    timestamp.txt, `beside` the paths (relative to its folder) of the files handed in beside it,
    `limits` the seconds each cell and the whole notebook may run and the megabytes its kernel may use
    (default: the course's, Course.limits).
    Its grading metadata is rebuilt from the release first, so nbgrader sees the instructor's
    test cells whatever the submission says. It raises GradingFailed only for the machine's
    failure (a kernel that never started, twice).
    """
    course = Course(Path(course_root))
    return grade_outcome(course, lesson, notebook, timestamp, beside, limits).as_data()


def grade_outcome(
    course: Course,
    lesson: str,
    notebook: bytes | str,
    timestamp: str | None,
    beside: list[str],
    limits: Limits | None = None,
) -> Outcome:
    """grade_submission's work, with its Outcome as an object.

    Whatever stops it that is not an Exception (a SystemExit, KeyboardInterrupt or GeneratorExit raised by
    something the submission reached in this process) ends as GRADER_ERROR beside the problems found so far; an
    Exception that leaves it is the machine's or the course's (GradingFailed: a kernel that never started)."""
    problems: list[tuple[str, str]] = []
    try:
        return _outcome(course, lesson, notebook, timestamp, beside, limits, problems)
    except Exception:
        raise
    except BaseException as error:  # noqa: BLE001 - a worker's; the instructor's Ctrl-C stops `grade` itself
        stopped = (status_.GRADER_ERROR, f"grading stopped ({named_error(error)})")
        return Outcome(None, *status_.combine(problems + [stopped]))


def _outcome(course, lesson, notebook, timestamp, beside, limits: Limits | None, problems: list) -> Outcome:
    """grade_outcome's steps; each problem found is added to `problems` as it is found."""
    name = f"{lesson}.ipynb"
    try:
        nb = read_notebook_bytes(notebook, name)
    except BadInput as error:
        return Outcome(None, status_.INVALID, str(error).replace(f"{name}: ", ""))
    except Exception as error:  # a file that overwhelms the reader (JSON nested too deep, too large)
        return Outcome(None, status_.INVALID, f"not readable as a notebook ({named_error(error)})")
    release = read_cached(course.release_notebook(lesson))
    try:
        nb, edits = metadata.restore(nb, release)
    except Exception as error:
        return Outcome(None, status_.INVALID, f"its grading metadata could not be read ({named_error(error)})")
    problems += [(status_.TAMPERED, detail) for detail in edits]
    try:
        inspection = suspicious.inspect(nb)
    except Exception as error:
        inspection = suspicious.Inspection([f"its code could not be inspected ({named_error(error)})"], [])
    problems += [(status_.SUSPICIOUS, reason) for reason in inspection.reasons]
    try:
        nb = _compilable(nb, inspection.uncompilable)
    except Exception as error:
        problems.append((status_.SUSPICIOUS, f"its code could not be compiled ({named_error(error)})"))
    problems += _found(
        status_.TAMPERED,
        "its test cells could not be compared with the release",
        lambda: status_.tampering(nb, release),
    )
    problems += _found(
        status_.SUSPICIOUS, "the files beside it could not be listed", lambda: status_.modules_beside(beside)
    )
    try:
        result = _autograde(course, lesson, nb, timestamp, limits)
    except GradingFailed as error:  # nbgrader gave up on this notebook: it scores 0, with the reason
        if _never_started(error):
            raise
        if "DeadKernelError" in str(error) or "Kernel died" in str(error):
            problems.append(
                (status_.KERNEL_DIED, "the kernel stopped (it exited or crashed) before the tests finished")
            )
        elif not problems:
            problems.append((status_.INVALID, str(error)))
        return Outcome(None, *status_.combine(problems))
    except Exception as error:  # the submission broke a step of the grading itself
        stopped = (status_.INVALID, f"grading stopped ({named_error(error)})")
        return Outcome(None, *status_.combine(problems + [stopped]))
    try:
        executed = result.executed if result.executed is not None else nbformat.reads(result.autograded, as_version=4)
        problems += status_.execution_problems(executed)
    except Exception as error:
        problems.append((status_.INVALID, f"its graded notebook could not be read ({named_error(error)})"))
    return Outcome(result, *status_.combine(problems))


def _compilable(nb: nbformat.NotebookNode, uncompilable: list[int]) -> nbformat.NotebookNode:
    """The notebook with each learner cell Python cannot compile (suspicious.Inspection.uncompilable) replaced
    by one that raises the error compiling it gives, so the kernel answers at once; it runs nothing either way."""
    cells = list(nb.cells)
    for index in uncompilable:
        cells[index] = nbformat.v4.new_code_cell(
            f"raise RecursionError({NOT_COMPILED!r})", metadata=cells[index].metadata, id=cells[index].get("id")
        )
    changed = copy.copy(nb)
    changed["cells"] = cells
    return changed


def _found(status: str, failure: str, look) -> list[tuple[str, str]]:
    """(status, detail) for each finding of `look()`; an error while looking is itself one."""
    try:
        return [(status, detail) for detail in look()]
    except Exception as error:
        return [(status, f"{failure} ({named_error(error)})")]


def named_error(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}".rstrip(": ")
    return text if len(text) <= DETAIL_LIMIT else text[:DETAIL_LIMIT] + "..."


def _never_started(error: GradingFailed) -> bool:
    return any(sign in str(error) for sign in KERNEL_NEVER_STARTED)


def _autograde(course, lesson, nb, timestamp, limits: Limits | None) -> Sandboxed:
    """nbgrader's autograde, tried once more when the kernel never started.

    That failure is the machine's (a loaded machine, before any of the learner's code ran);
    if it happens twice, the submission is listed as not graded rather than scored.
    """
    try:
        return autograde_sandboxed(course, lesson, nb, timestamp, limits, warm=True)
    except GradingFailed as error:
        if not _never_started(error):
            raise
    return autograde_sandboxed(course, lesson, nb, timestamp, limits, warm=True)
