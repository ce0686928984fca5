"""An isolated kernel is confined as a whole: its own loopback and nothing else, channels that no
other kernel reaches, one memory limit and one process limit for everything it starts, and
nothing of it left when its grading ends, even when the grading process is killed
(grader/engine/isolation.py, grader/engine/warmkernel.py).

These start real kernels as root, as grading does; CI runs them as root.
"""

from __future__ import annotations

import asyncio
import glob
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest
from jupyter_core.paths import jupyter_runtime_dir

from grader.engine import isolation, status
from grader.engine.warmkernel import ADDRESS, ForkedKernelManager
from tests.support import COURSE, run_apart

pytestmark = pytest.mark.skipif(
    not isolation.available() and not os.environ.get("CI"),
    reason="kernel isolation needs root on Linux (CI runs these as root)",
)

SYSV_KEY = 0x50F7AB1E
NAMESPACES = ("ipc", "net", "pid", "mnt", "uts")
LEAVE_THINGS = f"""
import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
segment = libc.shmget({SYSV_KEY}, 1 << 20, 0o1000 | 0o600)   # IPC_CREAT: a System V segment...
semaphore = libc.semget({SYSV_KEY}, 1, 0o1000 | 0o600)       # ...and a semaphore set, never removed
if os.fork() == 0:                                           # a daemon: double fork, own session
    os.setsid()
    if os.fork() == 0:
        time.sleep(600)
    os._exit(0)
refused = 0
for folder in (os.path.dirname(CONNECTION), os.path.join(os.path.dirname(CONNECTION), "ipc")):
    try:                                                     # its channel folder, root's: nothing to leave there
        open(os.path.join(folder, "left.txt"), "w").write("x" * 1000)
    except PermissionError:
        refused += 1
open("/tmp/kernel/left.txt", "w").write("x")
print(segment >= 0, semaphore >= 0, str({SYSV_KEY}) in open("/proc/sysvipc/shm").read(), refused == 2)
"""


async def start(cwd, memory: int | None = None) -> tuple[ForkedKernelManager, object]:
    """An isolated kernel started as grading starts one, and a client whose channels are open."""
    km = ForkedKernelManager(kernel_name="python3", isolate=True, **({"memory": memory} if memory else {}))
    await km.start_kernel(cwd=str(cwd), env=dict(os.environ))
    client = km.client()
    client.start_channels()
    await client.wait_for_ready(timeout=60)
    return km, client


async def run(client, code: str, timeout: float = 60) -> tuple[dict, str]:
    """The reply's content and what the code printed."""
    printed = []
    reply = await client.execute_interactive(
        code,
        timeout=timeout,
        output_hook=lambda msg: printed.append(msg["content"].get("text", "")) if msg["msg_type"] == "stream" else None,
    )
    return reply["content"], "".join(printed)


async def stop(km, client) -> None:
    client.stop_channels()
    await km.shutdown_kernel(now=True)


def in_kernel(tmp_path, main):
    """Run `main(tmp_path)` (a coroutine function) in a thread of its own with an event loop."""
    return run_apart(asyncio.run, main(tmp_path))


# ----------------------------------------------------------------- what a kernel leaves, seen from the machine


