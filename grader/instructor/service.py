"""The grading service (`python -m grader serve`): each hand-in to the exchange graded and its feedback released to its
student, with no instructor action.

A scan lists the course's exchange inbound folder and records each new hand-in in the journal (grader.instructor.
journal), with the time of its receipt as the kernel records it (exchange.layout.receipt_of: never the time its name or
its timestamp.txt says, which the learner's side writes). Then the pending hand-ins (at most one per student and lesson:
the newest) are claimed together, collected (collect_exchange, one nbgrader collect per lesson) and graded at once
(grading.grade_hand_ins: the worker pool, or a Dask cluster) into the gradebook; as each one ends, its student's
feedback page is written (feedback.student_page: no hidden test) and released through the exchange to that student only
(nbgrader's release_feedback, whichever exchange the course uses), without waiting for the others. The course's policy
(GradingService, grader.course.service_policy) may hold the feedback until the lesson's due date (release_held releases
it then) and limit the hand-ins graded (grader.instructor.attempts: one past it is not graded, and `collect` by hand
leaves it out too). SIGTERM lets the hand-ins being graded finish; Ctrl-C puts them back to pending; the instructor's
pause (`serve --pause`, kept in the journal) stops the claiming until `serve --resume`.

Guarantee: each hand-in is recorded before it is graded and marked done only after its feedback is released, so after a
`kill -9` at any moment and a restart, every hand-in the journal holds is graded and released at least once; every step
writes to the same place (the student's one gradebook submission of the lesson, its collected and autograded folders,
its feedback page, the released file named from the submission's secret), so doing it again leaves what doing it once
leaves: one gradebook submission and one released page per hand-in.
"""

from __future__ import annotations

import logging
import shutil
import signal
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from grader.course import Course
from grader.engine.submission import BadInput
from grader.engine.untrusted import shown
from grader.instructor.attempts import attempts_note, over_limit
from grader.instructor.collect import submission_of
from grader.instructor.exchange_steps import ExchangeSteps
from grader.instructor.feedback import student_page
from grader.instructor.grading import SECRET, grade_hand_ins
from grader.instructor.journal import (
    DONE,
    FAILED,
    GRADED,
    GRADING,
    HELD,
    OVER_LIMIT,
    PENDING,
    SUPERSEDED,
    HandIn,
    Journal,
)
from grader.instructor.results import class_results, enrolment

logger = logging.getLogger(__name__)


class Stop:
    """Set by SIGTERM: the service finishes the hand-in it grades, then stops. A plain flag, not a threading.Event:
    setting an Event from a signal handler can deadlock on the lock its wait holds.

    Ctrl-C (SIGINT) raises KeyboardInterrupt and is remembered: Python drops one raised while a garbage collection
    runs a weak reference's callback ("Exception ignored"), so the service looks again (`check`) before it releases
    a page and between its steps, and stops all the same."""

    requested = False
    interrupted = False

    def __call__(self, *_) -> None:
        self.requested = True

    def interrupt(self, *_) -> None:
        self.interrupted = True
        raise KeyboardInterrupt

    def check(self) -> None:
        """KeyboardInterrupt if Ctrl-C came, even if its first raise was lost."""
        if self.interrupted:
            raise KeyboardInterrupt


def scan(course: Course, journal: Journal, lessons: list[str], exchange: ExchangeSteps) -> int:
    """Record every hand-in of `lessons` (none given: every lesson built now, so one released while the service runs
    is graded too) in the exchange the journal does not hold yet, received when the exchange's receipt says
    (receipt_of: never its name's time nor its timestamp.txt); how many were new."""
    recorded = {hand_in.folder: hand_in.state for hand_in in journal.all()}
    names = [name for name in exchange.listing(lessons or course.built_lessons()) if name not in recorded]
    receipts, new = exchange.receipts(names) if names else {}, 0
    for name in names:
        lesson, receipt = name.split("+")[1], receipts.get(name, "error: gone before its receipt was read")
        try:
            student = submission_of(name)[0]
            if receipt.startswith("error: "):
                raise BadInput(receipt.removeprefix("error: "))
            received = datetime.fromisoformat(receipt)
        except (BadInput, ValueError) as error:
            if journal.add(name, "", lesson, ""):
                journal.finish(name, FAILED, str(error))
                logger.warning("%s: not graded (%s)", shown(name), shown(str(error)))
            continue
        new += journal.add(name, student, lesson, received.isoformat())
    for hand_in in journal.in_state(SUPERSEDED) if new else []:  # only a hand-in added supersedes another
        if recorded.get(hand_in.folder) != SUPERSEDED:
            logger.info(
                "%s / %s (received %s): %s, not graded", *student_lesson(hand_in), hand_in.received, hand_in.reason
            )
    return new


def student_lesson(hand_in: HandIn) -> tuple[str, str]:
    """Its student and lesson as the log shows them: escaped (a folder's name is the student's making)."""
    return shown(hand_in.student), shown(hand_in.lesson)


