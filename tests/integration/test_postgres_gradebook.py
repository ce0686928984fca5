"""A PostgreSQL gradebook (`--db URL`, or db_url in nbgrader_config.py): a real PostgreSQL server from Debian's
packages, started here (initdb in a temporary folder, a free port, an unprivileged user), takes two `grade` runs
at once from two processes, and gives the same export, and the same submissions through nbgrader's API as
formgrader reads them, as the SQLite gradebook of the same class graded in one run."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from nbgrader.apps.api import NbGraderAPI

from grader.course import Course
from grader.course.release import release
from grader.proof.simulate import class_in_thirds, course_with_class
from testbed.cluster import free_port
from tests.support import COURSE, tools_env

pytestmark = pytest.mark.cluster

POSTGRES_BIN = Path("/usr/lib/postgresql/15/bin")  # Debian's postgresql-15 (apt-get install postgresql)
LESSONS = ["01_naive_division", "02_exp_evidence"]
STUDENTS = 3
USER = "postgres"  # the unprivileged user the server runs as, when the tests run as root


def missing(why: str):
    """In CI, what the test needs is installed by .ci/run: its absence is a failure, never a skip."""
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


@contextlib.contextmanager
def postgres_server():
    """A PostgreSQL server of its own on 127.0.0.1, its data in a temporary folder; yields a URL of a database
    made for the test. The server is stopped and the folder removed on the way out, whatever happened."""
    if not (POSTGRES_BIN / "postgres").is_file():
        missing(f"no PostgreSQL server at {POSTGRES_BIN} (apt-get install postgresql)")
    as_user = {"user": USER, "group": USER, "extra_groups": []} if os.geteuid() == 0 else {}
    folder = Path(tempfile.mkdtemp(prefix="softmax-postgres-"))
    server = None
    try:
        if as_user:
            os.chown(folder, pwd.getpwnam(USER).pw_uid, pwd.getpwnam(USER).pw_gid)
        data = folder / "data"
        initdb = [str(POSTGRES_BIN / "initdb"), "-D", str(data), "-U", "grader", "--auth=trust", "--no-sync"]
        subprocess.run(initdb, check=True, capture_output=True, timeout=120, **as_user)
        port = free_port()
        server = subprocess.Popen(
            [str(POSTGRES_BIN / "postgres"), "-D", str(data), "-p", str(port), "-h", "127.0.0.1", "-k", str(folder)],
            stdout=subprocess.DEVNULL,
            stderr=open(folder / "server.log", "w"),  # noqa: SIM115 - the child holds it
            **as_user,
        )
        url = f"postgresql://grader@127.0.0.1:{port}"
        create(f"{url}/postgres", "CREATE DATABASE gradebook", server, folder)
        yield f"{url}/gradebook"
    finally:
        if server is not None:
            server.terminate()  # SIGTERM: PostgreSQL's smart shutdown, once every client has gone
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        shutil.rmtree(folder, ignore_errors=True)


def create(url: str, statement: str, server: subprocess.Popen, folder: Path) -> None:
    """Run `statement` once the server accepts connections (it takes a moment to start)."""
    import psycopg  # SQLAlchemy's driver for postgresql:// URLs

    deadline = time.monotonic() + 60
    while True:
        try:
            connection = psycopg.connect(url, autocommit=True)  # CREATE DATABASE runs outside a transaction
            break
        except psycopg.OperationalError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError((folder / "server.log").read_text()) from None
            time.sleep(0.2)
    with connection:
        connection.execute(statement)


def grader(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "grader", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=tools_env(PYTHONPATH=str(COURSE.root)),
    )


def finished(process: subprocess.Popen) -> str:
    output, _ = process.communicate(timeout=900)
    assert process.returncode == 0, output
    return output


def submissions_as_formgrader_reads_them(course: Course) -> dict:
    """Each lesson's submissions from nbgrader's API (formgrader's Manage Submissions), without database ids."""
    api = NbGraderAPI(config=course.nbgrader_config())
    kept = ("student", "score", "max_score", "code_score", "needs_manual_grade", "autograded", "timestamp")
    return {
        lesson: sorted(tuple((key, submission[key]) for key in kept) for submission in api.get_submissions(lesson))
        for lesson in LESSONS
    }


def test_two_grade_runs_at_once_into_postgresql_give_what_sqlite_gives(tmp_path):
    sqlite = course_with_class(COURSE, tmp_path / "sqlite", LESSONS, class_in_thirds(COURSE, STUDENTS, LESSONS))
    ours = tmp_path / "postgres"
    shutil.copytree(sqlite, ours, ignore=shutil.ignore_patterns("gradebook.db"))
    finished(grader("--course", str(sqlite), "grade"))
    finished(grader("--course", str(sqlite), "export"))
    with postgres_server() as url:
        release(Course(ours, db_url=url), LESSONS, progress=lambda _: None)  # the lessons into the new gradebook
        runs = [grader("--course", str(ours), "--db", url, "grade", lesson) for lesson in LESSONS]
        outputs = [finished(run) for run in runs]
        assert all(f"Graded {STUDENTS} submission(s)" in output for output in outputs), outputs
        assert not (ours / ".grading" / "gradebook.db").exists()  # nothing went to SQLite
        with (ours / "nbgrader_config.py").open("a") as config:  # as formgrader and nbgrader's own commands read it
            config.write(f"\nc.CourseDirectory.db_url = {url!r}\n")
        finished(grader("--course", str(ours), "export"))
        assert submissions_as_formgrader_reads_them(Course(ours)) == submissions_as_formgrader_reads_them(
            Course(sqlite)
        )
    for name in ("grades.csv", "canvas.csv"):
        exported = (ours / ".grading" / "exports" / name).read_text()
        assert exported == (sqlite / ".grading" / "exports" / name).read_text()
        assert exported.count("\n") >= STUDENTS
    assert (ours / ".grading" / "graded.json").read_text() == (sqlite / ".grading" / "graded.json").read_text()
