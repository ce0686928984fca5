"""The two distributions, each built and installed (not editable) into a fresh virtual environment,
and run from outside the repository, as a shared installation would run them.

- softmax-learner (packaging/learner), a student environment's: the checks import and work (and the
  strict exchange a student's server submits with is there); the engine, the course and instructor
  tools, the hub's set-up, the proof and the command line are not installed.
- softmax-grader (pyproject.toml), the instructor's: `softmax-grader --course DIR` checks a
  notebook, grades a collected class and proves a lesson with the installed package, and an
  isolated kernel started by it reads of the installed package only its learner part.

Nothing is downloaded: the environments get their dependencies from the one running the tests.
The learner's through a .pth file naming its site-packages (Python adds that folder to sys.path
but does not run the .pth files in it, so the editable install of the whole package there stays
inactive); the grader's as a hard-linked copy of it without that editable install, because its
isolated kernels keep only their own environment's folder (grader.engine.isolation).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from grader.course import Course, source_notebook_in
from grader.hub import environments
from tests.support import COURSE, graded_function_implementations, once_per_run

SHARED = Path(sysconfig.get_paths()["purelib"])  # the running environment's site-packages
LESSON = "01_naive_division"
OTHER_ROOMS = ("grader.engine", "grader.course", "grader.instructor", "grader.hub", "grader.proof", "grader.cli")


def the_full_package_editable_here() -> list[str]:
    """The .pth files of the running environment that install the package editable (the project's venv has one)."""
    return sorted(p.name for p in SHARED.glob("__editable__*.pth") if "softmax_grader" in p.name)


def is_editable_install_of_this_package(name: str) -> bool:
    return name.startswith(("__editable__.softmax_grader", "__editable___softmax_grader", "softmax_grader-"))


def new_venv(folder: Path) -> Path:
    """A virtual environment of this Python with no packages, not even pip; its site-packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    return Path(python_of(folder, "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=folder).strip())


def environment(venv: Path) -> dict:
    """The environment a command of `venv` runs with: its bin/ first, nothing of this test run's Python set-up."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME") and not k.startswith("SOFTMAX_")
    }
    return {**env, "PATH": f"{venv / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin"}


def run(venv: Path, args: list, cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, env=environment(venv), capture_output=True, text=True, timeout=timeout
    )


