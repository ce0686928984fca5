"""Kernels forked from a warm process that has already imported ipykernel, NumPy and matplotlib.

A fresh kernel costs about 0.9 s of CPU before a learner's first cell runs: starting
Python, importing ipykernel, then NumPy and matplotlib. When a batch grades hundreds of
notebooks, it instead keeps one "zygote" process with those imports done, and every
kernel is a fork of it: a new process with a fresh namespace, its own
session and working directory, and freshly seeded random generators, exactly as a
kernel started from scratch, minus the start-up. nbgrader runs it through the normal
kernel-manager interface (`Execute.kernel_manager_class`). One zygote serves every
grading worker of a batch, over a Unix socket, and ends when the process that started it does.

An isolated kernel (grading as root, see grader.engine.isolation) gets a keeper: a process forked
for it that stays outside its namespaces. The keeper gives the kernel a user, a channel
folder and a control group, forks it as pid 1 of its own PID namespace, takes back the folder
where the kernel binds its sockets once they are bound (before the grading side connects, so
before any learner code runs), and holds the grading side's connection for the kernel's life.
When the kernel ends, its group runs out of memory, or the grading side goes away (even
killed), the keeper kills every process of the kernel, removes its group, folder and
connection file, gives back its user id, and says why the kernel stopped.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import importlib
import json
import math
import os
import resource
import select
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
from traitlets import Bool, Int, default

from grader.engine import isolation, status

PRELOAD = (
    "numpy",
    "matplotlib",
    "matplotlib.pyplot",
    "ipykernel.kernelapp",
    # what the kernel imports only as it starts (its debugger's debugpy and pydevd, its history's sqlite3):
    # about 0.1 s of CPU per kernel when imported after the fork (measured)
    "ipykernel.debugger",
    "sqlite3",
    "psutil",
    "pdb",
    # and what every grading kernel imported after the fork (measured: sys.modules of 48 kernels of two lessons),
    # about 10% of a kernel's CPU: NumPy's random module (numpy.random.seed below), IPython's parts its shell
    # makes or its tracebacks use, matplotlib's Agg backend, the learner room's modules the lessons import.
    # Not matplotlib_inline: its import sets up IPython's figure display, and only does so in a running kernel.
    "numpy.random",
    "secrets",
    "faulthandler",
    "tornado.platform.asyncio",
    "IPython.core.completerlib",
    "IPython.core.debugger",
    "IPython.core.logger",
    "IPython.core.oinspect",
    "IPython.core.pylabtools",
    "IPython.extensions.storemagic",
    "IPython.utils.wildcard",
    "PIL.features",
    "pygments.formatters.terminal256",
    "pygments.styles",
    "matplotlib.backends.backend_agg",
    "grader.learner.checks",
    "grader.learner.figures",
    "grader.learner.predictions",
    "grader.learner.pytorch",
    "grader.learner.stubs",
)
LAUNCHER = ["-m", "ipykernel_launcher"]


# ----------------------------------------------------------------- the zygote process


def serve(address: str, listening: int) -> None:
    """Import once, then fork a kernel (or an isolated kernel's keeper) for each request on the
    Unix socket at `address`, already bound and listening as file descriptor `listening`; stop
    when standard input closes (the process that started this one has ended)."""
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]  # as ipykernel_launcher does: the kernel's cwd is added back by IPython
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")  # ipykernel's default
    for module in PRELOAD:
        importlib.import_module(module)
    _draw_figures_only_when_shown()
    _flush_only_what_was_written()
    # What every kernel inherits is frozen: a kernel's collections never walk it, so they cost less and never
    # write to its pages, which stay shared with the zygote rather than copied into each kernel.
    gc.collect()
    gc.freeze()
    signal.signal(signal.SIGCHLD, _reap)
    with socket.socket(fileno=listening) as server:
        while True:
            ready = select.select([server, sys.stdin], [], [])[0]
            if sys.stdin in ready:  # nothing is ever written there: it has closed
                break
            _answer(server)
    os.unlink(address)
    os.rmdir(os.path.dirname(address))


def _draw_figures_only_when_shown() -> None:
    """Keep pyplot from drawing every figure still open at the end of each cell in the kernels.

    In IPython, pyplot draws each open figure after every cell (its post_execute hook, which a kernel
    registers as it makes its first figure), for a display that then draws it again as an image. A
    grading kernel shows text alone (sandbox.GRADING_KERNEL), where a figure shows as its repr and is
    never drawn; but a figure that a failed cell left open (a plot of a stub's result, say) was drawn
    all the same, for nothing (in a lesson of three such plots, a tenth of a stub's kernel CPU). The
    hook (pyplot looks it up by name as it registers it) now draws nothing; a figure is drawn when
    something asks for it, as ever, and what every cell computes and shows is the same."""
    import matplotlib.pyplot

    matplotlib.pyplot._draw_all_if_interactive = _no_drawing


def _no_drawing() -> None:
    """pyplot's post_execute hook in the kernels (see _draw_figures_only_when_shown)."""


def _flush_only_what_was_written() -> None:
    """Make the kernels' flush of stdout and stderr return at once when nothing is buffered.

    ipykernel flushes both streams before and after each cell, and a flush hands its I/O thread a
    job and waits for it to be done: a round trip between threads for each, about a fifth of a
    kernel's CPU per cell (measured), for nothing when nothing was written. A stream of the
    kernel's own process with nothing buffered and no flush pending now returns at once; any
    other flushes as ever. Every message still goes out through the I/O thread in the order it
    was made, so each cell's outputs are the same, and come before its idle status."""
    from ipykernel import iostream

    flush = iostream.OutStream.flush

    def flush_what_was_written(stream) -> None:
        if stream._buffers or stream._flush_pending or not stream._is_master_process():
            flush(stream)

    iostream.OutStream.flush = flush_what_was_written  # type: ignore[method-assign]


def _answer(server: socket.socket) -> None:
    """Serve one request: fork its kernel and answer its pid, or fork its keeper (which answers)."""
    try:
        connection, _ = server.accept()
    except OSError:
        return
    with connection, connection.makefile("rw") as stream:
        try:
            request = json.loads(stream.readline())
            isolated = bool(request.get("isolate"))
        except (OSError, ValueError, AttributeError):
            return  # a broken request costs only its own kernel
        pid = os.fork()
        if pid == 0:
            try:
                server.close()
                if isolated:
                    _keep(connection, stream, int(request["memory"]))
                _become_kernel(request)
            finally:
                os._exit(1)
        if not isolated:
            try:
                _send(stream, {"pid": pid})
            except OSError:
                pass


def _reap(*_) -> None:
    """Collect finished kernels and keepers at once, so that a dead kernel is seen as dead (not a zombie)."""
    while True:
        try:
            pid = os.waitpid(-1, os.WNOHANG)[0]
        except ChildProcessError:
            return
        if pid == 0:
            return


def _become_kernel(request: dict, uid: int | None = None, channels: str | None = None) -> None:
    """In the forked child: take on the kernel's session, directory and environment, then run it.

    With a `uid` (and its `channels` folder), it enters its own namespaces, tree and user first (see isolation)."""
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()
        os.environ.clear()
        os.environ.update(request["env"])
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        if uid is not None and channels is not None:  # given together, by _start_isolated
            isolation.enter_own_tree(uid, channels)
        else:
            os.chdir(request["cwd"])
        _limit_memory(request)
        import random

        import numpy

        random.seed()
        numpy.random.seed()
        from ipykernel import kernelapp

        kernelapp.launch_new_instance(argv=request["argv"])
    except BaseException:
        os._exit(1)
    os._exit(0)


def _limit_memory(request: dict) -> None:
    """Cap each of the kernel's processes, so a runaway allocation is a MemoryError in the learner's cell
    (the control group of an isolated kernel caps them all together)."""
    limit = int(request["memory"]) * 2**20
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


# ----------------------------------------------------------------- an isolated kernel's keeper


def _keep(connection: socket.socket, stream, memory: int) -> None:
    """In the process forked for one isolated kernel: start it, watch it, and clean up after it.

    The exchange with the grading side: it asked {"isolate", "memory"}, gets {"folder"} (where
    to write the connection file), sends {"argv", "env", "cwd"}, gets {"pid", "uid"} once the
    kernel's sockets are bound and taken back; when the kernel has ended and nothing of it is left,
    {"returncode", "reason"} (or {"error"})."""
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _stop)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    report: dict[str, object] = {}
    folder: str | None = None
    user: isolation.UserId | None = None
    group: isolation.Group | None = None
    pid: int | None = None
    try:
        try:
            folder = isolation.channel_folder()
            _send(stream, {"folder": folder})  # the rest is done while the grading side writes there
            user = isolation.take_uid()
            group = isolation.Group(f"softmax-kernel-{user.uid}", memory * 2**20)
            request = {**json.loads(stream.readline()), "memory": memory}
            sockets = isolation.socket_names(folder)
            isolation.hand_over(folder, user.uid)
            isolation.own_pid_namespace()
            pid = os.fork()
            if pid == 0:
                _start_isolated(request, user, folder, group, (stream, connection))
            kernel = os.pidfd_open(pid)
            _await_sockets(folder, sockets, kernel)
            isolation.take_back(folder, user.uid)
            _send(stream, {"pid": pid, "uid": user.uid})
            _watch(connection, kernel, group.watch(), group)
        finally:  # the folder (it holds the key) first, the user id last (once no process of it is left)
            if pid:
                _kill(pid)
                report["returncode"] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            if folder:
                shutil.rmtree(folder, ignore_errors=True)
            if group:
                report["reason"] = status.MEMORY if group.out_of_memory() else None
                group.kill()
            if user:
                user.release()
    except BaseException as error:  # noqa: BLE001 - whatever it was, the grading side hears of it
        report["error"] = f"{type(error).__name__}: {error}"
    try:
        _send(stream, report)
    finally:
        os._exit(0)


def _start_isolated(request: dict, user: isolation.UserId, folder: str, group: isolation.Group, keep_out) -> None:
    """In the kernel, forked from its keeper: leave behind the keeper's files, join the group, run."""
    try:
        for thing in keep_out:
            thing.close()
        if user.lock is not None:
            os.close(user.lock)
        group.join()
    except BaseException:
        os._exit(1)
    _become_kernel(request, user.uid, folder)


def _await_sockets(folder: str, sockets: set[str], kernel: int, timeout: float = 60) -> None:
    """Until the kernel has bound its `sockets` (in its channel folder's IPC sub-folder), or has ended
    (`kernel`, its pidfd, is readable), or `timeout` seconds have passed."""
    poller = select.poll()
    poller.register(kernel, select.POLLIN)
    deadline = time.monotonic() + timeout
    while not isolation.bound(folder, sockets) and time.monotonic() < deadline:
        if poller.poll(5):
            return


def _stop(*_) -> None:
    raise SystemExit("the keeper was asked to stop")


def _send(stream, message: dict) -> None:
    stream.write(json.dumps(message) + "\n")
    stream.flush()


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)  # pid 1 of its namespace: every process in it dies too
    except ProcessLookupError:
        pass


def _watch(connection: socket.socket, kernel: int, memory: int, group: isolation.Group) -> None:
    """Wait until the kernel ends, its group runs out of memory (see Group.out_of_memory), or the
    grading side hangs up (it sends nothing more after its request)."""
    poller = select.poll()
    poller.register(connection, select.POLLIN)
    poller.register(kernel, select.POLLIN)
    poller.register(memory, select.POLLIN | select.POLLPRI)
    while True:
        ready = {fd for fd, _ in poller.poll()}
        if ready - {memory} or group.out_of_memory():
            return


# ----------------------------------------------------------------- the grading side

ADDRESS = "SOFTMAX_KERNEL_ZYGOTE"  # environment variable: the socket of a zygote already running


def start_zygote() -> subprocess.Popen:
    """Start a zygote and publish its socket in the environment, for this process and the ones it starts.

    It returns at once, while the zygote still imports: the socket is bound and listening here,
    before the zygote starts, so a request sent meanwhile waits in its queue. The zygote reads
    its standard input from a pipe that only this process writes: when this process ends,
    however it ends, the zygote sees the pipe close and stops."""
    folder = tempfile.mkdtemp(prefix="softmax-zygote-")
    address = os.path.join(folder, "socket")
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(address)
        listening.listen(64)
        process = subprocess.Popen(
            [sys.executable, "-m", "grader.engine.warmkernel", address, str(listening.fileno())],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=[listening.fileno()],
            start_new_session=True,
        )

    def stop():
        process.kill()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    os.environ[ADDRESS] = address
    return process


def ensure_zygote() -> None:
    """Start a zygote unless this process or its parent has published one (its socket is in the environment)."""
    if not os.path.exists(os.environ.get(ADDRESS, "")):
        start_zygote()


def _zygote() -> socket.socket:
    """A connection to the zygote, started on first use if none runs, and again if the one published has died
    (killed from outside, say): its socket is left, but no one listens there, and the batch must go on."""
    ensure_zygote()
    client = socket.socket(socket.AF_UNIX)
    try:
        client.connect(os.environ[ADDRESS])
    except ConnectionRefusedError:
        client.close()
        start_zygote()
        client = socket.socket(socket.AF_UNIX)
        client.connect(os.environ[ADDRESS])
    return client


def fork_kernel(argv: list[str], env: dict, cwd: str, memory: int) -> int:
    """Ask the zygote for a kernel (not isolated) started in `cwd` that may use `memory` MB; return its pid."""
    with _zygote() as client, client.makefile("rw") as stream:
        _send(stream, {"argv": argv, "env": env, "cwd": cwd, "memory": memory})
        answer = stream.readline()
    if not answer:
        raise RuntimeError("the kernel zygote ended before it answered")
    return json.loads(answer)["pid"]


class Keeper:
    """The grading side's connection to an isolated kernel's keeper (see _keep), held for the kernel's life."""

    def __init__(self, memory: int):
        """Ask for a keeper, for a kernel whose control group may use `memory` megabytes."""
        self.connection = _zygote()
        self.buffer = b""
        self.uid: int | None = None  # the kernel's user (and group) id, once it is launched
        self.connection.sendall(json.dumps({"isolate": True, "memory": memory}).encode() + b"\n")
        self.folder = self._answer("folder")["folder"]

    def launch(self, argv: list[str], env: dict, cwd: str) -> int:
        """Start the kernel (its connection file is in `folder` by now); return its pid once its sockets are bound."""
        self.connection.sendall(json.dumps({"argv": argv, "env": env, "cwd": cwd}).encode() + b"\n")
        answer = self._answer("pid", timeout=120)  # the kernel's start-up, and the keeper's 60 s wait for it
        self.uid = answer["uid"]
        return answer["pid"]

    def _answer(self, key: str, timeout: float = 60) -> dict:
        answer = self.receive(timeout)  # a keeper answers in milliseconds; a minute is a machine in trouble
        if not answer or key not in answer:
            self.connection.close()
            why = "its keeper did not answer" if answer is None else answer.get("error", "its keeper ended")
            raise RuntimeError(f"the kernel could not be isolated: {why}")
        return answer

    def receive(self, timeout: float | None = None) -> dict | None:
        """The keeper's next message ({} if it hung up); None if none came within `timeout` seconds."""
        while b"\n" not in self.buffer:
            if timeout is not None and not select.select([self.connection], [], [], timeout)[0]:
                return None
            data = self.connection.recv(65536)
            self.buffer += data or b"\n"
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line) if line.strip() else {}


