"""The hub's folders on this machine, their owners and modes, and the settings file the hub reads.

<root>/                 root:root 0755
    hub.json            root 0600   the settings jupyterhub-setup/jupyterhub_config.py reads (ports, names, a token)
    passwords.json      root 0600   the accounts' generated passwords, for the operator to hand out
    state/              root 0700   JupyterHub's database, cookie secret and proxy token
    python/             0755        a copy of the interpreter (grader.hub.environments)
    envs/student/       0755        the learner part only
    envs/instructor/    0755        the whole package, in its site-packages/grader/: root:instructors 0750
    course/             grader:instructors 2770  the course directory: nbgrader_config.py, solutions/,
                                    notebooks/, .grading/ (the gradebook, every lesson generated into it
                                    at the first set-up; then submissions, grades)
    exchange/           the strict exchange (grader.exchange.layout)

The grader account's login shell (`su - sm-grader`) starts in the course directory with the instructors'
environment (a block of its ~/.profile).

The checkout the hub is set up from holds the solutions too, and is often readable by everyone: the
set-up closes it to other users (its top folder loses every permission of "other"), since the hub uses
the copy under <root> only; hub.json records the mode it had, which --remove puts back.
"""

from __future__ import annotations

import contextlib
import grp
import json
import os
import pwd
import secrets
import shutil
import sqlite3
import stat
import subprocess
from pathlib import Path

from grader.course import Course
from grader.exchange import FACTORY
from grader.exchange.layout import COURSE_MODE, FEEDBACK_MODE, INBOUND_MODE, OUTBOUND_MODE

from . import accounts as unix
from . import environments

DEFAULT_ROOT = Path("/srv/softmax-hub")
# The checkout's folder of what JupyterHub itself runs with (apart from this package): its settings file, and its
# proxy, npm's configurable-http-proxy, installed there by `make hub`.
JUPYTERHUB_FILES = Path("jupyterhub-setup")
CONFIG = JUPYTERHUB_FILES / "jupyterhub_config.py"
PROXY = JUPYTERHUB_FILES / "node_modules" / ".bin" / "configurable-http-proxy"


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
    """nbgrader settings for the people's servers: this exchange, its strict classes, and each person's courses
    read from the hub's groups (nbgrader-<course>, formgrade-<course>) by nbgrader's JupyterHubAuthPlugin."""
    lines = [
        "# Written by grader.hub (python -m grader.hub): the hub's exchange.",
        f"c.CourseDirectory.course_id = {course!r}",
        f"c.Exchange.root = {str(root)!r}",
        "c.Exchange.path_includes_course = True",
        "c.Authenticator.plugin_class = 'nbgrader.auth.JupyterHubAuthPlugin'",
        *(f"c.ExchangeFactory.{trait} = {name!r}" for trait, name in FACTORY.items()),
    ]
    return "\n".join(lines) + "\n"


def course_settings(course: str, root: Path) -> str:
    """nbgrader settings for the course directory, read by what runs there as the grader account: formgrader,
    `python -m grader` and `nbgrader`. The exchange's, but no JupyterHubAuthPlugin: it asks the hub who runs it
    (JUPYTERHUB_USER, which only a server of the hub has), and `grader release` and `grade` run in a shell. The
    course is this one, and the hub's groups are the set-up's (jupyterhub-setup/jupyterhub_config.py), so it has
    nothing to tell them."""
    return exchange_settings(course, root) + "c.Authenticator.plugin_class = 'nbgrader.auth.NoAuthPlugin'\n"


def course_copy(checkout: Path, into: Path, settings: str) -> Path:
    """The course directory the hub uses, made from the checkout's once (an existing one, with its gradebook
    and submissions, is kept: only its nbgrader settings are written again)."""
    if not into.exists():
        into.mkdir(parents=True)
        for folder in ("solutions", "notebooks"):
            shutil.copytree(checkout / folder, into / folder, ignore=shutil.ignore_patterns("__pycache__", ".*"))
    (into / ".grading").mkdir(exist_ok=True)  # the gradebook's folder: sqlite makes the file, not the folder
    original = (checkout / "nbgrader_config.py").read_text()
    (into / "nbgrader_config.py").write_text(original + "\n" + settings)
    return into


