"""What runs in the instructor's (or the grader account's) server: release, collect, release feedback.

Collecting takes, for each student, the latest submission that student's own Unix account made:
a folder in inbound named after another student (anyone can create one there) is reported and
skipped, never collected (nbgrader's default only warns and collects it). Latest by the exchange's
receipt (layout.receipt_of), which is also what the collected timestamp.txt says: the folder's name and
the timestamp.txt in it are the student's to write. Links, pipes and devices in a submission are never
followed. Released feedback is readable by its student alone, through a POSIX ACL entry (`setfacl`): one
file, one named reader, without a Unix group per student or root.
"""

from __future__ import annotations

import glob
import os
import pwd
import re
import shutil
import stat
import subprocess
from collections import defaultdict

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.exchange.default import ExchangeCollect, ExchangeReleaseAssignment, ExchangeReleaseFeedback
from nbgrader.utils import check_mode, ignore_patterns, notebook_hash, parse_utc
from traitlets import Bool

from .layout import FEEDBACK_FILE_MODE, StrictExchange, copy_file, copy_private, receipt_of, write_private

TIMESTAMP = "timestamp.txt"


class ReleaseAssignment(StrictExchange, ExchangeReleaseAssignment):
    """nbgrader's release into the set-up's outbound folder (readable by everyone, as a release should be)."""


def owner_of(path: str) -> str | None:
    """The user name owning `path` when it is a real folder (not a link), else None."""
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        return None
    try:
        return pwd.getpwuid(info.st_uid).pw_name
    except KeyError:
        return None


class Collect(StrictExchange, ExchangeCollect):
    """The latest genuine submission of each student. nbgrader's `check_owner` off (grader.instructor.collect
    collects from copies of inbound, all its own, once it made this check on inbound itself), every folder counts."""

    checks_owner = True  # what grader.instructor.collect reads: its copies lose the owners this class checks
    dated_by_name = Bool(
        False,
        help="Read each hand-in's time from its folder's name and keep its timestamp.txt: only for the copies "
        "grader.instructor.collect makes, named and dated with each receipt by the instructor's own process. Off, "
        "on the exchange itself: the time is the exchange's receipt (ctime), written as the collected timestamp.txt.",
    ).tag(config=True)

    def init_src(self):
        if not self.coursedir.course_id:
            self.fail("No course id specified. Re-run with --course flag.")
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        self.inbound_path = os.path.join(self.course_path, "inbound")
        if not check_mode(self.inbound_path, read=True, execute=True):
            self.fail(f"You don't have read permissions for the directory: {self.inbound_path}")
        student = self.coursedir.student_id or "*"
        pattern = os.path.join(self.inbound_path, f"{student}+{self.coursedir.assignment_id}+*")
        by_student = defaultdict(list)
        for path in glob.glob(pattern):
            name = os.path.basename(path)
            parts = name.split("+")
            if len(parts) < 3:
                self.log.warning("Skipped %s: not a submission's name", path)
                continue
            owner = owner_of(path)
            if self.check_owner and owner != parts[0]:
                self.log.warning("Skipped %s: handed in under the name %s by %s", path, parts[0], owner)
                continue
            when = parse_utc(parts[2]) if self.dated_by_name else receipt_of(path).replace(tzinfo=None)
            by_student[parts[0]].append({"username": parts[0], "filename": name, "timestamp": when})
        due = self.due_date() if self.before_duedate else None
        self.src_records = [latest(records, due) for records in by_student.values()]

    def due_date(self):
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gradebook:
            try:
                return gradebook.find_assignment(self.coursedir.assignment_id).duedate
            except MissingEntry:
                return None

    def do_copy(self, src, dest, log=None):
        """Regular files and folders only; the course directory is the instructors' already. The hand-in's own
        timestamp.txt gives way to its receipt (unless dated_by_name), read once the copy is made: a change while it
        was copied makes it later."""
        patterns = ignore_patterns(
            exclude=self.coursedir.ignore, include=self.coursedir.include, max_file_size=self.coursedir.max_file_size
        )
        if self.dated_by_name:
            copy_private(src, dest, patterns, 0o640, 0o750)
            return

        def ignore(folder: str, names: list[str]) -> list[str]:
            return list(patterns(folder, names)) + ([TIMESTAMP] if folder == src else [])

        copy_private(src, dest, ignore, 0o640, 0o750)
        write_private(os.path.join(dest, TIMESTAMP), receipt_of(src).strftime(self.timestamp_format), 0o640)


def latest(records: list[dict], due) -> dict:
    """The newest record, or the newest one handed in by `due` when there is one."""
    ordered = sorted(records, key=lambda record: record["timestamp"], reverse=True)
    in_time = [record for record in ordered if due is not None and record["timestamp"] <= due]
    return (in_time or ordered)[0]


class ReleaseFeedback(StrictExchange, ExchangeReleaseFeedback):
    """Each feedback page readable by the instructors' group and, through an ACL entry, its own student."""

    def copy_files(self):
        excluded = set(filter(None, (self.coursedir.student_id_exclude or "").split(",")))
        pattern = re.escape(os.path.sep).join(
            [
                self.coursedir.format_path(
                    self.coursedir.feedback_directory, "(?P<student>[^/]+)", self.coursedir.assignment_id, escape=True
                ),
                r"(?P<notebook>[^/]+)\.html",
            ]
        )
        for page in sorted(glob.glob(os.path.join(self.src_path, "*.html"))):
            found = re.fullmatch(pattern, page)
            if found is None or found["student"] in excluded:
                continue
            folder = os.path.dirname(page)
            with open(os.path.join(folder, "submission_secret.txt")) as secret:
                name = notebook_hash(secret=secret.read(), notebook_id=found["notebook"])
            self.release_page(page, found["student"], os.path.join(self.dest_path, f"{name}.html"))

    def release_page(self, page: str, student: str, dest: str) -> None:
        """Written beside its final name, given its reader, then renamed over any earlier release at once."""
        partial = dest[: -len(".html")] + "-partial.html"
        if os.path.lexists(partial):
            os.unlink(partial)
        copy_file(page, partial, FEEDBACK_FILE_MODE)
        if shutil.which("setfacl") is None:
            os.unlink(partial)
            self.fail("setfacl is missing (Debian: apt-get install acl): feedback is released to its student only")
        subprocess.run(["setfacl", "-m", f"u:{student}:r", partial], check=True, capture_output=True)
        os.replace(partial, dest)
        self.log.info("Released feedback for %s to %s", student, dest)
