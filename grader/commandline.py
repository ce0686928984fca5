"""What every command line of the package shares: an argument refused, a mistake the user can put right, or Ctrl-C
said in one line on stderr with an exit status, and a bug's traceback shown (`python -m grader`, the demo, the
benchmarks' scripts).

It imports nothing of the package (REFUSALS names classes by module and name), so any room's command line can use
it and nothing here pulls a room in.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NoReturn


class Refused(ValueError):
    """What the user gave does not fit the course (an unknown lesson, options that exclude each other)."""


# The errors that are the user's to put right (what they typed or handed over, their course, their machine), by
# class (its module and name, so that naming one imports nothing), with the exit status: each is said in one line.
# A class not here, nor under one here, is a bug of the grader's, and shows its traceback; None marks such a class
# under one that is here.
REFUSALS: dict[str, int | None] = {
    "grader.commandline.Refused": 2,
    "grader.course.directory.NotACourse": 2,
    "grader.engine.submission.BadInput": 2,  # a file that is no lesson notebook, or a lesson not released
    "grader.course.authoring.AuthoringError": 2,  # a lesson's text source
    "grader.course.contract.ContractError": 2,
    "grader.proof.prove.EntriesError": 2,
    "grader.course.nbgrader_calls.GradingFailed": 1,  # a kernel that never started
    "grader.course.release.ReleaseFailed": 1,  # nbgrader's refusal, in its words
    "grader.instructor.cluster.SchedulerUnreachable": 1,
    "sqlalchemy.exc.ArgumentError": 1,  # a gradebook URL that names no database
    "sqlalchemy.exc.OperationalError": 1,  # a database server that does not answer, a locked file
    "sqlalchemy.exc.IntegrityError": None,
    "sqlalchemy.exc.DatabaseError": 1,  # a gradebook file that is no database
    "builtins.OSError": 1,  # a file or folder that cannot be read or written
}
GRADEBOOK = "the gradebook (--db, else nbgrader_config.py's db_url, else .grading/gradebook.db) cannot be used"


def refusal(error: Exception) -> int | None:
    """The exit status of an error that is the user's to put right (REFUSALS), None for a bug."""
    for kind in type(error).__mro__:
        name = f"{kind.__module__}.{kind.__qualname__}"
        if name in REFUSALS:
            return REFUSALS[name]
    return None


def one_line(error: Exception) -> str:
    """What went wrong, in one line (a database's or a file's error in the words of what the user gave)."""
    if type(error).__module__ == "sqlalchemy.exc":
        text = f"{GRADEBOOK}: {getattr(error, 'orig', None) or error}"
    elif isinstance(error, OSError) and error.filename is not None:
        text = f"{error.filename}: {error.strerror}"
    else:
        text = str(error)
    return " ".join(text.split())


def in_one_line(work: Callable[[], int], after_ctrl_c: str) -> int:
    """work()'s exit status; Ctrl-C (saying `after_ctrl_c`: what it leaves) or an error that is the user's to put
    right is said in one line on stderr instead of a traceback, with its exit status. A bug's traceback is shown."""
    try:
        return work()
    except KeyboardInterrupt:
        newline = "\n" if sys.stderr.isatty() else ""  # below what the terminal shows of a progress bar and ^C
        print(f"{newline}stopped (Ctrl-C): {after_ctrl_c}", file=sys.stderr)
        return 130
    except Exception as error:
        status = refusal(error)
        if status is None:
            raise  # a bug: its traceback is what a report of it needs
        print(f"error: {one_line(error)}", file=sys.stderr)
        return status


class OneLineParser(argparse.ArgumentParser):
    """argparse, saying a refused argument in one line (argparse prints the usage above it) and where the usage is."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def positive(text: str) -> int:
    """A number of jobs, seconds or megabytes: a whole number above 0."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number above 0")
    return int(text)
