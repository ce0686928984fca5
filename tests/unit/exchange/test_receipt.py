"""A hand-in's time is the exchange's receipt (grader.exchange.layout.receipt_of): the kernel's record of when its
folder and files last changed, which its student can make later but never earlier, whatever its name, its
timestamp.txt or its files' times say; the strict exchange's collect picks and dates hand-ins by it."""

from __future__ import annotations

import os
import pwd
import time
from datetime import UTC, datetime, timedelta

import nbformat
import pytest
from nbgrader.auth import Authenticator
from nbgrader.coursedir import CourseDirectory
from nbgrader.utils import parse_utc
from traitlets.config import Config

from grader.exchange import layout
from grader.exchange.instructor import Collect
from grader.exchange.layout import receipt_of

pytestmark = pytest.mark.fast  # make test-fast: starts no kernel and runs no nbgrader

ME = pwd.getpwuid(os.getuid()).pw_name
FORGED = "2001-01-01 00:00:00.000000 UTC"
STEP = 0.05  # seconds between two changes, well above the file system's resolution of times


def hand_in(inbound, name: str, text: str):
    folder = inbound / name
    folder.mkdir(parents=True)
    (folder / "ps1.ipynb").write_text(text)
    (folder / "timestamp.txt").write_text(FORGED)
    return folder


def test_the_receipt_is_the_last_change_of_the_folder_or_anything_in_it(tmp_path):
    before = datetime.now(UTC)
    folder = hand_in(tmp_path, f"{ME}+ps1+{FORGED}+x", "work")
    (folder / "data").mkdir()
    received = receipt_of(folder)
    assert before - timedelta(seconds=1) < received <= datetime.now(UTC)
    time.sleep(STEP)
    (folder / "data" / "table.csv").write_text("1,2")  # a change deep inside makes it later
    assert receipt_of(folder) > received


def test_a_student_can_date_a_hand_in_later_never_earlier(tmp_path):
    folder = hand_in(tmp_path, f"{ME}+ps1+2026-01-01 10:00:00.000000 UTC+x", "work")
    received = receipt_of(folder)
    time.sleep(STEP)
    past = datetime(2001, 1, 1, tzinfo=UTC).timestamp()
    for path in [folder, *folder.iterdir()]:
        os.utime(path, (past, past), follow_symlinks=False)  # the files' own times, forged
    (folder / "timestamp.txt").write_text(FORGED)
    renamed = folder.rename(folder.with_name(f"{ME}+ps1+{FORGED}+x"))  # and its name
    assert receipt_of(renamed) > received


def test_a_link_in_a_hand_in_is_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    folder = hand_in(tmp_path / "inbound", f"{ME}+ps1+{FORGED}+x", "work")
    (folder / "elsewhere").symlink_to(outside, target_is_directory=True)
    received = receipt_of(folder)
    time.sleep(STEP)
    (outside / "later.txt").write_text("changed after the hand-in")
    assert receipt_of(folder) == received


def test_a_hand_in_of_more_entries_than_are_read_counts_as_received_now(tmp_path, monkeypatch):
    folder = hand_in(tmp_path, f"{ME}+ps1+{FORGED}+x", "work")
    time.sleep(STEP)
    early = datetime.now(UTC)
    monkeypatch.setattr(layout, "RECEIPT_ENTRIES", 1)
    assert receipt_of(folder) >= early
    monkeypatch.undo()
    assert receipt_of(folder) < early


def collect_config(tmp_path) -> Config:
    config = Config()
    config.CourseDirectory.root = str(tmp_path / "course")
    config.CourseDirectory.course_id = "c101"
    config.CourseDirectory.assignment_id = "ps1"
    config.Exchange.root = str(tmp_path / "exchange")
    config.Exchange.path_includes_course = False
    (tmp_path / "course").mkdir()
    (tmp_path / "exchange" / "c101" / "inbound").mkdir(parents=True)
    return config


def collect(config: Config) -> None:
    coursedir = CourseDirectory(config=config)
    Collect(coursedir=coursedir, authenticator=Authenticator(config=config), config=config).start()


def test_collect_takes_the_latest_by_receipt_and_writes_the_receipt_as_its_timestamp(tmp_path):
    config = collect_config(tmp_path)
    inbound = tmp_path / "exchange" / "c101" / "inbound"
    hand_in(inbound, f"{ME}+ps1+2099-01-01 00:00:00.000000 UTC+a", nbformat.writes(nbformat.v4.new_notebook()))
    time.sleep(STEP)
    later = hand_in(inbound, f"{ME}+ps1+{FORGED}+b", "the later hand-in, its name dated 2001")
    collect(config)
    submitted = tmp_path / "course" / "submitted" / ME / "ps1"
    assert (submitted / "ps1.ipynb").read_text() == "the later hand-in, its name dated 2001"
    stamped = parse_utc((submitted / "timestamp.txt").read_text())
    assert abs(stamped - receipt_of(later).replace(tzinfo=None)) < timedelta(microseconds=1)


def test_collect_of_the_instructors_own_copies_reads_their_names(tmp_path):
    """grader.instructor.collect's copies are named and dated with each receipt by the instructor's own process."""
    config = collect_config(tmp_path)
    config.Collect.dated_by_name = True
    inbound = tmp_path / "exchange" / "c101" / "inbound"
    hand_in(inbound, f"{ME}+ps1+2026-01-01 11:00:00.000000 UTC+a", "named later")
    time.sleep(STEP)
    (hand_in(inbound, f"{ME}+ps1+2026-01-01 10:00:00.000000 UTC+b", "made later") / "timestamp.txt").write_text(
        "2026-01-01 10:00:00.000000 UTC"
    )
    collect(config)
    submitted = tmp_path / "course" / "submitted" / ME / "ps1"
    assert (submitted / "ps1.ipynb").read_text() == "named later"
    assert (submitted / "timestamp.txt").read_text() == FORGED  # kept as the copy holds it
