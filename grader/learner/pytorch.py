"""PyTorch beside the learner's own functions, when it is installed.

PyTorch is an optional extra of the course (`pip install -e '.[torch]'`, `make lab TORCH=1`), so
a lesson's side-by-side cells start with `torch = torch_or_none()`: without PyTorch the cell
prints one line saying how to add it, and the rest of the cell is skipped by `if torch:`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["INSTALL_LINE", "torch_or_none"]

INSTALL_LINE = (
    "PyTorch is not installed here, so this comparison is skipped: "
    "`pip install -e '.[torch]'` (or `make lab TORCH=1`) adds it."
)


def torch_or_none() -> ModuleType | None:
    """The `torch` module, or None after printing INSTALL_LINE when it cannot be imported."""
    try:
        return importlib.import_module("torch")
    except ImportError:
        print(INSTALL_LINE)
        return None
