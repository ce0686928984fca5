"""`python -m grader serve`: each hand-in to a real nbgrader exchange (made by nbgrader's own submit) graded with real
kernels into the gradebook, and its feedback released to its student (found by nbgrader's own fetch_feedback).
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from grader import cli
from grader.course import Course
from grader.engine import warmkernel
from grader.exchange.layout import receipt_of
from grader.instructor.journal import DONE, FILE, GRADING, HELD, OVER_LIMIT, PENDING, SUPERSEDED, Journal
from testbed.cluster import free_port, local_cluster
from tests import support
from tests.support import COURSE, tools_env

LESSON = "01_naive_division"
SERVE_SECONDS = 300


def exchange_course(root: Path) -> Course:
    return support.exchange_course(root, LESSON)


def reference() -> bytes:
    return nbformat.writes(COURSE.learner_notebook(LESSON, COURSE.reference_answers(LESSON))).encode()


def submit(course: Course, student: str, data: bytes) -> Path:
    """`student` hands in `data` as lesson 01 with nbgrader's submit; the new inbound folder."""
    return support.submit_with_nbgrader(course, student, LESSON, data)


def fetched_feedback(course: Course, student: str) -> list[Path]:
    """The feedback pages nbgrader's fetch_feedback brings `student`."""
    from nbgrader.exchange.default.fetch_feedback import ExchangeFetchFeedback

    home = support.as_student(course, student, LESSON, ExchangeFetchFeedback)
    return sorted(home.glob("**/feedback/*/*.html"))


def released(course: Course) -> list[Path]:
    return sorted((course.grading / "exchange" / "softmax" / "feedback").glob("*.html"))


def submissions(course: Course) -> dict[str, tuple[float, object]]:
    """student -> (score, timestamp) of each gradebook submission of lesson 01 (nbgrader keeps one per student)."""
    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gradebook:
        rows = [(s.student.id, (s.score, s.timestamp)) for s in gradebook.find_assignment(LESSON).submissions]
    assert len(rows) == len(dict(rows)), rows
    return dict(rows)


def states(course: Course) -> dict[str, str]:
    with Journal(course.grading) as journal:
        return {hand_in.folder: hand_in.state for hand_in in journal.all()}


def serve_once(course: Course) -> None:
    assert cli.main(["--course", str(course.root), "serve", "--once"]) == 0


def test_a_submitted_lesson_is_graded_as_grade_grades_it_and_its_feedback_released(tmp_path):
    course = exchange_course(tmp_path / "class")
    folder = submit(course, "ada", reference())
    by_hand = Course(shutil.copytree(course.root, tmp_path / "by-hand"))  # the same hand-in, for `grade`
    serve_once(course)
    assert states(course) == {folder.name: DONE}
    [page] = fetched_feedback(course, "ada")
    assert "Total:" in page.read_text() and "ada" in page.read_text()
    assert cli.main(["--course", str(by_hand.root), "collect", LESSON]) == 0
    assert cli.main(["--course", str(by_hand.root), "grade", LESSON]) == 0
    assert submissions(course)["ada"][0] == submissions(by_hand)["ada"][0] > 0


def test_a_newer_hand_in_supersedes_one_still_waiting(tmp_path):
    course = exchange_course(tmp_path / "class")
    older = submit(course, "ada", nbformat.writes(COURSE.learner_notebook(LESSON, {})).encode())
    newer = submit(course, "ada", reference())
    serve_once(course)
    assert states(course) == {older.name: SUPERSEDED, newer.name: DONE}
    assert submissions(course)["ada"][1] == receipt_of(newer).replace(tzinfo=None)
    assert len(released(course)) == 1 and len(fetched_feedback(course, "ada")) == 1