def give_to_grader(course_dir: Path, people: unix.Accounts) -> None:
    """Every file of the course directory the grader account's, and the instructors' group's to read and write."""
    for path in [course_dir, *course_dir.rglob("*")]:
        if not path.is_symlink():
            chown(path, people.grader, people.group)
            os.chmod(path, 0o2770 if path.is_dir() else 0o660)


def lessons_in_gradebook(course_dir: Path) -> set[str]:
    """The lessons the course's gradebook holds (nbgrader's table of assignments), read without changing it."""
    database = course_dir / ".grading" / "gradebook.db"
    if not database.exists():
        return set()
    with contextlib.closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)) as gradebook:
        return {name for (name,) in gradebook.execute("SELECT name FROM assignment")}


def every_lesson_generated(course_dir: Path, people: unix.Accounts, instructor_env: Path, python: Path) -> list[str]:
    """Each lesson missing from the course's gradebook put there, as `grader release --no-exchange` does, run as the
    grader account: formgrader's Release publishes notebooks/ as it is, and its Autograde, like `grader grade`,
    needs the lesson in the gradebook (which nbgrader's generate step puts there). Says what it did."""
    missing = [lesson for lesson in Course(course_dir).lesson_ids() if lesson not in lessons_in_gradebook(course_dir)]
    if not missing:
        return []
    subprocess.run(
        ["runuser", "-u", people.grader, "--", "env", "-i", *as_grader(people, instructor_env, python),
         "python", "-m", "grader", "release", "--no-exchange", *missing],
        cwd=course_dir, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return [f"generated {len(missing)} lesson(s) into the course's gradebook (grader release --no-exchange)"]


def as_grader(people: unix.Accounts, instructor_env: Path, python: Path) -> list[str]:
    """The environment of a command of the grader account: the instructors' environment, its home."""
    home = pwd.getpwnam(people.grader).pw_dir
    return [f"PATH={instructor_env}/bin:/usr/bin:/bin", f"LD_LIBRARY_PATH={python / 'lib'}", f"HOME={home}"]


PROFILE_BEGIN = "# >>> softmax hub (written by python -m grader.hub)"
PROFILE_END = "# <<< softmax hub"


def grader_shell(people: unix.Accounts, course_dir: Path, instructor_env: Path, python: Path) -> None:
    """The grader account's login shell (`su - sm-grader`) in the course directory, with the instructors'
    environment first on PATH, and files it writes kept the instructors' group's: `python -m grader release`
    and `grade` run there as docs/howto/hub.md says. A block of its own in ~/.profile, written again at each set-up."""
    profile = Path(pwd.getpwnam(people.grader).pw_dir) / ".profile"
    kept = profile.read_text() if profile.exists() else ""
    if PROFILE_BEGIN in kept:
        before, _, rest = kept.partition(PROFILE_BEGIN)
        kept = before + rest.partition(PROFILE_END + "\n")[2]
    block = [
        PROFILE_BEGIN,
        f'export PATH="{instructor_env}/bin:$PATH" LD_LIBRARY_PATH="{python / "lib"}"',
        "umask 007",
        f"cd {course_dir}",
        PROFILE_END,
    ]
    profile.write_text(kept + "\n".join(block) + "\n")
    chown(profile, people.grader, people.grader)


def close_checkout(checkout: Path) -> tuple[list[str], int | None]:
    """Takes every permission of "other" from the checkout's top folder; says what it did, and names a git
    folder outside the checkout (a worktree's) that others can still read, which it leaves alone. Returns what
    it said and the mode it changed (None if it changed none), for --remove to put back."""
    said = []
    mode = checkout.stat().st_mode
    changed = None
    if mode & 0o007:
        changed = stat.S_IMODE(mode)
        os.chmod(checkout, changed & ~0o007)
        said.append(f"closed the checkout to other users (chmod o= {checkout}): the hub uses its own copy")
    found = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--path-format=absolute", "--git-common-dir"],
        capture_output=True,
        text=True,
    )
    common = Path(found.stdout.strip()) if found.returncode == 0 else None
    if common and not common.is_relative_to(checkout) and readable_by_others(common):
        said.append(f"warning: {common} (this checkout's git history, solutions included) is readable by others")
    return said, changed


