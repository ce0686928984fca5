"""Calling nbgrader: its chatter kept off stderr, and its failures said in one line.

nbgrader logs to stderr and starts kernels that inherit it; its API catches every error and
gives back its traceback as text. The engine (a lesson's gradebook, a submission's autograde)
and the instructor's collect call it the same way, through these.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import traceback
import warnings


class GradingFailed(RuntimeError):
    """nbgrader could not do a step that looked doable: record a lesson, collect, grade a notebook."""


@contextlib.contextmanager
def quiet_stderr():
    """Keep nbgrader's and the kernels' chatter off stderr; replay it if the step fails.

    Works on file descriptor 2, because the kernels nbgrader starts inherit it.
    """
    with tempfile.TemporaryFile() as sink, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        saved = os.dup(2)
        os.dup2(sink.fileno(), 2)
        try:
            yield
        except BaseException:
            os.dup2(saved, 2)
            sink.seek(0)
            os.write(2, sink.read())
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def require_success(result: dict, step: str) -> None:
    """Raise GradingFailed with the most telling line of nbgrader's log when a step failed; KeyboardInterrupt when
    it was the instructor's Ctrl-C (nbgrader's API catches everything, and gives back its traceback as text)."""
    if result["success"]:
        return
    lines = f"{result.get('log', '')}\n{result.get('error', '')}".strip().splitlines()
    if lines and lines[-1].strip() == "KeyboardInterrupt":
        raise KeyboardInterrupt
    causes = [
        line.strip()
        for line in lines
        if re.match(r"\s*[\w.]+(Error|Exception): ", line) and "NbGraderException" not in line
    ]
    detail = causes[-1] if causes else (lines[-1].strip() if lines else "no details")
    raise GradingFailed(f"nbgrader {step} failed: {detail}")


def failure_line(error: BaseException) -> str:
    """The last line of the error's traceback, as nbgrader's log would show it."""
    return traceback.format_exception_only(type(error), error)[-1].strip()