def test_a_forged_timestamp_or_name_does_not_move_the_receipt(tmp_path):
    course = exchange_course(tmp_path / "class")
    handed_in = submit(course, "ada", reference())
    forged = "2001-01-01 00:00:00.000000 UTC"
    (handed_in / "timestamp.txt").write_text(forged)
    student, lesson, _, random = handed_in.name.split("+")
    folder = handed_in.rename(handed_in.with_name(f"{student}+{lesson}+{forged}+{random}"))
    received = receipt_of(folder)
    serve_once(course)
    assert received.year > 2001
    assert submissions(course)["ada"][1] == received.replace(tzinfo=None)
    with Journal(course.grading) as journal:
        assert journal.get(folder.name).received == received.isoformat()


def configure(course: Course, *lines: str) -> None:
    """Add settings to the course's nbgrader_config.py."""
    with open(course.root / "nbgrader_config.py", "a") as config:
        config.write("\n" + "\n".join(lines) + "\n")


def due_in(course: Course, delta: timedelta) -> None:
    """Set lesson 01's due date in the gradebook (nbgrader keeps naive UTC)."""
    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gradebook:
        gradebook.update_or_create_assignment(LESSON, duedate=datetime.now(UTC).replace(tzinfo=None) + delta)


def test_a_hand_in_past_the_limit_of_attempts_is_not_graded_and_grade_by_hand_agrees(tmp_path):
    course = exchange_course(tmp_path / "class")
    configure(course, "c.GradingService.attempts = 1")
    first = submit(course, "ada", nbformat.writes(COURSE.learner_notebook(LESSON, {})).encode())
    serve_once(course)
    second = submit(course, "ada", reference())  # after the first was graded: a second attempt
    serve_once(course)
    assert states(course) == {first.name: DONE, second.name: OVER_LIMIT}
    assert submissions(course)["ada"][0] == 0
    [page] = fetched_feedback(course, "ada")  # the first's, which said that no later hand-in would be graded
    assert f"Graded hand-ins of {LESSON}: 1 of the 1 allowed; a later hand-in of it will not be graded." in (
        page.read_text()
    )
    assert cli.main(["--course", str(course.root), "collect", LESSON]) == 0
    assert cli.main(["--course", str(course.root), "grade", "--force", LESSON]) == 0
    assert submissions(course)["ada"][0] == 0  # by hand, the same hand-in: the first


def test_feedback_after_the_due_date_is_graded_at_once_and_released_once_the_date_has_passed(tmp_path):
    course = exchange_course(tmp_path / "class")
    configure(course, 'c.GradingService.feedback = "after_due"')
    due_in(course, timedelta(hours=1))
    folder = submit(course, "ada", reference())
    serve_once(course)
    assert states(course) == {folder.name: HELD} and released(course) == []
    assert submissions(course)["ada"][0] > 0  # graded: the instructor sees it in the gradebook
    due_in(course, -timedelta(seconds=1))
    serve_once(course)
    assert states(course) == {folder.name: DONE} and len(fetched_feedback(course, "ada")) == 1


