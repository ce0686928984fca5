"""The course's policy for hand-ins to a real nbgrader exchange (made by nbgrader's own submit), collected and graded
by hand: a hand-in's time is the exchange's receipt whatever its student forged, a late one gets nbgrader's own late
penalty (as plain `nbgrader autograde` gives it) in the gradebook, the grades CSV and the feedback page, and a limit
of graded attempts picks the hand-in the grading service would have graded."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import time
import warnings
from datetime import UTC, datetime

import nbformat
from nbgrader.api import Gradebook

from grader.course import Course
from grader.exchange.layout import receipt_of
from grader.instructor.collect import TIMESTAMP_FORMAT
from grader.instructor.journal import DONE, Journal
from tests.support import COURSE, exchange_course, run_cli_here, submit_with_nbgrader, tools_env

LESSON = "01_naive_division"
FORGED = "2001-01-01 00:00:00.000000 UTC"


def reference() -> bytes:
    return nbformat.writes(COURSE.learner_notebook(LESSON, COURSE.reference_answers(LESSON))).encode()


def unanswered() -> bytes:
    return nbformat.writes(COURSE.learner_notebook(LESSON, {})).encode()


def configure(course: Course, *lines: str) -> None:
    """Add settings to the course's nbgrader_config.py."""
    with open(course.root / "nbgrader_config.py", "a") as config:
        config.write("\n" + "\n".join(lines) + "\n")


def forge(folder, when: str = FORGED):
    """What a student can do to its own hand-in: write any time into its timestamp.txt and its files' mtimes, and
    rename it to carry any time in its name; the hand-in as renamed."""
    (folder / "timestamp.txt").write_text(when)
    for path in folder.iterdir():
        past = datetime(2001, 1, 1, tzinfo=UTC).timestamp()
        os.utime(path, (past, past))
    student, lesson, _, random = folder.name.split("+")
    return folder.rename(folder.with_name(f"{student}+{lesson}+{when}+{random}"))


def collected(course: Course, student: str) -> tuple[bytes, str]:
    """A student's collected notebook and timestamp.txt."""
    folder = course.grading / "submitted" / student / LESSON
    return (folder / f"{LESSON}.ipynb").read_bytes(), (folder / "timestamp.txt").read_text()


def gradebook_rows(course: Course) -> dict[str, tuple[float, float, datetime]]:
    """student -> (score, late penalty, timestamp) of each gradebook submission of the lesson."""
    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gradebook:
        return {
            s.student.id: (s.score, s.late_submission_penalty, s.timestamp)
            for s in gradebook.find_assignment(LESSON).submissions
        }


def ran(*args) -> str:
    run = run_cli_here(*args)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_a_late_hand_in_stays_late_whatever_its_student_forged_and_scores_0_under_penalty_zero(tmp_path):
    course = exchange_course(tmp_path / "class", LESSON)
    configure(course, 'c.LateSubmissionPlugin.penalty_method = "zero"')
    submit_with_nbgrader(course, "ada", LESSON, reference())  # in time
    time.sleep(0.05)
    due = datetime.now(UTC).replace(tzinfo=None)
    subprocess.run(  # the due date as nbgrader sets it
        [
            sys.executable,
            "-m",
            "nbgrader",
            "db",
            "assignment",
            "add",
            LESSON,
            f"--duedate={due:%Y-%m-%d %H:%M:%S.%f} UTC",
        ],
        cwd=course.root,
        env=tools_env(),
        check=True,
        capture_output=True,
    )
    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gradebook, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nbgrader's own SQLAlchemy warnings when it creates a submission
        gradebook.update_or_create_student("cy")  # cy has an hour more
        gradebook.update_or_create_submission(LESSON, "cy")
        gradebook.grant_extension(LESSON, "cy", hours=1)
    time.sleep(0.05)
    bo = forge(
        submit_with_nbgrader(course, "bo", LESSON, reference())
    )  # late, dated 2001 by its name and timestamp.txt
    submit_with_nbgrader(course, "cy", LESSON, reference())  # late, but within cy's extension
    received = receipt_of(bo)
    assert received.replace(tzinfo=None) > due

    ran("--course", course.root, "collect", LESSON)
    assert collected(course, "bo") == (reference(), received.strftime(TIMESTAMP_FORMAT))
    ran("--course", course.root, "grade", LESSON)
    rows = gradebook_rows(course)
    full = rows["ada"][0]
    assert full > 0 and rows["ada"][1] == 0 and rows["cy"][:2] == (full, 0)
    assert rows["bo"][:2] == (full, full) and rows["bo"][2] == received.replace(tzinfo=None)

    out = tmp_path / "out"
    ran("--course", course.root, "export", "--out", out)
    with open(out / "grades.csv") as file:
        table = {row["student"]: row for row in csv.DictReader(file)}
    column = next(name for name in table["ada"] if name.startswith(LESSON))
    assert (table["ada"][column], table["bo"][column], table["cy"][column]) == (f"{full:g}", "0", f"{full:g}")
    assert "late" in table["bo"]["problems"] and "late" not in table["ada"]["problems"]
    ran("--course", course.root, "feedback", "--out", out / "pages")
    pages = {page.stem: page.read_text() for page in (out / "pages").glob("*.html")}
    assert f"Score: <strong>0 / {full:g}</strong>" in pages["bo"] and "taken off" in pages["bo"]
    assert "taken off" not in pages["ada"] + pages["cy"]

    plain = Course(shutil.copytree(course.root, tmp_path / "plain"))  # the same hand-ins through plain nbgrader
    subprocess.run(
        [sys.executable, "-m", "nbgrader", "autograde", LESSON, "--force"],
        cwd=plain.root,
        env=tools_env(),
        check=True,
        capture_output=True,
    )
    assert {student: row[1] for student, row in gradebook_rows(plain).items()} == {"ada": 0, "bo": full, "cy": 0}

    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gradebook:  # bo's extension, given late
        gradebook.grant_extension(LESSON, "bo", days=1)
    ran("--course", course.root, "grade", LESSON, "--force")
    assert gradebook_rows(course)["bo"][:2] == (full, 0)


def test_a_limit_of_attempts_collects_the_latest_within_it_without_a_journal_and_with_one(tmp_path):
    course = exchange_course(tmp_path / "class", LESSON)
    configure(course, "c.GradingService.attempts = 1")
    hand_ins = []
    for data in (unanswered(), reference(), unanswered()):
        hand_ins.append(submit_with_nbgrader(course, "ada", LESSON, data))
        time.sleep(0.05)
    log = ran("--course", course.root, "collect", LESSON)  # no service ran: the first one is the graded attempt
    assert collected(course, "ada") == (unanswered(), receipt_of(hand_ins[0]).strftime(TIMESTAMP_FORMAT))
    assert "limit of graded attempts" in log and hand_ins[1].name in log and hand_ins[2].name in log

    shutil.rmtree(course.grading / "submitted")
    with Journal(course.grading) as journal:  # the service saw the first only once the second came: superseded
        for folder in hand_ins[:2]:
            journal.add(folder.name, "ada", LESSON, receipt_of(folder).isoformat())
        journal.finish(hand_ins[1].name, DONE)
        journal.add(hand_ins[2].name, "ada", LESSON, receipt_of(hand_ins[2]).isoformat())  # over the limit
    ran("--course", course.root, "collect", LESSON)
    assert collected(course, "ada") == (reference(), receipt_of(hand_ins[1]).strftime(TIMESTAMP_FORMAT))