def _status(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/status") as file:
        return dict(line.rstrip("\n").split(":\t", 1) for line in file if ":\t" in line)


def alive(pid: int) -> bool:
    """Whether `pid` is a process that has not exited (a zombie has)."""
    try:
        return _status(pid)["State"][0] not in "ZX"
    except (OSError, KeyError):
        return False


def machine_processes() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def footprint(km) -> dict:
    """What belongs to a running isolated kernel, as seen from outside it."""
    pid = km.provisioner.pid
    keeper = int(_status(pid)["PPid"])
    groups = [line.rstrip("\n").split(":", 2)[2] for line in open(f"/proc/{pid}/cgroup")]
    folders = [
        folder
        for path in groups
        if "softmax-kernel-" in path
        for folder in glob.glob(f"/sys/fs/cgroup/*{path}") + glob.glob(f"/sys/fs/cgroup{path}")
    ]
    return {
        "pid": pid,
        "keeper": keeper,
        "zygote": int(_status(keeper)["PPid"]),
        "uid": int(_status(pid)["Uid"].split()[0]),
        "namespaces": sorted({os.readlink(f"/proc/{pid}/ns/{kind}") for kind in NAMESPACES}),
        "groups": sorted(set(folders)),
        "folder": os.path.dirname(km.connection_file),
        "connection_file": km.connection_file,
        "key": km.session.key.decode(),
    }


def leftovers(seen: dict) -> list[str]:
    """What is left of a kernel whose grading has ended: processes, namespaces, groups, files, keys."""
    found = []
    for pid in machine_processes():
        try:
            state = _status(pid)
            spaces = {os.readlink(f"/proc/{pid}/ns/{kind}") for kind in NAMESPACES}
        except OSError:
            continue
        if state["State"][0] in "ZX":
            continue
        if seen["uid"] in {int(uid) for uid in state["Uid"].split()}:
            found.append(f"process {pid} runs as the kernel's user")
        elif spaces & set(seen["namespaces"]) and descends_from(pid, seen["keeper"]):
            # a namespace's number is handed to the next namespace made once it is gone: another kernel's, started
            # by another test meanwhile, is no leftover of this one
            found.append(f"process {pid} is in the kernel's namespaces")
    found += [f"process {seen[name]} ({name})" for name in ("pid", "keeper") if alive(seen[name])]
    found += [f"control group {folder}" for folder in seen["groups"] if os.path.exists(folder)]
    found += [f"file {path}" for path in (seen["folder"], seen["connection_file"]) if os.path.lexists(path)]
    if os.path.lexists(os.path.join(isolation.USERS, str(seen["uid"]))):
        found.append("the user id is still locked")
    if str(SYSV_KEY) in open("/proc/sysvipc/shm").read() + open("/proc/sysvipc/sem").read():
        found.append("a System V object in the machine's namespace")
    for path in _places_for_keys():
        try:
            with open(path, "rb") as file:
                if seen["key"].encode() in file.read(1 << 20):
                    found.append(f"the kernel's key in {path}")
        except OSError:
            pass
    return found


def descends_from(pid: int, ancestor: int) -> bool:
    """Whether `ancestor` is `pid` or one of its parents."""
    while pid > 1:
        if pid == ancestor:
            return True
        try:
            pid = int(_status(pid)["PPid"])
        except (OSError, KeyError, ValueError):
            return False
    return False


def _places_for_keys() -> list[str]:
    """Files where a connection file might be: temporary folders (top level), channel folders, Jupyter's runtime."""
    places = [os.path.join(tempfile.gettempdir(), name) for name in os.listdir(tempfile.gettempdir())]
    places += glob.glob("/dev/shm/*") + glob.glob(os.path.join(isolation.CHANNELS, "**"), recursive=True)
    places += glob.glob(os.path.join(jupyter_runtime_dir(), "*"))
    places += glob.glob(os.path.join(tempfile.gettempdir(), "softmax-zygote-*", "*"))
    return [path for path in places if os.path.isfile(path) and not os.path.islink(path)]


def settled(seen: dict, seconds: float = 60) -> list[str]:
    """leftovers(seen), once there are none or `seconds` have passed (the cleaning is quick, slower on busy cores)."""
    deadline = time.monotonic() + seconds
    while (found := leftovers(seen)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


# ----------------------------------------------------------------- network


def sockets(table: str) -> dict[int, tuple[int, int]]:
    """{inode: (local port, uid)} of the sockets in a /proc/net/tcp-like table."""
    rows = [line.split() for line in table.splitlines()[1:]]
    return {int(row[9]): (int(row[1].rsplit(":", 1)[1], 16), int(row[7])) for row in rows}


def test_a_kernel_has_its_own_loopback_and_reaches_no_service_of_the_machine(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as service:  # a service that would hand out answers
        port = service.getsockname()[1]
        code = f"""
import json, os, socket
tables = {{name: open("/proc/net/" + name).read() for name in ("tcp", "tcp6", "udp", "udp6")}}
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=5).close()
    reached = "connected"
except OSError as error:
    reached = type(error).__name__
with socket.create_server(("127.0.0.1", 0)) as own:  # its loopback is up: it can talk to itself
    socket.create_connection(own.getsockname(), timeout=5).close()
print(json.dumps({{"tables": tables, "reached": reached, "interfaces": socket.if_nameindex(),
                  "host": socket.gethostname(), "uid": os.getuid()}}))
"""

        async def main(cwd):
            other, other_client = await start(cwd)  # another kernel at the same time, whose sockets must not show
            km, client = await start(cwd)
            reply, out = await run(client, code)
            others = {name: open(f"/proc/{other.provisioner.pid}/net/{name}").read() for name in ("tcp", "tcp6")}
            transport = json.loads(open(km.connection_file).read())["transport"]
            await stop(km, client)
            await stop(other, other_client)
            return reply, json.loads(out), others, transport, km.connection_file

        reply, seen, others, transport, connection_file = in_kernel(tmp_path, main)
        machine = {name: open(f"/proc/self/net/{name}").read() for name in ("tcp", "tcp6")}
    assert reply["status"] == "ok", reply
    own = {inode: row for table in seen["tables"].values() for inode, row in sockets(table).items()}
    assert {uid for _, uid in own.values()} <= {seen["uid"]}  # only its own sockets (ipykernel's inner pipe)
    other_kernel = {inode for name in others for inode in sockets(others[name])}
    grader = {inode: row for name in machine for inode, row in sockets(machine[name]).items()}
    assert other_kernel and not other_kernel & set(own)
    assert (port, 0) in grader.values() and not set(grader) & set(own) and port not in {p for p, _ in own.values()}
    assert seen["reached"] == "ConnectionRefusedError"
    assert seen["interfaces"] == [[1, "lo"]] and seen["host"] == "kernel"
    assert transport == "ipc" and connection_file.startswith(isolation.CHANNELS + "/")  # channels: Unix sockets


def test_two_kernels_cannot_see_or_reach_each_others_channels(tmp_path):
    probe = """
import json, os, socket
def connect(path):
    try:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.connect(path)
        return "connected"
    except OSError as error:
        return type(error).__name__
def listing(path):
    try:
        return os.listdir(path)
    except OSError as error:
        return type(error).__name__
print(json.dumps({"channels": listing(CHANNELS), "own": listing(OWN), "own_ipc": listing(OWN + "/ipc"),
                  "others": os.path.exists(OTHER),
                  "other_shell": connect(OTHER + "/ipc/kernel-1"), "abstract": connect("\\0softmax-probe"),
                  "zygote": connect(ZYGOTE), "unix": open("/proc/net/unix").read()}))
"""

    async def main(cwd):
        (km1, client1), (km2, client2) = await start(cwd), await start(cwd)
        await run(
            client2, "import socket\nheld = socket.socket(socket.AF_UNIX)\nheld.bind('\\0softmax-probe')\nheld.listen()"
        )
        folders = [os.path.dirname(km.connection_file) for km in (km1, km2)]
        names = f"CHANNELS, OWN, OTHER, ZYGOTE = {(isolation.CHANNELS, *folders, os.environ[ADDRESS])!r}\n"
        reply, out = await run(client1, names + probe)
        owners = [(os.stat(folder), os.stat(os.path.join(folder, "ipc"))) for folder in folders]
        await stop(km1, client1)
        await stop(km2, client2)
        assert reply["status"] == "ok", reply
        return reply, json.loads(out), folders, owners

    reply, seen, folders, owners = in_kernel(tmp_path, main)
    assert reply["status"] == "ok", reply
    assert seen["channels"] == "PermissionError" and not seen["others"]  # other kernels' folders are not there
    assert seen["own"] == "PermissionError"  # it enters its channel folder by the names it is given
    assert sorted(seen["own_ipc"]) == ["kernel-1", "kernel-2", "kernel-3", "kernel-4", "kernel-5"]
    assert seen["other_shell"] == "FileNotFoundError" and seen["zygote"] == "FileNotFoundError"
    assert seen["abstract"] == "ConnectionRefusedError"  # the other kernel's abstract socket is in its own network
    assert folders[1] not in seen["unix"] and folders[0] in seen["unix"]
    # root's folders, which the kernel enters but cannot write; the sockets' folder is open to its group alone
    assert [(oct(top.st_mode & 0o777), top.st_uid) for top, _ in owners] == [("0o711", 0), ("0o711", 0)]
    assert [(oct(ipc.st_mode & 0o777), ipc.st_uid) for _, ipc in owners] == [("0o750", 0), ("0o750", 0)]
    assert owners[0][1].st_gid != owners[1][1].st_gid and min(ipc.st_gid for _, ipc in owners) >= isolation.UID_BASE


# ----------------------------------------------------------------- links planted for root to follow

RACER = """
import os, time
from ipykernel import get_connection_file

def race():
    \"\"\"Swap every name root uses in the channel folder (and its sub-folder) for a link to TARGET, for ever.\"\"\"
    top = os.path.dirname(get_connection_file())
    folders = [top, os.path.join(top, "ipc")]
    names = ["bridge", "kernel.json", "ipc"] + [f"kernel-{n}" for n in range(1, 6)]
    tries = planted = 0
    while True:
        for folder in folders:
            for name in names:
                tries += 1
                try:
                    os.symlink(TARGET, os.path.join(folder, ".link"))
                    os.rename(os.path.join(folder, ".link"), os.path.join(folder, name))
                    planted += 1
                except OSError:
                    pass
        if tries % 1600 == 0:
            with open("/tmp/kernel/.counts", "w") as file:
                file.write(f"{tries} {planted}")
            os.replace("/tmp/kernel/.counts", "/tmp/kernel/counts")

if os.fork() == 0:
    try:
        race()
    finally:
        os._exit(0)
x = 1
"""
RACED_CYCLES = 300  # the bridge's socket bound, its owner and mode set, then removed: once per notebook in grading


def test_root_follows_no_link_the_kernel_plants_in_its_channel_folder(tmp_path):
    """A process of the kernel swaps every name of its channel folder for a link to a file of root's, while the
    grading side binds the bridge's socket there, sets its owner and mode, and removes it, hundreds of times; then
    the kernel is shut down (its files removed) with the racer still at it. Every swap fails: root's folders."""
    import nbformat
    from nbclient import NotebookClient

    from grader.engine import bridge

    target = tmp_path / "roots_file"
    target.write_text("root's\n")
    os.chmod(target, 0o644)

    def grade():
        cells = [nbformat.v4.new_code_cell(f"TARGET = {str(target)!r}\n" + RACER), nbformat.v4.new_code_cell("")]
        nb = nbformat.v4.new_notebook(cells=cells)
        client = NotebookClient(nb, kernel_name="python3", timeout=60, kernel_manager_class=ForkedKernelManager)
        failed = 0
        with client.setup_kernel():
            assert client.km.channel_folder is not None  # isolated
            client.execute_cell(nb.cells[0], 0)
            for _ in range(RACED_CYCLES):
                try:
                    with bridge.KernelSession(client, time.monotonic() + 30) as session:
                        session.describe(["x"])
                except (bridge.BridgeError, OSError):
                    failed += 1
            nb.cells[1].source = "print(open('/tmp/kernel/counts').read())"
            client.execute_cell(nb.cells[1], 1)
        return failed, nb.cells[1].outputs[0]["text"].split()

    failed, (tries, planted) = run_apart(grade)
    seen = os.stat(target)
    assert (seen.st_uid, seen.st_gid, oct(seen.st_mode & 0o7777)) == (0, 0, "0o644")
    assert int(tries) > 10_000 and int(planted) == 0 and failed == 0, (tries, planted, failed)


def test_the_sockets_folder_taken_back_from_the_kernel_is_refused_if_it_holds_a_link(tmp_path):
    """What the keeper does once the kernel has bound its sockets, before any learner code runs: the kernel's IPC
    folder becomes root's; anything there but a socket (a link root's connection would follow) is refused."""
    target = tmp_path / "roots_file"
    target.write_text("root's\n")
    os.chmod(target, 0o644)
    user = isolation.take_uid()
    folders = [isolation.channel_folder(), isolation.channel_folder()]
    plant = (
        "import os, socket, sys\n"
        "for n in (1, 2):\n"
        "    socket.socket(socket.AF_UNIX).bind(os.path.join(sys.argv[1], f'kernel-{n}'))\n"
        "if len(sys.argv) > 2:\n"
        "    os.symlink(sys.argv[2], os.path.join(sys.argv[1], 'kernel-3'))\n"
    )
    as_kernel = {"user": user.uid, "group": user.uid, "extra_groups": []}
    try:
        for folder in folders:
            isolation.hand_over(folder, user.uid)
        ipc = [os.path.join(folder, isolation.IPC) for folder in folders]
        subprocess.run([sys.executable, "-c", plant, ipc[0]], check=True, **as_kernel)
        subprocess.run([sys.executable, "-c", plant, ipc[1], str(target)], check=True, **as_kernel)
        isolation.take_back(folders[0], user.uid)
        with pytest.raises(isolation.IsolationError, match="kernel-3"):
            isolation.take_back(folders[1], user.uid)
        late = subprocess.run(  # taken back: the kernel's user can no longer put anything there
            [sys.executable, "-c", "import os, sys\nos.symlink(sys.argv[2], os.path.join(sys.argv[1], 'kernel-9'))"]
            + [ipc[0], str(target)],
            capture_output=True,
            text=True,
            **as_kernel,
        )
        owners = [os.stat(folder) for folder in ipc]
        planted_late = os.path.lexists(os.path.join(ipc[0], "kernel-9"))
    finally:
        for folder in folders:
            subprocess.run(["rm", "-rf", folder], check=True)
        user.release()
    assert [(owner.st_uid, owner.st_gid, oct(owner.st_mode & 0o777)) for owner in owners] == 2 * [
        (0, user.uid, "0o750")
    ]
    assert "PermissionError" in late.stderr and not planted_late
    seen = os.stat(target)
    assert (seen.st_uid, oct(seen.st_mode & 0o7777)) == (0, "0o644")


def test_root_makes_no_channel_folder_in_a_folder_another_user_made_first(tmp_path, monkeypatch):
    """The channel folders' own folder is on /dev/shm, where anyone may make it first (and then write in it)."""
    planted = tmp_path / "softmax-kernels"
    planted.mkdir(mode=0o777)
    os.chmod(planted, 0o777)
    monkeypatch.setattr(isolation, "CHANNELS", str(planted))
    with pytest.raises(isolation.IsolationError, match="not a folder of this user's alone"):
        isolation.channel_folder()
    assert os.listdir(planted) == []


def test_the_bridge_will_not_listen_in_a_folder_others_can_write(tmp_path):
    """Its socket's owner and mode are set by path: in a folder another user can write, a link could be there."""
    from types import SimpleNamespace

    from grader.engine import bridge

    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    client = SimpleNamespace(km=SimpleNamespace(channel_folder=str(shared), kernel_uid=isolation.UID_BASE), kc=None)
    session = bridge.KernelSession(client, time.monotonic() + 30)
    with pytest.raises(bridge.BridgeError, match="would not listen"):
        session.describe(["x"])
    session.close()
    assert os.listdir(shared) == []


# ----------------------------------------------------------------- processes


def test_a_kernel_is_pid_1_of_its_own_namespace_and_still_interrupts(tmp_path):
    async def main(cwd):
        km, client = await start(cwd)
        reply, out = await run(
            client,
            "import os, json\nprint(json.dumps([os.getpid(), "
            "sorted(int(p) for p in os.listdir('/proc') if p.isdigit())]))",
        )
        sleeping = client.execute("import time\nprint('asleep', flush=True)\ntime.sleep(60)", stop_on_error=False)
        while not (
            (msg := await client.get_iopub_msg(timeout=20))["parent_header"].get("msg_id") == sleeping
            and "asleep" in msg["content"].get("text", "")
        ):
            pass  # interrupting before the cell runs would only hit the idle kernel, which ignores it
        started = time.monotonic()
        await km.interrupt_kernel()
        while (interrupted := await client.get_shell_msg(timeout=20))["parent_header"].get("msg_id") != sleeping:
            pass
        waited = time.monotonic() - started
        after, _ = await run(client, "1 + 1")
        await stop(km, client)
        return json.loads(out), interrupted["content"], waited, after

    (pid, processes), interrupted, waited, after = in_kernel(tmp_path, main)
    assert pid == 1 and processes == [1]  # /proc is its own PID namespace's
    # at once, not after the 60 s sleep (a few seconds at most on busy cores)
    assert interrupted["status"] == "error" and interrupted["ename"] == "KeyboardInterrupt" and waited < 30
    assert after["status"] == "ok"


def test_a_fork_bomb_stops_at_the_process_limit_and_nothing_of_it_survives(tmp_path):
    code = """
import os, time
count = 0
try:
    while True:
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
        count += 1
except OSError as error:
    print(count, type(error).__name__)
"""

    async def main(cwd):
        km, client = await start(cwd)
        reply, out = await run(client, code)
        seen = footprint(km)
        await stop(km, client)
        return reply, out, seen

    reply, out, seen = in_kernel(tmp_path, main)
    assert reply["status"] == "ok", reply
    count, error = out.split()
    assert error == "BlockingIOError" and 32 <= int(count) < isolation.PROCESSES
    assert settled(seen) == []


def test_nothing_of_a_kernel_survives_its_grading(tmp_path):
    async def main(cwd):
        km, client = await start(cwd)
        reply, out = await run(client, f"CONNECTION = {km.connection_file!r}\n" + LEAVE_THINGS)
        seen = footprint(km)
        on_machine = str(SYSV_KEY) in open("/proc/sysvipc/shm").read()
        await stop(km, client)
        return reply, out, seen, on_machine, km.stop_reason

    reply, out, seen, on_machine, reason = in_kernel(tmp_path, main)
    assert reply["status"] == "ok" and out.split() == ["True", "True", "True", "True"], (reply, out)
    assert not on_machine  # the segment is in the kernel's own IPC namespace
    assert len(seen["groups"]) >= 1 and os.path.basename(seen["folder"]) and reason is None
    assert settled(seen) == []


HOLD = """
import asyncio, json, os, sys, time
os.environ.pop("SOFTMAX_KERNEL_ZYGOTE", None)  # a zygote of its own, which must end with this process
from tests.unit.engine.test_confinement import LEAVE_THINGS, footprint, run, start

async def main():
    km, client = await start(sys.argv[1])
    reply, out = await run(client, f"CONNECTION = {km.connection_file!r}\\n" + LEAVE_THINGS)
    print(json.dumps({**footprint(km), "zygote_socket": os.environ["SOFTMAX_KERNEL_ZYGOTE"], "out": out}), flush=True)
    time.sleep(600)
asyncio.run(main())
"""


def test_nothing_of_a_kernel_survives_when_its_grading_process_is_killed(tmp_path):
    grading = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)],
        cwd=COURSE.root,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(COURSE.root)},
    )
    try:
        seen = json.loads(grading.stdout.readline())
        assert seen["out"].split() == ["True", "True", "True", "True"] and alive(seen["pid"]) and alive(seen["zygote"])
        assert os.path.exists(seen["connection_file"])
    finally:
        grading.send_signal(signal.SIGKILL)
        grading.wait()
    assert settled(seen) == []
    deadline = time.monotonic() + 60
    while (alive(seen["zygote"]) or os.path.exists(seen["zygote_socket"])) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(seen["zygote"]) and not os.path.exists(os.path.dirname(seen["zygote_socket"]))


