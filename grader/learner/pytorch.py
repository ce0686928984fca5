"""PyTorch beside the learner's own functions, when it is installed, and never while grading.

PyTorch is an optional extra of the course (`pip install -e '.[torch]'`, `make lab TORCH=1`), so
a lesson's side-by-side cells start with `torch = torch_or_none()`: without PyTorch the cell
prints one line saying how to add it, and the rest of the cell is skipped by `if torch:`.

Those cells earn no points, and importing torch takes seconds and hundreds of MB of a grading
kernel's memory limit, so they skip while grading too, with one line. `grader grade` keeps
nbgrader's variables from its kernels and gives them SKIP_VARIABLE alone
(grader.engine.testrunner); plain `nbgrader autograde` and `nbgrader validate` set their own
NBGRADER_EXECUTION in the kernels they run. Either way a graded submission costs the same with
PyTorch installed or not, and both tools do the same work.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["INSTALL_LINE", "NBGRADER_VARIABLE", "SKIPPED_LINE", "SKIP_VARIABLE", "torch_or_none"]

INSTALL_LINE = (
    "PyTorch is not installed here, so this comparison is skipped: "
    "`pip install -e '.[torch]'` (or `make lab TORCH=1`) adds it."
)
SKIP_VARIABLE = "SOFTMAX_SKIP_TORCH"  # set (to "1") in the kernels `grader grade` starts
NBGRADER_VARIABLE = "NBGRADER_EXECUTION"  # nbgrader's: "autograde" or "validate" in the kernels it runs
SKIPPED_LINE = "PyTorch comparison skipped while grading (it earns no points, and torch would cost the kernel seconds)."


def torch_or_none() -> ModuleType | None:
    """The `torch` module; None after printing one line while grading (SKIPPED_LINE) or when torch cannot be
    imported (INSTALL_LINE)."""
    if os.environ.get(SKIP_VARIABLE) or os.environ.get(NBGRADER_VARIABLE):
        print(SKIPPED_LINE)
        return None
    try:
        return importlib.import_module("torch")
    except ImportError:
        print(INSTALL_LINE)
        return None
