"""The hub's two Python environments, built from the running one with no download:

- `student`: what a student's server and kernels run. The learner part of the package (softmax-learner:
  grader/__init__.py, grader/learner/, grader/exchange/) and the running environment's third-party
  packages (JupyterLab, nbgrader for its assignment list, NumPy ...); nbgrader's instructor tools hidden.
  The engine, the course and instructor tools and the proof are not there, so a student's kernel cannot
  import them. Readable by everyone.
- `instructor`: the whole package (softmax-grader), for the instructor's server and formgrader; readable
  by the instructors' group only.

Both run a copy of the running interpreter under the hub's folder: the running one may lie where
students cannot reach it (pyenv under /root). Everything is hard-linked where it can be (no disk), and
the running environment's editable install of this package is left out.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from grader.course.workspace import write_learner_lab_config

VERSION = f"python{sys.version_info.major}.{sys.version_info.minor}"


def link_or_copy(source: str, dest: str) -> None:
    """A hard link, or a copy across file systems; a file that vanished meanwhile (a .pyc being written by
    another process using the running environment) is left out."""
    try:
        os.link(source, dest)
    except FileNotFoundError:
        return
    except OSError as error:
        if error.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
            raise
        shutil.copy2(source, dest)


def linked_tree(source: Path, dest: Path, leave_out=()) -> None:
    shutil.copytree(
        source,
        dest,
        symlinks=True,
        copy_function=link_or_copy,
        ignore=lambda _, names: [name for name in names if name in leave_out or is_this_package(name)],
    )


def is_this_package(name: str) -> bool:
    """The running environment's install of this package (editable or not), which neither environment keeps."""
    return name.startswith(("__editable__.softmax_grader", "__editable___softmax_grader", "softmax_grader-"))


def runtime(into: Path) -> Path:
    """A copy of the running interpreter (the program, its shared library, the standard library)."""
    base = Path(sys.base_prefix)
    if not (into / "bin" / VERSION).exists():
        (into / "bin").mkdir(parents=True, exist_ok=True)
        link_or_copy(str(base / "bin" / VERSION), str(into / "bin" / VERSION))
        (into / "lib").mkdir(exist_ok=True)
        for library in (base / "lib").glob("libpython*"):
            if library.is_symlink():
                (into / "lib" / library.name).symlink_to(os.readlink(library))
            else:
                link_or_copy(str(library), str(into / "lib" / library.name))
        linked_tree(base / "lib" / VERSION, into / "lib" / VERSION, leave_out=("site-packages", "test"))
        (into / "lib" / VERSION / "site-packages").mkdir()
    return into


def runtime_environment(python: Path) -> dict[str, str]:
    """What a process of the copied interpreter needs: its own shared library, found before the original's."""
    return {"LD_LIBRARY_PATH": str(python / "lib"), "PATH": "/usr/bin:/bin"}


# Left out of both environments: rfc3987_syntax compiles a grammar when jsonschema imports it, a second of CPU at
# the start of every Jupyter server (formgrader, which the hub waits for, and each person's), for two format checks
# that nothing there runs; without it jsonschema leaves them out, as grader/__init__.py has it do for the grader.
LEFT_OUT = "rfc3987_syntax"  # the package and its .dist-info


def stamp_of(sources: list[Path]) -> str:
    """A digest of what an environment is built from (the running environment's packages by name, what is left out
    of them, and the package's files it installs): a change rebuilds it."""
    digest = hashlib.sha256(sys.version.encode() + LEFT_OUT.encode())
    site = Path(sysconfig.get_paths()["purelib"])
    digest.update("\n".join(sorted(os.listdir(site))).encode())
    for source in sources:
        for path in sorted(source.rglob("*") if source.is_dir() else [source]):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(source.parent)).encode() + path.read_bytes())
    return digest.hexdigest()


def build(kind: str, checkout: Path, python: Path, into: Path) -> Path:
    """The `kind` ("student" or "instructor") environment at `into`, rebuilt only when what it is made of
    changed. Returns `into`."""
    package = checkout / "grader"
    sources = [package / name for name in LEARNER_PACKAGE] if kind == "student" else [package]
    stamp = stamp_of([*sources, checkout / "requirements.txt"])
    if (into / ".stamp").exists() and (into / ".stamp").read_text() == stamp:
        return into
    if into.exists():
        shutil.rmtree(into)
    env = {**runtime_environment(python), "HOME": "/root"}
    subprocess.run([python / "bin" / VERSION, "-m", "venv", "--without-pip", into], check=True, env=env)
    site = into / "lib" / VERSION / "site-packages"
    site.rmdir()
    packages = Path(sysconfig.get_paths()["purelib"])
    linked_tree(packages, site, leave_out=[name for name in os.listdir(packages) if name.startswith(LEFT_OUT)])
    for shared in ("etc", "share"):
        if (Path(sys.prefix) / shared).is_dir():
            linked_tree(Path(sys.prefix) / shared, into / shared)
    commands_of(Path(sys.prefix) / "bin", into / "bin")
    with tempfile.TemporaryDirectory() as scratch:
        source = source_of(kind, checkout, Path(scratch) / "source")
        subprocess.run(
            [into / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
             "--no-build-isolation", "--no-index", "--ignore-installed", source],
            check=True, env=env, cwd=scratch,
        )  # fmt: skip
    if kind == "student":
        write_learner_lab_config(into / "etc" / "jupyter")
    (into / ".stamp").write_text(stamp)
    return into


LEARNER_PACKAGE = ("__init__.py", "learner", "exchange")  # of grader/, what softmax-learner ships


def source_of(kind: str, checkout: Path, into: Path) -> Path:
    """What the distribution is built from, copied under `into` so that building writes nothing into the
    checkout; the folder to build. softmax-learner's pyproject.toml reads the package from ../../grader, so its
    copy keeps that layout."""
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    if kind == "instructor":
        shutil.copytree(checkout / "grader", into / "grader", ignore=ignore)
        shutil.copy(checkout / "pyproject.toml", into)
        return into
    for name in LEARNER_PACKAGE:
        source = checkout / "grader" / name
        if source.is_dir():
            shutil.copytree(source, into / "grader" / name, ignore=ignore)
        else:
            (into / "grader").mkdir(parents=True, exist_ok=True)
            shutil.copy(source, into / "grader")
    learner = into / "packaging" / "learner"
    learner.mkdir(parents=True)
    shutil.copy(checkout / "packaging" / "learner" / "pyproject.toml", learner)
    return learner


def commands_of(shared: Path, bin_folder: Path) -> None:
    """The running environment's commands (jupyterhub-singleuser, jupyter, nbgrader ...), each run by the new
    environment's python."""
    for script in sorted(shared.iterdir()):
        target = bin_folder / script.name
        if target.exists() or target.is_symlink() or not script.is_file() or script.is_symlink():
            continue
        head = script.read_bytes()[:512]
        first = head.split(b"\n", 1)[0]
        if first.startswith(b"#!") and same_folder(os.path.dirname(first[2:].decode().strip()), shared):
            text = script.read_bytes()
            target.write_bytes(b"#!" + str(bin_folder / "python").encode() + text[len(first) :])
            target.chmod(0o755)


def same_folder(named: str, shared: Path) -> bool:
    """Whether a script's interpreter folder is the running environment's, reached by whatever path (a link, or
    a bind mount, where the paths differ but the folder is one)."""
    try:
        return os.path.samefile(named, shared)
    except OSError:
        return False
