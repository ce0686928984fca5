"""The suite's own wiring: every build shared between workers (tests.support.once_per_run), and every
module-scoped fixture more than one test takes, is read by the tests of one xdist group; and `--dist loadgroup`
really sends a group to one worker. Else a worker sits waiting on another's lock, or builds what another built.
And a test that hangs fails, by name, instead of stopping the run; and no browser test waits on a clock."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SHARED_BUILDS
from tests.support import journey_commands, tools_env

TESTS = Path(__file__).resolve().parents[1]


def constant_arguments(tree: ast.AST, function: str, index: int) -> set[str]:
    """The constant `index`-th arguments of every call of `function` (a name or an attribute) under `tree`."""
    return {
        node.args[index].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and function in (getattr(node.func, "id", None), getattr(node.func, "attr", None))
        and len(node.args) > index
        and isinstance(node.args[index], ast.Constant)
    }


def shared_builds(tree: ast.AST) -> set[str]:
    """The names of the builds a module makes with once_per_run(tmp_path_factory, "<name>", build)."""
    return constant_arguments(tree, "once_per_run", 1)


def groups_named(tree: ast.AST) -> set[str]:
    """The groups a module names in pytest.mark.xdist_group("<group>")."""
    return constant_arguments(tree, "xdist_group", 0)


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


def module_fixtures(tree: ast.Module) -> set[str]:
    """The names of the module's fixtures made once per module: @pytest.fixture(scope="module", ...)."""
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        for decorator in node.decorator_list
        if isinstance(decorator, ast.Call)
        and getattr(decorator.func, "attr", None) == "fixture"
        and any(k.arg == "scope" and getattr(k.value, "value", None) == "module" for k in decorator.keywords)
    }


def how_many_take(tree: ast.Module, fixture: str) -> int:
    """How many tests take `fixture` (a parametrized test counts as two)."""
    return sum(
        1 + any("parametrize" in ast.unparse(d) for d in node.decorator_list)
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        if fixture in [a.arg for a in node.args.args]
    )


def test_a_module_fixture_that_several_tests_take_is_built_on_one_worker():
    """Each worker that runs a test of the module would build it again (it is made once per module and process)."""
    seen = 0
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text())
        for fixture in module_fixtures(tree):
            seen += 1
            shared = fixture in SHARED_BUILDS or module_group(tree) or how_many_take(tree, fixture) <= 1
            assert shared, f"{path.relative_to(TESTS)}: several tests take the module fixture {fixture!r}; mark them"
    assert seen >= 10, seen  # the walk finds them


GROUPED = """
import pytest

pytestmark = pytest.mark.xdist_group("one")


@pytest.mark.parametrize("n", range(6))
def test_grouped(n):
    pass
"""


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest run verbosely in `folder` (its tests, its settings unless told) with these arguments."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", *args],
        cwd=folder,
        env=tools_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_loadgroup_sends_a_group_to_one_worker(tmp_path):
    """Two modules of one group, run as `make test` runs the suite: every test on the same worker (with some
    versions of pytest and pytest-xdist together, nothing fails but the groups are spread over the workers)."""
    for name in ("test_a.py", "test_b.py"):
        (tmp_path / name).write_text(GROUPED)
    run = pytest_in(tmp_path, "-n", "2", "--dist", "loadgroup")
    assert run.returncode == 0, run.stdout[-2000:]
    workers = re.findall(r"^\[(gw\d+)\] .*PASSED test_[ab]\.py::test_grouped", run.stdout, re.MULTILINE)
    assert len(workers) == 12 and len(set(workers)) == 1, run.stdout[-2000:]


def test_a_test_that_hangs_fails_by_name_and_the_run_goes_on(tmp_path):
    """The suite's settings (pyproject.toml) give each test a time limit (there 900 s, here 2): a hang is a
    failure that names the test, its worker replaced, not a run that never ends."""
    (tmp_path / "test_hang.py").write_text(
        "import time\n\ndef test_hangs():\n    time.sleep(60)\n\n\ndef test_after():\n    pass\n"
    )
    settings = TESTS.parent / "pyproject.toml"
    run = pytest_in(
        tmp_path, "-c", str(settings), "--rootdir", str(tmp_path), "-n", "1", "-o", "timeout=2", "test_hang.py"
    )
    assert run.returncode == 1, run.stdout[-2000:]
    assert "crashed while running 'test_hang.py::test_hangs'" in run.stdout, run.stdout[-2000:]
    assert re.search(r"FAILED .*test_hangs", run.stdout) and re.search(r"PASSED .*test_after", run.stdout)


def browser_modules() -> list[Path]:
    """The modules that drive a browser: tests/browser/ whole, and every other one that imports Playwright."""
    imports = re.compile(r"^(from|import) playwright\b", re.M)
    driving = {path for path in TESTS.rglob("*.py") if imports.search(path.read_text())}
    return sorted(driving | set((TESTS / "browser").glob("*.py")))


def test_no_browser_test_waits_on_a_clock():
    """A browser test waits for what it needs to see (a selector, a text, a kernel's answer), never for a time: a
    fixed wait is too short on busy cores (the temperature slider's test once failed in a full run) and too long
    everywhere else."""
    modules = browser_modules()
    for path in modules:
        calls = [node for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Call)]
        named = {getattr(call.func, "attr", getattr(call.func, "id", None)): call.lineno for call in calls}
        clocks = {name: line for name, line in named.items() if name in ("sleep", "wait_for_timeout")}
        assert not clocks, f"{path.relative_to(TESTS)} waits on a clock (line {min(clocks.values())}): {sorted(clocks)}"
    # it looks: at the browser tests' helpers, and at those elsewhere that drive a browser (the hub's, the journeys')
    assert TESTS / "browser" / "jupyterlab.py" in modules and {path.parent.name for path in modules} > {"browser"}


