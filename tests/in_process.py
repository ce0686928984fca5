"""The command line run in this process where a test needs no interpreter of its own.

A `python -m grader` or `python -m nbgrader` process spends 1 to 2 CPU-s importing before it does anything;
here those imports are done once per pytest worker. The tests that show a command as the README runs it
keep a process of its own.
"""

from __future__ import annotations

import contextlib
import io
import os

from tests.support import Ran, run_apart


def grader_here(*args) -> Ran:
    """`python -m grader ARGS` in this process (grader.cli.main, in a thread of its own for the kernels it may
    start), what it printed caught here. The working directory is put back: nbgrader changes it while it works.
    A kernel zygote or worker pool it starts stays with this worker and ends with it, as after any grading here."""
    from grader import cli

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            returncode = run_apart(cli.main, [str(arg) for arg in args])
    finally:
        os.chdir(here)
    return Ran(returncode, out.getvalue(), err.getvalue())
