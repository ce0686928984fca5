"""What starting the grader costs: the command line starts without nbgrader, nbformat or any other heavy
library (each command imports what it needs), no grader process builds rfc3987_syntax's grammar (with
notebooks validated exactly as before: grader.skip_iri_grammar), and check starts a kernel zygote only
when none runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from grader.engine import warmkernel
from tests.support import COURSE, tools_env

# Each is a second or a good part of one to import, and none is needed to parse the command line.
HEAVY = (
    "nbgrader",
    "nbformat",
    "nbconvert",
    "nbclient",
    "jsonschema",
    "rfc3987_syntax",
    "jupyter_server",
    "jupyter_client",
    "sqlalchemy",
    "zmq",
    "numpy",
    "matplotlib",
)
LOADED = "import json, sys; print(json.dumps(sorted(name for name, module in sys.modules.items() if module)))"


def modules_after(code: str, *args: str) -> set[str]:
    """The modules (top-level names) a fresh interpreter holds after running `code` (which prints nothing)."""
    run = subprocess.run(
        [sys.executable, "-c", f"{code}\n{LOADED}", *args], capture_output=True, text=True, env=tools_env(), check=True
    )
    return {name.split(".")[0] for name in json.loads(run.stdout.splitlines()[-1])}


def test_importing_the_command_line_imports_nothing_heavy():
    assert not modules_after("import grader.cli") & set(HEAVY)


def test_grade_starts_its_kernel_zygote_before_it_imports_nbgrader():
    """What `grade` and `serve` import to call pool.start_early holds no nbgrader (more than half a second), so the
    zygote's own imports run beside nbgrader's rather than after them."""
    assert not modules_after("from grader.engine import isolation, pool") & {"nbgrader", "nbconvert", "sqlalchemy"}


CHEAP = {
    "help": ["--help"],
    "check help": ["check", "--help"],
    "collect help": ["collect", "--help"],
    "check of a missing file": ["check", "no-such-notebook.ipynb"],
    "check of a file that is not JSON": ["check", str(COURSE.root / "README.md")],
    "release of an unknown lesson": ["release", "no_such_lesson"],
    "grade of an unknown lesson": ["grade", "no_such_lesson"],
    "prove of an unknown lesson": ["prove", "--lesson", "no_such_lesson"],
}


@pytest.mark.parametrize("argv", CHEAP.values(), ids=CHEAP.keys())
def test_a_cheap_command_imports_nothing_heavy(argv):
    """Help, and a command refused for its arguments, answer at once: nothing heavy is imported for them."""
    code = (
        "import contextlib, io, sys\nfrom grader.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    try:\n        code = main(sys.argv[1:])\n    except SystemExit as done:\n        code = done.code\n"
        "assert code in (0, 2), code"
    )
    assert not modules_after(code, "--course", str(COURSE.root), *argv) & set(HEAVY)


def test_check_uses_the_zygote_that_runs_already(monkeypatch, tmp_path):
    """Checks run one after another in one process (as the tests do) share one zygote, not one each."""
    (tmp_path / "socket").touch()
    monkeypatch.setenv(warmkernel.ADDRESS, str(tmp_path / "socket"))
    started = []
    monkeypatch.setattr(warmkernel, "start_zygote", lambda: started.append(1))
    warmkernel.ensure_zygote()
    assert started == []
    (tmp_path / "socket").unlink()  # gone: the next check starts one
    warmkernel.ensure_zygote()
    assert started == [1]


# Validation: the same verdict and message on a valid and an invalid notebook, with and without the grader
VALIDATE = """
import copy, json, sys
{prelude}
import nbformat
from jsonschema import FormatChecker

valid = nbformat.read(sys.argv[1], as_version=4)
invalid = copy.deepcopy(valid)
invalid.cells[0]["cell_type"] = "poem"
del invalid.cells[1]["source"]
results = {{"grammar loaded": sys.modules.get("rfc3987_syntax") is not None}}
results["iri checked"] = "iri" in FormatChecker().checkers
for name, nb in (("valid", valid), ("invalid", invalid)):
    try:
        nbformat.validate(nb)
        results[name] = "valid"
    except nbformat.ValidationError as error:
        results[name] = str(error)
print(json.dumps(results))
"""


def validation(prelude: str, validator: str) -> dict:
    run = subprocess.run(
        [sys.executable, "-c", VALIDATE.format(prelude=prelude), str(COURSE.source_notebook("01_naive_division"))],
        capture_output=True,
        text=True,
        env=tools_env(NBFORMAT_VALIDATOR=validator),
        check=True,
    )
    return json.loads(run.stdout)


@pytest.mark.parametrize("validator", ["fastjsonschema", "jsonschema"])
def test_notebooks_are_validated_as_without_the_grader(validator):
    plain, ours = validation("", validator), validation("import grader", validator)
    assert plain.pop("grammar loaded") and plain.pop("iri checked"), "rfc3987_syntax is installed, so plain loads it"
    assert not ours.pop("grammar loaded") and not ours.pop("iri checked"), "the grader skips it"
    assert plain == ours
    assert ours["valid"] == "valid"
    assert ours["invalid"] != "valid"
