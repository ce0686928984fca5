"""PyTorch, the optional extra: the test environment has the CPU build (so the lessons' PyTorch cells run in
`make test` and CI, no skip), and `torch_or_none` prints one line instead of importing it while grading (under
`grader grade`, plain `nbgrader autograde` or `nbgrader validate`), or when it is missing.

Each case runs in a Python of its own, so that `torch` in sys.modules says what that call imported.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys

import pytest

from grader.learner import pytorch
from tests.support import COURSE, tools_env

PROBE = """
import json, sys
{before}
from grader.learner.pytorch import torch_or_none
torch = torch_or_none()
print(json.dumps({{"module": getattr(torch, "__name__", None), "imported": "torch" in sys.modules,
                  "version": getattr(torch, "__version__", None), "cuda": torch and torch.version.cuda}}))
"""


def call_in_a_fresh_python(before: str = "", **env: str) -> tuple[list[str], dict]:
    """What torch_or_none printed, and what it returned, in a new interpreter with `env` added."""
    changes = {"PYTHONPATH": str(COURSE.root), **env}
    grading = (pytorch.SKIP_VARIABLE, pytorch.NBGRADER_VARIABLE)
    environment = {k: v for k, v in tools_env(**changes).items() if k not in grading or k in env}
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(before=before)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    *lines, last = done.stdout.splitlines()
    return lines, json.loads(last)


def test_the_test_environment_has_torch_2_13_as_the_cpu_build_and_no_cuda_package():
    """requirements.txt pins torch so that CI runs the PyTorch cells: here it must import (no skip), and be the
    CPU build on this machine's disk, never a CUDA build of several GB."""
    lines, seen = call_in_a_fresh_python()
    assert lines == [], "torch is missing from the test environment: `pip install -r requirements.txt`"
    assert seen["module"] == "torch" and seen["imported"]  # outside grading, torch_or_none returns torch
    assert seen["version"].startswith("2.13.0") and seen["cuda"] is None, seen
    cuda_packages = sorted(
        name
        for name in (dist.metadata["Name"] for dist in importlib.metadata.distributions())
        if name and name.lower().startswith(("nvidia-", "triton"))
    )
    assert cuda_packages == []


def test_the_extra_and_the_pins_name_the_same_torch():
    pyproject = (COURSE.root / "pyproject.toml").read_text()
    assert 'torch = ["torch==2.13.0"]' in pyproject
    assert 'torch = ["torch==2.13.0"]' in (COURSE.root / "packaging" / "learner" / "pyproject.toml").read_text()
    assert "torch==2.13.0" in (COURSE.root / "requirements.txt").read_text().splitlines()


@pytest.mark.parametrize(
    "variable, value",
    [(pytorch.SKIP_VARIABLE, "1"), (pytorch.NBGRADER_VARIABLE, "autograde"), (pytorch.NBGRADER_VARIABLE, "validate")],
)
def test_while_grading_it_prints_one_line_and_never_imports_torch(variable, value):
    """`grader grade` sets SKIP_VARIABLE in its kernels; plain nbgrader's autograde and validate set their own."""
    lines, seen = call_in_a_fresh_python(**{variable: value})
    assert lines == [pytorch.SKIPPED_LINE] and seen["module"] is None and not seen["imported"]


def test_without_torch_it_prints_the_install_line():
    lines, seen = call_in_a_fresh_python(before="sys.modules['torch'] = None  # `import torch` raises ImportError")
    assert lines == [pytorch.INSTALL_LINE] and seen["module"] is None