COLLECT = """
import sys
import pytest
for args in ARGUMENTS:
    print("=== collected with", args, flush=True)
    pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *args])
"""


def collected(*runs: tuple[str, ...]) -> list[list[str]]:
    """The test ids pytest collects with each of these arguments: one interpreter for all the runs (pytest.main
    once per run), since importing the suite's conftests is most of a collection's time."""
    done = subprocess.run(
        [sys.executable, "-c", COLLECT.replace("ARGUMENTS", repr(runs))],
        cwd=TESTS.parent,
        capture_output=True,
        text=True,
        env=tools_env(),
    )
    outputs = done.stdout.split("=== collected with")[1:]
    assert len(outputs) == len(runs), done.stdout[-2000:] + done.stderr[-2000:]
    return [[line for line in output.splitlines() if "::" in line] for output in outputs]


def test_the_hub_tests_are_marked_hub_and_make_test_leaves_them_out():
    """make test runs `-m "not proof and not hub"`, make test-hub `-m hub tests/hub`: each hub test in one of them."""
    hub_tests, marked_hub, left_out = collected(
        ("tests/hub",), ("-m", "hub", "tests/hub"), ("-m", "not proof and not hub", "tests/hub")
    )
    assert len(hub_tests) >= 15, hub_tests
    assert marked_hub == hub_tests
    assert left_out == []


def make_test_markers() -> str:
    """The marker expression `make test` runs pytest with, read from the Makefile."""
    makefile = (TESTS.parent / "Makefile").read_text()
    return re.search(r'^test: .*\n\t.* -m "([^"]+)"', makefile, re.M)[1]


def test_the_journey_tests_are_marked_journey_and_make_test_leaves_them_out():
    """make test-journey runs `-m journey tests/journey`; make test, whose markers the Makefile gives, none of them."""
    journey_tests, marked, left_in = collected(
        ("tests/journey",), ("-m", "journey", "tests/journey"), ("-m", make_test_markers(), "tests/journey")
    )
    assert len(journey_tests) >= 3, journey_tests
    assert marked == journey_tests
    assert left_in == []


def test_the_fast_tier_is_the_tests_marked_fast():
    """make test-fast runs the tests marked `fast` (no list of files to keep by hand): the rooms test among them, and
    none of the tiers that start a hub, a browser, a cluster or a clone. `-m fast` alone skips importing the modules
    that name no fast mark (tests/conftest.py); any other expression imports them all, so the two selections
    agreeing shows the shortcut leaves no fast test out."""
    recipe = re.search(r"^test-fast: .*\n\t(.*)", (TESTS.parent / "Makefile").read_text(), re.M)[1]
    assert re.search(r" -m fast( |$)", recipe) and ".py" not in recipe, recipe
    slow_tiers = "proof or hub or cluster or journey"
    fast, fast_outside_slow_tiers = collected(("-m", "fast"), ("-m", f"fast and not ({slow_tiers})"))
    assert any(test.startswith("tests/unit/test_rooms.py::") for test in fast), fast
    assert not [test for test in fast if test.split("/")[1] in ("hub", "browser", "journey")], fast
    assert fast == fast_outside_slow_tiers


PAGE = """\
Start here:

<!-- journey: walk -->
```bash
make lab    # a comment
# a line of comment alone

export PATH=$PWD/.venv/bin:$PATH   # the venv first
```

<!-- journey: other -->
```bash
make other
```

Later:

<!-- journey: walk -->
```bash
.venv/bin/dask worker tcp://SCHEDULER:8786 --nthreads 1 \\
    --course "$PWD"           # on each worker machine
python -m grader grade#not a comment
```
"""


def test_a_journey_s_commands_are_its_page_s_blocks_lines_as_typed(tmp_path):
    """A journey is read from the one page of docs/ (or the README) that holds its blocks, wherever that page is."""
    (tmp_path / "docs" / "howto").mkdir(parents=True)
    (tmp_path / "docs" / "howto" / "page.md").write_text(PAGE)
    (tmp_path / "README.md").write_text("# A README of no journey\n")
    assert journey_commands("walk", tmp_path) == [
        "make lab",
        "export PATH=$PWD/.venv/bin:$PATH",
        '.venv/bin/dask worker tcp://SCHEDULER:8786 --nthreads 1 --course "$PWD"',
        "python -m grader grade#not a comment",
    ]
    assert journey_commands("other", tmp_path) == ["make other"]
    with pytest.raises(LookupError, match="found on: none"):
        journey_commands("missing", tmp_path)
    (tmp_path / "docs" / "howto" / "no-block.md").write_text("<!-- journey: bare -->\nno fence\n")
    with pytest.raises(LookupError, match="no-block.md has no fenced block after <!-- journey: bare -->"):
        journey_commands("bare", tmp_path)
    (tmp_path / "docs" / "again.md").write_text("<!-- journey: other -->\n```bash\nmake other\n```\n")
    with pytest.raises(LookupError, match="on one page of the documentation; found on: docs/again.md, docs/howto/page"):
        journey_commands("other", tmp_path)
    (tmp_path / "docs" / "again.md").unlink()
    (tmp_path / "docs" / "_build").mkdir()
    (tmp_path / "docs" / "_build" / "copy.md").write_text(PAGE)  # a built copy of the page is not a page
    assert journey_commands("other", tmp_path) == ["make other"]
