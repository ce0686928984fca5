"""The rooms of the package depend on each other in one direction only (docs/ARCHITECTURE.md): learner, exchange and
course on no other room, the engine on learner and course, the instructor's tools on the engine and the exchange (its
receipt of a hand-in), the hub's set-up on course and exchange, the proof on anything. Read from every module's
imports, so a new import across the line fails here. Around the package, the repository's folders of code go one way
too: the tests and the benchmarks share what both run on through testbed/ and never import each other, testbed
imports neither, and the package (installed alone) imports none of them. No room imports the command line (`cli`): a
command line of a room's own (the demo's) shares grader/commandline.py with it, which imports no room. Outside the
engine, nbgrader's autograde (engine.sandbox) is imported only where a submission's result is recorded, never for a
helper that calls nbgrader (course.nbgrader_calls)."""

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
    "instructor": {"learner", "course", "engine", "exchange"},
    "hub": {"course", "exchange"},
    "proof": {"learner", "exchange", "course", "engine", "instructor", "hub"},
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


# The modules outside the engine that import nbgrader's autograde of a submission (engine.sandbox): the
# instructor's recording of its result.
SANDBOX_USERS = {"instructor/grading.py"}


def imports_module(source: str, module: str) -> bool:
    """Whether a module with this source imports `module` (e.g. "grader.engine.sandbox"), or names from it."""
    package, _, name = module.rpartition(".")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (
            node.module == module or (node.module == package and name in {a.name for a in node.names})
        ):
            return True
        if isinstance(node, ast.Import) and module in {alias.name for alias in node.names}:
            return True
    return False


def test_what_the_command_lines_share_imports_no_room():
    source = (PACKAGE / "commandline.py").read_text()
    assert rooms_imported(source, ["grader"]) == set() and "import grader" not in source and "from grader" not in source


def test_outside_the_engine_only_grading_imports_the_sandbox():
    importing = {
        str(path.relative_to(PACKAGE))
        for room in ROOMS
        if room != "engine"
        for path in (PACKAGE / room).rglob("*.py")
        if imports_module(path.read_text(), "grader.engine.sandbox")
    }
    assert importing == SANDBOX_USERS


def test_the_reader_sees_a_module_imported():
    """The control: the module imported whole, from its package or names from it, and not another module."""
    for source in (
        "import grader.engine.sandbox",
        "from grader.engine import sandbox, status",
        "from grader.engine.sandbox import Sandboxed",
    ):
        assert imports_module(source, "grader.engine.sandbox"), source
    assert not imports_module("from grader.engine import scores\nimport grader.engine", "grader.engine.sandbox")


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
