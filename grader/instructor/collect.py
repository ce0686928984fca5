"""Collect submissions into nbgrader's `submitted/<student>/<lesson>/` layout.

Two sources: the nbgrader exchange (students who used `nbgrader submit` or JupyterLab's
assignment list), and LMS downloads — a folder or a zip with one file per student (the
student id at the start of its name) or one folder per student. Each notebook's lesson
is read from its graded cells, not from its name. Nothing is dropped: a file that cannot
be placed is listed with the reason and kept in `.grading/unplaced/`; when a student
sent several versions of one lesson, the latest wins and the choice is logged.

Both are the students' making, so read as hostile: one file at a time, in chunks, up to a
limit per file and one for the whole collect (a zip of zeros cannot fill memory or disk);
links are listed, never followed; a path that is absolute or climbs out with `..` names no
student; every name is escaped in the log. Whatever one file holds costs only that file:
it is listed with the reason, and the others are collected.

Each file left out is also recorded in `.grading/rejected.json` (a Rejection: the student and
lesson when they can be told, the reason in a student's words, the escaped name), where
`grade` and the feedback, export and report writers read it: a hand-in that could not be read
shows as such, never as missing.
"""

from __future__ import annotations

import json
import os
import pwd
import re
import shutil
import stat
import tempfile
import zipfile
from collections.abc import Collection, Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from grader.course import Course
from grader.engine.submission import BadInput, identify_lesson, read_notebook_bytes
from grader.engine.untrusted import shown
from grader.instructor.attempts import accepted, journal_graded

if TYPE_CHECKING:
    import nbformat

# Canvas-style download names: "<student>_<...>_<original name>.ipynb".
DEFAULT_PATTERN = r"^(?P<student>[^_]+)_"
# What a student id may look like once collected: it becomes a directory name.
STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")
MB = 2**20
CHUNK = MB
# The time given to a file whose recorded time cannot be read: the earliest a zip can record.
UNKNOWN_TIME = datetime(1980, 1, 1, tzinfo=timezone.utc)
# Under .grading/: every hand-in a collect left out. Not in submitted/, whose every entry nbgrader reads as a
# student's folder, and not in the gradebook, where nbgrader would count it a submission (with a notebook
# formgrader cannot open): the gradebook holds what was graded.
REJECTED = "rejected.json"
# A collect's reason (its start, or a phrase in it) -> what it means to the student who handed the file in.
IN_STUDENT_WORDS = [
    ("an empty file", "it is empty"),
    ("not valid JSON", "it is not a notebook (perhaps saved in another format, such as HTML, under a notebook's name)"),
    ("not a notebook of a known lesson", "it is a notebook, but not of a lesson of this course"),
    ("not a notebook (.", "it is not a notebook (a {suffix} file)"),
    ("not a notebook (no extension)", "it is not a notebook (a file with no extension)"),
    ("not a notebook", "it is not a notebook Jupyter can open"),
    ("not a valid Jupyter notebook", "it is not a notebook Jupyter can open"),
    ("larger than the", "it is larger than a hand-in may be"),
    ("past the", "it was not read: the download it came in was larger than one collect reads"),
    ("a symbolic link", "it is a link to another file, not a file"),
    ("not a regular file", "it is not a file that can be read"),
    ("its name holds no time", "the time it was handed in could not be read"),
    ("not a folder", "it is not a hand-in as the exchange keeps one"),
    ("a folder that cannot be read", "it could not be read"),
    ("cannot be read", "it could not be read"),
    ("could not be read", "it could not be read (it may have been damaged on the way)"),
]


@dataclass(frozen=True)
class DownloadLimits:
    """How much of a download collect reads, and how much of what it cannot place it copies."""

    file_bytes: int = 20 * MB  # one file of the download (--max-file)
    download_bytes: int = 2048 * MB  # all files of the download together (--max-download)
    kept_bytes: int = 256 * MB  # copies kept in .grading/unplaced/ by one collect; past it, notes


@dataclass
class Upload:
    """One file as it came from the LMS download: its bytes, or why they were not read."""

    name: str  # its path inside the download, for messages
    data: bytes
    timestamp: datetime
    refused: str = ""  # why it was not read (too large, a link, damaged); its data is then empty


