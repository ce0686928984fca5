"""A hub of this machine, as the hub tests and benchmarks/on_submit.py run it: `python -m grader.hub` (what `make hub`
runs) as root, with accounts of a prefix of its own and a folder of its own under /srv, removed when the block ends,
pass or fail (the hub and its proxy stopped, every process of its accounts ended by id, the accounts, homes and
folder removed, the checkout's mode restored); and the ways to act on it: its REST API, a student's server, a
command or a Python probe run as one of its real Unix users."""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import requests

from grader.hub import accounts
from grader.hub.__main__ import missing

CHECKOUT = Path(__file__).resolve().parent.parent  # the checkout the hub's course is copied from
LESSON = "01_naive_division"


class HubUnavailable(RuntimeError):
    """This machine cannot run the hub (not root, no proxy, no setfacl): the one line that says why."""


@dataclass
class Hub:
    process: subprocess.Popen
    settings: dict
    people: accounts.Accounts
    passwords: dict[str, str]
    checkout_mode: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.settings['ports']['public']}"

    @property
    def course(self) -> str:
        return self.settings["course"]

    @property
    def root(self) -> Path:
        return Path(self.settings["root"])

    @property
    def exchange(self) -> Path:
        return Path(self.settings["exchange"]) / self.course

    def api(self, method: str, path: str, token: str | None = None, **kwargs) -> requests.Response:
        """A request to the hub's REST API, with the operator's token unless another is given."""
        headers = {"Authorization": f"token {token or self.settings['operator_token']}"}
        return requests.request(method, f"{self.url}/hub/api{path}", headers=headers, timeout=120, **kwargs)

    def token_of(self, user: str) -> str:
        made = self.api("POST", f"/users/{user}/tokens", json={"note": "testbed/hub"})
        assert made.status_code == 201, made.text
        return made.json()["token"]

    def start_server(self, user: str, timeout: float = 300) -> None:
        started = self.api("POST", f"/users/{user}/server")
        assert started.status_code in (201, 202, 400), started.text  # 400: already running
        deadline = time.monotonic() + timeout
        while not self.api("GET", f"/users/{user}").json()["servers"].get("", {}).get("ready"):
            assert time.monotonic() < deadline, f"{user}'s server did not start"
            time.sleep(0.5)

    def server(self, user: str, token: str, method: str, path: str, **kwargs) -> requests.Response:
        """A request to `user`'s own single-user server, through the hub's proxy, as the holder of `token`."""
        headers = {"Authorization": f"token {token}"}
        return requests.request(method, f"{self.url}/user/{user}{path}", headers=headers, timeout=120, **kwargs)

    def assignment(self, user: str, token: str, action: str, lesson: str = LESSON) -> list[dict]:
        """nbgrader's assignment list extension in `user`'s server: fetch, submit or fetch_feedback."""
        done = self.server(
            user, token, "POST", f"/assignments/{action}", data={"course_id": self.course, "assignment_id": lesson}
        )
        assert done.status_code == 200, done.text
        answer = done.json()
        assert answer["success"], answer
        return answer["value"]

    def save_notebook(self, user: str, token: str, notebook: dict, lesson: str = LESSON) -> None:
        """`notebook` saved as `user`'s fetched copy of `lesson`, through the server's contents API."""
        content = {"type": "notebook", "format": "json", "content": notebook}
        saved = self.server(user, token, "PUT", notebook_path(self, lesson), json=content)
        assert saved.status_code == 200, saved.text

    def release(self, lesson: str = LESSON) -> str:
        """`lesson` released by the grader account (nbgrader release_assignment, the strict exchange's class)."""
        done = self.nbgrader_as_grader("release_assignment", lesson, "--force")
        assert done.returncode == 0, done.stdout + done.stderr
        return lesson

    def environment_of(self, kind: str) -> dict[str, str]:
        folder = self.settings[f"{kind}_env"]
        return {"PATH": f"{folder}/bin:/usr/bin:/bin", "LD_LIBRARY_PATH": self.settings["python_lib"]}

    def command_as(self, user: str, args: list, kind: str = "student", **env: str) -> list[str]:
        """The command line that runs `args` as the Unix user `user` (runuser), in the hub's `kind` environment."""
        home = os.path.expanduser(f"~{user}")
        variables = [f"{k}={v}" for k, v in {**self.environment_of(kind), "HOME": home, **env}.items()]
        return ["runuser", "-u", user, "--", "env", "-i", *variables, *map(str, args)]

    def run_as(self, user: str, args: list, kind: str = "student", cwd: str | None = None, **env: str):
        """`args` run as the Unix user `user` (runuser), in the hub's `kind` environment, from their home."""
        return subprocess.run(
            self.command_as(user, args, kind, **env),
            cwd=cwd or os.path.expanduser(f"~{user}"),
            capture_output=True,
            text=True,
            timeout=300,
        )

    def probe_as(self, user: str, code: str, kind: str = "student") -> dict:
        """What a Python snippet, run as `user`, leaves in the variable `seen` (printed as JSON)."""
        done = self.run_as(user, ["python", "-c", code + "\nimport json\nprint(json.dumps(seen))"], kind)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.splitlines()[-1])

    def nbgrader_as_grader(self, *args: str):
        """An nbgrader command of the formgrader's account, in the hub's course directory."""
        return self.run_as(self.people.grader, ["nbgrader", *args], kind="instructor", cwd=self.settings["course_dir"])

    def grader_variables(self) -> dict[str, str]:
        """The hub's variables of a server, for the grader account: nbgrader's API (which our release uses) lists
        the exchange, and the hub's JupyterHubAuthPlugin then asks the hub for the account's courses."""
        hub = {"JUPYTERHUB_USER": self.people.grader, "JUPYTERHUB_API_URL": f"{self.url}/hub/api"}
        return {**hub, "JUPYTERHUB_API_TOKEN": self.token_of(self.people.grader)}

    def grader_command(self, *args: str) -> list[str]:
        """`python -m grader ARGS` as the grader account, with the hub's variables (run it in the course directory)."""
        command = ["python", "-m", "grader", *args]
        return self.command_as(self.people.grader, command, "instructor", **self.grader_variables())

    def grader_as_grader(self, *args: str):
        """`python -m grader` as the grader account in the hub's course directory, with the hub's variables."""
        return self.run_as(
            self.people.grader,
            ["python", "-m", "grader", *args],
            "instructor",
            self.settings["course_dir"],
            **self.grader_variables(),
        )