class ForkedProcess:
    """Enough of subprocess.Popen for jupyter_client to watch and stop a kernel that is not our child.

    An isolated kernel has ended when its keeper says so (after cleaning up); the keeper also
    says why it stopped (`stop_reason`)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int, keeper: Keeper | None = None):
        self.pid = pid
        self.keeper = keeper
        self.returncode: int | None = None
        self.stop_reason: str | None = None

    def poll(self) -> int | None:
        if self.returncode is None and self.keeper is None:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                self.returncode = 0  # reaped by the zygote; its exit status is not ours to read
        elif self.returncode is None and self.keeper is not None:
            self._hear(self.keeper, 0)
        return self.returncode

    def _hear(self, keeper: Keeper, timeout: float) -> None:
        """Take the last word of the kernel's `keeper` if it comes within `timeout` seconds."""
        report = keeper.receive(timeout)
        if report is not None:
            keeper.connection.close()
            if "returncode" not in report:  # the keeper itself was killed: make sure of the kernel
                self.send_signal(signal.SIGKILL)
            self.returncode = report.get("returncode", -signal.SIGKILL)
            self.stop_reason = report.get("reason")

    def wait(self, timeout: float | None = None) -> int:
        deadline = time.monotonic() + (math.inf if timeout is None else timeout)
        while (returncode := self.poll()) is None:
            if timeout is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout)
            if self.keeper is not None:
                self._hear(self.keeper, max(0.0, min(0.05, deadline - time.monotonic())))
            else:
                time.sleep(0.02)
        return returncode

    async def ended(self) -> int:
        """Wait until the kernel has ended, woken by its keeper's last word (or, for a kernel without one,
        by its process ending: a pidfd), never by a timer."""
        loop = asyncio.get_running_loop()
        while (returncode := self.poll()) is None:
            if self.keeper is not None:
                fd, owned = self.keeper.connection.fileno(), False
            else:
                try:
                    fd, owned = os.pidfd_open(self.pid), True
                except ProcessLookupError:
                    continue  # gone already: poll says so
            woken = loop.create_future()
            loop.add_reader(fd, _wake, woken)
            try:
                await woken
            finally:
                loop.remove_reader(fd)
                if owned:
                    os.close(fd)
            if self.keeper is None:
                self.returncode = 0  # ended (perhaps not yet reaped by the zygote); its exit status is not ours
        return returncode

    def settle(self, timeout: float = 2.0) -> None:
        """When the kernel's process is gone, wait (at most `timeout` s) for its keeper to finish."""
        if self.poll() is None and self.keeper is not None and not _running(self.pid):
            try:
                self.wait(timeout)
            except subprocess.TimeoutExpired:
                pass

    def send_signal(self, signum: int) -> None:
        if self.returncode is not None:
            return  # it has ended: its pid may be another process's by now
        try:
            os.kill(self.pid, signum)
        except ProcessLookupError:
            pass

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


