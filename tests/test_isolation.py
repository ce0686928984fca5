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
from tests.conftest import COURSE, run_apart
from tests.test_warmkernel import run_in_kernel

pytestmark = pytest.mark.skipif(not isolation.available() and not os.environ.get("CI"),
                                reason="kernel isolation needs root on Linux (CI runs these as root)")

PROBE = '''
import json, os, sys, tempfile
import grader, numpy, matplotlib.pyplot as plt

def attempt(action):
    try:
        action()
        return "done"
    except OSError as error:
        return type(error).__name__

package = os.path.dirname(grader.__file__)
plt.plot([1, 2], [3, 4])
print(json.dumps({
    "uid": os.getuid(), "gid": os.getgid(), "groups": os.getgroups(), "cwd": os.getcwd(),
    "here": sorted(os.listdir(".")), "tmp": sorted(os.listdir("/tmp")),
    "repo": sorted(os.listdir(os.path.dirname(package))),
    "catalogue": sorted(os.listdir(os.path.join(package, "proof"))),
    "sees": {path: os.path.exists(path) for path in PATHS},
    "signal_test_process": attempt(lambda: os.kill(TEST_PID, 0)),
    "write_package": attempt(lambda: tempfile.NamedTemporaryFile(dir=package).close()),  # leaves nothing behind
    "chroot": attempt(lambda: os.chroot("/")),
    "setuid_root": attempt(lambda: os.setuid(0)),
    "numpy": float(numpy.exp(0.0)),
}))
'''


def probe(tmp_path, isolate: bool) -> dict:
    """What a kernel started in `tmp_path` (as grading starts them) can see and do."""
    secret = tmp_path / "hidden_tests.ipynb"
    secret.write_text("{}")
    paths = [str(secret), str(COURSE.root / "solutions"), str(COURSE.root / ".grading"), str(COURSE.root / ".git"),
             str(COURSE.root / "tests"), os.path.expanduser("~/.local/share/jupyter/runtime")]
    code = f"PATHS = {paths!r}\nTEST_PID = {os.getpid()}\n" + PROBE

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
    assert seen["catalogue"] == []  # the correct alternatives are solutions too
    assert seen["numpy"] == 1.0


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
    assert seen["catalogue"] and seen["uid"] == os.getuid()
