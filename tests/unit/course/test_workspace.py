"""The learner's working folder: copied from the release once, never overwritten where the learner has worked."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader.course import RELEASE, workspace
from tests.support import COURSE

LESSON = COURSE.lesson_ids()[0]
NOTEBOOK = f"{LESSON}/{LESSON}.ipynb"
KERNEL = workspace.kernel_language_info()


@pytest.fixture
def release(tmp_path) -> Path:
    """A throw-away copy of the committed release, which a test may change as `make release` would."""
    shutil.copytree(COURSE.root / RELEASE, tmp_path / "release", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return tmp_path / "release"


def solve(folder: Path) -> bytes:
    """Fill the working copy of lesson 01 with the reference answers, as a learner would, and save it."""
    nb = nbformat.read(folder / NOTEBOOK, as_version=4)
    answers = COURSE.reference_answers(LESSON)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") in answers:
            cell.source = answers[cell.metadata.nbgrader.grade_id]
    nbformat.write(nb, folder / NOTEBOOK)
    return (folder / NOTEBOOK).read_bytes()


def new_release(release: Path, lesson: str = LESSON, words: str = "Work from top to bottom.") -> None:
    """Change a lesson's release as a new `make release` would (one sentence of its text)."""
    path = release / lesson / f"{lesson}.ipynb"
    text = path.read_text()
    assert words in text
    path.write_text(text.replace(words, words + " Take your time."))


def test_first_use_copies_the_release_with_the_kernels_language_info(release, tmp_path):
    done = workspace.sync(release, tmp_path / "work", KERNEL)
    assert sorted(done.copied) == workspace.release_files(release) and len(done.copied) == len(COURSE.lesson_ids())
    assert done.summary("work") == [f"Copied {len(done.copied)} lesson file(s) into work/, your working folder."]
    for name in done.copied:
        copy, original = (json.loads((root / name).read_text()) for root in (tmp_path / "work", release))
        assert copy["metadata"]["language_info"] == KERNEL
        assert copy["cells"] == original["cells"]
    record = json.loads((tmp_path / "work" / workspace.RECORD).read_text())
    assert record["files"][NOTEBOOK]["release"] == workspace.digest((release / NOTEBOOK).read_bytes())


def test_the_copies_are_trusted_so_the_lab_opens_them_without_a_warning(release, tmp_path, monkeypatch):
    """Jupyter's server logs "Notebook ... is not trusted" on opening a notebook its database has not signed; the
    copies are the course's own, signed as a save from the lab would sign them, and a learner's later edit is not."""
    from nbformat.sign import NotebookNotary

    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter-data"))  # the database the lab's server reads
    done = workspace.sync(release, tmp_path / "work", KERNEL)
    notary = NotebookNotary()
    assert all(notary.check_signature(nbformat.read(tmp_path / "work" / name, as_version=4)) for name in done.copied)
    solve(tmp_path / "work")
    assert not notary.check_signature(nbformat.read(tmp_path / "work" / NOTEBOOK, as_version=4))


def test_a_second_run_changes_nothing_and_says_nothing(release, tmp_path):
    workspace.sync(release, tmp_path / "work", KERNEL)
    before = {p: p.read_bytes() for p in (tmp_path / "work").rglob("*") if p.is_file()}
    done = workspace.sync(release, tmp_path / "work", KERNEL)
    assert done.summary() == [] and not done.copied + done.updated + done.offered
    assert {p: p.read_bytes() for p in (tmp_path / "work").rglob("*") if p.is_file()} == before


def test_a_solved_lesson_is_kept_and_a_new_release_of_it_goes_beside_it(release, tmp_path):
    work = tmp_path / "work"
    workspace.sync(release, work, KERNEL)
    solved = solve(work)
    assert workspace.sync(release, work, KERNEL).kept == [NOTEBOOK]
    new_release(release)
    done = workspace.sync(release, work, KERNEL)
    assert (work / NOTEBOOK).read_bytes() == solved
    [beside] = done.offered
    short = workspace.digest((release / NOTEBOOK).read_bytes())[:8]
    assert beside == f"{LESSON}/{LESSON}.release-{short}.ipynb"
    assert (work / beside).read_bytes() == workspace.for_kernel((release / NOTEBOOK).read_bytes(), KERNEL)
    [line] = done.summary("work")
    assert "you started" in line and "kept" in line and f"work/{beside}" in line
    # Said once: the next run leaves both files as they are and says nothing; a later release is offered again.
    again = workspace.sync(release, work, KERNEL)
    assert again.summary() == [] and (work / NOTEBOOK).read_bytes() == solved
    new_release(release, words="Take your time.")
    assert len(workspace.sync(release, work, KERNEL).offered) == 1
    assert (work / NOTEBOOK).read_bytes() == solved and len(list((work / LESSON).glob("*.release-*.ipynb"))) == 2