@dataclass
class CollectLog:
    placed: list[tuple[str, str, str]] = field(default_factory=list)  # student, lesson, from
    superseded: list[tuple[str, str, str, str]] = field(default_factory=list)  # student, lesson, older, kept
    unplaced: list[tuple[str, str]] = field(default_factory=list)  # from, reason
    over_limit: list[tuple[str, str, str]] = field(default_factory=list)  # student, lesson, from: not collected

    def render(self) -> str:
        """The log as text; every name and reason escaped (shown), so none can start a line or move the cursor."""
        lines = [f"Collected {len(self.placed)} submission(s)."]
        lines += [f"  {shown(student)} / {shown(lesson)} <- {shown(source)}" for student, lesson, source in self.placed]
        if self.superseded:
            lines.append("Several versions of one lesson from one student; the latest was kept:")
            lines += [
                f"  {shown(student)} / {shown(lesson)}: kept {shown(kept)}, not {shown(older)}"
                for student, lesson, older, kept in self.superseded
            ]
        if self.over_limit:
            lines.append("Past the lesson's limit of graded attempts (GradingService.attempts), not collected:")
            lines += [
                f"  {shown(student)} / {shown(lesson)}: {shown(source)}" for student, lesson, source in self.over_limit
            ]
        if self.unplaced:
            lines.append(f"Could not place {len(self.unplaced)} file(s); they are kept in .grading/unplaced/:")
            lines += [f"  {shown(source)}: {shown(reason)}" for source, reason in self.unplaced]
        return "\n".join(lines)


@dataclass(frozen=True)
class Rejection:
    """One hand-in a collect left out: who and which lesson, when known ("" when not), and why.

    `file` and `detail` (collect's own reason) are escaped as the log shows them; `reason` says
    what went wrong in a student's words; `handed_in` is an ISO time, "" when it is not known.
    """

    student: str
    lesson: str
    file: str
    reason: str
    detail: str
    handed_in: str = ""

    @classmethod
    def of(cls, name: str, detail: str, student: str = "", lesson: str = "", when: datetime | None = None):
        """The record of the file `name` that was left out for `detail`."""
        time = "" if when is None or as_utc(when) == UNKNOWN_TIME else as_utc(when).isoformat()
        return cls(student, lesson, shown(name), in_student_words(detail), shown(detail), time)

    def time(self) -> datetime | None:
        """When it was handed in (UTC), None when not known."""
        return datetime.fromisoformat(self.handed_in) if self.handed_in else None


def in_student_words(detail: str) -> str:
    """What collect's reason for leaving a file out means to the student who handed it in."""
    for phrase, words in IN_STUDENT_WORDS:
        if phrase in detail:
            suffix = detail.partition("not a notebook (")[2].partition(")")[0]
            return words.format(suffix=shown(suffix, 20))
    return "it could not be read as a notebook of this course"


def lesson_in_name(name: str, course: Course) -> str:
    """The lesson a file's name says it is for (its id in the name, as Canvas keeps the original name); "" if none
    or several."""
    base = PurePosixPath(name.replace("\\", "/")).name
    named = [lesson for lesson in course.lesson_ids() if lesson in base]
    return named[0] if len(named) == 1 else ""


def record_rejections(course: Course, rejections: list[Rejection]) -> None:
    """Add `rejections` to the course's record (REJECTED); one already there is not added twice."""
    if not rejections:
        return
    known = read_rejections(course)
    added = known + [r for r in dict.fromkeys(rejections) if r not in known]
    path = course.grading / REJECTED
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.with_suffix(".tmp")
    staged.write_text(json.dumps({"rejected": [asdict(r) for r in added]}, indent=1))
    staged.replace(path)


def read_rejections(course: Course) -> list[Rejection]:
    """Every hand-in the collects of `course` left out, each field escaped again (the file is the instructor's,
    but what it holds goes on pages); [] before any was left out."""
    path = course.grading / REJECTED
    if not path.is_file():
        return []
    entries = json.loads(path.read_text(encoding="utf-8")).get("rejected", [])
    names = [f.name for f in Rejection.__dataclass_fields__.values()]
    return [
        Rejection(**{name: shown(entry.get(name, "")) for name in names})
        for entry in entries
        if isinstance(entry, dict)
    ]


def standing(
    rejections: list[Rejection], graded_at: dict[tuple[str, str], datetime | None]
) -> list[tuple[Rejection, bool]]:
    """The rejections still to show, each with whether a hand-in of its lesson is graded (then the rejection is
    the later one). A graded hand-in handed in at the same time or later wins, as does one whose time, or the
    rejection's, is not known: the rejection is then not shown."""
    kept = []
    for rejection in rejections:
        key = (rejection.student, rejection.lesson)
        if rejection.lesson and key in graded_at:
            graded, rejected = graded_at[key], rejection.time()
            if graded is None or rejected is None or as_utc(graded) >= rejected:
                continue
            kept.append((rejection, True))
        else:
            kept.append((rejection, False))
    return kept


