"""The course's exchange on a shared machine: nbgrader's own exchange classes, made strict.

nbgrader's default exchange leaves each submission readable by every user who learns its folder's name,
and feedback readable by anyone who learns its file's name (nbgrader issues 978 and 1225). Here the
inbound folder cannot be listed by students, a submission is readable by its student and the
instructors' Unix group only, a submission under another student's name is never collected, and each
feedback file is readable by its own student alone (a POSIX ACL). The folders themselves are made once,
by root (`grader.hub`): nothing here creates or re-modes them.

The submit and fetch side runs in a student's server (softmax-learner ships this room), the release and
collect side in the instructor's; `FACTORY` is the `ExchangeFactory` setting that selects them all.
"""

from __future__ import annotations

FACTORY = {
    "exchange": "grader.exchange.layout.StrictExchange",
    "fetch_assignment": "grader.exchange.student.FetchAssignment",
    "fetch_feedback": "grader.exchange.student.FetchFeedback",
    "list": "grader.exchange.student.List",
    "submit": "grader.exchange.student.Submit",
    "release_assignment": "grader.exchange.instructor.ReleaseAssignment",
    "release_feedback": "grader.exchange.instructor.ReleaseFeedback",
    "collect": "grader.exchange.instructor.Collect",
}