# ----------------------------------------------------------------- memory

SHARED_MAPPING = """
import mmap
block = mmap.mmap(-1, 800 * 2**20, flags=mmap.MAP_SHARED)  # not data: RLIMIT_DATA does not count it
chunk = b"\\1" * 2**20
for i in range(800):
    block[i * 2**20:(i + 1) * 2**20] = chunk
"""
CHILDREN = """
import os, time
for _ in range(4):
    if os.fork() == 0:
        try:
            block = bytearray(b"\\1") * (150 * 2**20)  # each well within its own RLIMIT_DATA
            time.sleep(600)
        finally:
            os._exit(0)
time.sleep(600)
"""
SYSV_SEGMENT = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
segment = libc.shmget(0, 800 * 2**20, 0o1000 | 0o600)
address = libc.shmat(segment, None, 0)
ctypes.memset(address, 1, 800 * 2**20)
"""
TMPFS_FILE = """
with open("/tmp/kernel/big", "wb") as file:  # its own /tmp, a tmpfs of 256 MB: as much as its limit
    for _ in range(800):
        file.write(b"\\1" * 2**20)
"""


@pytest.mark.parametrize(
    "code, memory",
    [(SHARED_MAPPING, 512), (CHILDREN, 512), (SYSV_SEGMENT, 512), (TMPFS_FILE, 256)],
    ids=["shared_mapping", "forked_children", "sysv_segment", "tmpfs_file"],
)
def test_memory_over_the_limit_anywhere_in_the_kernel_kills_it_as_memory_limit(tmp_path, code, memory):
    async def main(cwd):
        km, client = await start(cwd, memory=memory)
        seen = footprint(km)
        assert km.stop_reason is None
        client.execute(f"CONNECTION = {km.connection_file!r}\n" + code)
        deadline = time.monotonic() + 60
        while await km.is_alive() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        dead = not await km.is_alive()
        reason = km.stop_reason
        await stop(km, client)
        return dead, reason, seen

    dead, reason, seen = in_kernel(tmp_path, main)
    assert dead and reason == status.MEMORY == "memory limit"
    assert settled(seen) == []


def test_a_group_is_out_of_memory_from_its_first_notification_before_any_kill_is_counted():
    """cgroup v1 notifies as its OOM killer starts, counts the kill a moment later and need not notify
    again: a keeper that reads in between must still see the group out of memory, then and after.
    With the group's OOM killer switched off, that moment lasts: the allocation waits at the limit."""
    group = isolation.Group(f"softmax-test-oom-{os.getpid()}", 64 * 2**20)
    hog = subprocess.Popen(
        [sys.executable, "-c", "import sys\nsys.stdin.readline()\nblock = bytearray(b'\\1') * (256 * 2**20)"],
        stdin=subprocess.PIPE,
        text=True,
    )
    try:
        with open(os.path.join(group.memory_folder, "memory.oom_control"), "w") as control:
            control.write("1")  # oom_kill_disable: nothing of the group is killed
        ready = group.watch()
        before = group.out_of_memory()
        for folder in group.folders:
            with open(os.path.join(folder, "cgroup.procs"), "w") as procs:
                procs.write(str(hog.pid))
        assert hog.stdin is not None
        hog.stdin.write("allocate now\n")
        hog.stdin.flush()
        notified = bool(select.select([ready], [], [], 60)[0])
        first, again = group.out_of_memory(), group.out_of_memory()
        with open(os.path.join(group.memory_folder, "memory.oom_control")) as control:
            state = dict(line.split() for line in control.read().splitlines())
    finally:
        group.kill()
        hog.wait()
    assert state["under_oom"] == "1" and state["oom_kill"] == "0", state
    assert not before and notified and first and again