def journal_says(course: Course, state: str, seconds: float) -> bool:
    """Whether the journal shows a hand-in in `state` within `seconds` (read as another process would)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if (course.grading / FILE).exists():
            with sqlite3.connect(course.grading / FILE, timeout=30) as db:
                try:
                    if db.execute("SELECT 1 FROM hand_ins WHERE state = ?", (state,)).fetchone():
                        return True
                except sqlite3.OperationalError:  # the service has made the file, not yet its table
                    pass
        time.sleep(0.1)
    return False


def started(course: Course, *options: str) -> subprocess.Popen:
    """`serve` in a process of its own (and a process group, with its grading workers)."""
    return subprocess.Popen(
        [sys.executable, "-m", "grader", "--course", str(course.root), "serve", *options],
        env=tools_env(),
        start_new_session=True,
        stderr=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )


@pytest.mark.timeout(2 * SERVE_SECONDS)
def test_a_killed_service_grades_each_hand_in_exactly_once_after_a_restart(tmp_path):
    course = exchange_course(tmp_path / "class")
    first = submit(course, "ada", reference())
    service = started(course, "--poll", "1")
    try:
        assert journal_says(course, GRADING, SERVE_SECONDS), "the service never started grading"
    finally:
        os.killpg(service.pid, signal.SIGKILL)
        service.wait()
    assert states(course) == {first.name: GRADING}
    second = submit(course, "bo", reference())  # while the service is down
    serve_once(course)
    assert states(course) == {first.name: DONE, second.name: DONE}
    assert set(submissions(course)) == {"ada", "bo"}  # one submission each
    assert len(released(course)) == 2
    assert len(fetched_feedback(course, "ada")) == len(fetched_feedback(course, "bo")) == 1


def test_a_service_killed_after_releasing_but_before_marking_done_grades_and_releases_it_once(tmp_path):
    """The last moment a kill can come: the page is released, the journal still says grading."""
    course = exchange_course(tmp_path / "class")
    folder = submit(course, "ada", reference())
    serve_once(course)
    page = released(course)
    with Journal(course.grading) as journal:
        journal.finish(folder.name, GRADING)
    serve_once(course)
    assert states(course) == {folder.name: DONE}
    assert released(course) == page and len(submissions(course)) == 1
    assert len(fetched_feedback(course, "ada")) == 1


def signalled_while_grading(course: Course, signum: int) -> int:
    """The exit code of a running `serve` sent `signum` once the journal says it grades."""
    service = started(course, "--poll", "1")
    try:
        assert journal_says(course, GRADING, SERVE_SECONDS), "the service never started grading"
        service.send_signal(signum)
        return service.wait(timeout=SERVE_SECONDS)
    finally:
        if service.poll() is None:
            os.killpg(service.pid, signal.SIGKILL)


@pytest.mark.timeout(2 * SERVE_SECONDS)
def test_sigterm_lets_the_hand_in_being_graded_finish_then_stops_the_service(tmp_path):
    course = exchange_course(tmp_path / "class")
    folder = submit(course, "ada", reference())
    assert signalled_while_grading(course, signal.SIGTERM) == 0
    assert states(course) == {folder.name: DONE}
    assert len(fetched_feedback(course, "ada")) == 1


@pytest.mark.timeout(2 * SERVE_SECONDS)
def test_ctrl_c_puts_the_hand_in_being_graded_back_to_pending_and_the_next_start_grades_it(tmp_path):
    course = exchange_course(tmp_path / "class")
    folder = submit(course, "ada", reference())
    # 130 as the command line returns it; in about one run of sixteen the process is then ended by a second SIGINT
    # during its exit (the signal's default again), which is the same stop: the journal below is what matters
    assert signalled_while_grading(course, signal.SIGINT) in (130, -signal.SIGINT)
    assert states(course) == {folder.name: PENDING}
    serve_once(course)
    assert states(course) == {folder.name: DONE}
    assert len(fetched_feedback(course, "ada")) == 1


def students_hand_in(course: Course, answers: dict[str, bytes]) -> dict[str, Path]:
    return {student: submit(course, student, data) for student, data in answers.items()}


def test_a_class_handing_in_at_once_is_graded_together_and_as_grade_grades_each(tmp_path):
    course = exchange_course(tmp_path / "class")
    stub = nbformat.writes(COURSE.learner_notebook(LESSON, {})).encode()
    folders = students_hand_in(course, {"ada": reference(), "bo": stub, "cy": reference(), "di": stub})
    by_hand = Course(shutil.copytree(course.root, tmp_path / "by-hand"))
    assert cli.main(["--course", str(course.root), "serve", "--once", "--jobs", "2"]) == 0
    assert states(course) == {folder.name: DONE for folder in folders.values()}
    assert all(len(fetched_feedback(course, student)) == 1 for student in folders)
    assert cli.main(["--course", str(by_hand.root), "collect", LESSON]) == 0
    assert cli.main(["--course", str(by_hand.root), "grade", LESSON]) == 0
    served, graded = submissions(course), submissions(by_hand)
    assert {s: score for s, (score, _) in served.items()} == {s: score for s, (score, _) in graded.items()}
    assert served["ada"][0] > served["bo"][0] == 0


def test_a_paused_service_records_hand_ins_and_grades_them_once_resumed(tmp_path, capsys):
    course = exchange_course(tmp_path / "class")
    serve = ["--course", str(course.root), "serve"]
    assert cli.main([*serve, "--pause"]) == 0
    assert "paused since" in capsys.readouterr().out
    folder = submit(course, "ada", reference())
    serve_once(course)
    assert states(course) == {folder.name: PENDING} and released(course) == []
    assert cli.main([*serve, "--status"]) == 0
    assert "Hand-ins: 1 pending" in capsys.readouterr().out
    assert cli.main([*serve, "--resume"]) == 0
    assert "Grading is on." in capsys.readouterr().out
    serve_once(course)
    assert states(course) == {folder.name: DONE} and len(fetched_feedback(course, "ada")) == 1


def descendants(pid: int) -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line) of every process under `pid`."""
    parents = {}
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue
        if entry.name.isdigit():
            parents[int(entry.name)] = (int(fields[1]), command)
    under, frontier = {}, [pid]
    while frontier:
        parent = frontier.pop()
        for child, (its_parent, command) in parents.items():
            if its_parent == parent and child not in under:
                under[child] = (parent, command)
                frontier.append(child)
    return under


