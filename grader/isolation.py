"""A grading kernel's own file tree and its own user, set up in the forked kernel before any learner code.

When grading runs as root, each kernel gets a private mount namespace whose root is a fresh,
empty tmpfs holding, read-only, only what a kernel needs: the system's programs and libraries,
Python, the virtual environment, and this package without its catalogue of correct
alternatives. The course (gradebook, solutions, submissions), the sandbox with the notebook
and its hidden tests, home directories and other kernels' connection files are simply not
there. The kernel then drops to a user id of its own (100000 + its pid, in no group), so it
cannot undo any of this, write outside its own directory, or signal another kernel.
"""
from __future__ import annotations

import ctypes
import os
import sys

CLONE_NEWNS = 0x00020000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 32, 4096, 16384, 1 << 18
PR_SET_NO_NEW_PRIVS = 38
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc", "/dev", "/proc")
NEW_ROOT = "/tmp/softmax-kernel-root"  # made inside a tmpfs that covers /tmp in the kernel's namespace only
HOME = "/tmp/kernel"                   # the kernel's directory, as seen from inside
UID_BASE = 100000
PACKAGE = os.path.dirname(os.path.abspath(__file__))

_libc = ctypes.CDLL(None, use_errno=True)


class IsolationError(OSError):
    """The kernel could not be isolated (it then must not run the learner's code)."""


def available() -> bool:
    """Isolation needs root (to mount and change user) on Linux."""
    return sys.platform.startswith("linux") and os.geteuid() == 0


def _call(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise IsolationError(errno, f"{what}: {os.strerror(errno)}")


def _mount(source, target: str, fstype, flags: int, data=None) -> None:
    encode = lambda text: None if text is None else text.encode()  # noqa: E731
    _call(_libc.mount(encode(source), encode(target), encode(fstype), flags, encode(data)), f"mount {target}")


def kept_paths() -> list[str]:
    """What the kernel may read: the system, Python, the virtual environment and this package."""
    paths = [p for p in SYSTEM if os.path.lexists(p)] + [sys.base_prefix, sys.prefix, PACKAGE]
    return list(dict.fromkeys(os.path.abspath(p) for p in paths))


def hidden_inside() -> list[str]:
    """Folders inside kept ones that stay empty: the catalogue's correct alternatives are solutions."""
    return [os.path.join(PACKAGE, "catalogue")]


def enter_own_tree(connection: bytes) -> str:
    """Move this (forked, still root) process into its own tree and user; return its connection file's path.

    `connection` is the kernel's connection file, read before the old tree disappeared.
    """
    kept = kept_paths()
    _call(_libc.unshare(CLONE_NEWNS), "unshare")
    _mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing done here reaches the rest of the machine
    # handles on what to keep, taken in the new namespace before /tmp (which may hold some) is covered
    handles = {path: os.open(path, os.O_PATH) for path in kept if not os.path.islink(path)}
    links = {path: os.readlink(path) for path in kept if os.path.islink(path)}  # /lib -> usr/lib on merged /usr
    _mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=256m")
    os.mkdir(NEW_ROOT, 0o755)
    for path, target in links.items():
        os.makedirs(os.path.dirname(NEW_ROOT + path), exist_ok=True)
        os.symlink(target, NEW_ROOT + path)
    for path in sorted(handles):  # parents before children
        inside = NEW_ROOT + path
        if os.path.isdir(f"/proc/self/fd/{handles[path]}"):
            os.makedirs(inside, exist_ok=True)
        _mount(f"/proc/self/fd/{handles[path]}", inside, None, MS_BIND | MS_REC)
        flags = MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | (0 if path == "/dev" else MS_NODEV)
        _mount(None, inside, None, flags)
        os.close(handles[path])
    for path in hidden_inside():
        if os.path.isdir(NEW_ROOT + path):
            _mount("tmpfs", NEW_ROOT + path, "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "mode=0555,size=4k")
    if os.path.isdir(NEW_ROOT + "/dev/shm"):
        _mount("tmpfs", NEW_ROOT + "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777,size=64m")
    uid = UID_BASE + os.getpid()
    os.makedirs(NEW_ROOT + HOME, 0o700)
    os.chmod(NEW_ROOT + "/tmp", 0o1777)
    os.chown(NEW_ROOT + HOME, uid, uid)
    connection_file = os.path.join(HOME, "kernel.json")
    with open(NEW_ROOT + connection_file, "wb") as file:
        file.write(connection)
    os.chown(NEW_ROOT + connection_file, uid, uid)
    os.chroot(NEW_ROOT)
    os.chdir(HOME)
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
    _call(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl")
    os.environ.update(HOME=HOME, TMPDIR=HOME, IPYTHONDIR=os.path.join(HOME, ".ipython"),
                      MPLCONFIGDIR=os.path.join(HOME, ".matplotlib"))
    return connection_file
