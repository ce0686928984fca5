"""Grade every collected submission in parallel, into the course's own nbgrader gradebook.

Each submission is autograded by nbgrader in its own throw-away course directory (see
sandbox.autograde_sandboxed), several at once; the parent process then writes each
result into the real gradebook and `autograded/` folder, where `nbgrader export`,
formgrader and the feedback, export and report commands find it. A re-run grades only
submissions (or lessons) that changed since they were last graded. A late submission gets nbgrader's own late
penalty as its autograde gives it (LatePenalty), from its timestamp (the exchange's receipt, as collect writes it)
and its due date in the gradebook, with the student's extension.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import logging
import os
import shutil
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import nbformat
from nbgrader.api import BaseCell, Gradebook, InvalidEntry, SubmittedAssignment, SubmittedNotebook
from nbgrader.preprocessors import AssignLatePenalties
from nbgrader.utils import parse_utc

from grader.course import Course
from grader.course.gradebook import lesson_gradebook, start_gradebook
from grader.course.limits import Limits
from grader.course.nbgrader_calls import GradingFailed
from grader.engine import status as status_
from grader.engine.grade import Outcome, grade_submission, named_error
from grader.engine.inert import inert_text, markdown_text
from grader.engine.pool import WorkerDied, in_workers
from grader.engine.sandbox import Sandboxed
from grader.engine.submission import BadInput, read_limited
from grader.engine.untrusted import shown
from grader.instructor.collect import REJECTED, Rejection, read_rejections, standing

STATE = "graded.json"  # under .grading/: what each submission looked like when it was graded
SECRET = "submission_secret.txt"  # beside an exchange hand-in (nbgrader writes 128 characters)
SECRET_LIMIT = 1024
TIMESTAMP_LIMIT = 100  # characters a timestamp.txt may hold
CREATE_ATTEMPTS = 3  # tries at creating a student's rows, when another run into the same database races it
DETAIL_SHOWN = 2000  # characters of a status's detail the log shows (the gradebook keeps it whole)


@dataclass
class Job:
    student: str
    lesson: str
    notebook: Path
    timestamp: str | None  # the submission's timestamp.txt, when it has one nbgrader can read
    digest: str
    problem: str = ""  # why its timestamp.txt was left out

    @property
    def key(self) -> str:
        return f"{self.student}/{self.lesson}"

    @property
    def pair(self) -> tuple[str, str]:
        return self.student, self.lesson


@dataclass
class GradeLog:
    # student, lesson, score, status, detail
    graded: list[tuple[str, str, float, str, str]] = field(default_factory=list)
    unchanged: list[tuple[str, str]] = field(default_factory=list)
    failed: list[tuple[str, str, str]] = field(default_factory=list)  # student, lesson, reason
    # hand-ins collect could not read, with whether an earlier one of the lesson is graded (collect.standing)
    rejected: list[tuple[Rejection, bool]] = field(default_factory=list)
    seconds: float = 0.0

    def render(self) -> str:
        """The log as text; every name and detail escaped (untrusted.shown), so none can start a line or move the
        cursor."""
        lines = [
            f"Graded {len(self.graded)} submission(s) in {self.seconds:.1f} s; "
            f"{len(self.unchanged)} unchanged since last graded (use --force to grade them again)."
        ]
        problems = [g for g in self.graded if g[3] != status_.GRADED]
        if problems:
            lines.append(f"{len(problems)} with a problem (flagged in the gradebook):")
            lines += [
                f"  {shown(student)} / {shown(lesson)}: {shown(status)} ({shown(detail, DETAIL_SHOWN)})"
                for student, lesson, _, status, detail in problems
            ]
        if self.failed:
            lines.append(f"Could not grade {len(self.failed)}:")
            lines += [
                f"  {shown(student)} / {shown(lesson)}: {shown(reason, DETAIL_SHOWN)}"
                for student, lesson, reason in self.failed
            ]
        if self.rejected:
            lines.append(
                f"{len(self.rejected)} file(s) handed in could not be read, so were not graded "
                f"(listed in .grading/{REJECTED}; the feedback, export and report show each):"
            )
            lines += [
                f"  {shown(r.student or '(no student id)')} / {shown(r.lesson or '(no lesson known)')}: "
                f"{shown(r.file)}: {shown(r.detail, DETAIL_SHOWN)}"
                + ("; an earlier hand-in of the lesson is graded" if earlier else "")
                for r, earlier in sorted(self.rejected, key=lambda pair: (pair[0].student, pair[0].lesson))
            ]
        return "\n".join(lines)


def _digest(*parts: bytes) -> str:
    return hashlib.sha256(b"\0".join(parts)).hexdigest()


def submissions(course: Course, lessons: list[str]) -> list[Job]:
    """Every collected submission of the given lessons, in student order."""
    submitted = course.grading / "submitted"
    # a job's digest changes when the submission, its timestamp, or the lesson's tests change
    tests = {lesson: _digest(course.source_notebook(lesson).read_bytes()) for lesson in lessons}
    jobs = []
    for notebook in sorted(submitted.glob("*/*/*.ipynb")) if submitted.is_dir() else []:
        student, lesson = notebook.parent.parent.name, notebook.parent.name
        if lesson in lessons and notebook.name == f"{lesson}.ipynb":
            timestamp, problem = _timestamp(notebook.parent / "timestamp.txt")
            digest = _digest(_contents(notebook), (timestamp or problem).encode(), tests[lesson].encode())
            jobs.append(Job(student, lesson, notebook, timestamp, digest, problem))
    return jobs


def _contents(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:  # not a file (a folder named like the notebook): grading says so
        return str(error).encode()


def _timestamp(path: Path) -> tuple[str | None, str]:
    """A submission's timestamp.txt, if it holds a time nbgrader can read; else None and why not."""
    if not path.is_file():
        return None, ""
    try:
        with path.open("rb") as file:
            text = file.read(TIMESTAMP_LIMIT + 1).decode("utf-8", "replace").strip()
        if len(text) > TIMESTAMP_LIMIT:
            raise ValueError(f"longer than {TIMESTAMP_LIMIT} characters")
        if text:
            parse_utc(text)
    except Exception as error:  # unreadable, or dateutil's ParserError, OverflowError, ...
        return None, f"timestamp.txt is not a time nbgrader can read ({named_error(error)}); graded as if it had none"
    return text or None, ""


