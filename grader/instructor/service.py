"""The grading service (`python -m grader serve`): each hand-in to the exchange graded and its feedback released to
its student, with no instructor action.

A scan lists the course's exchange inbound folder and records each new hand-in in the journal (grader.instructor.
journal), with the time of its receipt as the exchange names its folder (never the timestamp.txt the learner's side
wrote). Then, one at a time, the first pending hand-in is collected alone (collect_exchange), graded (grading.
grade_one) into the gradebook, its student's feedback page written (feedback.student_page: no hidden test) and
released through the exchange to that student only (nbgrader's release_feedback, whichever exchange the course uses).
SIGTERM lets the hand-in being graded finish; Ctrl-C puts it back to pending.

Guarantee: each hand-in is recorded before it is graded and marked done only after its feedback is released, so
after a `kill -9` at any moment and a restart, every hand-in the journal holds is graded and released at least once;
every step writes to the same place (the student's one gradebook submission of the lesson, its collected and
autograded folders, its feedback page, the released file named from the submission's secret), so doing it again
leaves what doing it once leaves: one gradebook submission and one released page per hand-in.
"""

from __future__ import annotations

import logging
import shutil
import signal
import time
from datetime import datetime

from nbgrader.apps import NbGraderAPI

from grader.course import Course
from grader.course.nbgrader_calls import quiet_stderr, require_success
from grader.engine.submission import BadInput
from grader.engine.untrusted import shown
from grader.instructor.collect import TIMESTAMP_FORMAT, as_utc, collect_exchange, inbound_of, submission_of
from grader.instructor.feedback import student_page
from grader.instructor.grading import SECRET, grade_one
from grader.instructor.journal import DONE, FAILED, PENDING, SUPERSEDED, HandIn, Journal
from grader.instructor.results import class_results

logger = logging.getLogger(__name__)


class Stop:
    """Set by SIGTERM: the service finishes the hand-in it grades, then stops. A plain flag, not a threading.Event:
    setting an Event from a signal handler can deadlock on the lock its wait holds."""

    requested = False

    def __call__(self, *_) -> None:
        self.requested = True


def scan(course: Course, journal: Journal, lessons: list[str]) -> int:
    """Record every hand-in of `lessons` in the exchange the journal does not hold yet; how many were new."""
    folder, new = inbound_of(course.nbgrader_config()), 0
    superseded = {hand_in.folder for hand_in in journal.all() if hand_in.state == SUPERSEDED}
    for entry in sorted(folder.iterdir()) if folder.is_dir() else []:
        parts = entry.name.split("+")
        if len(parts) < 4 or parts[1] not in lessons:
            continue
        try:
            student, received = submission_of(entry.name)
        except BadInput as error:
            if journal.add(entry.name, "", parts[1], ""):
                journal.finish(entry.name, FAILED, str(error))
                logger.warning("%s: not graded (%s)", shown(entry.name), error)
            continue
        new += journal.add(entry.name, student, parts[1], as_utc(received).isoformat())
    for hand_in in journal.all():
        if hand_in.state == SUPERSEDED and hand_in.folder not in superseded:
            logger.info(
                "%s / %s (received %s): %s, not graded", *student_lesson(hand_in), hand_in.received, hand_in.reason
            )
    return new


def student_lesson(hand_in: HandIn) -> tuple[str, str]:
    """Its student and lesson as the log shows them: escaped (a folder's name is the student's making)."""
    return shown(hand_in.student), shown(hand_in.lesson)


def grade_hand_in(course: Course, hand_in: HandIn) -> None:
    """Collect, grade, write and release the feedback of one hand-in; BadInput says why it could not be."""
    student, lesson = hand_in.student, hand_in.lesson
    submitted = course.grading / "submitted" / student / lesson
    shutil.rmtree(submitted, ignore_errors=True)  # what is collected is this hand-in, whatever was there
    collected = collect_exchange(course, [lesson], only=hand_in.folder)
    if not (submitted / f"{lesson}.ipynb").is_file():
        reasons = "; ".join(reason for _, reason in collected.unplaced) or "nothing was collected"
        raise BadInput(f"not collected: {reasons}")
    receipt = datetime.fromisoformat(hand_in.received).strftime(TIMESTAMP_FORMAT)
    (submitted / "timestamp.txt").write_text(receipt)  # the exchange's time, not the learner's
    graded = grade_one(course, student, lesson)
    if graded.failed:
        raise BadInput(f"not graded: {graded.failed[0][2]}")
    results = class_results(course)
    [record] = [s for s in results.students if s.id == student]
    config = course.nbgrader_config()
    feedback = course.root / config.CourseDirectory.feedback_directory / student / lesson
    feedback.mkdir(parents=True, exist_ok=True)
    (feedback / f"{lesson}.html").write_text(student_page(results, record), encoding="utf-8")
    (feedback / "timestamp.txt").write_text(receipt)
    shutil.copyfile(course.grading / "autograded" / student / lesson / SECRET, feedback / SECRET)
    with quiet_stderr():
        require_success(NbGraderAPI(config=config).release_feedback(lesson, student_id=student), "release_feedback")
    score = graded.graded[0][2] if graded.graded else 0.0
    logger.info(
        "%s / %s (received %s): graded %g, feedback released", *student_lesson(hand_in), hand_in.received, score
    )


def work(course: Course, journal: Journal, stop: Stop) -> int:
    """Grade the pending hand-ins, first received first, until none waits or a stop is asked; how many were done."""
    done = 0
    while not stop.requested and (hand_in := journal.claim()) is not None:
        try:
            grade_hand_in(course, hand_in)
        except KeyboardInterrupt:
            journal.finish(hand_in.folder, PENDING)  # graded by the next start
            raise
        except Exception as error:  # one hand-in's problem costs only that hand-in
            journal.finish(hand_in.folder, FAILED, f"{type(error).__name__}: {error}")
            logger.warning("%s / %s: not graded (%s)", *student_lesson(hand_in), shown(str(error)))
            continue
        journal.finish(hand_in.folder, DONE)
        done += 1
    return done


def serve(course: Course, lessons: list[str], once: bool = False, poll: float = 2.0) -> int:
    """Scan and grade; with `once`, what waits now, else until SIGTERM or Ctrl-C, `poll` seconds between scans."""
    stop = Stop()
    before = signal.signal(signal.SIGTERM, stop)
    try:
        return scan_and_grade(course, lessons, once, poll, stop)
    finally:
        signal.signal(signal.SIGTERM, before)


def scan_and_grade(course: Course, lessons: list[str], once: bool, poll: float, stop: Stop) -> int:
    """serve's loop; how many hand-ins it graded."""
    with Journal(course.grading) as journal:
        recovered = journal.recover()
        if recovered:
            logger.info("%d hand-in(s) left in grading by a stopped service: pending again", recovered)
        done = 0
        while True:
            scan(course, journal, lessons)
            done += work(course, journal, stop)
            if once or stop.requested:
                return done
            deadline = time.monotonic() + poll
            while time.monotonic() < deadline and not stop.requested:
                time.sleep(min(0.2, poll))
