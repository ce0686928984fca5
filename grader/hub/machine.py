"""The hub's folders on this machine, their owners and modes, and the settings file the hub reads.

<root>/                 root:root 0755
    hub.json            root 0600   the settings hub/jupyterhub_config.py reads (ports, names, a token)
    passwords.json      root 0600   the accounts' generated passwords, for the operator to hand out
    state/              root 0700   JupyterHub's database, cookie secret and proxy token
    python/             0755        a copy of the interpreter (grader.hub.environments)
    envs/student/       0755        the learner part only
    envs/instructor/    root:instructors 0750   the whole package
    course/             grader:instructors 2770  the course directory: nbgrader_config.py, solutions/,
                                    notebooks/ and, once used, .grading/ (gradebook, submissions)
    exchange/           the strict exchange (grader.exchange.layout)

The checkout the hub is set up from holds the solutions too, and is often readable by everyone: the
set-up closes it to other users (its top folder loses every permission of "other"), since the hub uses
the copy under <root> only.
"""

from __future__ import annotations

import grp
import json
import os
import pwd
import secrets
import shutil
import stat
import subprocess
from pathlib import Path

from grader.course import Course
from grader.exchange import FACTORY
from grader.exchange.layout import COURSE_MODE, FEEDBACK_MODE, INBOUND_MODE, OUTBOUND_MODE

from . import accounts as unix
from . import environments

DEFAULT_ROOT = Path("/srv/softmax-hub")


def chown(path: Path, user: str | int, group: str) -> None:
    os.chown(path, user if isinstance(user, int) else pwd.getpwnam(user).pw_uid, grp.getgrnam(group).gr_gid)


def make_folder(path: Path, user: str | int, group: str, mode: int) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    chown(path, user, group)
    os.chmod(path, mode)
    return path


def exchange(root: Path, course: str, people: unix.Accounts) -> Path:
    """The course's exchange folders, owned and moded as grader.exchange.layout says."""
    make_folder(root, 0, "root", 0o755)
    make_folder(root / course, 0, "root", COURSE_MODE)
    make_folder(root / course / "outbound", people.grader, people.group, OUTBOUND_MODE)
    make_folder(root / course / "inbound", 0, people.group, INBOUND_MODE)
    make_folder(root / course / "feedback", people.grader, people.group, FEEDBACK_MODE)
    return root


def exchange_settings(course: str, root: Path) -> str:
    """nbgrader settings for the hub: this exchange, its strict classes, and the course list from the hub's
    groups (nbgrader-<course>, formgrade-<course>)."""
    lines = [
        "# Written by grader.hub (python -m grader.hub): the hub's exchange.",
        f"c.CourseDirectory.course_id = {course!r}",
        f"c.Exchange.root = {str(root)!r}",
        "c.Exchange.path_includes_course = True",
        "c.Authenticator.plugin_class = 'nbgrader.auth.JupyterHubAuthPlugin'",
        *(f"c.ExchangeFactory.{trait} = {name!r}" for trait, name in FACTORY.items()),
    ]
    return "\n".join(lines) + "\n"


def course_copy(checkout: Path, into: Path, people: unix.Accounts, settings: str) -> Path:
    """The course directory the hub uses, made from the checkout's once (an existing one, with its gradebook
    and submissions, is kept: only its nbgrader settings are written again)."""
    if not into.exists():
        into.mkdir(parents=True)
        for folder in ("solutions", "notebooks"):
            shutil.copytree(checkout / folder, into / folder, ignore=shutil.ignore_patterns("__pycache__", ".*"))
    (into / ".grading").mkdir(exist_ok=True)  # the gradebook's folder: sqlite makes the file, not the folder
    original = (checkout / "nbgrader_config.py").read_text()
    (into / "nbgrader_config.py").write_text(original + "\n" + settings)
    for path in [into, *into.rglob("*")]:
        if not path.is_symlink():
            chown(path, people.grader, people.group)
            os.chmod(path, 0o2770 if path.is_dir() else 0o660)
    return into


def close_checkout(checkout: Path) -> list[str]:
    """Takes every permission of "other" from the checkout's top folder; says what it did, and names a git
    folder outside the checkout (a worktree's) that others can still read, which it leaves alone."""
    said = []
    mode = checkout.stat().st_mode
    if mode & 0o007:
        os.chmod(checkout, stat.S_IMODE(mode) & ~0o007)
        said.append(f"closed the checkout to other users (chmod o= {checkout}): the hub uses its own copy")
    found = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--path-format=absolute", "--git-common-dir"],
        capture_output=True,
        text=True,
    )
    common = Path(found.stdout.strip()) if found.returncode == 0 else None
    if common and not common.is_relative_to(checkout) and readable_by_others(common):
        said.append(f"warning: {common} (this checkout's git history, solutions included) is readable by others")
    return said


def readable_by_others(path: Path) -> bool:
    """Whether someone outside the owner and group can read `path` (every folder above it lets them pass)."""
    for folder in [*reversed(path.parents), path]:
        if not folder.stat().st_mode & 0o001:
            return False
    return bool(path.stat().st_mode & 0o004)


def set_up(checkout: Path, root: Path, people: unix.Accounts, ports: dict[str, int]) -> dict:
    """Everything the hub needs, made or brought up to date; returns the settings, also written to
    <root>/hub.json. Needs root."""
    make_folder(root, 0, "root", 0o755)
    unix.create(people, root / "passwords.json")
    course = Course(checkout).nbgrader_config().CourseDirectory.course_id
    exchange_root = exchange(root / "exchange", course, people)
    settings = exchange_settings(course, exchange_root)
    course_dir = course_copy(checkout, root / "course", people, settings)
    python = environments.runtime(root / "python")
    envs = make_folder(root / "envs", 0, "root", 0o755)
    student = environments.build("student", checkout, python, envs / "student")
    write_new(student / "etc" / "jupyter" / "nbgrader_config.py", settings)
    instructor = environments.build("instructor", checkout, python, envs / "instructor")
    write_new(instructor / "etc" / "jupyter" / "nbgrader_config.py", settings)
    chown(instructor, 0, people.group)
    os.chmod(instructor, 0o750)
    said = close_checkout(checkout)
    state = make_folder(root / "state", 0, "root", 0o700)
    previous = json.loads((root / "hub.json").read_text()) if (root / "hub.json").exists() else {}
    hub = {
        "course": course,
        "root": str(root),
        "state": str(state),
        "course_dir": str(course_dir),
        "exchange": str(exchange_root),
        "python_lib": str(python / "lib"),
        "student_env": str(student),
        "instructor_env": str(instructor),
        "proxy": str(checkout / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"),
        "ports": ports,
        "instructor": people.instructor,
        "grader": people.grader,
        "students": people.student_names,
        "operator_token": previous.get("operator_token") or secrets.token_hex(32),
        "said": said,
    }
    (root / "hub.json").touch(mode=0o600)
    os.chmod(root / "hub.json", 0o600)
    (root / "hub.json").write_text(json.dumps(hub, indent=1) + "\n")
    return hub


def write_new(path: Path, text: str) -> None:
    """A file of its own: the environments' folders are hard links to the running environment's files, which
    writing in place would change too."""
    path.unlink(missing_ok=True)
    path.write_text(text)