def as_utc(when: datetime) -> datetime:
    """A time that carries no zone (as the gradebook gives them back) read as UTC."""
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


class Budget:
    """What a download may still hand over: reads one file in chunks, refusing what is over a limit."""

    def __init__(self, limits: DownloadLimits):
        self.limits, self.left = limits, limits.download_bytes

    def read(self, stream, declared: int) -> tuple[bytes, str]:
        """The file's bytes and "", or b"" and why it was not read; `declared` is its recorded size."""
        limit = min(self.limits.file_bytes, self.left)
        why = (
            f"larger than the {self.limits.file_bytes / MB:g} MB one file may be (--max-file); not read"
            if self.limits.file_bytes <= self.left
            else f"past the {self.limits.download_bytes / MB:g} MB one download may hold (--max-download); not read"
        )
        if declared > limit:
            return b"", why
        chunks, size = [], 0
        while chunk := stream.read(min(CHUNK, limit + 1 - size)):
            size += len(chunk)
            self.left -= len(chunk)
            if size > limit:
                return b"", why
            chunks.append(chunk)
        return b"".join(chunks), ""


def read_uploads(source: Path, limits: DownloadLimits = DownloadLimits()) -> Iterator[Upload]:
    """Every file of a download folder or zip, one at a time, with its time (zip entry time or file mtime)."""
    source = Path(source)
    if source.is_dir():
        return folder_uploads(source, Budget(limits))
    if zipfile.is_zipfile(source):
        try:
            archive = zipfile.ZipFile(source)
        except (zipfile.BadZipFile, OSError, ValueError) as error:
            raise BadInput(f"{source}: a damaged zip file ({error})") from None
        return zip_uploads(archive, Budget(limits))
    raise BadInput(f"{source}: not a folder or a zip file")


def zip_uploads(archive: zipfile.ZipFile, budget: Budget) -> Iterator[Upload]:
    """The files of a zip; an entry with the symbolic-link mode bit, or one that cannot be read, is refused."""
    with archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            try:
                when = datetime(*info.date_time, tzinfo=timezone.utc)
            except ValueError:
                when = UNKNOWN_TIME
            if stat.S_ISLNK(info.external_attr >> 16):
                yield Upload(info.filename, b"", when, "a symbolic link (not followed)")
                continue
            try:
                with archive.open(info) as stream:
                    data, refused = budget.read(stream, info.file_size)
            except Exception as error:  # a bad CRC, damaged or encrypted data: only this entry is lost
                data, refused = b"", f"could not be read from the zip ({type(error).__name__}: {str(error)[:200]})"
            yield Upload(info.filename, data, when, refused)


def folder_uploads(folder: Path, budget: Budget) -> Iterator[Upload]:
    """The regular files under `folder`, in order of their paths; links and other kinds of file are refused."""
    for path, refused in sorted(files_under(folder)):
        name = path.relative_to(folder).as_posix()
        yield Upload(name, b"", UNKNOWN_TIME, refused) if refused else read_file(path, name, budget)


def files_under(folder: Path) -> list[tuple[Path, str]]:
    """Each file under `folder`, with why it is refused ("" for a regular file); links are not followed."""
    found: list[tuple[Path, str]] = []
    pending: list[str | Path] = [folder]  # folders still to read: `folder`, then the paths scandir gives
    while pending:
        directory = pending.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError as error:
            found.append((Path(directory), f"a folder that cannot be read ({error.strerror})"))
            continue
        for entry in entries:
            try:
                if entry.is_symlink():
                    found.append((Path(entry.path), "a symbolic link (not followed)"))
                elif entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                else:
                    found.append(
                        (Path(entry.path), "" if entry.is_file(follow_symlinks=False) else "not a regular file")
                    )
            except OSError as error:
                found.append((Path(entry.path), f"cannot be read ({error.strerror})"))
    return found


