"""The hub of the tests: `python -m grader.hub` (what `make hub` runs) on this machine, as root, with accounts
of a prefix of its own and a folder of its own under /srv; removed when the tests end, pass or fail (the
hub and its proxy stopped, every process of its accounts ended by id, the accounts, homes and folder
removed, the checkout's mode restored).

Without root (or setfacl, or the proxy) the hub tests skip, and in CI they fail instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from grader.hub import accounts
from grader.hub.__main__ import missing
from tests.browser.conftest import browser, chromium  # noqa: F401 (the browser tests' Chromium, for the walk)
from tests.hub.hubclient import Hub
from tests.support import COURSE

STUDENTS = 30


def lacking() -> None:
    """Skips the hub tests when this machine cannot run the hub, or fails them in CI."""
    problem = missing()
    if problem:
        if os.environ.get("CI"):
            pytest.fail(f"the hub tests cannot run in CI: {problem}")
        pytest.skip(problem)


def free_ports(count: int) -> int:
    """The first of `count` consecutive free ports."""
    while True:
        base = 20000 + secrets.randbelow(20000)
        try:
            for port in range(base, base + count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue


def wait_for(url: str, process: subprocess.Popen, timeout: float = 600) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the hub exited"
        try:
            if requests.get(url, timeout=5).status_code == 200:
                return
        except requests.ConnectionError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"the hub did not answer at {url}")


def stop(process: subprocess.Popen, state: Path, people: accounts.Accounts) -> None:
    """The hub (which stops the servers it started), then anything left: the proxy and the accounts' processes."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    pid_file = state / "proxy.pid"
    if pid_file.exists():
        try:
            os.kill(int(pid_file.read_text()), signal.SIGTERM)
        except (ProcessLookupError, ValueError):
            pass
    accounts.remove(people)


@contextlib.contextmanager
def running_hub(tmp_path_factory, students: int) -> Iterator[Hub]:
    """A hub of `students` students, stopped and removed (accounts, homes, folder) when the block ends."""
    lacking()
    people = accounts.Accounts(f"smt{secrets.token_hex(2)}-", students)
    root = Path(f"/srv/softmax-hub-test-{people.prefix.rstrip('-')}")
    port = free_ports(4 + 2 + students)  # the hub's, and one per person (grader.hub.__main__.ports_from)
    log = tmp_path_factory.mktemp("hub") / "hub.log"
    checkout_mode = COURSE.root.stat().st_mode & 0o7777
    command = [sys.executable, "-m", "grader.hub", "--root", root, "--prefix", people.prefix]
    command += ["--students", str(students), "--port", str(port)]
    with open(log, "w") as output:
        process = subprocess.Popen(
            [str(part) for part in command], cwd=COURSE.root, stdout=output, stderr=subprocess.STDOUT
        )
    try:
        wait_for(f"http://127.0.0.1:{port}/hub/api", process)
        settings = json.loads((root / "hub.json").read_text())
        passwords = json.loads((root / "passwords.json").read_text())
        yield Hub(process, settings, people, passwords, checkout_mode)
    finally:
        stop(process, root / "state", people)
        shutil.rmtree(root, ignore_errors=True)
        os.chmod(COURSE.root, checkout_mode)
        print(f"the hub's log: {log}")


@pytest.fixture(scope="session")
def hub(tmp_path_factory):
    """The tests' hub, its autograder paused: the tests grade by hand, and tests/hub/test_autograder.py resumes it
    while it runs."""
    with running_hub(tmp_path_factory, STUDENTS) as running:
        paused = running.run_as(
            running.people.grader,
            ["python", "-m", "grader", "serve", "--pause"],
            "instructor",
            running.settings["course_dir"],
        )
        assert paused.returncode == 0, paused.stdout + paused.stderr
        yield running


@pytest.fixture(scope="session")
def released(hub):
    """Lesson 01 released by the grader account (nbgrader release_assignment, the strict exchange's class)."""
    done = hub.nbgrader_as_grader("release_assignment", "01_naive_division", "--force")
    assert done.returncode == 0, done.stdout + done.stderr
    return "01_naive_division"
