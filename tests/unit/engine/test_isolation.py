"""A grading kernel has its own file tree and user: the course, the sandbox, home folders and
other kernels are out of its reach, and it cannot undo that (grader/engine/isolation.py).

Isolation needs root; in CI these tests run as root and must pass. Elsewhere, without root,
they skip and say why.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

import pytest

from grader.engine import isolation
from tests.support import COURSE, run_apart, run_in_kernel

pytestmark = pytest.mark.skipif(
    not isolation.available() and not os.environ.get("CI"),
    reason="kernel isolation needs root on Linux (CI runs these as root)",
)

PROBE = '''
import json, os, sys, tempfile
import grader, numpy, matplotlib.pyplot as plt

def attempt(action):
    try:
        action()
        return "done"
    except (OSError, ImportError) as error:
        return type(error).__name__

def read_first_module(folder):
    """Read some module of `folder` (which may not be there)."""
    with open(os.path.join(folder, sorted(n for n in os.listdir(folder) if n.endswith(".py"))[0])) as module:
        module.read()

def learner_checks_work():
    from grader.learner import checks
    checks.check_call(numpy.exp, numpy.zeros(2), expect=numpy.ones(2))
    try:
        checks.check_call(numpy.exp, numpy.zeros(2), expect=numpy.zeros(2))
    except checks.CheckFailed:
        return
    raise AssertionError("a wrong answer passed")

def copies():
    """Where each finder and sys.path entry would find the package, and what is there (or what listing it raised)."""
    import importlib.util
    folders = {os.path.join(entry, "grader") for entry in sys.path if os.path.isdir(os.path.join(entry, "grader"))}
    for finder in sys.meta_path:
        try:
            spec = finder.find_spec("grader", None)
        except Exception:
            spec = None
        folders.update((spec and spec.submodule_search_locations) or [])
    listing = {}
    for folder in folders:
        try:
            listing[folder] = sorted(os.listdir(folder))
        except OSError as error:
            listing[folder] = type(error).__name__
    return listing

package = os.path.dirname(grader.__file__)
plt.plot([1, 2], [3, 4])
print(json.dumps({
    "uid": os.getuid(), "gid": os.getgid(), "groups": os.getgroups(), "cwd": os.getcwd(),
    "here": sorted(os.listdir(".")), "tmp": sorted(os.listdir("/tmp")),
    "repo": sorted(os.listdir(os.path.dirname(package))),
    "package": sorted(name for name in os.listdir(package) if name != "__pycache__"),
    "rooms": {room: {"list": attempt(lambda: os.listdir(os.path.join(package, room))),
                     "read": attempt(lambda: read_first_module(os.path.join(package, room)))}
              for room in ROOMS},
    "imports": {name: attempt(lambda: __import__(name)) for name in ("grader.proof.alternatives",
                                                                     "grader.engine.sandbox",
                                                                     "grader.course.release",
                                                                     "grader.instructor.collect")},
    "checks": attempt(learner_checks_work),
    "copies": copies(),
    "sees": {path: os.path.exists(path) for path in PATHS},
    "signal_test_process": attempt(lambda: os.kill(TEST_PID, 0)),
    "write_package": attempt(lambda: tempfile.NamedTemporaryFile(dir=package).close()),  # leaves nothing behind
    "chroot": attempt(lambda: os.chroot("/")),
    "setuid_root": attempt(lambda: os.setuid(0)),
    "numpy": float(numpy.exp(0.0)),
}))
'''


OTHER_ROOMS = ("engine", "course", "instructor", "proof")  # of the package, what a kernel must not read


def probe(tmp_path, isolate: bool) -> dict:
    """What a kernel started in `tmp_path` (as grading starts them) can see and do."""
    secret = tmp_path / "hidden_tests.ipynb"
    secret.write_text("{}")
    paths = [
        str(secret),
        str(COURSE.root / "solutions"),
        str(COURSE.root / ".grading"),
        str(COURSE.root / ".git"),
        str(COURSE.root / "tests"),
        os.path.expanduser("~/.local/share/jupyter/runtime"),
    ]
    code = f"PATHS = {paths!r}\nTEST_PID = {os.getpid()}\nROOMS = {OTHER_ROOMS!r}\n" + PROBE

    async def main():
        out, km = await run_in_kernel(code, tmp_path, isolate=isolate)
        await km.shutdown_kernel(now=True)
        return json.loads(out)

    return run_apart(asyncio.run, main())


def test_grading_runs_as_root_here_so_kernels_are_isolated():
    assert isolation.available(), "CI must grade as root on Linux, or kernels are not isolated"


def test_an_isolated_kernel_sees_only_what_it_needs_and_runs_as_its_own_user(tmp_path):
    seen = probe(tmp_path, isolate=True)
    assert seen["uid"] >= isolation.UID_BASE and seen["gid"] == seen["uid"] and seen["groups"] == []
    assert seen["cwd"] == isolation.HOME and "hidden_tests.ipynb" not in seen["here"]
    kept_in_tmp = {path.split("/")[2] for path in isolation.kept_paths() if path.startswith("/tmp/")}
    assert set(seen["tmp"]) == {"kernel"} | kept_in_tmp  # a clone under /tmp keeps its venv and grader/
    assert not any(seen["sees"].values()), seen["sees"]
    assert set(seen["repo"]) <= {"grader", os.path.basename(sys.prefix)}, seen["repo"]
    assert seen["numpy"] == 1.0


def test_an_isolated_kernel_has_of_the_package_only_its_learner_part(tmp_path):
    seen = probe(tmp_path, isolate=True)
    assert seen["package"] == ["__init__.py", "learner"]
    assert seen["checks"] == "done"  # grader.learner.checks imports, passes a right answer and fails a wrong one
    for room, tried in seen["rooms"].items():  # the engine, the course, the instructor's tools, the proof's solutions
        assert tried == {"list": "FileNotFoundError", "read": "FileNotFoundError"}, room
    assert set(seen["imports"].values()) == {"ModuleNotFoundError"}, seen["imports"]
    for folder, listing in seen["copies"].items():  # no other copy (an editable install's finder's, say) shows more
        assert listing in (["__init__.py", "learner"], "FileNotFoundError"), (folder, listing)


def test_an_isolated_kernel_cannot_undo_it_or_reach_other_processes(tmp_path):
    seen = probe(tmp_path, isolate=True)
    assert seen["signal_test_process"] == "ProcessLookupError"  # not even there: its own PID namespace
    assert seen["write_package"] in ("PermissionError", "OSError")  # a read-only file system
    assert seen["chroot"] == "PermissionError" and seen["setuid_root"] == "PermissionError"


def test_two_isolated_kernels_have_different_users(tmp_path):
    assert probe(tmp_path, isolate=True)["uid"] != probe(tmp_path, isolate=True)["uid"]


def test_the_probe_does_see_everything_without_isolation(tmp_path):
    seen = probe(tmp_path, isolate=False)  # the control: the same probe notices what isolation hides
    assert seen["sees"][str(tmp_path / "hidden_tests.ipynb")] and seen["sees"][str(COURSE.root / "solutions")]
    assert seen["uid"] == os.getuid() and seen["checks"] == "done"
    assert set(seen["package"]) >= {"__init__.py", "learner", *OTHER_ROOMS}
    assert all(tried == {"list": "done", "read": "done"} for tried in seen["rooms"].values()), seen["rooms"]
    assert set(seen["imports"].values()) == {"done"}, seen["imports"]


def test_a_kept_link_keeps_its_target_too(tmp_path, monkeypatch):
    """A virtual environment that is a link to another folder (a git worktree's, say): the kernel needs what
    the link points to, or it has no Python at all."""
    link = tmp_path / "venv"
    link.symlink_to(os.path.realpath(sys.prefix), target_is_directory=True)
    monkeypatch.setattr(sys, "prefix", str(link))
    kept = isolation.kept_paths()
    assert str(link) in kept and os.path.realpath(sys.base_prefix) in [os.path.realpath(p) for p in kept]
    assert os.path.realpath(link) in kept or any(
        os.path.commonpath([os.path.realpath(link), folder]) == folder for folder in kept if not os.path.islink(folder)
    )
    assert "/usr/lib" not in kept  # /lib -> usr/lib is inside /usr, kept already


TERMINALS = """
import json, os, subprocess
held, refused = [], None
try:
    while len(held) < 64:
        held.append(os.openpty())
except OSError as error:
    refused = error.errno
with open("/dev/urandom", "rb") as random, open("/dev/null", "wb") as null:
    null.write(random.read(16))
print(json.dumps({"dev": sorted(os.listdir("/dev")), "held": len(held), "refused": refused,
                  "shm": os.statvfs("/dev/shm").f_blocks * os.statvfs("/dev/shm").f_frsize}))
"""


def machine_terminals() -> tuple[int, list[str]]:
    """The terminals taken on this machine, every devpts together, and those of its own /dev/pts."""
    with open("/proc/sys/kernel/pty/nr") as count:
        return int(count.read()), sorted(os.listdir("/dev/pts"))


def test_an_isolated_kernel_has_a_dev_of_its_own_and_takes_no_terminal_of_the_machine(tmp_path):
    """It gets the harmless devices, the usual links, its own /dev/shm and PTYS terminals of a devpts of its own:
    no disk, no console, and no terminal of the machine's pool, which a kernel holding them would deny to everyone."""

    async def main():
        from grader.engine.warmkernel import ForkedKernelManager

        before = machine_terminals()
        km = ForkedKernelManager(kernel_name="python3", isolate=True)
        await km.start_kernel(cwd=str(tmp_path), env=dict(os.environ))
        client = km.client()
        client.start_channels()
        await client.wait_for_ready(timeout=30)
        printed: list[str] = []
        keep = lambda msg: printed.append(msg["content"].get("text", "")) if msg["msg_type"] == "stream" else None  # noqa: E731
        reply = await client.execute_interactive(TERMINALS, timeout=30, output_hook=keep)
        held = machine_terminals()  # while the kernel holds all it could get
        seen = json.loads("".join(printed))
        printed.clear()
        release_then_shell = "for pair in held:\n    os.close(pair[0]), os.close(pair[1])\n!echo through a terminal"
        shell = await client.execute_interactive(release_then_shell, timeout=30, output_hook=keep)
        client.stop_channels()
        await km.shutdown_kernel(now=True)
        return reply["content"], seen, shell["content"], "".join(printed), before, held, machine_terminals()

    reply, seen, shell, echoed, before, held, after = run_apart(asyncio.run, main())
    assert reply["status"] == "ok", reply
    assert held[1] == before[1], f"the kernel took {len(held[1]) - len(before[1])} of the machine's own terminals"
    assert held[0] - before[0] == seen["held"] == isolation.PTYS and seen["refused"] == 28  # ENOSPC: its own are full
    assert after == before
    assert seen["dev"] == sorted([*isolation.DEVICES, *isolation.DEVICE_LINKS, "pts", "shm"])
    assert shell["status"] == "ok" and echoed.strip() == "through a terminal"  # IPython's `!` takes a terminal
    assert seen["shm"] == 64 * 2**20