def _state(course: Course) -> dict[str, dict]:
    """(student/lesson) -> {"digest", "status", "detail"} of its last grading."""
    path = course.grading / STATE
    state = json.loads(path.read_text()) if path.is_file() else {}
    return {
        key: entry if isinstance(entry, dict) else {"digest": entry, "status": status_.GRADED, "detail": ""}
        for key, entry in state.items()
    }  # older files held the digest alone


def statuses(course: Course) -> dict[tuple[str, str], tuple[str, str]]:
    """(student, lesson) -> (status, detail) of every graded submission."""
    return {_student_lesson(key): (entry["status"], entry["detail"]) for key, entry in _state(course).items()}


def _student_lesson(key: str) -> tuple[str, str]:
    """The (student, lesson) of a state file's key, as Job.key writes it."""
    student, _, lesson = key.partition("/")
    return student, lesson


def _save_state(course: Course, key: str, entry: dict | None) -> None:
    """Set (or with None, drop) one submission's entry of the state file. Read again under a lock, so two
    `grade` runs at once (two lessons, into one gradebook) each keep what the other wrote."""
    path = course.grading / STATE
    with open(course.grading / f"{STATE}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        state = json.loads(path.read_text()) if path.is_file() else {}
        if entry is None:
            state.pop(key, None)
        else:
            state[key] = entry
        staged = path.with_suffix(f".{os.getpid()}.tmp")
        staged.write_text(json.dumps(state, indent=1, sort_keys=True))
        staged.replace(path)


def _not_run(course: Course, job: Job, outcome: Outcome) -> Sandboxed:
    """A result for a notebook nbgrader could not finish: every test 0, with the reason as its message."""
    cells = course.test_ids(job.lesson)
    shown = nbformat.read(course.release_notebook(job.lesson), as_version=4)
    for cell in shown.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") in cells:
            cell.outputs = [
                nbformat.v4.new_output(
                    "error", ename="NotGraded", traceback=[], evalue=f"not graded: {outcome.status} ({outcome.detail})"
                )
            ]
    return Sandboxed(None, nbformat.writes(shown), {name: (0.0, False) for name in cells})


class Details(logging.LoggerAdapter):
    """A logger whose messages are all details (DEBUG, shown with --verbose): nbgrader's notes on each late notebook."""

    def log(self, level, msg, *args, **kwargs):
        super().log(logging.DEBUG, msg, *args, **kwargs)


class LatePenalty(AssignLatePenalties):
    """nbgrader's AssignLatePenalties, its configured plugin (c.AssignLatePenalties.plugin_class, by default
    LateSubmissionPlugin and its c.LateSubmissionPlugin.penalty_method) and its bounds (0 to the notebook's score),
    applied to one submitted notebook in the gradebook already open: its own preprocess would open the gradebook again
    under nbgrader's default course id, adding that course to this one's gradebook."""

    def assign(self, submission: SubmittedAssignment, notebook: SubmittedNotebook) -> float:
        """Set the notebook's late_submission_penalty as nbgrader's autograde sets it; the penalty (0: none)."""
        notebook.late_submission_penalty = None
        if submission.total_seconds_late > 0:
            self.init_plugin()
            penalty = self.plugin_inst.late_submission_penalty(
                submission.student.id, notebook.score, submission.total_seconds_late
            )
            if penalty is not None:
                notebook.late_submission_penalty = self._check_late_penalty(notebook, penalty)
        return notebook.late_submission_penalty or 0.0


def course_gradebook(course: Course) -> Gradebook:
    """The course's own nbgrader gradebook, opened (close it, or use it in a `with`); a new one is made without
    nbgrader's alembic command."""
    config = course.nbgrader_config()
    start_gradebook(course, config.CourseDirectory.db_url)
    return Gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id)