@dataclass(frozen=True)
class Grading:
    """How the service grades: `jobs` hand-ins at once on this machine's worker pool, or on the Dask scheduler at
    `cluster`; at most `batch` claimed at a time, so a newer hand-in never waits behind a long queue of others."""

    jobs: int | None = None
    cluster: str | None = None
    batch: int = 64


def collect_batch(course: Course, journal: Journal, batch: list[HandIn], exchange: ExchangeSteps) -> list[HandIn]:
    """Collect the claimed hand-ins, one nbgrader collect per lesson (which dates each with the exchange's receipt, read
    after its copy); those that could not be collected are marked failed. The ones collected."""
    collected = []
    for lesson in sorted({hand_in.lesson for hand_in in batch}):
        these = [hand_in for hand_in in batch if hand_in.lesson == lesson]
        for hand_in in these:  # what is collected is this hand-in, whatever was there
            shutil.rmtree(submitted_folder(course, hand_in), ignore_errors=True)
        unplaced = exchange.collect(lesson, [hand_in.folder for hand_in in these])
        for hand_in in these:
            folder = submitted_folder(course, hand_in)
            if not (folder / f"{lesson}.ipynb").is_file():
                reasons = [reason for name, reason in unplaced if name.startswith(f"exchange:{hand_in.folder}")]
                failed(journal, hand_in, f"not collected: {'; '.join(reasons) or 'nothing was collected'}")
                continue
            collected.append(hand_in)
    return collected


def submitted_folder(course: Course, hand_in: HandIn) -> Path:
    return course.grading / "submitted" / hand_in.student / hand_in.lesson


def failed(journal: Journal, hand_in: HandIn, reason: str) -> None:
    journal.finish(hand_in.folder, FAILED, reason)
    logger.warning("%s / %s: not graded (%s)", *student_lesson(hand_in), shown(reason))


def release(course: Course, hand_in: HandIn, exchange: ExchangeSteps, note: str = "") -> float:
    """Write the student's feedback page (their whole course, no hidden test; `note` under its total) and release it
    to them alone through the exchange (nbgrader's release_feedback, whichever exchange the course uses); the lesson's
    score."""
    student, lesson = hand_in.student, hand_in.lesson
    results = class_results(course, only=student)
    [record] = results.students
    config = course.nbgrader_config()
    feedback = course.root / config.CourseDirectory.feedback_directory / student / lesson
    feedback.mkdir(parents=True, exist_ok=True)
    (feedback / f"{lesson}.html").write_text(student_page(results, record, note), encoding="utf-8")
    autograded = course.grading / "autograded" / student / lesson
    shutil.copyfile(autograded / "timestamp.txt", feedback / "timestamp.txt")  # the receipt collect wrote
    shutil.copyfile(autograded / SECRET, feedback / SECRET)
    exchange.release_feedback(lesson, student)
    return results.score(student, lesson)


def grade_batch(
    course: Course, journal: Journal, batch: list[HandIn], grading: Grading, exchange: ExchangeSteps, stop: Stop
) -> int:
    """Collect and grade the claimed hand-ins together (those past their lesson's limit of graded attempts are not);
    each one's feedback is released as soon as it is graded, not after the others, or held until the lesson's due
    date when the policy says so. How many were graded."""
    policy, recorded = course.grading_service(), journal.all()
    for hand_in in batch:
        if over_limit(hand_in, recorded, limit := policy.attempt_limit(hand_in.lesson)):
            reason = f"past the limit of {limit} graded hand-in(s) of the lesson"
            journal.finish(hand_in.folder, OVER_LIMIT, reason)
            logger.info("%s / %s (received %s): %s, not graded", *student_lesson(hand_in), hand_in.received, reason)
    batch = [hand_in for hand_in in batch if journal.get(hand_in.folder).state == GRADING]
    collected = collect_batch(course, journal, batch, exchange)
    waiting = {(hand_in.student, hand_in.lesson): hand_in for hand_in in collected}
    due, graded = due_dates(course), 0

    def finished(student: str, lesson: str, failure: str | None) -> None:
        nonlocal graded
        stop.check()  # a Ctrl-C: this hand-in waits again, its page unreleased
        hand_in = waiting[(student, lesson)]
        if failure is not None:
            failed(journal, hand_in, f"not graded: {failure}")
            return
        graded += 1
        if not policy.releases_now(lesson, due.get(lesson), utc_now()):
            journal.finish(hand_in.folder, HELD)
            logger.info(
                "%s / %s (received %s): graded, feedback held until the due date (%s)",
                *student_lesson(hand_in),
                hand_in.received,
                due.get(lesson) or "none set yet",
            )
            return
        released(course, journal, hand_in, exchange)

    grade_hand_ins(course, list(waiting), finished, jobs=grading.jobs, cluster=grading.cluster)
    return graded


def released(course: Course, journal: Journal, hand_in: HandIn, exchange: ExchangeSteps) -> bool:
    """Release the hand-in's feedback and mark it done; whether it could be (if not, it is marked failed)."""
    try:
        score = release(course, hand_in, exchange, attempts_left(course, journal, hand_in))
    except Exception as error:  # one hand-in's problem costs only that hand-in
        failed(journal, hand_in, f"feedback not released: {type(error).__name__}: {error}")
        return False
    journal.finish(hand_in.folder, DONE)
    logger.info(
        "%s / %s (received %s): graded %g, feedback released", *student_lesson(hand_in), hand_in.received, score
    )
    return True