def read_file(path: Path, name: str, budget: Budget) -> Upload:
    """One file of a download folder, opened without following a link and without blocking on a pipe."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with open(descriptor, "rb") as stream:
            status = os.fstat(descriptor)
            try:
                when = datetime.fromtimestamp(status.st_mtime, timezone.utc)
            except (OverflowError, OSError, ValueError):
                when = UNKNOWN_TIME
            if not stat.S_ISREG(status.st_mode):
                return Upload(name, b"", when, "not a regular file")
            data, refused = budget.read(stream, status.st_size)
            return Upload(name, data, when, refused)
    except OSError as error:
        return Upload(name, b"", UNKNOWN_TIME, f"cannot be read ({error.strerror or error})")


def student_of(name: str, pattern: re.Pattern) -> str:
    """The student id of an upload: its top folder, else what `pattern` finds in the file name."""
    if name.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", name):
        raise BadInput("an absolute path, which names no student")
    if ".." in re.split(r"[/\\]", name):
        raise BadInput("a path that climbs out with '..', which names no student")
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
    if len(parts) > 1:
        candidate = parts[0]
    else:
        match = pattern.search(parts[-1]) if parts else None
        if not match:
            raise BadInput(f"no student id in the name (expected {pattern.pattern!r})")
        candidate = match.group("student") or ""
    if not STUDENT_ID.fullmatch(candidate):
        raise BadInput(f"{candidate[:40]!r} is not a usable student id (letters, digits, . _ @ -)")
    return candidate


def examine(upload: Upload, pattern: re.Pattern, course: Course) -> tuple[str, str, nbformat.NotebookNode]:
    """The student, lesson and notebook of one upload; BadInput says why it has none."""
    if upload.refused:
        raise BadInput(upload.refused)
    if not upload.name.lower().endswith(".ipynb"):
        raise BadInput(f"not a notebook ({PurePosixPath(upload.name).suffix or 'no extension'})")
    student = student_of(upload.name, pattern)
    nb = read_notebook_bytes(upload.data, upload.name)
    return student, identify_lesson(course, nb, Path(upload.name)), nb


def collect_downloads(
    source: Path, course: Course, pattern: str = DEFAULT_PATTERN, limits: DownloadLimits = DownloadLimits()
) -> CollectLog:
    """Place every notebook of an LMS download into submitted/; the latest per student and lesson wins.

    Each notebook is placed as soon as it is read and is the latest so far, so only one file
    is held in memory at a time.
    """
    log = CollectLog()
    regex = re.compile(pattern)
    if "student" not in regex.groupindex:
        raise BadInput(f"the pattern {pattern!r} has no group named 'student'")
    chosen: dict[tuple[str, str], tuple[datetime, str]] = {}  # student, lesson -> time and name of the one placed
    unplaced, rejections = Unplaced(course, limits.kept_bytes), []
    for upload in read_uploads(source, limits):
        try:
            student, lesson, nb = examine(upload, regex, course)
            key, this = (student, lesson), (upload.timestamp, upload.name)
            if key in chosen and max(chosen[key], this) != this:
                log.superseded.append((student, lesson, upload.name, chosen[key][1]))
                continue
            place(course, nb, student, lesson, upload.timestamp)
            if key in chosen:
                log.superseded.append((student, lesson, chosen[key][1], upload.name))
            chosen[key] = this
        except Exception as error:  # whatever one file holds, it costs only that file
            reason = (
                str(error).removeprefix(f"{upload.name}: ")
                if isinstance(error, BadInput)
                else f"could not be read ({type(error).__name__}: {str(error)[:200]})"
            )
            log.unplaced.append((upload.name, reason))
            unplaced.keep(upload, reason)
            rejections.append(rejection_of(upload, reason, regex, course))
    log.placed = [(student, lesson, name) for (student, lesson), (_, name) in sorted(chosen.items())]
    record_rejections(course, rejections)
    return log


def rejection_of(upload: Upload, reason: str, pattern: re.Pattern, course: Course) -> Rejection:
    """The record of a download's file that was left out: its student and lesson when its name tells them."""
    try:
        student = student_of(upload.name, pattern)
    except BadInput:
        student = ""
    return Rejection.of(upload.name, reason, student, lesson_in_name(upload.name, course), upload.timestamp)


TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S.%f UTC"  # a collected submission's timestamp.txt, as nbgrader reads it


def inbound_of(config) -> Path:
    """The exchange's inbound folder of the course these nbgrader settings are for: where students hand in."""
    return Path(config.Exchange.root) / config.CourseDirectory.course_id / "inbound"