def record(
    course: Course,
    job: Job,
    result: Sandboxed,
    status: str = status_.GRADED,
    detail: str = "",
    gradebook: Gradebook | None = None,
) -> float:
    """Write one sandboxed result into the course's gradebook and autograded/ folder, as nbgrader would, with its
    late penalty (LatePenalty); the penalty (0: none).

    A submission with a problem is flagged, and its status is the auto comment of its first cell.
    `gradebook` is the course's, already open (a batch opens it once), else it is opened here.
    """
    with (
        contextlib.nullcontext(gradebook) if gradebook is not None else course_gradebook(course) as gb,
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore")  # nbgrader's own SQLAlchemy warnings when it creates a submission
        for attempt in range(CREATE_ATTEMPTS):
            try:  # another run grading into the same database may create the student at the same moment
                gb.update_or_create_student(job.student)
                if job.timestamp:
                    gb.update_or_create_submission(job.lesson, job.student, timestamp=parse_utc(job.timestamp))
                else:
                    gb.update_or_create_submission(job.lesson, job.student)
                break
            except InvalidEntry:  # nbgrader has rolled back; the row is there now
                if attempt == CREATE_ATTEMPTS - 1:
                    raise
        graded = gb.find_submission_notebook(job.lesson, job.lesson, job.student)
        # every grade's and comment's cell (their names are read below) in one query rather than one each: the
        # session finds them in its identity map while `cells` holds them
        cells = gb.db.query(BaseCell).filter(BaseCell.notebook_id == graded.notebook_id).all()
        for grade in graded.grades:
            grade.auto_score, grade.needs_manual_grade = result.grades.get(grade.name, (None, True))
        comments = sorted(graded.comments, key=lambda c: c.name)
        del cells
        for comment in comments:
            comment.auto_comment = None
        graded.flagged = status != status_.GRADED
        if graded.flagged and comments:  # nbgrader's feedback renders it as Markdown: the detail may quote the file
            comments[0].auto_comment = markdown_text(f"{status}: {detail}")
        gb.db.commit()  # the scores first: the penalty is read from them
        settings = course.nbgrader_settings()
        late = LatePenalty(config=settings, log=Details(logging.getLogger(__name__), {}))
        penalty = late.assign(gb.find_submission(job.lesson, job.student), graded)
        gb.db.commit()
    folder = course.grading / "autograded" / job.student / job.lesson
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    # what formgrader and nbgrader's feedback show of it, with nothing the submission carries left to run there
    (folder / f"{job.lesson}.ipynb").write_text(inert_text(result.autograded))
    if job.timestamp:
        (folder / "timestamp.txt").write_text(job.timestamp)
    # As nbgrader's autograde copies it: generate_feedback passes it on, and release_feedback names the page with it.
    secret = job.notebook.parent / SECRET
    if secret.is_file() and not secret.is_symlink() and secret.stat().st_size <= SECRET_LIMIT:
        shutil.copyfile(secret, folder / SECRET)
    return penalty


def _require_assignments(course: Course, lessons: list[str]) -> None:
    with course_gradebook(course) as gb:
        known = {a.name for a in gb.assignments}
    missing = [lesson for lesson in lessons if lesson not in known]
    if missing:
        raise BadInput(f"not in the gradebook yet: {', '.join(missing)} (run `python -m grader release` first)")


def files_beside(notebook: Path) -> list[str]:
    """The paths (relative to its folder) of everything handed in beside a submitted notebook."""
    folder = notebook.parent
    found = []
    for top, folders, files in os.walk(folder):  # an entry that cannot be listed is left out
        found += [str((Path(top) / name).relative_to(folder)) for name in folders + files]
    return sorted(name for name in found if name != notebook.name)


class Calls(Sequence):
    """grade_submission's arguments for each job; a notebook is read only when its call goes to a worker,
    so a class's files are never all held at once."""

    def __init__(
        self,
        course: Course,
        jobs: list[Job],
        limits: Limits | None,
    ):
        self.course, self.jobs, self.limits = course, jobs, limits

    def __len__(self) -> int:
        return len(self.jobs)

    def __getitem__(self, index):
        job = self.jobs[index]
        try:
            data = read_limited(job.notebook)
        except BadInput:  # it was readable a moment ago (see unreadable): graded as what it now is
            data = b""
        return (
            str(self.course.root),
            job.lesson,
            data,
            job.timestamp,
            files_beside(job.notebook),
            self.limits,
        )


def unreadable(job: Job) -> Outcome | None:
    """The outcome of a submission whose file cannot be read at all (a folder named like the notebook), as
    read_limited words it; None for a file that opens."""
    if not job.notebook.is_file():
        return Outcome(None, status_.INVALID, "no such file")
    try:
        with open(job.notebook, "rb"):
            return None
    except OSError as error:
        return Outcome(None, status_.INVALID, f"cannot be read ({error.strerror})")


def grade_class(
    course: Course,
    lessons: list[str] | None = None,
    jobs: int | None = None,
    force: bool = False,
    limits: Limits | None = None,
    progress=None,
    grade: Callable[..., dict] = grade_submission,
    cluster: str | None = None,
) -> GradeLog:
    """Autograde every new or changed submission (all of them with `force`), `jobs` at a time.

    Each is graded by `grade` (grade_submission; a test may wrap it) in a worker process, within
    `limits` (its cells' and whole notebook's seconds, its kernel's megabytes; default: the
    course's, Course.limits); nothing a submission holds stops the batch: a worker that dies is
    replaced (pool.in_workers). With `cluster`, the address of a Dask scheduler, grade_submission
    runs on its workers instead (instructor.cluster), within the same limits, and `jobs` is theirs
    to say; SchedulerUnreachable when none answers there.
    """
    unbuilt = [lesson for lesson in lessons or [] if lesson not in course.built_lessons()]
    if unbuilt:
        raise BadInput(f"not built yet: {', '.join(unbuilt)} (run `python -m grader release {' '.join(unbuilt)}`)")
    lessons = lessons or course.built_lessons()  # a lesson being written, not built, has no hand-ins
    start = time.monotonic()
    with contextlib.ExitStack() as stack:
        run = runner(course, stack, grade, jobs, cluster)
        log = _grade_class(course, lessons, force, course.limits() if limits is None else limits, progress, run)
    log.seconds = time.monotonic() - start
    return log


def runner(course: Course, stack: contextlib.ExitStack, grade: Callable, jobs: int | None, cluster: str | None):
    """What grades a list of calls: the local worker pool (in_workers), or the Dask scheduler at `cluster`, whose
    connection `stack` closes."""
    if cluster is None:
        return functools.partial(in_workers, grade, jobs=jobs)
    from grader.instructor import cluster as cluster_  # Dask is needed only here

    client = stack.enter_context(cluster_.connect(cluster))
    return functools.partial(cluster_.in_cluster, client, course)


def grade_hand_ins(
    course: Course,
    hand_ins: list[tuple[str, str]],
    finished: Callable[[str, str, str | None], None],
    jobs: int | None = None,
    cluster: str | None = None,
    limits: Limits | None = None,
) -> GradeLog:
    """Grade these (student, lesson) collected submissions, whether or not they changed, into the gradebook as
    grade_class does, `jobs` at a time (or on the Dask scheduler at `cluster`): the grading service's hand-ins.
    `finished(student, lesson, failure)` is called as each is recorded (failure: None, or why the machine could not
    grade it), so its feedback need not wait for the others; grading one again records the same result."""
    start, log = time.monotonic(), GradeLog()
    wanted = set(hand_ins)
    todo = [job for job in submissions(course, sorted({lesson for _, lesson in wanted})) if job.pair in wanted]
    if todo:
        _require_assignments(course, sorted({job.lesson for job in todo}))
        for lesson in {job.lesson for job in todo}:
            lesson_gradebook(course, lesson)
        with contextlib.ExitStack() as stack:
            run = runner(course, stack, grade_submission, jobs, cluster)
            with course_gradebook(course) as gradebook:
                limits = course.limits() if limits is None else limits
                _grade_jobs(course, todo, log, gradebook, run, limits, None, finished)
    for student, lesson in wanted - {job.pair for job in todo}:
        finished(student, lesson, "nothing collected to grade")
    log.seconds = time.monotonic() - start
    return log


def _grade_class(course, lessons, force, limits, progress, run) -> GradeLog:
    """grade_class's work, each submission graded by `run` (in_workers, or in_cluster)."""
    state = _state(course)
    todo, log = [], GradeLog()
    handed_in = submissions(course, lessons)
    log.rejected = [
        (rejection, earlier)
        for rejection, earlier in standing(
            read_rejections(course), {(j.student, j.lesson): time_of(j) for j in handed_in}
        )
        if rejection.lesson in lessons or rejection.lesson not in course.lesson_ids()
    ]
    for job in handed_in:
        if not force and (state.get(job.key) or {}).get("digest") == job.digest:
            log.unchanged.append((job.student, job.lesson))
        else:
            todo.append(job)
    if todo:
        _require_assignments(course, sorted({job.lesson for job in todo}))
        for lesson in {job.lesson for job in todo}:
            lesson_gradebook(course, lesson)  # built once here, not in every worker
        with course_gradebook(course) as gradebook:
            _grade_jobs(course, todo, log, gradebook, run, limits, progress)
    return log


def time_of(job: Job) -> datetime | None:
    """When the job's submission was handed in (its timestamp.txt), None when not known."""
    return parse_utc(job.timestamp) if job.timestamp else None


def _grade_jobs(course, todo, log, gradebook, run, limits, progress, finished=None) -> None:
    """grade_class's work on the jobs to grade, each recorded into the open `gradebook` as it ends (then
    `finished(student, lesson, failure)` is called, when given); `run(calls, progress=...)` grades them (in_workers,
    or in_cluster), within `limits`."""
    told = finished or (lambda *_: None)
    opened = [(job, unreadable(job)) for job in todo]
    for job, outcome in opened:
        if outcome is not None:
            _finish(course, job, outcome, job.digest, log, gradebook)
            told(job.student, job.lesson, None)
    todo = [job for job, outcome in opened if outcome is None]
    for index, future in run(Calls(course, todo, limits), progress=progress):
        job = todo[index]
        digest: str | None = job.digest  # None: graded again by the next run
        try:
            outcome = Outcome.from_data(future.result())
        except GradingFailed as error:  # the machine's failure: listed, graded by the next run
            log.failed.append((job.student, job.lesson, str(error)))
            _save_state(course, job.key, None)
            told(job.student, job.lesson, str(error))
            continue
        except WorkerDied as error:  # scored 0 and flagged, and graded again by the next run
            outcome, digest = Outcome(None, status_.GRADER_DIED, f"{error}; the next `grade` tries again"), None
        except Exception as error:  # anything else the worker ended with (pool.GraderError), or could not send back
            outcome = Outcome(None, status_.GRADER_ERROR, f"grading stopped ({named_error(error)})")
        # The instructor's own Ctrl-C is no job's: a KeyboardInterrupt here is never a worker's (pool.plain), so it
        # stops the batch. A grader error is flagged, and graded again by the next run.
        if status_.GRADER_ERROR in outcome.status.split(", "):
            outcome.detail, digest = f"{outcome.detail}; the next `grade` tries again", None
        _finish(course, job, outcome, digest, log, gradebook)
        told(job.student, job.lesson, None)


def _finish(course: Course, job: Job, outcome: Outcome, digest: str | None, log: GradeLog, gradebook) -> None:
    """Record one job's outcome in the gradebook, the state file and the log."""
    if job.problem:
        outcome = outcome.also(status_.BAD_TIMESTAMP, job.problem)
    result = outcome.result or _not_run(course, job, outcome)
    penalty = record(course, job, result, outcome.status, outcome.detail, gradebook)
    score = sum(points or 0 for points, _ in result.grades.values()) - penalty
    log.graded.append((job.student, job.lesson, score, outcome.status, outcome.detail))
    # saved as each ends, so a stopped run keeps what it finished
    _save_state(course, job.key, {"digest": digest, "status": outcome.status, "detail": outcome.detail})