def python_of(venv: Path, code: str, cwd: Path) -> str:
    """What `code` prints when run by `venv`'s python in `cwd`."""
    done = run(venv, [venv / "bin" / "python", "-c", code], cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def pip_install(venv: Path, source: Path, cwd: Path) -> None:
    """Build `source` and install it, not editable, without its dependencies or the network."""
    done = run(
        venv,
        [
            venv / "bin" / "python",
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--ignore-installed",
            source,
        ],
        cwd,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def source_copy(folders: dict[str, Path], files: dict[str, Path], into: Path) -> Path:
    """What a distribution is built from, copied (links followed, no caches) so that building writes nothing
    into the repository."""
    for name, folder in folders.items():
        shutil.copytree(folder, into / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name, file in files.items():
        (into / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(file, into / name)
    return into


def installed_files(site: Path) -> set[str]:
    """The package's files installed in `site`, relative to it (no caches)."""
    return {
        str(p.relative_to(site)) for p in (site / "grader").rglob("*") if p.is_file() and "__pycache__" not in p.parts
    }


def files_of(folder: Path, prefix: str) -> set[str]:
    """The files under `folder` a distribution ships (its modules and their data), named as installed."""
    return {
        f"{prefix}/{p.relative_to(folder)}" for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    }


def record_of(site: Path, distribution: str) -> set[str]:
    """The files pip recorded as installed by `distribution`, outside its own metadata."""
    [info] = site.glob(f"{distribution}-*.dist-info")
    lines = (info / "RECORD").read_text().splitlines()
    return {line.split(",")[0] for line in lines if not line.split(",")[0].startswith(info.name)}


# ----------------------------------------------------------------- softmax-learner

LEARNER_PROBE = """
import json, sys
import numpy as np
from grader.learner import checks
checks.check_call(np.exp, np.zeros(2), expect=np.ones(2))
try:
    checks.check_call(np.exp, np.zeros(2), expect=np.zeros(2))
    wrong = "passed"
except checks.CheckFailed as failure:
    wrong = str(failure)
imports = {}
for name in ROOMS:
    try:
        __import__(name)
        imports[name] = "imported"
    except ImportError as error:
        imports[name] = type(error).__name__
import grader
print(json.dumps({"grader": grader.__file__, "checks": checks.__file__, "wrong": wrong, "imports": imports,
                  "path": sys.path, "editable": sorted(m for m in sys.modules if "__editable__" in m)}))
"""


def build_learner_venv(folder: Path) -> None:
    site = new_venv(folder / "venv")
    (site / "shared-packages.pth").write_text(f"{SHARED}\n")
    pip_install(folder / "venv", environments.source_of("student", COURSE.root, folder / "source"), folder)
    (folder / "site").write_text(str(site))


@pytest.fixture(scope="module")
def learner_venv(tmp_path_factory) -> tuple[Path, Path]:
    """(venv, its site-packages) with softmax-learner installed."""
    folder = once_per_run(tmp_path_factory, "learner-install", build_learner_venv)
    return folder / "venv", Path((folder / "site").read_text())


def test_the_learner_distribution_is_built_from_the_repositorys_own_files_with_no_link():
    learner = COURSE.root / "packaging" / "learner"
    settings = (learner / "pyproject.toml").read_text()
    [package_dir] = re.findall(r'^package-dir = \{"grader" = "([^"]+)"\}', settings, re.M)
    assert (learner / package_dir).resolve() == COURSE.root / "grader"
    assert [path for path in (COURSE.root / "packaging").rglob("*") if path.is_symlink()] == []


def test_a_learner_install_runs_the_checks_and_has_no_other_room(learner_venv, tmp_path):
    venv, site = learner_venv
    seen = json.loads(python_of(venv, f"ROOMS = {OTHER_ROOMS!r}\n" + LEARNER_PROBE, cwd=tmp_path))
    assert Path(seen["grader"]).parent == site / "grader" and Path(seen["checks"]).is_relative_to(site)
    assert seen["wrong"] != "passed" and "exp" in seen["wrong"], seen["wrong"]  # a wrong answer fails, and says so
    assert seen["imports"] == dict.fromkeys(OTHER_ROOMS, "ModuleNotFoundError")


def test_a_learner_install_holds_only_the_learner_part(learner_venv):
    venv, site = learner_venv
    expected = {"grader/__init__.py"} | files_of(COURSE.root / "grader" / "learner", "grader/learner")
    expected |= files_of(COURSE.root / "grader" / "exchange", "grader/exchange")  # a student's server submits
    assert installed_files(site) == expected
    assert {name for name in record_of(site, "softmax_learner") if "__pycache__" not in name} == expected


def test_a_learner_install_holds_no_implementation_of_any_graded_function_and_diagnoses_from_data(
    learner_venv, tmp_path
):
    """The catalogue's mistakes ship as fingerprints (data), so a failed check there still names one."""
    venv, site = learner_venv
    assert (site / "grader" / "learner" / "hints" / "fingerprints" / "lesson_01.json").is_file()
    assert graded_function_implementations(site / "grader") == {}
    named = python_of(venv, NAMED_FROM_FINGERPRINTS, cwd=tmp_path)
    assert named.strip() == "divided by the total of the whole array instead of each row's own total", named


# A learner's naive_normalize that divides by the grand total, checked in the learner venv: its failure names the
# catalogued mistake, read from the installed fingerprints.
NAMED_FROM_FINGERPRINTS = """
import numpy as np
from grader.learner import checks

def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / np.sum(x)

try:
    checks.check_call(naive_normalize, [[1.0, 3.0], [2.0, 2.0]], expect=[[0.25, 0.75], [0.5, 0.5]])
except checks.CheckFailed as failure:
    print(*failure.mistakes)
"""


def test_the_shared_packages_editable_install_stays_inactive_in_the_learner_venv(learner_venv, tmp_path):
    """The running environment has the whole package installed editable (its venv is built with `-e .`):
    the learner venv sees that environment's site-packages, but not through that install."""
    venv, _ = learner_venv
    assert the_full_package_editable_here(), "the project's venv installs the package editable"
    seen = json.loads(python_of(venv, f"ROOMS = {OTHER_ROOMS!r}\n" + LEARNER_PROBE, cwd=tmp_path))
    assert str(SHARED) in seen["path"] and seen["editable"] == []
    assert str(COURSE.root) not in seen["path"]


# ----------------------------------------------------------------- softmax-grader


def hard_linked_copy(shared: Path, site: Path) -> None:
    """The running environment's packages in `site`, as hard links (no disk, no network), without its
    editable install of this package. Their bytecode comes along: a hard link keeps its source's mtime, so
    the caches stay valid, and without them every process of the venv compiles all it imports (twice the
    CPU of a `check`, every time where PYTHONDONTWRITEBYTECODE is set)."""
    site.rmdir()
    shutil.copytree(
        shared,
        site,
        copy_function=os.link,
        ignore=lambda _, names: [name for name in names if is_editable_install_of_this_package(name)],
    )


def scripts_of(shared_bin: Path, venv: Path) -> None:
    """The running environment's commands (alembic, which nbgrader runs; jupyter), run by `venv`'s python."""
    shebang = f"#!{shared_bin / 'python'}\n".encode()
    for script in shared_bin.iterdir():
        target = venv / "bin" / script.name
        if script.is_file() and not script.is_symlink() and not target.exists():
            text = script.read_bytes()
            if text.startswith(shebang):
                target.write_bytes(f"#!{venv / 'bin' / 'python'}\n".encode() + text[len(shebang) :])
                target.chmod(0o755)


def build_grader_venv(folder: Path) -> None:
    venv = folder / "venv"
    site = new_venv(venv)
    hard_linked_copy(SHARED, site)
    scripts_of(Path(sys.executable).parent, venv)
    source = source_copy(
        {"grader": COURSE.root / "grader"}, {"pyproject.toml": COURSE.root / "pyproject.toml"}, folder / "source"
    )
    pip_install(venv, source, folder)
    (folder / "site").write_text(str(site))


@pytest.fixture(scope="module")
def grader_venv(tmp_path_factory) -> tuple[Path, Path]:
    """(venv, its site-packages) with softmax-grader installed."""
    folder = once_per_run(tmp_path_factory, "grader-install", build_grader_venv)
    return folder / "venv", Path((folder / "site").read_text())


def course_copy(into: Path, lessons=(LESSON,)) -> Path:
    """A course directory of its own: the nbgrader settings and the lessons' sources and releases."""
    into.mkdir(parents=True)
    shutil.copy(COURSE.root / "nbgrader_config.py", into)
    for lesson in lessons:
        for folder in (COURSE.source_notebook(lesson).parent, COURSE.release_notebook(lesson).parent):
            shutil.copytree(folder, into / folder.relative_to(COURSE.root))
    return into


def test_the_installed_package_is_imported_and_holds_every_room(grader_venv, tmp_path):
    venv, site = grader_venv
    imported = python_of(
        venv,
        "import grader, grader.engine.sandbox, grader.proof.alternatives, grader.cli\nprint(grader.__file__)",
        cwd=tmp_path,
    ).strip()
    assert Path(imported) == site / "grader" / "__init__.py"
    assert installed_files(site) == files_of(COURSE.root / "grader", "grader")
    assert record_of(site, "softmax_grader") >= files_of(COURSE.root / "grader", "grader")
    assert not list(site.glob("__editable__*softmax_grader*"))
    help_text = run(venv, ["softmax-grader", "--help"], tmp_path)
    assert help_text.returncode == 0 and "check" in help_text.stdout, help_text.stderr


def test_the_installed_command_checks_a_notebook_of_the_course_given(grader_venv, tmp_path):
    venv, _ = grader_venv
    root = course_copy(tmp_path / "course")
    done = run(
        venv, ["softmax-grader", "--course", root, "check", source_notebook_in(root, LESSON), "--json"], tmp_path
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["lesson"] == LESSON and report["score"] == report["max_score"] > 0


def test_the_installed_command_grades_a_collected_class(grader_venv, tmp_path):
    venv, _ = grader_venv
    root = course_copy(tmp_path / "course")
    downloads = tmp_path / "downloads" / "ana"
    downloads.mkdir(parents=True)
    nbformat.write(COURSE.learner_notebook(LESSON, COURSE.reference_answers(LESSON)), downloads / "work.ipynb")
    for step in (["release", LESSON, "--no-exchange"], ["collect", "--from", downloads.parent], ["grade"]):
        done = run(venv, ["softmax-grader", "--course", root, *step], tmp_path)
        assert done.returncode == 0, (step, done.stdout + done.stderr)
    assert "Graded 1 submission(s)" in done.stdout
    with Gradebook(Course(root).nbgrader_config().CourseDirectory.db_url) as gradebook:
        grades = [grade for nb in gradebook.find_submission(LESSON, "ana").notebooks for grade in nb.grades]
        assert grades and all(grade.score == grade.max_score for grade in grades)


# Two entries of the lesson's graded function, one wrong and one right: proving them runs every part of `prove`
# (the lesson's tests from --course, a batch of gradings, the table) at a fraction of the catalogue's cost.
ENTRIES = f'''
from grader.proof.catalogue import Misconception
from grader.proof.alternatives import Alternative

LESSON = "{LESSON}"
MISCONCEPTIONS = [Misconception("sums_the_columns", "naive_normalize", "summed down the columns", "sum each row", """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=0)
""")]
ALTERNATIVES = [Alternative("divides_row_by_row", "naive_normalize", "divides one row at a time", """
def naive_normalize(scores):
    x = np.array(scores, dtype=float)
    rows = x.reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)
    return np.array([row / row.sum() for row in rows]).reshape(x.shape)
""")]
'''


def test_the_installed_command_proves_a_lesson(grader_venv, tmp_path):
    venv, _ = grader_venv
    root = course_copy(tmp_path / "course")
    (tmp_path / "entries.py").write_text(ENTRIES)
    command = ["softmax-grader", "--course", root, "prove", "--lesson", LESSON, "--entries", tmp_path / "entries.py"]
    done = run(venv, [*command, "--json"], tmp_path, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    wrong, right = json.loads(done.stdout)["entries"]
    assert (wrong["lesson"], wrong["entry"], wrong["proven"]) == (LESSON, "sums_the_columns", True)
    assert (right["entry"], right["proven"]) == ("divides_row_by_row", True)


KERNEL_PROBE = '''
import asyncio, json, os
import grader
from grader.engine.warmkernel import ForkedKernelManager

CODE = """
import json, os, grader
package = os.path.dirname(grader.__file__)
def attempt(action):
    try:
        return action()
    except OSError as error:
        return type(error).__name__
print(json.dumps({"package": package, "listing": sorted(n for n in os.listdir(package) if n != "__pycache__"),
                  "engine": attempt(lambda: open(os.path.join(package, "engine", "sandbox.py")).read()[:0]),
                  "proof": attempt(lambda: os.listdir(os.path.join(package, "proof")))}))
"""

async def main():
    km = ForkedKernelManager(kernel_name="python3", isolate=True)
    await km.start_kernel(cwd=os.getcwd())
    client = km.client()
    client.start_channels()
    await client.wait_for_ready(timeout=60)
    printed = []
    await client.execute_interactive(CODE, timeout=60, output_hook=lambda msg: printed.append(
        msg["content"].get("text", "")) if msg["msg_type"] == "stream" else None)
    client.stop_channels()
    await km.shutdown_kernel(now=True)
    print(json.dumps({"grader": grader.__file__, "kernel": json.loads("".join(printed))}))

asyncio.run(main())
'''


def test_an_isolated_kernel_of_the_installed_package_reads_only_its_learner_part(grader_venv, tmp_path):
    """The package lies inside the virtual environment, which the kernel keeps: it is covered all the same."""
    venv, site = grader_venv
    seen = json.loads(python_of(venv, KERNEL_PROBE, cwd=tmp_path))
    assert Path(seen["grader"]).parent == site / "grader" and seen["kernel"]["package"] == str(site / "grader")
    assert seen["kernel"]["listing"] == ["__init__.py", "learner"]
    assert seen["kernel"]["engine"] == "FileNotFoundError" and seen["kernel"]["proof"] == "FileNotFoundError"