def test_an_ordinary_big_allocation_is_a_memory_error_and_the_kernel_lives_on(tmp_path):
    async def main(cwd):
        km, client = await start(cwd, memory=512)
        reply, _ = await run(client, "import numpy\nnumpy.ones(600 * 2**20 // 8)")
        after, out = await run(client, "print(1 + 1)")
        reason = km.stop_reason
        await stop(km, client)
        return reply, after, out, reason

    reply, after, out, reason = in_kernel(tmp_path, main)
    assert reply["status"] == "error" and reply["ename"] == "MemoryError"
    assert after["status"] == "ok" and out.strip() == "2" and reason is None


# ----------------------------------------------------------------- user ids


def test_the_uid_pool_never_hands_out_a_uid_a_process_runs_as():
    uid = isolation.UID_BASE + isolation.UID_COUNT - 7
    sleeper = subprocess.Popen(["sleep", "60"], user=uid, group=uid)
    try:
        deadline = time.monotonic() + 60
        while uid not in isolation.uids_in_use() and time.monotonic() < deadline:
            time.sleep(0.01)
        taken = isolation.take_uid([uid, uid + 1])
        assert taken.uid == uid + 1
        taken.release()
        with pytest.raises(isolation.IsolationError):
            isolation.take_uid([uid])
    finally:
        sleeper.kill()
        sleeper.wait()
    isolation.take_uid([uid]).release()  # free again once its process is gone


