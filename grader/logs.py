"""What the command lines (python -m grader, python -m grader.hub) tell their user on stderr besides their results:
progress and notes (INFO, shown by default), warnings, and with --verbose the details (DEBUG), each module through
its own logger (`logger = logging.getLogger(__name__)`, under `grader`). A command's results go to stdout, and a
refused input is one line on stderr (commandline.in_one_line), whatever the level. The learner room never logs:
what a check says in a notebook is its own output.
"""

from __future__ import annotations

import argparse
import logging
import sys

DETAILED = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class Plain(logging.Formatter):
    """The message alone, as one line of the command's; a warning or an error says which it is first."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return text if record.levelno < logging.WARNING else f"{record.levelname.lower()}: {text}"


class ToStderr(logging.StreamHandler):
    """Writes to whatever sys.stderr is when a message is logged (a test's capture, say), not when set up."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, _):
        pass


def add_options(parser: argparse.ArgumentParser) -> None:
    """--verbose and --quiet, which exclude each other."""
    loudness = parser.add_mutually_exclusive_group()
    loudness.add_argument("-v", "--verbose", action="store_true", help="also say the details, each with its time")
    loudness.add_argument("-q", "--quiet", action="store_true", help="say warnings and errors only: no progress")


def configure(verbose: bool = False, quiet: bool = False) -> None:
    """The `grader` loggers for a command line: INFO by default, DEBUG with --verbose, WARNING with --quiet. Set up
    again on each call (the tests run several commands in one process); other libraries' loggers are left alone."""
    handler = ToStderr()
    handler.setFormatter(logging.Formatter(DETAILED) if verbose else Plain())
    logger = logging.getLogger("grader")
    logger.handlers[:] = [handler]
    logger.setLevel(logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO)
    logger.propagate = False


def progress_shown() -> bool:
    """Whether a progress bar is drawn: on a terminal, and unless --quiet."""
    return sys.stderr.isatty() and logging.getLogger("grader").isEnabledFor(logging.INFO)