def attempts_left(course: Course, journal: Journal, hand_in: HandIn) -> str:
    """What the hand-in's page says of its lesson's limit of graded attempts, this one counted ("" with no limit)."""
    limit = course.grading_service().attempt_limit(hand_in.lesson)
    if not limit:
        return ""
    mine = [h for h in journal.all() if (h.student, h.lesson) == (hand_in.student, hand_in.lesson)]
    used = sum(h.state in GRADED for h in mine) + (journal.get(hand_in.folder).state not in GRADED)
    return attempts_note(hand_in.lesson, used, limit)


def release_held(course: Course, journal: Journal, exchange: ExchangeSteps) -> int:
    """Release the held feedback of each lesson whose due date has now passed: for each student, the newest graded
    hand-in's (its page shows their grade as it stands); older held ones are superseded by it. How many released."""
    held = journal.in_state(HELD)
    if not held:
        return 0
    policy, due, now, done = course.grading_service(), due_dates(course), utc_now(), 0
    newest = {(hand_in.student, hand_in.lesson): hand_in for hand_in in held}  # in the order received: the last wins
    for hand_in in held:
        if not policy.releases_now(hand_in.lesson, due.get(hand_in.lesson), now):
            continue
        latest = newest[(hand_in.student, hand_in.lesson)]
        if hand_in is not latest:
            journal.finish(hand_in.folder, SUPERSEDED, f"feedback released for {latest.folder}")
        else:
            done += released(course, journal, hand_in, exchange)
    return done


def due_dates(course: Course) -> dict[str, datetime | None]:
    """Each lesson's due date, the latest of any student's extension (naive UTC, as nbgrader keeps it)."""
    return enrolment(course).due


def utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def unfinished(journal: Journal, batch: list[HandIn]) -> None:
    """Put back to pending those of the batch still being graded."""
    for hand_in in batch:
        if journal.get(hand_in.folder).state == GRADING:
            journal.finish(hand_in.folder, PENDING)


def work(
    course: Course, journal: Journal, lessons: list[str], stop: Stop, grading: Grading, exchange: ExchangeSteps
) -> int:
    """Grade the pending hand-ins, first received first, until none waits, the instructor pauses or a stop is asked;
    the exchange is scanned again before each batch, so what came during one is in the next. How many were done."""
    done = 0
    while not stop.requested and journal.paused_since() is None:
        scan(course, journal, lessons, exchange)
        batch = journal.claim(grading.batch)
        if not batch:
            break
        try:
            done += grade_batch(course, journal, batch, grading, exchange, stop)
            stop.check()
        except KeyboardInterrupt:
            unfinished(journal, batch)  # graded by the next start
            raise
        except Exception as error:  # not one hand-in's (a scheduler that stopped answering, say)
            unfinished(journal, batch)
            reason = shown(f"{type(error).__name__}: {error}")
            logger.warning("grading stopped, the hand-ins not graded wait for the next scan: %s", reason)
            break
    return done


def serve(
    course: Course,
    lessons: list[str],
    once: bool = False,
    poll: float = 1.0,
    grading: Grading = Grading(),
    exchange: ExchangeSteps | None = None,
) -> int:
    """Scan and grade `lessons` (none: every lesson built); with `once`, what waits now, else until SIGTERM or Ctrl-C,
    `poll` seconds between scans. The exchange's steps are `exchange`'s (an agent of another account, forked by the
    caller before any thread), by default this process's own."""
    stop = Stop()
    before = signal.signal(signal.SIGTERM, stop), signal.signal(signal.SIGINT, stop.interrupt)
    exchange = exchange or ExchangeSteps(course)
    try:
        return scan_and_grade(course, lessons, once, poll, stop, grading, exchange)
    finally:
        signal.signal(signal.SIGTERM, before[0])
        signal.signal(signal.SIGINT, before[1])
        exchange.close()


def scan_and_grade(
    course: Course, lessons: list[str], once: bool, poll: float, stop: Stop, grading: Grading, exchange: ExchangeSteps
) -> int:
    """serve's loop; how many hand-ins it graded."""
    with Journal(course.grading) as journal:
        recovered = journal.recover()
        if recovered:
            logger.info("%d hand-in(s) left in grading by a stopped service: pending again", recovered)
        done, paused = 0, None
        while True:
            if (now_paused := journal.paused_since()) != paused:
                paused = now_paused
                logger.info(f"paused by the instructor since {paused}" if paused else "grading")
            if paused:
                scan(course, journal, lessons, exchange)  # a paused service still records what comes
            else:
                release_held(course, journal, exchange)
                done += work(course, journal, lessons, stop, grading, exchange)
            if once or stop.requested:
                return done
            deadline = time.monotonic() + poll
            while time.monotonic() < deadline and not stop.requested:
                stop.check()
                time.sleep(min(0.2, poll))