TAKE = """
import sys
from grader.engine import isolation
try:
    held = isolation.take_uid([int(sys.argv[1])])
    print(held.uid)
    held.release()
except isolation.IsolationError:
    print("none")
"""


def test_the_uid_pool_never_hands_out_a_uid_another_process_holds():
    uid = isolation.UID_BASE + isolation.UID_COUNT - 5

    def other() -> str:
        return subprocess.run(
            [sys.executable, "-c", TAKE, str(uid)], cwd=COURSE.root, capture_output=True, text=True, check=True
        ).stdout.strip()

    held = isolation.take_uid([uid])
    try:
        assert held.uid == uid and other() == "none"
    finally:
        held.release()
    assert other() == str(uid) and not os.path.exists(os.path.join(isolation.USERS, str(uid)))


def test_kernels_started_at_once_have_different_users_and_groups(tmp_path):
    async def main(cwd):
        kernels = await asyncio.gather(*(start(cwd) for _ in range(3)))
        seen = [footprint(km) for km, _ in kernels]
        for km, client in kernels:
            await stop(km, client)
        return seen

    seen = in_kernel(tmp_path, main)
    assert len({s["uid"] for s in seen}) == 3 and len({s["folder"] for s in seen}) == 3
    assert len({folder for s in seen for folder in s["groups"]}) == sum(len(s["groups"]) for s in seen)
    assert [settled(s) for s in seen] == [[], [], []]