def test_an_untouched_copy_follows_the_release(release, tmp_path):
    work = tmp_path / "work"
    workspace.sync(release, work, KERNEL)
    lesson = COURSE.lesson_ids()[1]
    new_release(release, lesson, words="Work from top to bottom")
    done = workspace.sync(release, work, KERNEL)
    assert done.updated == [f"{lesson}/{lesson}.ipynb"] and not done.offered
    assert "Take your time." in (work / lesson / f"{lesson}.ipynb").read_text()
    assert done.summary() == [f"Updated to the newer release (not started yet): {lesson}/{lesson}.ipynb."]


def test_nothing_is_lost_when_the_folder_holds_other_files(release, tmp_path):
    work = tmp_path / "work"
    workspace.sync(release, work, KERNEL)
    extras = {
        "notes.md": b"my notes",
        f"{LESSON}/scratch.ipynb": b'{"cells": []}',
        f"{LESSON}/.ipynb_checkpoints/{LESSON}-checkpoint.ipynb": b"{}",
        "data/scores.csv": b"1,2,3\n",
        f"{LESSON}/{LESSON}.release-00000000.ipynb": b"an old offer, edited",
    }
    for name, data in extras.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_bytes(data)
    solved = solve(work)
    new_release(release)
    for lesson in COURSE.lesson_ids()[1:3]:
        new_release(release, lesson, words="Work from top to bottom")
    workspace.sync(release, work, KERNEL)
    assert {name: (work / name).read_bytes() for name in extras} == extras
    assert (work / NOTEBOOK).read_bytes() == solved


def test_without_its_record_a_changed_notebook_is_still_never_overwritten(release, tmp_path):
    """A lost or garbled record cannot say which release a copy came from: changed copies count as started."""
    work = tmp_path / "work"
    workspace.sync(release, work, KERNEL)
    solved = solve(work)
    (work / workspace.RECORD).write_text("{not json")
    done = workspace.sync(release, work, KERNEL)
    assert (work / NOTEBOOK).read_bytes() == solved and done.kept == [NOTEBOOK]
    assert len(done.offered) == 1 and not done.updated  # the untouched copies are recognised by their content
    assert workspace.sync(release, work, KERNEL).offered == []


def test_a_deleted_copy_is_copied_again(release, tmp_path):
    work = tmp_path / "work"
    workspace.sync(release, work, KERNEL)
    (work / NOTEBOOK).unlink()
    assert workspace.sync(release, work, KERNEL).copied == [NOTEBOOK]


def test_the_learner_lab_config_hides_the_instructor_tools(tmp_path):
    """As the hub's student environment gets it: the tools hidden, nothing else (the hub writes its own nbgrader
    settings there)."""
    config = workspace.write_learner_lab_config(tmp_path / "config")
    page = json.loads((config / "labconfig" / "page_config.json").read_text())
    assert set(page["disabledExtensions"]) == {
        "@jupyter/nbgrader:create-assignment",
        "@jupyter/nbgrader:formgrader",
        "@jupyter/nbgrader:course-list",
    }
    server = json.loads((config / "jupyter_server_config.json").read_text())
    assert server == {
        "ServerApp": {
            "jpserver_extensions": {
                "nbgrader.server_extensions.formgrader": False,
                "nbgrader.server_extensions.course_list": False,
            }
        }
    }
    assert not (config / "nbgrader_config.py").exists()


