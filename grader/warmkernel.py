"""Kernels forked from a warm process that has already imported ipykernel, NumPy and matplotlib.

A fresh kernel costs about 0.9 s of CPU before a learner's first cell runs: starting
Python, importing ipykernel, then NumPy and matplotlib. When a batch grades hundreds of
notebooks, it instead keeps one "zygote" process with those imports done, and every
kernel is a fork of it: a new process with a fresh namespace, its own
session and working directory, and freshly seeded random generators, exactly as a
kernel started from scratch, minus the start-up. nbgrader runs it through the normal
kernel-manager interface (`Execute.kernel_manager_class`). One zygote serves every
grading worker of a batch, over a Unix socket.
"""
from __future__ import annotations

import atexit
import importlib
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid

from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning import LocalProvisioner
from traitlets import Bool

from . import isolation

PRELOAD = ("numpy", "matplotlib", "matplotlib.pyplot", "ipykernel.kernelapp")
LAUNCHER = ["-m", "ipykernel_launcher"]


# ----------------------------------------------------------------- the zygote process

def serve(address: str) -> None:
    """Import once, then fork a kernel for each request on the Unix socket; answer with its pid."""
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]  # as ipykernel_launcher does: the kernel's cwd is added back by IPython
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")  # ipykernel's default
    for module in PRELOAD:
        importlib.import_module(module)
    signal.signal(signal.SIGCHLD, _reap)
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(address)
        server.listen(64)
        sys.stdout.write("ready\n")
        sys.stdout.flush()
        while True:
            connection, _ = server.accept()
            with connection, connection.makefile("rw") as stream:
                request = json.loads(stream.readline())
                pid = os.fork()
                if pid == 0:
                    server.close()
                    _become_kernel(request)
                stream.write(f"{pid}\n")


def _reap(*_) -> None:
    """Collect finished kernels at once, so that a dead kernel is seen as dead (not a zombie)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _become_kernel(request: dict) -> None:
    """In the forked child: take on the kernel's session, directory and environment, then run it."""
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()
        os.environ.clear()
        os.environ.update(request["env"])
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        argv = request["argv"]
        if request.get("isolate"):
            argv = _isolated(argv)
        else:
            os.chdir(request["cwd"])
        _limit_memory(request)
        import random

        import numpy
        random.seed()
        numpy.random.seed()
        from ipykernel import kernelapp
        kernelapp.launch_new_instance(argv=argv)
    except BaseException:
        os._exit(1)
    os._exit(0)


def _isolated(argv: list[str]) -> list[str]:
    """Enter the kernel's own tree and user (see isolation); the same argv with its new connection file."""
    where = argv.index("-f") + 1
    with open(argv[where], "rb") as file:
        connection = file.read()
    return [*argv[:where], isolation.enter_own_tree(connection), *argv[where + 1:]]


MEMORY = "SOFTMAX_KERNEL_MEMORY_MB"  # environment variable: the kernel's memory limit (default 2048)


def _limit_memory(request: dict) -> None:
    """Cap the kernel's memory, so a runaway allocation is a MemoryError in the learner's cell
    instead of a machine out of memory."""
    limit = int(request["env"].get(MEMORY, "2048")) * 2**20
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


# ----------------------------------------------------------------- the grading side

ADDRESS = "SOFTMAX_KERNEL_ZYGOTE"  # environment variable: the socket of a zygote already running


def start_zygote() -> subprocess.Popen:
    """Start a zygote and publish its socket in the environment, for this process and the ones it starts."""
    folder = tempfile.mkdtemp(prefix="softmax-zygote-")
    address = os.path.join(folder, "socket")
    process = subprocess.Popen([sys.executable, "-m", "grader.warmkernel", address], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    if process.stdout.readline().strip() != "ready":
        raise RuntimeError("the kernel zygote did not start")

    def stop():
        process.kill()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    os.environ[ADDRESS] = address
    return process


def fork_kernel(argv: list[str], env: dict, cwd: str, isolate: bool = False) -> int:
    """Ask the zygote (started on first use if none runs) for a kernel; return its pid.

    An isolated kernel starts in its own file tree and user (see grader.isolation), not in `cwd`."""
    if not os.path.exists(os.environ.get(ADDRESS, "")):
        start_zygote()
    with socket.socket(socket.AF_UNIX) as client:
        client.connect(os.environ[ADDRESS])
        with client.makefile("rw") as stream:
            stream.write(json.dumps({"argv": argv, "env": env, "cwd": cwd, "isolate": isolate}) + "\n")
            stream.flush()
            return int(stream.readline())


class ForkedProcess:
    """Enough of subprocess.Popen for jupyter_client to watch and stop a kernel that is not our child."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int):
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                self.returncode = 0  # reaped by the zygote; its exit status is not ours to read
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout)
            time.sleep(0.02)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        try:
            os.kill(self.pid, signum)
        except ProcessLookupError:
            pass

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class ForkedProvisioner(LocalProvisioner):
    """Launch an ipykernel by forking the zygote; any other kernel command starts as usual."""

    async def launch_kernel(self, cmd: list[str], **kwargs):
        if cmd[1:3] != LAUNCHER:
            return await super().launch_kernel(cmd, **kwargs)
        env = {k: v for k, v in (kwargs.get("env") or os.environ).items() if k != ADDRESS}
        isolate = bool(getattr(self.parent, "isolate", False)) and isolation.available()
        self.process = ForkedProcess(fork_kernel(cmd[3:], env, str(kwargs.get("cwd") or os.getcwd()), isolate))
        self.pid = self.pgid = self.process.pid  # the kernel leads its own session
        self.cwd = kwargs.get("cwd", os.getcwd())
        return self.connection_info


class ForkedKernelManager(AsyncKernelManager):
    """A kernel manager whose kernels come from the zygote (see ForkedProvisioner)."""

    isolate = Bool(True, help="Give each kernel its own file tree and user when running as root "
                              "(see grader.isolation).").tag(config=True)

    async def _async_pre_start_kernel(self, **kw):
        if self.provisioner is None:
            self.kernel_id = self.kernel_id or kw.pop("kernel_id", None) or str(uuid.uuid4())
            self.provisioner = ForkedProvisioner(kernel_id=self.kernel_id, kernel_spec=self.kernel_spec, parent=self)
        return await super()._async_pre_start_kernel(**kw)


if __name__ == "__main__":
    serve(sys.argv[1])
