"""`serve --exchange-as ACCOUNT` as root, as the hub runs it: the hand-ins are graded by root in isolated kernels, and
every step on the exchange (collect, release feedback) is done by an agent that is the account, never by root."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from grader import cli
from grader.engine import warmkernel
from tests.integration.test_serve import (
    LESSON,
    exchange_course,
    fetched_feedback,
    reference,
    released,
    states,
    submit,
)
from tests.support import tools_env

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="grading as root with an agent needs root (CI is)")
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


def test_root_grades_and_the_account_collects_and_releases(course_of_nobody):
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


def test_an_unknown_account_is_one_line(course_of_nobody, capsys):
    course = course_of_nobody
    assert cli.main(["--course", str(course.root), "serve", "--once", "--exchange-as", "no-such-account"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == ["error: --exchange-as: no account named no-such-account"]
