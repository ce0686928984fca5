"""`make lab` serves JupyterLab on the student release, headless, on the port asked for."""

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from urllib.error import URLError

from tests.support import COURSE


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url):
    with urllib.request.urlopen(url, timeout=30) as response:  # a loaded machine answers slowly
        return response.status, response.read()


def test_make_lab_serves_lesson_01():
    port, token = free_port(), "softmax-test"
    server = subprocess.Popen(
        ["make", "--no-print-directory", "lab", "HEADLESS=1", f"PORT={port}", f"TOKEN={token}"],
        cwd=COURSE.root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                status, _ = get(f"{base}/lab?token={token}")
                break
            except (URLError, ConnectionError, TimeoutError):
                assert server.poll() is None, server.stderr.read().decode()
                assert time.monotonic() < deadline, "JupyterLab did not answer within 90 s"
                time.sleep(0.5)
        assert status == 200
        _, listing = get(f"{base}/api/contents?token={token}")
        assert COURSE.lesson_ids()[0] in {item["name"] for item in json.loads(listing)["content"]}
        status, _ = get(f"{base}/lab/tree/{COURSE.lesson_ids()[0]}/{COURSE.lesson_ids()[0]}.ipynb?token={token}")
        assert status == 200
        # nbgrader's server extensions are on: formgrader sees every lesson as an assignment.
        _, assignments = get(f"{base}/formgrader/api/assignments?token={token}")
        assert {a["name"] for a in json.loads(assignments)} >= set(COURSE.lesson_ids())
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def make_plan(*args):
    """The commands `make` would run (dry run), as one string."""
    run = subprocess.run(
        ["make", "--no-print-directory", "-n", *args], capture_output=True, text=True, cwd=COURSE.root, timeout=60
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_venv_is_rebuilt_only_when_requirements_change():
    assert "-m venv" not in make_plan("lab")
    for changed in ("requirements.txt", "pyproject.toml"):
        plan = make_plan("-W", changed, "lab")
        assert "rm -rf .venv" in plan and "-m venv .venv" in plan and "-r requirements.txt" in plan
        assert "jupyter server extension enable" in plan and "jupyter lab" in plan
