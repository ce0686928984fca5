"""A submission that answers from a table of what feedback once showed: every input lesson 01's tests call a
function with, and the reference's answer to it."""

from __future__ import annotations

import contextlib
import io
from copy import deepcopy

import nbformat
import numpy as np

from grader.course.contract import BEGIN, END, tested_functions
from grader.engine.testrunner import pinned_names
from grader.learner import checks
from testbed.hostile.lesson import COURSE, LESSON
from testbed.hostile.payloads import NAIVE


def answers_seen(function: str, salt: str | None = None) -> dict[str, str]:
    """What feedback that shows each failed test's input and expected value hands over, one resubmission at a time:
    every input lesson 01's tests (hidden ones included) call `function` with, keyed by table_key, and the
    reference's answer as `.npy` bytes in hex. The generated inputs are those a grading with `salt` draws (None:
    the seed alone, as every grading drew them before each submission drew its own)."""
    scope: dict = {"np": np}
    exec(COURSE.reference_answers(LESSON)[function], scope)  # noqa: S102 - the course's own reference
    reference, seen = scope[function], {}

    def recorder(*args):
        answer = reference(*deepcopy(args))
        buffer = io.BytesIO()
        np.save(buffer, np.asarray(answer), allow_pickle=False)
        seen[table_key(*args)] = buffer.getvalue().hex()
        return answer

    recorder.__name__ = function
    tests = {test for test, tested in tested_functions(COURSE, LESSON).items() if tested == function}
    namespace = {**pinned_names(), function: recorder}
    salted = contextlib.nullcontext() if salt is None else checks.salted_draws(salt)
    with contextlib.redirect_stdout(io.StringIO()), salted, np.errstate(all="ignore"):
        for cell in nbformat.read(COURSE.source_notebook(LESSON), as_version=4).cells:
            if cell.metadata.get("nbgrader", {}).get("grade_id") in tests:
                code = "\n".join(line for line in cell.source.splitlines() if line.strip() not in (BEGIN, END))
                exec(code, namespace)  # noqa: S102 - the lesson's own tests
    return seen


def table_key(scores) -> str:
    """An input as a lookup table keys it: its dtype, shape and bytes."""
    array = np.asarray(scores)
    return f"{array.dtype.str}{array.shape}{array.tobytes().hex()}"


LOOKUP_TABLE = """
import io

TABLE = TABLE_LITERAL


def naive_normalize(scores):
    \"\"\"The answer an earlier feedback page showed for this very input; a wrong formula for any other.\"\"\"
    array = np.asarray(scores)
    answer = TABLE.get(f"{array.dtype.str}{array.shape}{array.tobytes().hex()}")
    if answer is not None:
        return np.load(io.BytesIO(bytes.fromhex(answer)))
    return np.asarray(scores, dtype=float) / np.sum(scores)
"""


def lookup_table(salt: str | None = None) -> str:
    """naive_normalize as a lookup table of answers_seen (the generated inputs as `salt` drew them)."""
    return LOOKUP_TABLE.replace("TABLE_LITERAL", repr(answers_seen(NAIVE, salt)))
