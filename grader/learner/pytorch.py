"""PyTorch beside the learner's own functions, when it is installed, and never while grading.

PyTorch is an optional extra of the course (`pip install -e '.[torch]'`, `make lab TORCH=1`), so
a lesson's side-by-side cells start with `torch = torch_or_none()`: without PyTorch the cell
prints one line saying how to add it, and the rest of the cell is skipped by `if torch:`.

Those cells are not graded, and importing torch takes seconds and hundreds of MB of a grading
kernel's memory limit. nbgrader sets NBGRADER_EXECUTION in the kernels it autogrades or validates
(so does `grader grade`, which runs nbgrader's own steps): there the cells print one line and skip,
so a graded submission costs the same with PyTorch installed or not, under either tool.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["GRADING_VARIABLE", "INSTALL_LINE", "SKIPPED_LINE", "torch_or_none"]

INSTALL_LINE = (
    "PyTorch is not installed here, so this comparison is skipped: "
    "`pip install -e '.[torch]'` (or `make lab TORCH=1`) adds it."
)
GRADING_VARIABLE = "NBGRADER_EXECUTION"  # nbgrader's: "autograde" or "validate" in the kernels it runs
SKIPPED_LINE = "PyTorch comparison skipped while grading (it earns no points, and torch would cost the kernel seconds)."


def torch_or_none() -> ModuleType | None:
    """The `torch` module; None after printing one line while nbgrader grades or validates (SKIPPED_LINE),
    or when torch cannot be imported (INSTALL_LINE)."""
    if os.environ.get(GRADING_VARIABLE):
        print(SKIPPED_LINE)
        return None
    try:
        return importlib.import_module("torch")
    except ImportError:
        print(INSTALL_LINE)
        return None
