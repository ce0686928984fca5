"""A fresh clone of one commit of this checkout, with this checkout's venv in it, as benchmarks/repeat.py runs the
suite in and as its test inspects."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent


def git(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)


@contextmanager
def fresh_clone(commit: str):
    """A clone of `commit` in a temporary folder, with this checkout's .venv in it; removed afterwards.

    The venv is a hard-linked copy (`cp -al`: a real folder, as isolated kernels need, on the same mount, as
    hard-linking tests need, and no disk): whatever a run deletes there is its own link, never the shared venv.
    What the venv is made from gets the stamp's time to the nanosecond, so a test that runs make in the clone
    does not rebuild it."""
    top = Path(tempfile.mkdtemp(prefix="repeat-"))
    top.chmod(0o755)  # as a checkout is: a kernel's own user runs the clone's venv (mkdtemp made it root's alone)
    clone, venv, shared = top / "clone", top / "clone" / ".venv", REPOSITORY / ".venv"
    try:
        for args, cwd in (
            (("clone", "--quiet", "--no-checkout", str(REPOSITORY), str(clone)), top),
            (("checkout", "--quiet", "--detach", commit), clone),
        ):
            done = git(*args, cwd=cwd)
            if done.returncode:
                said = (done.stderr.strip() or f"exit status {done.returncode}").splitlines()[-1]
                raise SystemExit(f"repeat.py: git {args[0]} failed: {said}")
        linked = subprocess.run(["cp", "-al", str(shared), str(venv)], capture_output=True, text=True)
        if linked.returncode:
            raise SystemExit(f"repeat.py: could not link {shared} into the clone: {linked.stderr.strip()}")
        built = (shared / ".installed").stat().st_mtime_ns
        for made_from in ("requirements.txt", "pyproject.toml"):
            os.utime(clone / made_from, ns=(built, built))
        yield clone
    finally:
        shutil.rmtree(top, ignore_errors=True)
