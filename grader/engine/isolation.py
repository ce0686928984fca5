"""A grading kernel's own machine, as far as Linux gives one: set up before any learner code runs.

When grading runs as root, each kernel is pid 1 of a PID namespace of its own and has its own
mount, network, IPC and host-name namespaces:

- Its file tree is a fresh, empty tmpfs holding, read-only, only what a kernel needs: the
  system's programs and libraries, Python, the virtual environment, and of this package only
  the part that runs in the learner's kernel (`grader/__init__.py` and `grader/learner/`). The
  grading engine, the course tools, the instructor's tools and the proof (whose correct
  alternatives are solutions) are not readable, wherever a copy of the package lies (a checkout,
  or the virtual environment's site-packages); nor are the course (gradebook, solutions,
  submissions), the sandbox with the notebook and its hidden tests, home folders and other
  kernels. What the kernel's process had imported before it was forked (the warm kernel's
  start-up: grader.engine.warmkernel, isolation, status) stays in its memory, nothing more.
  `/proc` is mounted for its own PID namespace, so it lists only the kernel's processes.
- Its `/dev` is its own: the harmless character devices (null, zero, full, random, urandom), the
  usual links, its own `/dev/shm` and a terminal file system of its own with PTYS terminals at
  most: none of the machine's devices, and no terminal taken from the machine's pool.
- Its network is its own loopback and nothing else: no service of the machine and no other
  kernel can be reached, and it sees no one's sockets. Its channels to the grader are Unix
  sockets in a channel folder (channel_folder), which appears at the same path inside: root's,
  which the kernel enters but never writes, so that no path root acts on there can be a link the
  kernel planted. The kernel binds its own sockets in the folder's IPC sub-folder, which is
  taken back (take_back) once they are bound, before any learner code runs.
- Its System V objects live in its IPC namespace and every process it starts lives in its PID
  namespace: all of them end when the kernel does.
- A control group of its own (Group) caps the memory of the whole kernel (shared mappings,
  children and tmpfs pages count) and its number of processes; it is killed and removed when
  the grading ends.
- It runs as a user of its own (take_uid: never one that a live process has), in no group, so
  it cannot undo any of this, write outside its own folders, or signal anything else.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import json
import os
import socket
import stat
import struct
import sys
import tempfile
import time

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWPID, CLONE_NEWNET = 0x20000, 0x4000000, 0x8000000, 0x20000000, 1 << 30
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 1 << 14, 1 << 18
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS = 1, 38
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 1
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc")
DEVICES = ("null", "zero", "full", "random", "urandom")  # of the machine's /dev, all that a kernel gets
DEVICE_LINKS = {
    "fd": "/proc/self/fd",
    "stdin": "/proc/self/fd/0",
    "stdout": "/proc/self/fd/1",
    "stderr": "/proc/self/fd/2",
    "ptmx": "pts/ptmx",
}
PTYS = 8  # the terminals a kernel may hold at once, in a devpts of its own (a `!` shell command takes one)
NEW_ROOT = "/tmp/softmax-kernel-root"  # made inside a tmpfs that covers /tmp in the kernel's namespace only
HOME = "/tmp/kernel"  # the kernel's directory, as seen from inside
# The kernels' channel folders (see channel_folder): on a tmpfs when there is one, memory rather than disk.
CHANNELS = os.path.join("/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir(), "softmax-kernels")
USERS = os.path.join(tempfile.gettempdir(), "softmax-kernel-users")  # a lock file per user id in use
IPC = "ipc"  # in a channel folder: the sub-folder where the kernel binds its ZMQ sockets
CONNECTION_FILE = "kernel.json"  # in a channel folder: the kernel's connection file
UID_BASE, UID_COUNT = 100000, 65536
PROCESSES = 64 + (os.cpu_count() or 1)  # the learner's 64, and room for the kernel's threads (OpenBLAS: one per core)
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # grader/
LEARNER_PART = ("__init__.py", "learner")  # of the package, all that a learner's kernel imports

_libc = ctypes.CDLL(None, use_errno=True)


class IsolationError(OSError):
    """The kernel could not be isolated (it then must not run the learner's code)."""


def available() -> bool:
    """Isolation needs root (to mount and change user) on Linux."""
    return sys.platform.startswith("linux") and os.geteuid() == 0


def _call(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise IsolationError(number, f"{what}: {os.strerror(number)}")


def _mount(source, target: str, fstype, flags: int, data=None) -> None:
    encode = lambda text: None if text is None else text.encode()  # noqa: E731
    _call(_libc.mount(encode(source), encode(target), encode(fstype), flags, encode(data)), f"mount {target}")


def kept_paths() -> list[str]:
    """What the kernel may read: the system, Python, the virtual environment and the package's learner part;
    of a kept link (a virtual environment that links to another folder, say), its target too, unless that is
    inside a kept folder already (/lib -> usr/lib)."""
    paths = [p for p in SYSTEM if os.path.lexists(p)] + [sys.base_prefix, sys.prefix] + learner_part()
    kept = list(dict.fromkeys(os.path.abspath(p) for p in paths))
    folders = [path for path in kept if not os.path.islink(path)]
    targets = [os.path.realpath(path) for path in kept if os.path.islink(path)]
    outside = [target for target in targets if not any(_inside(target, folder) for folder in folders)]
    return list(dict.fromkeys(kept + outside))


def _inside(path: str, folder: str) -> bool:
    return os.path.commonpath([path, folder]) == folder


def learner_part() -> list[str]:
    """The files and folders of this package that a learner's kernel imports (the kernel side of the bridge
    is sent as source text and needs grader.learner.streams alone)."""
    return [os.path.join(PACKAGE, name) for name in LEARNER_PART]


def package_copies() -> list[str]:
    """Every folder this package could be imported from here: this one, and any other that an entry of
    sys.path or an import finder (an editable install's, say) would find."""
    name = os.path.basename(PACKAGE)
    found = [PACKAGE]
    for entry in sys.path:
        folder = os.path.join(entry or os.getcwd(), name)
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            found.append(folder)
    for finder in sys.meta_path:
        try:
            spec = finder.find_spec(name, None)
        except Exception:  # noqa: BLE001 - a finder that cannot answer this question finds nothing
            spec = None
        found.extend((spec and spec.submodule_search_locations) or [])
    return list(dict.fromkeys(os.path.abspath(folder) for folder in found))


def hidden_inside() -> list[str]:
    """Folders that are covered by an empty one: every copy of this package inside a kept folder (a
    non-editable install in the virtual environment, say) and this one, which then gets its learner part
    back (a copy outside the kept folders is not there at all)."""
    outer = [os.path.realpath(path) for path in kept_paths() if path not in learner_part()]
    inside = [
        copy
        for copy in package_copies()
        if any(os.path.commonpath([os.path.realpath(copy), folder]) == folder for folder in outer)
    ]
    return list(dict.fromkeys([PACKAGE, *inside]))


# ----------------------------------------------------------------- in the kernel, before its code


def own_pid_namespace() -> None:
    """Make this process's next child pid 1 of a new PID namespace (this process stays where it is)."""
    _call(_libc.unshare(CLONE_NEWPID), "unshare")


def enter_own_tree(uid: int, channels: str) -> None:
    """Move this forked, still root process (pid 1 of its own PID namespace) into its own
    namespaces, file tree and user. `channels`, its channel folder, stays at the same path."""
    kept, learner, covered = kept_paths(), learner_part(), hidden_inside()
    os.umask(0o022)  # the modes below, whatever the grading process's (the hub's service keeps 007)
    _call(_libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS), "unshare")
    _mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing done here reaches the rest of the machine
    _loopback_up()
    _call(_libc.sethostname(b"kernel", 6), "sethostname")
    # handles on what to keep, taken in the new namespace before /tmp (which may hold some) is covered
    handles = {path: os.open(path, os.O_PATH) for path in kept if not os.path.islink(path)}
    links = {path: os.readlink(path) for path in kept if os.path.islink(path)}  # /lib -> usr/lib on merged /usr
    channel_handle = os.open(channels, os.O_PATH)
    _mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=256m")
    os.mkdir(NEW_ROOT, 0o755)
    for path, target in links.items():
        os.makedirs(os.path.dirname(NEW_ROOT + path), exist_ok=True)
        os.symlink(target, NEW_ROOT + path)
    for path in sorted(set(handles) - set(learner)):  # the system, Python, the venv: parents before children
        _bind_read_only(handles.pop(path), path)
    for folder in covered:  # empty, read-only: the package's other rooms are not there to read
        os.makedirs(NEW_ROOT + folder, exist_ok=True)
        _mount("tmpfs", NEW_ROOT + folder, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=4k")
    for path in handles:  # the learner part's mount points, in its package's folder (a file is mounted on a file)
        if os.path.isdir(f"/proc/self/fd/{handles[path]}"):
            os.makedirs(NEW_ROOT + path, exist_ok=True)
        else:
            os.close(os.open(NEW_ROOT + path, os.O_CREAT | os.O_WRONLY, 0o444))
    for folder in covered:
        _mount(None, NEW_ROOT + folder, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    for path in sorted(handles):  # the learner part, back in place
        _bind_read_only(handles[path], path)
    _own_dev()
    os.makedirs(NEW_ROOT + "/proc", exist_ok=True)
    _mount("proc", NEW_ROOT + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY)
    os.makedirs(NEW_ROOT + os.path.dirname(channels), 0o711, exist_ok=True)
    os.mkdir(NEW_ROOT + channels, 0o700)
    _mount(f"/proc/self/fd/{channel_handle}", NEW_ROOT + channels, None, MS_BIND)
    _mount(None, NEW_ROOT + channels, None, MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NODEV | MS_NOEXEC)
    os.close(channel_handle)
    os.makedirs(NEW_ROOT + HOME, 0o700)
    os.chmod(NEW_ROOT + "/tmp", 0o1777)
    os.chown(NEW_ROOT + HOME, uid, uid)
    os.chroot(NEW_ROOT)
    os.chdir(HOME)
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
    _call(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl")
    _call(_libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0), "prctl")  # after setuid, which clears it: dies with its keeper
    os.environ.update(
        HOME=HOME,
        TMPDIR=HOME,
        IPYTHONDIR=os.path.join(HOME, ".ipython"),
        MPLCONFIGDIR=os.path.join(HOME, ".matplotlib"),
    )


def _bind_read_only(handle: int, path: str) -> None:
    """Mount what `handle` (an O_PATH descriptor, closed here) points to at `path` of the new root, read-only."""
    inside = NEW_ROOT + path
    if os.path.isdir(f"/proc/self/fd/{handle}"):
        os.makedirs(inside, exist_ok=True)
    _mount(f"/proc/self/fd/{handle}", inside, None, MS_BIND | MS_REC)
    _mount(None, inside, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.close(handle)


def _own_dev() -> None:
    """The new root's /dev: a read-only tmpfs holding DEVICES (made with the machine's device numbers), the
    DEVICE_LINKS, a devpts instance of its own with PTYS terminals at most, and a /dev/shm tmpfs of its own."""
    dev = NEW_ROOT + "/dev"
    os.makedirs(dev, exist_ok=True)
    _mount("tmpfs", dev, "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k")
    for name in DEVICES:
        device = os.stat(os.path.join("/dev", name)).st_rdev
        os.mknod(os.path.join(dev, name), stat.S_IFCHR | 0o666, device)
        os.chmod(os.path.join(dev, name), 0o666)  # mknod's mode is masked by the umask
    for name, target in DEVICE_LINKS.items():
        os.symlink(target, os.path.join(dev, name))
    os.mkdir(dev + "/pts", 0o755)
    os.mkdir(dev + "/shm", 0o755)
    _mount("devpts", dev + "/pts", "devpts", MS_NOSUID | MS_NOEXEC, f"newinstance,ptmxmode=0666,mode=0620,max={PTYS}")
    _mount("tmpfs", dev + "/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777,size=64m")
    _mount(None, dev, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC)


def _loopback_up() -> None:
    """Bring up `lo`, the only interface of a new network namespace (it starts down)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sh22x", b"lo", 0)
        flags = struct.unpack("16sh22x", fcntl.ioctl(sock, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sh22x", b"lo", flags | IFF_UP))


# ----------------------------------------------------------------- the kernel's channel folder


def channel_folder() -> str:
    """A new folder for one kernel's channels: root's (mode 0711) for good, so that the kernel can never
    replace what is in it, with an empty IPC sub-folder that only root may use until hand_over."""
    os.makedirs(CHANNELS, 0o711, exist_ok=True)
    top = os.lstat(CHANNELS)  # on /dev/shm, where anyone could have made it first
    if not stat.S_ISDIR(top.st_mode) or top.st_uid != os.geteuid() or top.st_mode & 0o022:
        raise IsolationError(errno.EPERM, f"{CHANNELS} is not a folder of this user's alone")
    if stat.S_IMODE(top.st_mode) != 0o711:  # made under a umask that closed it to the kernels (the hub's 007)
        os.chmod(CHANNELS, 0o711)  # this user's, in a sticky folder: no one else can have put another there
    folder = tempfile.mkdtemp(dir=CHANNELS)
    os.chmod(folder, 0o711)
    os.mkdir(os.path.join(folder, IPC), 0o700)
    return folder


def hand_over(folder: str, uid: int) -> None:
    """Before the kernel runs: give its user the IPC sub-folder, and let it read (as its group) the files
    the grading side wrote in the folder (its connection file), which stay root's."""
    for entry in os.scandir(folder):
        if entry.name == IPC:
            os.chown(entry.path, uid, uid)
        elif entry.is_file(follow_symlinks=False):
            os.chown(entry.path, 0, uid)
            os.chmod(entry.path, 0o640)


def socket_names(folder: str) -> set[str]:
    """The names of the sockets the kernel will bind in the IPC sub-folder, read from the connection file
    (root's, written by the grading side before hand_over)."""
    with open(os.path.join(folder, CONNECTION_FILE)) as file:
        info = json.load(file)
    if info.get("transport") != "ipc" or os.path.dirname(info["ip"]) != os.path.join(folder, IPC):
        raise IsolationError(errno.EINVAL, "the connection file does not name sockets in the IPC sub-folder")
    ports = [info[f"{channel}_port"] for channel in ("shell", "iopub", "stdin", "control", "hb")]
    return {os.path.basename(f"{info['ip']}-{port}") for port in ports}


def bound(folder: str, names: set[str]) -> bool:
    """Whether each of `names` is in the IPC sub-folder."""
    return all(os.path.lexists(os.path.join(folder, IPC, name)) for name in names)


def take_back(folder: str, uid: int) -> None:
    """Once the kernel has bound its sockets, before it runs any learner code: make the IPC sub-folder root's
    (readable by the kernel's group), so that the grading side's connections there, which follow links, can
    never be turned to another socket; refuse it if it holds anything but sockets."""
    handle = os.open(os.path.join(folder, IPC), os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        os.fchown(handle, 0, uid)
        os.fchmod(handle, 0o750)
        for entry in os.scandir(handle):
            if not stat.S_ISSOCK(entry.stat(follow_symlinks=False).st_mode):
                raise IsolationError(errno.EPERM, f"the kernel's channels hold {entry.name!r}, which is not a socket")
    finally:
        os.close(handle)


# ----------------------------------------------------------------- user ids


class UserId:
    """A user id for one kernel, held (a locked file) until release, across every process of the machine."""

    def __init__(self, uid: int, lock: int):
        self.uid = uid
        self.lock: int | None = lock  # None once released

    def release(self) -> None:
        """Give the id back: only once no process of the kernel is left."""
        if self.lock is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(os.path.join(USERS, str(self.uid)))  # while still locked: no one takes a stale file
            os.close(self.lock)
            self.lock = None


def take_uid(candidates=None) -> UserId:
    """A user id that no live process has and no other kernel holds.

    The search starts at this process's pid, so that kernels started one after another get
    different ids."""
    os.makedirs(USERS, 0o700, exist_ok=True)
    if candidates is None:
        start = os.getpid()
        candidates = (UID_BASE + (start + i) % UID_COUNT for i in range(UID_COUNT))
    busy = uids_in_use()
    for uid in candidates:
        if uid not in busy:
            lock = _lock(os.path.join(USERS, str(uid)))
            if lock is not None:
                return UserId(uid, lock)
    raise IsolationError(errno.EAGAIN, "no free user id for a kernel")


def _lock(path: str) -> int | None:
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if os.stat(path).st_ino == os.fstat(fd).st_ino:
            return fd
    except OSError:  # held by another kernel, or released (and removed) while we opened it
        pass
    os.close(fd)
    return None


def uids_in_use() -> set[int]:
    """Every user id (real, effective, saved or file system) of a process on this machine."""
    found: set[int] = set()
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/status", "rb") as status:
                    for line in status:
                        if line.startswith(b"Uid:"):
                            found.update(int(uid) for uid in line.split()[1:])
                            break
            except OSError:
                pass  # ended meanwhile
    return found


# ----------------------------------------------------------------- control groups


def _cgroup_mounts() -> dict[str, tuple[str, str]]:
    """{"memory" / "pids" (cgroup v1) or "cgroup2": (mount point, its root inside the hierarchy)}."""
    found: dict[str, tuple[str, str]] = {}
    with open("/proc/self/mountinfo") as mounts:
        for line in mounts:
            left, right = line.split(" - ", 1)
            root, mount_point = left.split()[3:5]
            fstype, _, options = right.split()[:3]
            names = (
                [o for o in options.split(",") if o in ("memory", "pids")]
                if fstype == "cgroup"
                else ["cgroup2"]
                if fstype == "cgroup2"
                else []
            )
            for name in names:
                found.setdefault(name, (mount_point, root))
    return found


def _own_cgroups() -> dict[str, str]:
    """{controller (or "cgroup2"): this process's group's path in that hierarchy}."""
    own = {}
    with open("/proc/self/cgroup") as groups:
        for line in groups:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for name in controllers.split(",") if controllers else ["cgroup2"]:
                own[name] = path
    return own


def _write(path: str, text: str) -> None:
    with open(path, "w") as file:
        file.write(text)


def _read(path: str) -> str:
    with open(path) as file:
        return file.read()


class Group:
    """One kernel's control group: its memory (every page of its processes, shared or not, and
    their tmpfs files) and its number of processes are capped; at the end it is killed and removed.

    cgroup v1 (a `memory` and a `pids` hierarchy) makes it inside the groups this process is in;
    cgroup v2, where that is the only hierarchy, under a `softmax-kernels` group at its top (a v2
    group that holds processes cannot have limited children). Making one needs root."""

    def __init__(self, name: str, memory: int, processes: int = PROCESSES):
        mounts, own = _cgroup_mounts(), _own_cgroups()
        self.v2 = not ("memory" in mounts and "pids" in mounts)
        if self.v2:
            if "cgroup2" not in mounts:
                raise IsolationError(errno.ENOTSUP, "no memory and pids control groups on this machine")
            top = mounts["cgroup2"][0]
            parent = os.path.join(top, "softmax-kernels")
            os.makedirs(parent, exist_ok=True)
            for folder in (top, parent):  # each group on the way down hands memory and pids to its children
                control = os.path.join(folder, "cgroup.subtree_control")
                if not {"memory", "pids"} <= set(_read(control).split()):
                    _write(control, "+memory +pids")
            self.folders = [os.path.join(parent, name)]
        else:
            self.folders = []
            for controller in ("memory", "pids"):
                mount_point, root = mounts[controller]
                inside = own.get(controller, "/")
                inside = inside[len(root) :] if root != "/" and inside.startswith(root) else inside
                self.folders.append(os.path.join(mount_point + inside.rstrip("/"), name))
        for folder in self.folders:
            if os.path.isdir(folder):  # left by a keeper that was killed: only its user's processes could be there
                self._kill(folder)
                self._remove(folder)
            os.mkdir(folder)
        self.memory_folder, self.pids_folder = self.folders[0], self.folders[-1]
        self.events: list[int] | None = None  # the file descriptors of `watch`, once it is called
        self.notified = False  # whether cgroup v1 has said that the group ran out of memory (see out_of_memory)
        if self.v2:
            self._set("memory.max", memory)
            self._set("memory.swap.max", 0, needed=False)
            self._set("memory.oom.group", 1, needed=False)  # the kernel's OOM killer takes the whole group
        else:
            self._set("memory.limit_in_bytes", memory)
            self._set("memory.memsw.limit_in_bytes", memory, needed=False)  # swap too, where it is accounted
        _write(os.path.join(self.pids_folder, "pids.max"), str(processes))

    def _set(self, name: str, value: int, needed: bool = True) -> None:
        path = os.path.join(self.memory_folder, name)
        if needed or os.path.exists(path):
            _write(path, str(value))

    def join(self) -> None:
        """Move this process into the group (in the forked kernel, before anything else)."""
        for folder in self.folders:
            _write(os.path.join(folder, "cgroup.procs"), "0")

    def watch(self) -> int:
        """A file descriptor that is ready (POLLIN or POLLPRI) when the group may have run out of memory."""
        if self.v2:
            self.events = [os.open(os.path.join(self.memory_folder, "memory.events"), os.O_RDONLY | os.O_CLOEXEC)]
        else:
            eventfd = os.eventfd(0, os.EFD_CLOEXEC | os.EFD_NONBLOCK)
            control = os.open(os.path.join(self.memory_folder, "memory.oom_control"), os.O_RDONLY | os.O_CLOEXEC)
            _write(os.path.join(self.memory_folder, "cgroup.event_control"), f"{eventfd} {control}")
            self.events = [eventfd, control]
        return self.events[0]

    def out_of_memory(self) -> bool:
        """Whether the group ran out of memory: cgroup v1 called its OOM killer for it, or a process of it was
        killed for lack of memory. Clears `watch`'s readiness.

        v1 signals the eventfd as its OOM killer starts, before the kill is counted in `oom_kill`, and may
        signal nothing after it (the rest fits once one process is gone): a notification read counts for good."""
        if self.events and not self.v2:
            try:
                self.notified = os.eventfd_read(self.events[0]) > 0 or self.notified
            except BlockingIOError:
                pass
        name = "memory.events" if self.v2 else "memory.oom_control"
        fields = dict(line.split() for line in _read(os.path.join(self.memory_folder, name)).splitlines())
        if self.events and self.v2:
            os.pread(self.events[0], 4096, 0)  # a fresh read is what clears POLLPRI
        return self.notified or int(fields.get("oom_kill", fields.get("under_oom", 0))) > 0

    def kill(self) -> None:
        """Kill every process of the group, and remove it (with the file descriptors of `watch`)."""
        for folder in self.folders:
            self._kill(folder)
        for folder in self.folders:
            self._remove(folder)
        for fd in self.events or ():
            os.close(fd)
        self.events = None

    @staticmethod
    def _kill(folder: str) -> None:
        if os.path.exists(os.path.join(folder, "cgroup.kill")):
            _write(os.path.join(folder, "cgroup.kill"), "1")
        for _ in range(500):
            pids = [int(pid) for pid in _read(os.path.join(folder, "cgroup.procs")).split()]
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, 9)
                except ProcessLookupError:
                    pass
            time.sleep(0.01)
        raise IsolationError(errno.EBUSY, f"processes of {folder} would not die")

    @staticmethod
    def _remove(folder: str) -> None:
        for _ in range(200):
            try:
                os.rmdir(folder)
                return
            except FileNotFoundError:
                return
            except OSError as error:  # EBUSY while the last exits are accounted
                if error.errno != errno.EBUSY:
                    raise
                time.sleep(0.01)
        os.rmdir(folder)
