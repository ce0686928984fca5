"""What runs in a student's server: fetch a release, submit, list, fetch feedback.

Only submitting differs from nbgrader's default: the submission is copied into the inbound folder
with modes that let its student and the instructors' group read it and no one else (nbgrader's
default makes it 0777 and its files 0644), and nothing is readable while the copy is under way.
Submitting here, and in the learner's lab on one machine (`LocalSubmit`, nbgrader's own copy), compares
the notebooks handed in with those released as the copy takes them (`ChecksWhatIsHandedIn`).
"""

from __future__ import annotations

import os
import secrets

from nbgrader.exchange.default import ExchangeFetchAssignment, ExchangeFetchFeedback, ExchangeList, ExchangeSubmit
from nbgrader.utils import find_all_files, ignore_patterns

from .layout import SUBMISSION_DIR_MODE, SUBMISSION_FILE_MODE, StrictExchange, copy_private


class FetchAssignment(StrictExchange, ExchangeFetchAssignment):
    """nbgrader's fetch, from the set-up's folders."""


class FetchFeedback(StrictExchange, ExchangeFetchFeedback):
    """nbgrader's fetch of feedback: the student opens the file named by its submission's secret, which the
    feedback's ACL lets it (and no other student) read."""


class List(StrictExchange, ExchangeList):
    """nbgrader's listing: releases, the student's own cache of submissions, and (for instructors) inbound."""


def notebooks_in(folder: str, ignore: list[str]) -> set[str]:
    """The notebooks under `folder` (relative to it), but those the course's `ignore` globs leave out."""
    return {os.path.relpath(f, folder) for f in find_all_files(folder, ignore) if f.endswith(".ipynb")}


class ChecksWhatIsHandedIn(ExchangeSubmit):
    """nbgrader's check that a hand-in holds the notebooks released, on the files the copy takes: nbgrader's own
    counts the checkpoint JupyterLab keeps of each notebook (.ipynb_checkpoints, which the copy leaves out) as an
    extra notebook, and so warned at every hand-in from JupyterLab."""

    def check_filename_diff(self):
        released = notebooks_in(self.release_path, [])
        handed_in = notebooks_in(self.src_path, self.coursedir.ignore)
        missing, extra = sorted(released - handed_in), sorted(handed_in - released)
        if missing and self.strict:
            self.fail(f"{self.coursedir.assignment_id} was not handed in: it lacks {', '.join(missing)}")
        said = [f"lacks {', '.join(missing)}"] if missing else []
        said += [f"holds {', '.join(extra)}, which the release does not"] if extra else []
        if said:
            self.log.warning("The hand-in of %s %s", self.coursedir.assignment_id, " and ".join(said))


class LocalSubmit(ChecksWhatIsHandedIn):
    """nbgrader's own submit, for the learner's lab on one machine (`make lab`)."""


class Submit(StrictExchange, ChecksWhatIsHandedIn):
    """A submission readable by its student and the instructors' group only."""

    def copy_files(self):
        self.init_release()
        self.check_filename_diff()
        size, limit = self.get_size(self.src_path), 1000 * self.coursedir.max_dir_size
        if size > limit:
            self.fail(f"The assignment's folder is too large to submit: {size} bytes, at most {limit}")
        ignore = ignore_patterns(
            exclude=self.coursedir.ignore,
            include=self.coursedir.include,
            max_file_size=self.coursedir.max_file_size,
            log=self.log,
        )
        secret = secrets.token_hex(64)
        dest = os.path.join(self.inbound_path, self.assignment_filename)
        self.log.info("Source: %s", self.src_path)
        self.log.info("Destination: %s", dest)
        extra = {"timestamp.txt": self.timestamp, "submission_secret.txt": secret}
        copy_private(self.src_path, dest, ignore, SUBMISSION_FILE_MODE, SUBMISSION_DIR_MODE, extra)
        self.cache_copy(ignore, extra)
        self.log.info("Submitted as: %s %s %s", self.coursedir.course_id, self.coursedir.assignment_id, self.timestamp)

    def cache_copy(self, ignore, extra: dict[str, str]) -> None:
        """The student's own copy (in its home), which listing and fetching feedback read: the same name without
        the random part, as nbgrader's default keeps it."""
        name = self.assignment_filename.rsplit("+", 1)[0] if self.add_random_string else self.assignment_filename
        os.makedirs(self.cache_path, exist_ok=True)
        cache = os.path.join(self.cache_path, name)
        copy_private(self.src_path, cache, ignore, 0o600, 0o700, extra)
