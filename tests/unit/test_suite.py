"""The suite's own wiring: every build shared between workers (tests.support.once_per_run) is read by the tests
of one xdist group, and `--dist loadgroup` really sends a group to one worker, so that no worker sits waiting on
another's lock while it could run other tests."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import SHARED_BUILDS
from tests.support import tools_env

TESTS = Path(__file__).resolve().parents[1]


def shared_builds(tree: ast.AST) -> set[str]:
    """The names of the builds a module makes with once_per_run(tmp_path_factory, "<name>", build)."""
    return {
        node.args[1].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "once_per_run"
        and len(node.args) > 1
        and isinstance(node.args[1], ast.Constant)
    }


def groups_named(tree: ast.AST) -> set[str]:
    """The groups a module names in pytest.mark.xdist_group("<group>")."""
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "attr", None) == "xdist_group"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


def module_group(tree: ast.Module) -> str | None:
    """The group of `pytestmark = pytest.mark.xdist_group("<group>")`, which puts all the module's tests in it."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["pytestmark"]:
            return next(iter(groups_named(node)), None)
    return None


def test_every_shared_build_is_read_by_one_group():
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for build in shared_builds(tree):
            found[build] = path.relative_to(TESTS)
            assert build in set(SHARED_BUILDS.values()) | groups_named(tree) or module_group(tree), (
                f"{path.relative_to(TESTS)} shares the build {build!r} with once_per_run, but its tests neither "
                f"read a fixture of conftest.SHARED_BUILDS nor are marked xdist_group({build!r})"
            )
    assert {"lesson-reports", "hostile", "predictions-graded"} <= set(found), found  # the walk finds them


GROUPED = """
import pytest

pytestmark = pytest.mark.xdist_group("one")


@pytest.mark.parametrize("n", range(6))
def test_grouped(n):
    pass
"""


def test_loadgroup_sends_a_group_to_one_worker(tmp_path):
    """Two modules of one group, run as `make test` runs the suite: every test on the same worker (with some
    versions of pytest and pytest-xdist together, nothing fails but the groups are spread over the workers)."""
    for name in ("test_a.py", "test_b.py"):
        (tmp_path / name).write_text(GROUPED)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-v", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=tools_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    workers = re.findall(r"^\[(gw\d+)\] .*PASSED test_[ab]\.py::test_grouped", run.stdout, re.MULTILINE)
    assert len(workers) == 12 and len(set(workers)) == 1, run.stdout[-2000:]
