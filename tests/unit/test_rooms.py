"""The rooms of the package depend on each other in one direction only (docs/ARCHITECTURE.md):
learner, exchange and course on no other room, the engine on learner and course, the instructor's tools
on the engine, the hub's set-up on course and exchange, the proof on anything. Read from every module's
imports, so a new import across the line fails here. Around the package, the repository's folders of code go one
way too: the tests and the benchmarks share what both run on through testbed/ and never import each other, testbed
imports neither, and the package (installed alone) imports none of them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import grader

pytestmark = pytest.mark.fast  # make test-fast: starts no kernel and runs no nbgrader

PACKAGE = Path(grader.__file__).parent
REPOSITORY = PACKAGE.parent
ROOMS = ("learner", "exchange", "engine", "course", "instructor", "hub", "proof")
MAY_IMPORT = {
    "learner": set(),
    "exchange": set(),
    "course": set(),
    "engine": {"learner", "course"},
    "instructor": {"learner", "course", "engine"},
    "hub": {"course", "exchange"},
    "proof": {"learner", "exchange", "course", "engine", "instructor", "hub", "cli"},
}


def rooms_imported(source: str, package: list[str]) -> set[str]:
    """The rooms (or `cli`) that a module of `package` (["grader", "course"], say) with this source imports
    from, absolutely or relatively."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against the module's own package
                base = package[: len(package) - node.level + 1]
                names = [".".join([*base, node.module or ""]).rstrip(".")]
            else:
                names = [node.module or ""]
            names += [f"{names[0]}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "grader" and len(parts) > 1 and parts[1] in (*ROOMS, "cli"):
                found.add(parts[1])
    return found


@pytest.mark.parametrize("room", ROOMS)
def test_a_room_imports_only_the_rooms_below_it(room):
    crossing = {
        str(path.relative_to(PACKAGE)): sorted(
            rooms_imported(path.read_text(), package_of(path)) - MAY_IMPORT[room] - {room}
        )
        for path in sorted((PACKAGE / room).rglob("*.py"))
    }
    assert not {module: rooms for module, rooms in crossing.items() if rooms}, crossing


def package_of(path: Path) -> list[str]:
    return list(path.relative_to(PACKAGE.parent).parent.parts)


def test_the_reader_sees_an_import_across_the_line():
    """The control: absolute and relative imports of another room are found, and the room's own are not."""
    source = "from grader.engine import sandbox\nfrom ..instructor import report\nfrom . import directory\n"
    assert rooms_imported(source, ["grader", "course"]) == {"engine", "instructor", "course"}
    assert rooms_imported("import grader.proof.prove\nfrom grader import cli\n", ["grader", "engine"]) == {
        "proof",
        "cli",
    }


def test_no_test_module_imports_another():
    """What tests share lives in tests/support.py (and the browser tests' conftest and jupyterlab helpers), so
    running or changing one test module never runs or breaks another's collection."""
    tests = PACKAGE.parent / "tests"
    crossing = []
    for path in sorted(tests.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            module = node.module if isinstance(node, ast.ImportFrom) and node.module else ""
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [module]
            crossing += [(path.name, name) for name in names if name.split(".")[-1].startswith("test_")]
    assert crossing == []


# The repository's folders of Python code, and which of the others each may import.
FOLDERS_MAY_IMPORT = {
    "grader": set(),  # installed alone, for an instructor or (its learner room) a student
    "testbed": {"grader"},  # the hostile corpus, a local Dask cluster, a fresh clone: what tests and benchmarks share
    "tests": {"grader", "testbed"},
    "benchmarks": {"grader", "testbed"},
}


def folders_imported(source: str) -> set[str]:
    """The repository's folders of code (FOLDERS_MAY_IMPORT) that a module with this source imports from, by any
    absolute import (a relative one stays inside its own folder)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        found |= {name.split(".")[0] for name in names} & set(FOLDERS_MAY_IMPORT)
    return found


@pytest.mark.parametrize("folder", FOLDERS_MAY_IMPORT)
def test_tests_and_benchmarks_never_import_each_other(folder):
    crossing = {
        str(path.relative_to(REPOSITORY)): sorted(
            folders_imported(path.read_text()) - FOLDERS_MAY_IMPORT[folder] - {folder}
        )
        for path in sorted((REPOSITORY / folder).rglob("*.py"))
    }
    assert not {module: folders for module, folders in crossing.items() if folders}, crossing


def test_the_reader_sees_an_import_between_folders():
    """The control: each form of an absolute import of another folder is found, a relative one is not."""
    source = "from benchmarks import check\nimport tests.support\nfrom testbed.hostile.kinds import KINDS\n"
    assert folders_imported(source) == {"benchmarks", "tests", "testbed"}
    assert folders_imported("from . import lesson\nfrom .kinds import KINDS\nimport numpy\n") == set()