def kill_a_grading_worker(service: subprocess.Popen, seconds: float) -> bool:
    """SIGKILL the first of the service's grading workers seen within `seconds`: a fork of the service itself (its
    command line), or a child of its multiprocessing fork server; whether one was."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and service.poll() is None:
        tree = descendants(service.pid)
        own = " ".join(service.args)
        servers = {pid for pid, (_, command) in tree.items() if "multiprocessing.forkserver" in command}
        workers = [
            pid
            for pid, (parent, command) in tree.items()
            if parent in servers or (parent == service.pid and command.strip() == own)
        ]
        if workers:
            os.kill(workers[0], signal.SIGKILL)
            return True
        time.sleep(0.01)
    return False


@pytest.mark.timeout(2 * SERVE_SECONDS)
def test_a_grading_worker_killed_mid_grade_costs_no_hand_in(tmp_path):
    course = exchange_course(tmp_path / "class")
    folder = submit(course, "ada", reference())
    service = started(course, "--poll", "1")
    try:
        assert kill_a_grading_worker(service, SERVE_SECONDS), "no grading worker was seen"
        assert journal_says(course, DONE, SERVE_SECONDS), "the hand-in was not graded"
    finally:
        service.send_signal(signal.SIGTERM)
        service.wait(timeout=SERVE_SECONDS)
    assert states(course) == {folder.name: DONE}
    assert submissions(course)["ada"][0] > 0 and len(released(course)) == 1
    assert len(fetched_feedback(course, "ada")) == 1


def test_hand_ins_wait_while_the_scheduler_does_not_answer(tmp_path, capsys):
    course = exchange_course(tmp_path / "class")
    folder = submit(course, "ada", reference())
    nobody = f"tcp://127.0.0.1:{free_port()}"
    assert cli.main(["--course", str(course.root), "serve", "--once", "--cluster", nobody]) == 0
    assert states(course) == {folder.name: PENDING} and released(course) == []
    assert f"cannot reach the Dask scheduler at {nobody}" in capsys.readouterr().err
    serve_once(course)  # here, once the instructor says so
    assert states(course) == {folder.name: DONE}


@pytest.mark.cluster
@pytest.mark.xdist_group("cluster-serve")
def test_the_service_grades_on_a_dask_cluster_as_it_grades_here(tmp_path):
    course = exchange_course(tmp_path / "class")
    stub = nbformat.writes(COURSE.learner_notebook(LESSON, {})).encode()
    folders = students_hand_in(course, {"ada": reference(), "bo": stub})
    here = Course(shutil.copytree(course.root, tmp_path / "here"))
    worker_course = shutil.copytree(course.root, tmp_path / "worker-course", ignore=shutil.ignore_patterns(".grading"))
    with local_cluster(tmp_path / "dask", worker_course, workers=2) as (address, _):
        assert cli.main(["--course", str(course.root), "serve", "--once", "--cluster", address]) == 0
    serve_once(here)
    assert states(course) == {folder.name: DONE for folder in folders.values()}
    assert all(len(fetched_feedback(course, student)) == 1 for student in folders)
    assert {s: score for s, (score, _) in submissions(course).items()} == {
        s: score for s, (score, _) in submissions(here).items()
    }


# ----------------------------------------------------------------- serve --exchange-as, as the hub runs it

AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="grading as root with an agent needs root (CI is)")
NOBODY = pwd.getpwnam("nobody")


@pytest.fixture
def course_of_nobody():
    """A course shared as the hub's is: its directory and exchange are `nobody`'s (the grader account's there) and its
    group's, every folder setgid and closed to others, in a folder that account can enter; the service's umask 007,
    as the hub starts it, so what root writes there stays the group's."""
    base = Path(tempfile.mkdtemp(prefix="softmax-serve-as-"))
    os.chmod(base, 0o755)
    umask = os.umask(0o007)
    try:
        course = exchange_course(base / "class")
        for folder, _, files in os.walk(course.root):
            for name in [folder, *(os.path.join(folder, file) for file in files)]:
                os.chown(name, NOBODY.pw_uid, NOBODY.pw_gid, follow_symlinks=False)
            os.chmod(folder, 0o2770)
        os.chmod(course.root, 0o2771)  # the students enter it to reach the exchange, as they enter the hub's
        yield course
    finally:
        os.umask(umask)
        shutil.rmtree(base)


def owner(path: Path) -> str:
    return pwd.getpwuid(path.stat().st_uid).pw_name


@AS_ROOT
def test_exchange_as_root_grades_and_the_account_collects_and_releases(course_of_nobody):
    course = course_of_nobody
    folder = submit(course, "ada", reference())
    # in a process of its own with a kernel zygote of its own, both under the umask the hub gives the service
    environment = {name: value for name, value in tools_env().items() if name != warmkernel.ADDRESS}
    command = [
        sys.executable,
        "-m",
        "grader",
        "--course",
        str(course.root),
        "serve",
        "--once",
        "--exchange-as",
        "nobody",
    ]
    served = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=600)
    assert served.returncode == 0, served.stderr
    assert "without --exchange-as" not in served.stderr and "not isolated" not in served.stderr
    assert states(course) == {folder.name: "done"}
    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gradebook:
        graded = gradebook.find_submission(LESSON, "ada")
        assert graded.score == graded.max_score > 0  # the reference, full marks: graded as `grade` grades it
    collected = course.grading / "submitted" / "ada" / LESSON / f"{LESSON}.ipynb"
    assert owner(collected) == "nobody"  # collect ran as the account
    [page] = released(course)
    assert owner(page) == "nobody"  # and so did the release of the feedback
    assert owner(course.grading / "autograded" / "ada" / LESSON / f"{LESSON}.ipynb") == "root"  # the grading, root's
    assert len(fetched_feedback(course, "ada")) == 1


@AS_ROOT
def test_exchange_as_an_unknown_account_is_one_line(course_of_nobody, capsys):
    course = course_of_nobody
    assert cli.main(["--course", str(course.root), "serve", "--once", "--exchange-as", "no-such-account"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == ["error: --exchange-as: no account named no-such-account"]


@AS_ROOT
def test_root_without_exchange_as_on_an_exchange_others_write_says_so(tmp_path, capsys):
    course = exchange_course(tmp_path / "class")
    inbound = support.exchange_inbound(course)
    inbound.mkdir(parents=True, exist_ok=True)
    os.chmod(inbound, 0o1777)  # nbgrader's own exchange: anyone hands in
    assert cli.main(["--course", str(course.root), "serve", "--once"]) == 0
    [said] = [line for line in capsys.readouterr().err.splitlines() if "--exchange-as" in line]
    assert said.startswith("warning: running as root without --exchange-as")