def test_a_restarted_kernel_is_a_fresh_isolated_one_and_the_first_leaves_nothing(tmp_path):
    async def main(cwd):
        km, client = await start(cwd)
        await run(client, "x = 1")
        first = footprint(km)
        client.stop_channels()
        await km.restart_kernel(now=True)
        client = km.client()
        client.start_channels()
        await client.wait_for_ready(timeout=60)
        reply, out = await run(client, "print('x' in globals())")
        second = footprint(km)
        await stop(km, client)
        return first, second, reply, out

    first, second, reply, out = in_kernel(tmp_path, main)
    assert reply["status"] == "ok" and out.strip() == "False"
    assert second["folder"] != first["folder"] and second["pid"] != first["pid"]
    assert (settled(first), settled(second)) == ([], [])


def test_a_kernel_cannot_make_a_user_namespace_where_it_would_have_capabilities(tmp_path):
    code = """
import subprocess, sys
try_it = "import ctypes; libc = ctypes.CDLL(None, use_errno=True); print(libc.unshare(0x10000000), ctypes.get_errno())"
print(subprocess.run([sys.executable, "-c", try_it], capture_output=True, text=True).stdout)
"""

    async def main(cwd):
        km, client = await start(cwd)
        reply, out = await run(client, code)
        await stop(km, client)
        return reply, out

    reply, out = in_kernel(tmp_path, main)
    assert reply["status"] == "ok" and out.split() == ["-1", "1"]  # EPERM: a chrooted process may not