def test_the_learner_labs_assignments_are_the_working_folders_lessons(tmp_path, monkeypatch):
    """nbgrader, in the learner's lab, reads the course's settings, but fetches into and submits from the working
    folder, a lesson per folder; nbgrader's own loader reads them as every part of nbgrader in the lab does."""
    from nbgrader.apps import NbGrader

    work = tmp_path / "work"
    config = workspace.write_local_lab_config(tmp_path / "config", COURSE.root / "nbgrader_config.py", work)
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", str(config))
    monkeypatch.chdir(tmp_path)  # as the lab's Assignments tab reads them: in the working folder's parent, say
    app = NbGrader()
    app.load_config_file()
    settings = app.config
    assert settings.Exchange.assignment_dir == str(work) and settings.Exchange.path_includes_course is False
    assert settings.Exchange.cache == str(config / "handed-in")
    assert settings.ExchangeFactory.submit == "grader.exchange.student.LocalSubmit"
    assert settings.KernelManager.transport_encryption == "auto"  # Validate's kernels
    course = COURSE.nbgrader_settings()
    assert settings.CourseDirectory.course_id == course.CourseDirectory.course_id
    assert settings.Exchange.root == course.Exchange.root


def test_the_local_labs_server_hides_the_tools_encrypts_kernels_and_sends_no_websocket_pings(tmp_path):
    config = workspace.write_local_lab_config(tmp_path / "config", COURSE.root / "nbgrader_config.py", tmp_path)
    server = json.loads((config / "jupyter_server_config.json").read_text())
    assert server["ServerApp"]["jpserver_extensions"] == dict.fromkeys(workspace.INSTRUCTOR_SERVER_EXTENSIONS, False)
    assert server["ServerApp"]["tornado_settings"] == {"ws_ping_interval": 0}
    assert server["KernelManager"] == {"transport_encryption": "auto"}


def run_grader(*args, cwd):
    return subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def test_the_command_syncs_and_writes_the_lab_config(tmp_path):
    run = run_grader(
        "--course", str(COURSE.root), "workspace", "--into", "work", "--lab-config", "config", cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        f"Copied {len(COURSE.lesson_ids())} lesson file(s) into work/, your working folder."
    ]
    assert (tmp_path / "work" / NOTEBOOK).is_file() and (tmp_path / "config" / "labconfig").is_dir()
    assert (
        f"c.Exchange.assignment_dir = {str(tmp_path / 'work')!r}"
        in (tmp_path / "config" / "nbgrader_config.py").read_text()
    )
    assert run_grader("--course", str(COURSE.root), "workspace", "--into", "work", cwd=tmp_path).stdout == ""


def test_the_command_refuses_a_course_without_a_release(tmp_path):
    course = tmp_path / "course"
    (course / "solutions").mkdir(parents=True)
    shutil.copy(COURSE.root / "nbgrader_config.py", course)
    run = run_grader("--course", str(course), "workspace", cwd=tmp_path)
    assert run.returncode == 2 and run.stderr.startswith("error: ") and "make release" in run.stderr
    assert not (course / workspace.DEFAULT_FOLDER).exists()


# What a checkout needs to run the release-sync test (tests/unit/course/test_release_sync.py) on its own.
CHECKOUT = ("grader", "tests", "solutions", RELEASE, "nbgrader_config.py", "pyproject.toml")
SYNC_TEST = "tests/unit/course/test_release_sync.py"  # its other tests edit a copy of the sources, not the checkout


def test_a_lesson_solved_in_the_working_folder_keeps_the_release_sync_test_green(tmp_path):
    """The working folder sits in the checkout (work/, git-ignored); the release-sync test never reads it."""
    checkout = tmp_path / "checkout"
    for name in CHECKOUT:
        copy = shutil.copytree if (COURSE.root / name).is_dir() else shutil.copy2
        copy(COURSE.root / name, checkout / name, **({} if copy is shutil.copy2 else {"ignore": junk}))
    assert run_grader("workspace", cwd=checkout).returncode == 0
    work = checkout / workspace.DEFAULT_FOLDER
    solved = solve(work)
    (work / "test_mine.py").write_text("def test_mine():\n    assert False\n")  # a learner's own file
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    sync_test = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            f"{SYNC_TEST}::test_release_is_in_sync_with_sources",
        ],
        capture_output=True,
        text=True,
        cwd=checkout,
        env=env,
        timeout=900,
    )
    assert sync_test.returncode == 0, sync_test.stdout[-3000:]
    assert "1 passed" in sync_test.stdout and "failed" not in sync_test.stdout
    again = run_grader("workspace", cwd=checkout)
    assert again.returncode == 0 and again.stdout == ""
    assert (work / NOTEBOOK).read_bytes() == solved


def junk(folder, names):
    """What a copy of the checkout leaves out: caches and the learner's own folders."""
    return [n for n in names if n in {"__pycache__", ".ipynb_checkpoints", ".pytest_cache", ".hypothesis"}]
