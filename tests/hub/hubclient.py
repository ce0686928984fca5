"""A running hub of the tests, and the ways the tests act on it: the Hub of testbed/hub.py (its REST API, a student's
server, a command or a Python probe run as one of its real Unix users, shared with benchmarks/on_submit.py), and what
only the tests do: probe what a user may do to a path, run code in a student's kernel, mark a saved notebook."""

from __future__ import annotations

import json

from testbed.hub import LESSON, Hub, entries_of, notebook_path

__all__ = ["ATTEMPTS", "LESSON", "Hub", "entries_of", "notebook_path", "run_in_kernel", "write_marker"]


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


def write_marker(hub: Hub, user: str, token: str, marker: str, lesson: str = LESSON) -> None:
    """The fetched notebook, saved through the server's contents API with `marker` as its first cell's last line."""
    got = hub.server(user, token, "GET", notebook_path(hub, lesson), params={"content": 1})
    assert got.status_code == 200, got.text
    notebook = got.json()["content"]
    notebook["cells"][0]["source"] = notebook["cells"][0]["source"].rstrip("\n") + f"\n\n{marker}\n"
    hub.save_notebook(user, token, notebook, lesson)