def place(course: Course, nb, student: str, lesson: str, timestamp: datetime) -> Path:
    """Write one submission where nbgrader's autograde looks for it, with its timestamp."""
    import nbformat  # here, not at the top: the command line imports this module for its defaults

    text = nbformat.writes(nb)  # before touching the folder, which may hold an older version
    folder = course.grading / "submitted" / student / lesson
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{lesson}.ipynb").write_text(text, encoding="utf-8")
    (folder / "timestamp.txt").write_text(timestamp.strftime(TIMESTAMP_FORMAT))
    return folder / f"{lesson}.ipynb"


class Unplaced:
    """Keeps what could not be placed in .grading/unplaced/, under safe flat names: a copy of each
    file while the copies of one collect stay within `limit`; for a file not read, or past the
    limit, a short note that names it and says why."""

    def __init__(self, course: Course, limit: int):
        self.folder, self.left, self.limit = course.grading / "unplaced", limit, limit

    def keep(self, upload: Upload, reason: str) -> Path:
        if upload.refused or len(upload.data) > self.left:
            why = "it was not read" if upload.refused else f"copies kept by one collect stop at {self.limit / MB:g} MB"
            data = (
                f"{shown(upload.name)}\nnot placed: {shown(reason)}\nno copy here: {why}; "
                "the original is where collect found it\n"
            ).encode()
            suffix = ".note.txt"
        else:
            data, suffix = upload.data, ""
            self.left -= len(data)
        self.folder.mkdir(parents=True, exist_ok=True)
        safe = re.sub(r"[^A-Za-z0-9._-]+|\.\.+", "_", upload.name + suffix)[-120:].lstrip(".") or "file"
        target, number = self.folder / safe, 1
        while target.exists() and (target.stat().st_size != len(data) or target.read_bytes() != data):
            number += 1  # never overwrite another file
            target = self.folder / f"{number}-{safe}"
        target.write_bytes(data)
        return target