def _wake(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


def _running(pid: int) -> bool:
    """Whether `pid` is a process that has not exited (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


class ForkedProvisioner(LocalProvisioner):
    """Launch an ipykernel by forking the zygote; any other kernel command starts as usual.

    An isolated kernel talks over Unix sockets (ZMQ's ipc transport) in the IPC sub-folder of the
    channel folder its keeper made, where the connection file is written too: no channel is a TCP
    port (the one TCP socket it has, ipykernel's pipe for the output of forked processes, is on its
    own loopback)."""

    keeper: Keeper | None = None

    async def pre_launch(self, **kwargs):
        km = self.parent
        if km is not None:
            km.channel_folder = km.kernel_uid = None
        if (
            km is not None
            and bool(getattr(km, "isolate", False))
            and isolation.available()
            and self.kernel_spec is not None
            and self.kernel_spec.argv[1:3] == LAUNCHER
        ):
            self.keeper = Keeper(km.memory)
            km.transport, km.cache_ports = "ipc", False
            km.ip = os.path.join(self.keeper.folder, isolation.IPC, "kernel")
            km.connection_file = os.path.join(self.keeper.folder, isolation.CONNECTION_FILE)
            km.channel_folder = self.keeper.folder
        return await super().pre_launch(**kwargs)

    async def launch_kernel(self, cmd: list[str], **kwargs):
        if cmd[1:3] != LAUNCHER:
            return await super().launch_kernel(cmd, **kwargs)
        env = {k: v for k, v in (kwargs.get("env") or os.environ).items() if k != ADDRESS}
        cwd = str(kwargs.get("cwd") or os.getcwd())
        km = self.parent
        assert km is not None, "a ForkedKernelManager makes its provisioner with itself as parent"
        if self.keeper is not None:
            process = ForkedProcess(self.keeper.launch(cmd[3:], env, cwd), self.keeper)
            km.kernel_uid = self.keeper.uid
            self.keeper = None
        else:
            process = ForkedProcess(fork_kernel(cmd[3:], env, cwd, km.memory))
        # ForkedProcess stands in for LocalProvisioner's Popen (poll, wait, send_signal, kill, terminate)
        self.process = process  # type: ignore[assignment]
        km.kernel_process = process
        self.pid = self.pgid = process.pid  # the kernel leads its own session
        self.cwd = kwargs.get("cwd", os.getcwd())
        return self.connection_info

    async def wait(self) -> int | None:
        """LocalProvisioner's wait (it polls every 0.1 s), once the kernel's end is heard (ForkedProcess.ended)."""
        if isinstance(self.process, ForkedProcess):
            await self.process.ended()
        return await super().wait()

    async def send_signal(self, signum: int) -> None:
        if self.process is not None and self.process.poll() is not None:
            return  # it has ended: its pid may be another process's by now
        if signum == signal.SIGTERM and isinstance(self.process, ForkedProcess) and self.process.keeper is not None:
            signum = signal.SIGKILL  # pid 1 of its namespace ignores a SIGTERM it has no handler for
        await super().send_signal(signum)


class ForkedKernelManager(AsyncKernelManager):
    """A kernel manager whose kernels come from the zygote (see ForkedProvisioner)."""

    isolate = Bool(
        True,
        help="Give each kernel its own namespaces, file tree, user and control group when "
        "running as root (see grader.engine.isolation).",
    ).tag(config=True)
    memory = Int(
        help="Megabytes each kernel may use: its control group's limit when isolated, "
        "else each of its processes' data limit (default: grader.course.limits.MEMORY_MB).",
    ).tag(config=True)
    kernel_process: ForkedProcess | None = None  # the last kernel started, kept after it ended
    channel_folder: str | None = None  # an isolated kernel's channel folder (root's: the bridge's socket goes there)
    kernel_uid: int | None = None  # an isolated kernel's user and group id (the bridge's socket is for its group)

    @default("memory")
    def _memory(self) -> int:
        # imported here, in the grading process that makes kernel managers: the zygote, whose memory every kernel
        # starts from, imports nothing of the course room
        from grader.course.limits import MEMORY_MB

        return MEMORY_MB

    @property
    def stop_reason(self) -> str | None:
        """Why the last kernel was stopped from outside: status.MEMORY ("memory limit") when its
        control group ran out of memory (the whole kernel is then killed); None while it runs,
        or when it ended otherwise (or was not isolated)."""
        if self.kernel_process is None:
            return None
        self.kernel_process.settle()
        return self.kernel_process.stop_reason

    async def _async_wait(self, pollinterval: float = 0.1) -> None:
        """Until the kernel has ended, heard rather than polled (jupyter_client polls every `pollinterval` s)."""
        process = self.provisioner.process if isinstance(self.provisioner, ForkedProvisioner) else None
        if isinstance(process, ForkedProcess):
            await process.ended()
        else:
            await super()._async_wait(pollinterval)

    async def _async_pre_start_kernel(self, **kw):
        if self.provisioner is None:
            self.kernel_id = self.kernel_id or kw.pop("kernel_id", None) or str(uuid.uuid4())
            self.provisioner = ForkedProvisioner(kernel_id=self.kernel_id, kernel_spec=self.kernel_spec, parent=self)
        return await super()._async_pre_start_kernel(**kw)


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