def notebook_path(hub: Hub, lesson: str = LESSON) -> str:
    """Where a student's fetched copy of `lesson` is, in its server's contents API."""
    return f"/api/contents/{hub.course}/{lesson}/{lesson}.ipynb"


def entries_of(hub: Hub, user: str, lesson: str = LESSON) -> list[Path]:
    """`user`'s own submissions of `lesson` in inbound (seen as root), oldest first."""
    inbound = hub.exchange / "inbound"
    owned = [p for p in inbound.glob(f"{user}+{lesson}+*") if p.stat().st_uid == pwd.getpwnam(user).pw_uid]
    return sorted(owned, key=lambda p: p.name.split("+")[2])


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
def running_hub(students: int, logs: Path, autograder: bool = True) -> Iterator[Hub]:
    """A hub of `students` students, its log in `logs`, stopped and removed (accounts, homes, folder) when the block
    ends (without its grading service unless `autograder`); HubUnavailable when this machine cannot run one."""
    problem = missing()
    if problem:
        raise HubUnavailable(problem)
    people = accounts.Accounts(f"smt{secrets.token_hex(2)}-", students)
    root = Path(f"/srv/softmax-hub-test-{people.prefix.rstrip('-')}")
    port = free_ports(4 + 2 + students)  # the hub's, and one per person (grader.hub.__main__.ports_from)
    log = logs / "hub.log"
    checkout_mode = CHECKOUT.stat().st_mode & 0o7777
    command = [sys.executable, "-m", "grader.hub", "--root", root, "--prefix", people.prefix]
    command += ["--students", str(students), "--port", str(port), *(() if autograder else ("--no-autograder",))]
    with open(log, "w") as output:
        process = subprocess.Popen(
            [str(part) for part in command], cwd=CHECKOUT, stdout=output, stderr=subprocess.STDOUT
        )
    try:
        wait_for(f"http://127.0.0.1:{port}/hub/api", process)
        settings = json.loads((root / "hub.json").read_text())
        passwords = json.loads((root / "passwords.json").read_text())
        yield Hub(process, settings, people, passwords, checkout_mode)
    finally:
        stop(process, root / "state", people)
        shutil.rmtree(root, ignore_errors=True)
        os.chmod(CHECKOUT, checkout_mode)
        print(f"the hub's log: {log}")