def collect_exchange(
    course: Course,
    lessons: list[str],
    exchange: Path | None = None,
    limits: DownloadLimits = DownloadLimits(),
    only: Collection[str] | None = None,
) -> CollectLog:
    """nbgrader's own collect from the exchange, run on a copy of each lesson's inbound folder made
    as a download is read; logs students who submitted more than once. With `only`, names of inbound
    folders, those hand-ins alone are collected (the grading service's, at most one per student and lesson).

    The inbound folder is the students' to write: a submission there may be renamed so that
    nbgrader cannot read its time (its collect then fails for everyone), or hold a link to a
    file only the instructor may read (its copy follows links). Such a submission, or file, is
    listed and left out of the copy; the rest are collected as nbgrader would. Each copy is named and
    dated (its timestamp.txt) with the hand-in's receipt (receipt_of), never the time its name or its own
    timestamp.txt says, so nbgrader's choice of the latest, and the grade's timestamp, are the exchange's. A
    hand-in past the lesson's limit of graded attempts (GradingService.attempts, grader.instructor.attempts)
    is listed and not copied.
    """
    # here, not at the top: the command line imports this module for its defaults (nbgrader's take a second)
    from nbgrader.apps import NbGraderAPI
    from nbgrader.exchange import ExchangeFactory

    from grader.course.nbgrader_calls import quiet_stderr, require_success
    from grader.exchange.layout import receipt_of

    config = course.nbgrader_config(exchange)
    inbound = inbound_of(config)
    # The copies are the instructor's: nbgrader's owner check (which only warns) is off, and an exchange that
    # collects a submission only from the account it is named after (the hub's) has that checked here, on inbound.
    config.ExchangeCollect.check_owner = False
    config.Collect.dated_by_name = True  # the strict exchange's collect: the copies' names hold their receipts
    owner_must_be_student = getattr(ExchangeFactory(config=config).collect, "checks_owner", False)
    log, budget, unplaced = CollectLog(), Budget(limits), Unplaced(course, limits.kept_bytes)
    rejections: list[Rejection] = []
    policy, graded = course.grading_service(), journal_graded(course.grading)
    for lesson in lessons:
        versions: dict[str, list[tuple[datetime, str]]] = {}
        with tempfile.TemporaryDirectory(prefix="softmax-inbound-") as staging:
            copy = Path(staging) / config.CourseDirectory.course_id / "inbound"
            copy.mkdir(parents=True)
            staged: dict[str, Path] = {}  # inbound folder -> its copy
            for entry in sorted(inbound.glob(f"*+{lesson}+*")) if inbound.is_dir() else []:
                if only is not None and entry.name not in only:
                    continue
                named, owner = entry.name.split("+")[0], owner_name(entry) if owner_must_be_student else None
                if owner_must_be_student and owner != named:  # not the named student's hand-in: listed, not theirs
                    name, reason = f"exchange:{entry.name}", f"handed in under the name {named} by {owner or 'no one'}"
                    log.unplaced.append((name, reason))
                    unplaced.keep(Upload(name, b"", UNKNOWN_TIME, reason), reason)
                    continue
                received, refused = None, []
                try:
                    student = submission_of(entry.name)[0]
                    if entry.is_symlink() or not entry.is_dir():
                        raise BadInput("not a folder (a link or another kind of file)")
                    target = copy / str(len(staged))  # named once its receipt is known
                    target.mkdir()
                    staged[entry.name] = target
                    for upload in folder_uploads(entry, budget):
                        if upload.name == "timestamp.txt":
                            continue  # the student's own: its receipt is written in its place
                        if upload.refused:
                            refused.append(upload)
                            continue
                        (target / upload.name).parent.mkdir(parents=True, exist_ok=True)
                        (target / upload.name).write_bytes(upload.data)
                    received = receipt_of(entry)  # once read: a change while it was read makes it later
                    (target / "timestamp.txt").write_text(received.strftime(TIMESTAMP_FORMAT))
                    named = copy / f"{student}+{lesson}+{received.strftime(TIMESTAMP_FORMAT)}+{target.name}"
                    staged[entry.name] = target.rename(named)
                    for upload in refused:
                        name = f"exchange:{entry.name}/{upload.name}"
                        log.unplaced.append((name, upload.refused))
                        unplaced.keep(Upload(name, b"", upload.timestamp, upload.refused), upload.refused)
                        rejections.append(Rejection.of(name, upload.refused, student, lesson, received))
                except Exception as error:  # whatever one submission holds, it costs only that submission
                    unexpected = f"{type(error).__name__}: {str(error)[:200]}"
                    reason = str(error) if isinstance(error, BadInput) else unexpected
                    name = f"exchange:{entry.name}"
                    log.unplaced.append((name, reason))
                    unplaced.keep(Upload(name, b"", UNKNOWN_TIME, reason), reason)
                    rejections.append(exchange_rejection(entry.name, name, reason, lesson, received))
                    if entry.name in staged:
                        shutil.rmtree(staged.pop(entry.name), ignore_errors=True)
                    continue
                versions.setdefault(student, []).append((received, entry.name))
            for student, hand_ins in versions.items():
                kept = accepted(hand_ins, policy.attempt_limit(lesson), graded)
                for _, folder in sorted(set(hand_ins) - set(kept)):
                    log.over_limit.append((student, lesson, folder))
                    shutil.rmtree(staged[folder])
                versions[student] = kept
            versions = {student: kept for student, kept in versions.items() if kept}
            if not versions:
                continue
            config.Exchange.root = staging
            with quiet_stderr():
                require_success(NbGraderAPI(config=config).collect(lesson, update=True), "collect")
        for student, names in sorted(versions.items()):
            latest = max(names)[1]
            log.placed.append((student, lesson, f"exchange:{latest}"))
            log.superseded += [(student, lesson, older, latest) for _, older in sorted(names) if older != latest]
    record_rejections(course, rejections)
    return log


def exchange_rejection(folder: str, name: str, reason: str, lesson: str, received: datetime | None) -> Rejection:
    """The record of an exchange submission that was left out: its student when its name holds one, and its receipt
    when it was read (None: not known)."""
    student = folder.rsplit("+", 3)[0]
    return Rejection.of(name, reason, student if STUDENT_ID.fullmatch(student) else "", lesson, received)


def owner_name(path: Path) -> str | None:
    """The name of the account that owns `path` (its number when no account has it); None if it is gone."""
    try:
        uid = path.lstat().st_uid
    except OSError:
        return None
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def submission_of(name: str) -> tuple[str, datetime]:
    """The student and time of a submission folder in the exchange, read from its name as nbgrader
    reads it (student+lesson+time+random); BadInput if either cannot be used."""
    from nbgrader.utils import parse_utc  # here, not at the top: see collect_exchange

    parts = name.rsplit("+", 3)
    student = parts[0]
    if not STUDENT_ID.fullmatch(student):
        raise BadInput(f"{student[:40]!r} is not a usable student id (letters, digits, . _ @ -)")
    try:
        return student, parse_utc(parts[2])
    except Exception:
        raise BadInput("its name holds no time nbgrader can read") from None
