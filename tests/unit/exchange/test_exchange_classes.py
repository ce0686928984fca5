"""The strict exchange's classes on a throw-away exchange, as the running user (no hub, no second account):
the private copy, submit's modes, and collect's choice of each student's latest genuine hand-in. What
other Unix users can and cannot do is shown as those users in tests/hub/test_exchange.py."""

from __future__ import annotations

import os
import pwd
import stat
from datetime import datetime, timezone

import nbformat
import pytest
from nbgrader.auth import Authenticator
from nbgrader.coursedir import CourseDirectory
from traitlets.config import Config

from grader.exchange.instructor import Collect, latest
from grader.exchange.layout import copy_private
from grader.exchange.student import LocalSubmit, Submit

pytestmark = pytest.mark.fast  # make test-fast: starts no kernel and runs no nbgrader

ME = pwd.getpwuid(os.getuid()).pw_name


def mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_a_private_copy_has_its_final_modes_and_no_link_pipe_or_ignored_file(tmp_path):
    source = tmp_path / "source"
    (source / "data").mkdir(parents=True)
    (source / "work.ipynb").write_text("{}")
    (source / "data" / "table.csv").write_text("1,2")
    (source / "skip.pyc").write_text("x")
    (source / "passwd").symlink_to("/etc/passwd")
    os.mkfifo(source / "pipe")
    dest = tmp_path / "dest"
    copy_private(str(source), str(dest), lambda _, names: [n for n in names if n.endswith(".pyc")], 0o640, 0o750,
                 {"timestamp.txt": "now"})  # fmt: skip
    found = {str(p.relative_to(dest)): mode(p) for p in dest.rglob("*")}
    assert found == {"work.ipynb": 0o640, "data": 0o750, "data/table.csv": 0o640, "timestamp.txt": 0o640}
    assert mode(dest) == 0o750 and (dest / "timestamp.txt").read_text() == "now"


def test_a_private_copy_never_writes_into_a_folder_that_is_already_there(tmp_path):
    """Someone who guessed the name and made the folder first gets nothing written into it."""
    (tmp_path / "source").mkdir()
    (tmp_path / "taken").mkdir()
    with pytest.raises(FileExistsError):
        copy_private(str(tmp_path / "source"), str(tmp_path / "taken"), lambda _, n: [], 0o640, 0o750)


def exchange_config(tmp_path) -> Config:
    config = Config()
    config.CourseDirectory.root = str(tmp_path / "course")
    config.CourseDirectory.course_id = "c101"
    config.Exchange.root = str(tmp_path / "exchange")
    config.Exchange.path_includes_course = False
    config.Exchange.cache = str(tmp_path / "cache")
    config.Exchange.assignment_dir = str(tmp_path / "student")
    for folder in ("course", "exchange/c101/inbound", "exchange/c101/outbound/ps1", "student/ps1"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    for folder in ("exchange/c101/outbound/ps1", "student/ps1"):
        nbformat.write(nbformat.v4.new_notebook(), tmp_path / folder / "ps1.ipynb")
    return config


def run(kind, config: Config):
    coursedir = CourseDirectory(config=config)
    coursedir.assignment_id = "ps1"
    return kind(coursedir=coursedir, authenticator=Authenticator(config=config), config=config).start()


def test_submit_hands_in_a_copy_readable_by_its_student_and_the_instructors_group_only(tmp_path):
    config = exchange_config(tmp_path)
    run(Submit, config)
    [entry] = (tmp_path / "exchange" / "c101" / "inbound").iterdir()
    assert entry.name.startswith(f"{ME}+ps1+")
    assert mode(entry) == 0o750
    assert {p.name: mode(p) for p in entry.iterdir()} == {
        "ps1.ipynb": 0o640,
        "timestamp.txt": 0o640,
        "submission_secret.txt": 0o640,
    }
    [cached] = (tmp_path / "cache" / "c101").iterdir()
    assert (cached / "submission_secret.txt").read_text() == (entry / "submission_secret.txt").read_text()


@pytest.mark.parametrize("kind", [Submit, LocalSubmit])
def test_a_hand_in_from_jupyterlab_is_checked_without_its_checkpoints(tmp_path, caplog, kind):
    """JupyterLab keeps a checkpoint of each notebook it opened, which the copy leaves out: nbgrader's check counted
    it as an extra notebook and warned at every hand-in from the lab. A notebook truly extra or missing still warns."""
    config = exchange_config(tmp_path)
    checkpoints = tmp_path / "student" / "ps1" / ".ipynb_checkpoints"
    checkpoints.mkdir()
    nbformat.write(nbformat.v4.new_notebook(), checkpoints / "ps1-checkpoint.ipynb")
    run(kind, config)
    assert not [r for r in caplog.records if r.levelname == "WARNING"], caplog.text
    assert all(".ipynb_checkpoints" not in str(p) for p in (tmp_path / "exchange").rglob("*"))
    (tmp_path / "student" / "ps1" / "ps1.ipynb").rename(tmp_path / "student" / "ps1" / "mine.ipynb")
    run(kind, config)
    assert "The hand-in of ps1 lacks ps1.ipynb and holds mine.ipynb, which the release does not" in caplog.text


def hand_in(inbound, student: str, when: str, text: str) -> None:
    folder = inbound / f"{student}+ps1+{when}+random"
    folder.mkdir()
    (folder / "ps1.ipynb").write_text(text)
    (folder / "timestamp.txt").write_text(when)


def test_collect_takes_the_latest_hand_in_of_each_student_and_skips_one_under_anothers_name(tmp_path, caplog):
    config = exchange_config(tmp_path)
    inbound = tmp_path / "exchange" / "c101" / "inbound"
    hand_in(inbound, ME, "2026-01-01 10:00:00.000000 UTC", "early")
    hand_in(inbound, ME, "2026-01-01 11:00:00.000000 UTC", "late")
    hand_in(inbound, "mallory", "2026-01-01 12:00:00.000000 UTC", "made by me under mallory's name")
    run(Collect, config)
    submitted = tmp_path / "course" / "submitted"
    assert sorted(p.name for p in submitted.iterdir()) == [ME]
    assert (submitted / ME / "ps1" / "ps1.ipynb").read_text() == "late"
    assert f"handed in under the name mallory by {ME}" in caplog.text


def test_collect_never_follows_a_link_in_a_hand_in(tmp_path):
    config = exchange_config(tmp_path)
    inbound = tmp_path / "exchange" / "c101" / "inbound"
    hand_in(inbound, ME, "2026-01-01 10:00:00.000000 UTC", "mine")
    [entry] = inbound.iterdir()
    (entry / "gradebook.db").symlink_to(tmp_path / "course" / "gradebook.db")
    run(Collect, config)
    assert sorted(p.name for p in (tmp_path / "course" / "submitted" / ME / "ps1").iterdir()) == [
        "ps1.ipynb",
        "timestamp.txt",
    ]


def test_latest_is_the_last_hand_in_by_the_due_date_when_there_is_one():
    def at(hour: int) -> dict:
        return {"timestamp": datetime(2026, 1, 1, hour, tzinfo=timezone.utc), "filename": str(hour)}

    records = [at(9), at(11), at(13)]
    assert latest(records, None)["filename"] == "13"
    assert latest(records, datetime(2026, 1, 1, 12, tzinfo=timezone.utc))["filename"] == "11"
    assert latest(records, datetime(2026, 1, 1, 8, tzinfo=timezone.utc))["filename"] == "13"  # none in time
