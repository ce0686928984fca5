"""A newcomer's machine for the journey tests: a fresh clone of this checkout's HEAD with its venv, a terminal to type
the docs' commands into, and the servers those commands start.

What a newcomer's clone would build itself, the venv, is this checkout's, never built again: as root it is
bind-mounted read-only into the clone (a real folder, which isolated kernels need; read-only, so a make that wanted to
rebuild it fails instead of deleting it), else linked. The clone's requirements.txt and pyproject.toml are dated as
the venv's stamp, so make takes the venv as built, and the clone gets the folder the Makefile's venv rule makes besides
the venv, .grading/exchange. The shared venv's editable install points at the checkout that built it, so the clone's
commands get PYTHONPATH=<the clone>, as a venv built in the clone would point there.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import selectors
import shlex
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import COURSE

ARTIFACTS = COURSE.root / "artifacts" / "journey"  # screenshots and each terminal's transcript (git-ignored)
# What a newcomer's shell has of this process's environment: no virtual environment, no zygote, no make of the tests.
KEPT = ("LANG", "LC_ALL", "TERM", "TMPDIR", "CI", "USER", "LOGNAME", "SHELL")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def without_venvs(path: str) -> str:
    """PATH without the bin folder of any virtual environment (the tests' own venv is first on it)."""
    return os.pathsep.join(p for p in path.split(os.pathsep) if p and not (Path(p).parent / "pyvenv.cfg").exists())


def newcomer_environment(clone: Path, home: Path) -> dict[str, str]:
    """A login shell's environment in `clone`: a home of its own, the system's PATH, the clone's package."""
    home.mkdir(parents=True, exist_ok=True)
    # Jupyter's news pop-up, answered once by this newcomer: no, so it never covers a button.
    news = home / ".jupyter/lab/user-settings/@jupyterlab/apputils-extension/notification.jupyterlab-settings"
    news.parent.mkdir(parents=True, exist_ok=True)
    news.write_text('{"fetchNews": "false", "checkForUpdates": false}')
    kept = {name: os.environ[name] for name in KEPT if name in os.environ}
    return {
        "LANG": "C.UTF-8",
        **kept,
        "HOME": str(home),
        "PATH": without_venvs(os.environ["PATH"]),
        "PYTHONPATH": str(clone),
    }


def clone_of_head(into: Path) -> Path:
    """`git clone` of this checkout (its HEAD: what is committed) into `into`."""
    subprocess.run(["git", "clone", "--quiet", str(COURSE.root), str(into)], check=True, timeout=120)
    return into


@contextlib.contextmanager
def venv_in(checkout: Path) -> Iterator[Path]:
    """This checkout's venv as `checkout`/.venv for as long as the block runs (see the module's docstring)."""
    shared, venv = COURSE.root / ".venv", checkout / ".venv"
    # in nanoseconds: a float mtime can round up past the stamp's, and make would rebuild the read-only venv
    built = (shared / ".installed").stat().st_mtime_ns
    for made_from in ("requirements.txt", "pyproject.toml"):
        os.utime(checkout / made_from, ns=(built, built))
    (checkout / ".grading" / "exchange").mkdir(parents=True, exist_ok=True)
    mounted = os.geteuid() == 0
    if mounted:
        venv.mkdir()
        subprocess.run(["mount", "--bind", str(shared), str(venv)], check=True)
    else:
        venv.symlink_to(shared)
    try:
        if mounted:
            subprocess.run(["mount", "-o", "remount,bind,ro", str(venv)], check=True)
        stale = subprocess.run(["make", "-q", ".venv/.installed"], cwd=checkout, capture_output=True).returncode
        assert not stale, f"make would rebuild the shared venv in {checkout}: its stamp is older than its sources"
        yield venv
    finally:
        if mounted and subprocess.run(["umount", str(venv)], capture_output=True).returncode:
            subprocess.run(["umount", "--lazy", str(venv)], check=True)  # a process of the walk still holds a file


class Terminal:
    """One bash a person types the docs' commands into, one at a time: what a command changes (`export`, `cd`)
    holds for the next. Everything typed and shown goes to a transcript in artifacts/journey/."""

    def __init__(self, cwd: Path, env: dict[str, str], name: str):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.transcript = ARTIFACTS / f"{name}-terminal.txt"
        self.transcript.write_text("")
        self.shell = subprocess.Popen(
            ["bash", "--noprofile", "--norc"],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def run(self, command: str, timeout: float) -> tuple[int, str]:
        """`command` run in the shell, its input empty; (exit status, what it printed)."""
        done = f"__typed_{secrets.token_hex(8)}__"
        assert self.shell.stdin is not None and self.shell.stdout is not None
        self.shell.stdin.write(f"{{ {command}\n}} </dev/null\necho {done} $?\n".encode())
        self.shell.stdin.flush()
        said, end = b"", re.compile(rf"{done} (\d+)\n".encode())
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as waiting:
            waiting.register(self.shell.stdout, selectors.EVENT_READ)
            while not (found := end.search(said)):
                left = deadline - time.monotonic()
                if left <= 0 or not waiting.select(left):
                    pytest.fail(f"`{command}` had not finished after {timeout:.0f} s:\n{said.decode()[-3000:]}")
                chunk = os.read(self.shell.stdout.fileno(), 65536)
                if not chunk:
                    pytest.fail(f"the shell ended during `{command}`:\n{said.decode()[-3000:]}")
                said += chunk
        return int(found[1]), said[: found.start()].decode(errors="replace")

    def type(self, command: str, timeout: float = 600) -> str:
        """Type `command` as its page prints it (with what the test substituted); what it printed. A command that
        fails fails the test, naming the command."""
        status, said = self.run(command, timeout)
        with open(self.transcript, "a") as transcript:
            transcript.write(f"$ {command}\n{said}")
        if status:
            pytest.fail(f"the documented command `{command}` failed (exit {status}):\n{said[-4000:]}")
        return said

    def quietly(self, command: str) -> str:
        """A command of the test's own (not the user's): not in the transcript; it must succeed."""
        status, said = self.run(command, 60)
        assert status == 0, (command, said)
        return said

    def cwd(self) -> Path:
        return Path(self.quietly("pwd").strip())

    def environment(self) -> dict[str, str]:
        pairs = (item.split("=", 1) for item in self.quietly("env -0").split("\0") if "=" in item)
        return dict(pairs)

    def start(self, command: str, name: str) -> Server:
        """`command` started as in a second terminal opened where this one is (its folder, its environment); it runs
        until stopped. Its output goes to artifacts/journey/<name>.log."""
        with open(self.transcript, "a") as transcript:
            transcript.write(f"$ {command}    (in a terminal of its own: {name}.log)\n")
        log = ARTIFACTS / f"{name}.log"
        with open(log, "wb") as out:
            process = subprocess.Popen(
                ["bash", "-c", command],
                cwd=self.cwd(),
                env=self.environment(),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return Server(command, process, log)

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.shell.pid, signal.SIGKILL)
        self.shell.wait()


class Server:
    """A command that serves until stopped (`make lab`, `make formgrader`, a Dask scheduler or worker)."""

    def __init__(self, command: str, process: subprocess.Popen, log: Path):
        self.command, self.process, self.log = command, process, log

    def printed(self, pattern: str, timeout: float = 180) -> re.Match:
        """The first match of `pattern` in what the command printed, once it has printed it."""
        deadline = time.monotonic() + timeout
        while not (found := re.search(pattern, self.log.read_text(errors="replace"))):
            if self.process.poll() is not None or time.monotonic() > deadline:
                ended = f"ended (exit {self.process.returncode})" if self.process.poll() is not None else "still runs"
                pytest.fail(f"`{self.command}` never printed {pattern!r} ({ended}):\n{self.log.read_text()[-3000:]}")
            time.sleep(0.25)
        return found

    def still_running(self) -> None:
        """Fail the test, naming the command and showing what it printed, when it has ended."""
        if self.process.poll() is not None:
            pytest.fail(f"`{self.command}` ended (exit {self.process.returncode}):\n{self.log.read_text()[-3000:]}")

    def address(self, port: int) -> str:
        """The address it printed for a browser to open (a Jupyter server's, with its token)."""
        return self.printed(rf"http://127\.0\.0\.1:{port}/\S*")[0]

    def stop(self) -> None:
        """SIGTERM to everything it started (a server stops as on Ctrl-C), then SIGKILL to what is left."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def the_command(commands: list[str], pattern: str, journey: str) -> int:
    """Where in the journey's commands the one matching `pattern` is; the test fails, naming the docs' list,
    when there is none."""
    found = [n for n, command in enumerate(commands) if re.search(pattern, command)]
    if not found:
        pytest.fail(f"the docs' {journey} journey has no command matching {pattern!r}: {commands}")
    return found[0]


def on_a_server(command: str, port: int) -> str:
    """A `make lab` or `make formgrader` command as typed on a machine without a browser of its own, the docs'
    variables for it added: HEADLESS=1 and a free PORT."""
    return f"{command} HEADLESS=1 PORT={port}"


def quoted(path: Path) -> str:
    return shlex.quote(str(path))
