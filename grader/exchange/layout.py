"""The exchange's folders and the modes they and their files have, and a copy that never exposes a file.

<root>/<course>/            root:root            0755  made by root, so no one can replace what is inside
    outbound/               grader:instructors   2755  releases: everyone reads them
    inbound/                root:instructors     3753  students create (and enter by name) but cannot list;
                                                       the sticky bit keeps anyone but the owner from
                                                       renaming or deleting an entry; new entries take the
                                                       instructors' group (setgid)
        <student>+<lesson>+<time>+<random>/        0750  the student's; files 0640: the instructors read them;
                                                       its time is its receipt (receipt_of), never its name's
    feedback/               grader:instructors   2751  students open their own file by name, list nothing
        <hash>.html         grader:instructors   0640  and an ACL entry user:<student>:r
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from datetime import UTC, datetime

from nbgrader.exchange.default import Exchange

COURSE_MODE = 0o755
OUTBOUND_MODE = 0o2755
INBOUND_MODE = 0o3753
FEEDBACK_MODE = 0o2751
SUBMISSION_DIR_MODE = 0o750
SUBMISSION_FILE_MODE = 0o640
FEEDBACK_FILE_MODE = 0o640
RECEIPT_ENTRIES = 10_000  # entries of one hand-in whose times receipt_of reads; past them it is received when read


def receipt_of(path: str | os.PathLike) -> datetime:
    """When the exchange received the hand-in folder `path` (UTC): the latest status change (ctime) the kernel
    records of the folder and of every entry in it, links never followed.

    Not its name's time (student+lesson+time+random) nor its timestamp.txt: the student's own process writes both, so
    either can say any time. No one sets a ctime but the kernel, and any change to an entry sets its ctime to the
    present, so a student can make a hand-in later, never earlier. A hand-in with more than RECEIPT_ENTRIES entries,
    or a folder in it that cannot be read (where a file could change unseen), counts as received now. Copying the
    exchange elsewhere (a backup restored) dates every hand-in at the copy. OSError if `path` is gone."""
    latest, pending, seen = os.lstat(path).st_ctime, [os.fspath(path)], 0
    try:
        while pending:
            with os.scandir(pending.pop()) as entries:
                for entry in entries:
                    seen += 1
                    if seen > RECEIPT_ENTRIES:
                        return datetime.now(UTC)
                    status = entry.stat(follow_symlinks=False)
                    latest = max(latest, status.st_ctime)
                    if stat.S_ISDIR(status.st_mode):
                        pending.append(entry.path)
    except OSError:
        return datetime.now(UTC)
    return datetime.fromtimestamp(latest, UTC)


class StrictExchange(Exchange):
    """Checks that the set-up made the course's folders, and never makes or re-modes one itself: nbgrader's
    default would want the exchange root writable by all (0777) and the course's folders owned by whoever
    releases first."""

    def ensure_root(self):
        course = os.path.join(self.root, self.coursedir.course_id) if self.coursedir.course_id else self.root
        if not os.path.isdir(course):
            self.fail(f"The course's exchange folder is missing, please contact your instructor: {course}")

    def ensure_directory(self, path, mode):
        if not os.path.isdir(path):
            self.fail(f"The exchange folder {path} is missing: the hub's set-up makes it (python -m grader.hub)")


def copy_private(
    source: str,
    dest: str,
    ignore: Callable[[str, list[str]], list[str]],
    file_mode: int,
    dir_mode: int,
    extra: dict[str, str] | None = None,
) -> None:
    """Copy the regular files and folders of `source`, and the `extra` small files ({name: text}), into the
    new folder `dest`, which stays 0700 (no one else can enter it) until everything inside has its final
    mode; links, pipes and devices are skipped, never followed. Every entry is created before any folder's
    mode is set, so all keep the group a setgid parent gives them (a chmod by someone outside that group
    drops the folder's setgid bit)."""
    os.mkdir(dest, 0o700)
    for name, text in (extra or {}).items():
        write_private(os.path.join(dest, name), text, file_mode)
    folders = [dest]
    for folder, names, files in os.walk(source):
        target = os.path.join(dest, os.path.relpath(folder, source))
        skipped = set(ignore(folder, names + files))
        names[:] = [n for n in names if n not in skipped and not os.path.islink(os.path.join(folder, n))]
        for name in names:
            os.mkdir(os.path.join(target, name), 0o700)
            folders.append(os.path.join(target, name))
        for name in files:
            path = os.path.join(folder, name)
            if name not in skipped and stat.S_ISREG(os.lstat(path).st_mode):
                copy_file(path, os.path.join(target, name), file_mode)
    for folder in reversed(folders):  # the top one last
        os.chmod(folder, dir_mode)


def copy_file(source: str, dest: str, mode: int) -> None:
    """A new file with `mode` from its first byte on (never a moment with the creator's umask), not a link."""
    with open(source, "rb", opener=lambda p, f: os.open(p, f | os.O_NOFOLLOW)) as src, new_file(dest, "wb") as out:
        shutil.copyfileobj(src, out)
        os.fchmod(out.fileno(), mode)


def write_private(path: str, text: str, mode: int) -> None:
    """A small new file (a timestamp, a secret) with `mode` from the start."""
    with new_file(path, "w") as out:
        out.write(text)
        os.fchmod(out.fileno(), mode)


def new_file(path: str, how: str):
    """A file that did not exist (never a link followed), readable by its creator alone until given its mode."""
    return open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600), how)
