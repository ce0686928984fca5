"""The learner part of the package (grader/__init__.py and grader/learner/) stands alone: it runs in
the learner's kernel, where the other rooms are not there (grader.engine.isolation), and it is
installed alone in a student environment (packaging/learner). So no module of it imports the
engine, the course tools, the instructor's tools, the proof or the command line, or looks one of
them up by name; what the checks need from the grading bridge they name as attributes
(checks.CALLED_ELSEWHERE), which the bridge's KernelFunction has.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import pytest

import grader
from grader.engine import bridge, isolation
from grader.learner import checks
from tests.support import defined_graded_functions, graded_function_implementations

pytestmark = pytest.mark.fast  # make test-fast: starts no kernel and runs no nbgrader

PACKAGE = Path(grader.__file__).parent
OTHER_ROOMS = (
    "grader.engine",
    "grader.course",
    "grader.instructor",
    "grader.hub",
    "grader.proof",
    "grader.cli",
    "grader.__main__",
)


def learner_modules() -> dict[str, Path]:
    """{module name: file} of the learner part."""
    files = [PACKAGE / "__init__.py", *sorted((PACKAGE / "learner").rglob("*.py"))]
    found = {}
    for path in files:
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def in_other_room(name: str) -> bool:
    return any(name == room or name.startswith(room + ".") for room in OTHER_ROOMS)


def reaches_into_other_rooms(source: str, module: str, is_package: bool = False) -> list[str]:
    """What `source`, the code of `module`, imports from the other rooms, or names as a module of
    theirs in a string that is not a docstring (sys.modules.get(...), importlib.import_module(...))."""
    tree = ast.parse(source)
    package = module.split(".") if is_package else module.split(".")[:-1]
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if in_other_room(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[: len(package) - node.level + 1]) if node.level else ""
            target = ".".join(part for part in (base, node.module or "") if part)
            names = [target, *(f"{target}.{alias.name}" for alias in node.names)]  # a name may be a module
            found += [name for name in names if in_other_room(name)]
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and in_other_room(node.value.strip())
        ):
            found.append(node.value)
    return found


@pytest.mark.parametrize("module", sorted(learner_modules()))
def test_no_learner_module_reaches_into_another_room(module):
    path = learner_modules()[module]
    assert reaches_into_other_rooms(path.read_text(), module, path.name == "__init__.py") == []


def test_the_scan_sees_every_learner_module():
    names = set(learner_modules())
    assert {
        "grader",
        "grader.learner",
        "grader.learner.checks",
        "grader.learner.streams",
        "grader.learner.hints",
        "grader.learner.hints.lesson_01",
        "grader.learner.widgets",
        "grader.learner.figures",
    } <= names


@pytest.mark.parametrize(
    "source, module, is_package",
    [
        ("import grader.engine.sandbox", "grader.learner.checks", False),
        ("from grader.proof.alternatives import lesson_01", "grader.learner.checks", False),
        ("from grader import cli", "grader.learner.checks", False),
        ("from .. import course", "grader.learner.checks", False),
        ("from ...instructor import collect", "grader.learner.hints.lesson_01", False),
        ("from ...engine import bridge", "grader.learner.hints", True),
        ("import sys\nbridge = sys.modules.get('grader.engine.bridge')", "grader.learner.checks", False),
        ("import importlib\nimportlib.import_module('grader.proof')", "grader.learner.checks", False),
    ],
)
def test_the_scan_catches_each_way_of_reaching_another_room(source, module, is_package):
    assert reaches_into_other_rooms(source, module, is_package)


@pytest.mark.parametrize(
    "source, module, is_package",
    [
        ("from grader.learner.streams import OnePass", "grader.learner.checks", False),
        ("from . import streams\nfrom .hints import Misconception", "grader.learner.checks", False),
        ("from .. import streams", "grader.learner.hints.lesson_01", False),
        ('"""Called from grader.engine.bridge."""\nimport numpy', "grader.learner.checks", False),
    ],
)
def test_the_scan_lets_the_learner_part_use_itself(source, module, is_package):
    assert reaches_into_other_rooms(source, module, is_package) == []


def test_the_checks_know_the_bridges_functions_by_what_they_offer():
    """Without it a learner's sampler would make each of its thousands of draws in a trip of its own."""
    assert checks.called_elsewhere(bridge.KernelFunction(None, "sample_next_token"))
    rng = np.random.default_rng(0)
    for local in (lambda: 0, np.exp, rng.integers, np.zeros(3), bridge.Opaque("a generator"), print):
        assert not checks.called_elsewhere(local), local


# ----------------------------------------------------------------- no implementation of a graded function


def test_the_learner_room_holds_no_implementation_of_any_graded_function():
    """Not the reference, not a near-miss of it: what the catalogue knows of a mistake is data (its fingerprint)."""
    assert graded_function_implementations(PACKAGE / "learner") == {}
    assert defined_graded_functions((PACKAGE / "__init__.py").read_text()) == set()


def test_a_learner_kernels_tree_of_the_package_holds_no_implementation_of_any_graded_function():
    """What an isolated kernel keeps of this package (grader.engine.isolation.learner_part)."""
    for path in map(Path, isolation.learner_part()):
        found = graded_function_implementations(path) if path.is_dir() else defined_graded_functions(path.read_text())
        assert not found, path


def test_the_scan_finds_an_implementation_in_code_in_a_string_and_in_data(tmp_path):
    (tmp_path / "code.py").write_text("def softmax(x):\n    return x\n")
    (tmp_path / "text.py").write_text('WRONG = """\ndef naive_normalize(scores):\n    return scores\n"""\n')
    (tmp_path / "data.json").write_text(json.dumps({"attend": ["def attend(q, k, v):\n    return v\n"]}))
    (tmp_path / "notes.txt").write_text("    def logsumexp(x): ...")
    (tmp_path / "fine.py").write_text("def helper():\n    return 'softmax'\n")
    found = {Path(k).name: v for k, v in graded_function_implementations(tmp_path).items()}
    assert found == {
        "code.py": {"softmax"},
        "text.py": {"naive_normalize"},
        "data.json": {"attend"},
        "notes.txt": {"logsumexp"},
    }