def reopen_checkout(settings: dict) -> list[str]:
    """Gives the checkout back the permissions of "other" that the set-up took (as hub.json recorded them)."""
    checkout, mode = settings.get("checkout"), settings.get("checkout_mode")
    if checkout is None or mode is None or not Path(checkout).is_dir():
        return []
    now = stat.S_IMODE(Path(checkout).stat().st_mode)
    os.chmod(checkout, now | (mode & 0o007))
    return [f"gave the checkout back its mode for other users (chmod {mode:o} {checkout})"]


def readable_by_others(path: Path) -> bool:
    """Whether someone outside the owner and group can read `path` (every folder above it lets them pass)."""
    for folder in [*reversed(path.parents), path]:
        if not folder.stat().st_mode & 0o001:
            return False
    return bool(path.stat().st_mode & 0o004)


# A Jupyter server's settings file runs in the server's process: this one makes it end as soon as it has shut its
# kernels down. At exit, Python's last garbage collection walks every object JupyterLab and nbgrader left (2 s,
# more on a busy machine), only to free memory the process hands back anyway; frozen objects are left out of it.
QUICK_EXIT = """# Written by grader.hub: no last garbage collection at exit (grader/hub/machine.py says why).
import atexit
import gc

atexit.register(gc.freeze)
"""


def set_up(checkout: Path, root: Path, people: unix.Accounts, ports: dict[str, int], autograder: bool = True) -> dict:
    """Everything the hub needs, made or brought up to date; returns the settings, also written to
    <root>/hub.json (`autograder`: whether JupyterHub runs the grading service). Needs root."""
    make_folder(root, 0, "root", 0o755)
    unix.create(people, root / "passwords.json")
    course = Course(checkout).nbgrader_config().CourseDirectory.course_id
    exchange_root = exchange(root / "exchange", course, people)
    settings = exchange_settings(course, exchange_root)
    course_dir = course_copy(checkout, root / "course", course_settings(course, exchange_root))
    python = environments.runtime(root / "python")
    envs = make_folder(root / "envs", 0, "root", 0o755)
    student = environments.build("student", checkout, python, envs / "student")
    instructor = environments.build("instructor", checkout, python, envs / "instructor")
    for environment in (student, instructor):
        write_new(environment / "etc" / "jupyter" / "nbgrader_config.py", settings)
        write_new(environment / "etc" / "jupyter" / "jupyter_server_config.py", QUICK_EXIT)
    # The whole package (solutions among its proof's alternatives) is the instructors' alone; the rest of the
    # environment is what the students' holds, readable by an isolated grading kernel, which runs as no one's account.
    package = instructor / "lib" / environments.VERSION / "site-packages" / "grader"
    os.chmod(instructor, 0o755)  # closed whole by earlier set-ups
    chown(package, 0, people.group)
    os.chmod(package, 0o750)
    give_to_grader(course_dir, people)
    said = every_lesson_generated(course_dir, people, instructor, python)
    if said:
        give_to_grader(course_dir, people)  # what the release wrote, with the account's own umask
    grader_shell(people, course_dir, instructor, python)
    closed, closed_mode = close_checkout(checkout)
    said += closed
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
        "proxy": str(checkout / PROXY),
        "ports": ports,
        "instructor": people.instructor,
        "grader": people.grader,
        "students": people.student_names,
        "operator_token": previous.get("operator_token") or secrets.token_hex(32),
        "checkout": str(checkout),
        "checkout_mode": previous.get("checkout_mode") if closed_mode is None else closed_mode,
        "said": said,
        "autograder": autograder,
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
