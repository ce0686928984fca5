"""A running hub of the tests, and the ways the tests act on it: its REST API, a student's server, a command
or a Python probe run as one of its real Unix users."""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import requests

from grader.hub.accounts import Accounts

LESSON = "01_naive_division"


@dataclass
class Hub:
    process: subprocess.Popen
    settings: dict
    people: Accounts
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
        made = self.api("POST", f"/users/{user}/tokens", json={"note": "tests/hub"})
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

    def environment_of(self, kind: str) -> dict[str, str]:
        folder = self.settings[f"{kind}_env"]
        return {"PATH": f"{folder}/bin:/usr/bin:/bin", "LD_LIBRARY_PATH": self.settings["python_lib"]}

    def run_as(self, user: str, args: list, kind: str = "student", cwd: str | None = None, **env: str):
        """`args` run as the Unix user `user` (runuser), in the hub's `kind` environment, from their home."""
        home = os.path.expanduser(f"~{user}")
        variables = [f"{k}={v}" for k, v in {**self.environment_of(kind), "HOME": home, **env}.items()]
        return subprocess.run(
            ["runuser", "-u", user, "--", "env", "-i", *variables, *map(str, args)],
            cwd=cwd or home,
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

    def grader_as_grader(self, *args: str):
        """`python -m grader` as the grader account in the hub's course directory. With the hub's variables of a
        server: nbgrader's API (which our release uses) lists the exchange, and the hub's JupyterHubAuthPlugin
        then asks the hub for the account's courses."""
        hub = {"JUPYTERHUB_USER": self.people.grader, "JUPYTERHUB_API_URL": f"{self.url}/hub/api"}
        hub["JUPYTERHUB_API_TOKEN"] = self.token_of(self.people.grader)
        return self.run_as(
            self.people.grader, ["python", "-m", "grader", *args], "instructor", self.settings["course_dir"], **hub
        )


# What a user can do to a path, tried for real: the name of the error, or what it got.
ATTEMPTS = """
import os
import pwd
def attempt(action):
    try:
        result = action()
        return "allowed" if result is None else result
    except OSError as error:
        return type(error).__name__
def read(path):
    with open(path, "rb") as f:
        return "read %d bytes" % len(f.read())
def listing(path):
    return "listed %d" % len(os.listdir(path))
"""


def run_in_kernel(hub: Hub, user: str, token: str, code: str, timeout: float = 120) -> str:
    """What `code` prints in a new kernel of `user`'s server (Jupyter's kernel REST API and its websocket)."""
    import uuid

    import websocket

    kernel = hub.server(user, token, "POST", "/api/kernels", json={"name": "python3"})
    assert kernel.status_code == 201, kernel.text
    kernel_id = kernel.json()["id"]
    address = hub.url.replace("http", "ws", 1) + f"/user/{user}/api/kernels/{kernel_id}/channels"
    socket = websocket.create_connection(address, header=[f"Authorization: token {token}"], timeout=timeout)
    try:
        message_id = uuid.uuid4().hex
        socket.send(
            json.dumps(
                {
                    "header": {"msg_id": message_id, "msg_type": "execute_request", "username": user,
                               "session": uuid.uuid4().hex, "version": "5.3"},
                    "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                    "content": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                                "allow_stdin": False, "stop_on_error": True},
                }
            )
        )  # fmt: skip
        printed = []
        while True:
            message = json.loads(socket.recv())
            if message.get("parent_header", {}).get("msg_id") != message_id:
                continue
            if message["msg_type"] == "stream":
                printed.append(message["content"]["text"])
            elif message["msg_type"] == "error":
                printed.append("\n".join(message["content"]["traceback"]))
            elif message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
                return "".join(printed)
    finally:
        socket.close()
        hub.server(user, token, "DELETE", f"/api/kernels/{kernel_id}")


def notebook_path(hub: Hub, lesson: str = LESSON) -> str:
    return f"/api/contents/{hub.course}/{lesson}/{lesson}.ipynb"


def write_marker(hub: Hub, user: str, token: str, marker: str, lesson: str = LESSON) -> None:
    """The fetched notebook, saved through the server's contents API with `marker` as its first cell's last line."""
    got = hub.server(user, token, "GET", notebook_path(hub, lesson), params={"content": 1})
    assert got.status_code == 200, got.text
    notebook = got.json()["content"]
    notebook["cells"][0]["source"] = notebook["cells"][0]["source"].rstrip("\n") + f"\n\n{marker}\n"
    saved = hub.server(
        user, token, "PUT", notebook_path(hub, lesson), json={"type": "notebook", "format": "json", "content": notebook}
    )
    assert saved.status_code == 200, saved.text


def entries_of(hub: Hub, user: str, lesson: str = LESSON) -> list[Path]:
    """`user`'s own submissions of `lesson` in inbound (seen as root), oldest first."""
    inbound = hub.exchange / "inbound"
    owned = [p for p in inbound.glob(f"{user}+{lesson}+*") if p.stat().st_uid == pwd.getpwnam(user).pw_uid]
    return sorted(owned, key=lambda p: p.name.split("+")[2])
