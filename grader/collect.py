"""Collect submissions into nbgrader's `submitted/<student>/<lesson>/` layout.

Two sources: the nbgrader exchange (students who used `nbgrader submit` or JupyterLab's
assignment list), and LMS downloads — a folder or a zip with one file per student (the
student id at the start of its name) or one folder per student. Each notebook's lesson
is read from its graded cells, not from its name. Nothing is dropped: a file that cannot
be placed is copied to `.grading/unplaced/` and listed with the reason; when a student
sent several versions of one lesson, the latest wins and the choice is logged.
"""
from __future__ import annotations

import io
import re
import shutil
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

import nbformat
from nbgrader.apps import NbGraderAPI

from . import course
from .selfgrade import BadInput, _require, identify_lesson, quiet_stderr, read_notebook_bytes

# Canvas-style download names: "<student>_<...>_<original name>.ipynb".
DEFAULT_PATTERN = r"^(?P<student>[^_]+)_"
# What a student id may look like once collected: it becomes a directory name.
STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")


@dataclass
class Upload:
    """One file as it came from the LMS download."""

    name: str            # its path inside the download, for messages
    data: bytes
    timestamp: datetime


@dataclass
class CollectLog:
    placed: list[tuple[str, str, str]] = field(default_factory=list)        # student, lesson, from
    superseded: list[tuple[str, str, str, str]] = field(default_factory=list)  # student, lesson, older, kept
    unplaced: list[tuple[str, str]] = field(default_factory=list)           # from, reason

    def render(self) -> str:
        lines = [f"Collected {len(self.placed)} submission(s)."]
        lines += [f"  {student} / {lesson} <- {source}" for student, lesson, source in self.placed]
        if self.superseded:
            lines.append("Several versions of one lesson from one student; the latest was kept:")
            lines += [f"  {student} / {lesson}: kept {kept}, not {older}" for student, lesson, older, kept in self.superseded]
        if self.unplaced:
            lines.append(f"Could not place {len(self.unplaced)} file(s); copies are in .grading/unplaced/:")
            lines += [f"  {source}: {reason}" for source, reason in self.unplaced]
        return "\n".join(lines)


def read_uploads(source: Path) -> list[Upload]:
    """Every file of a download folder or zip, with its time (zip entry time or file mtime)."""
    source = Path(source)
    if source.is_dir():
        return [Upload(path.relative_to(source).as_posix(), path.read_bytes(),
                       datetime.fromtimestamp(path.stat().st_mtime, timezone.utc))
                for path in sorted(source.rglob("*")) if path.is_file()]
    if zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as archive:
            return [Upload(info.filename, archive.read(info), datetime(*info.date_time, tzinfo=timezone.utc))
                    for info in archive.infolist() if not info.is_dir()]
    raise BadInput(f"{source}: not a folder or a zip file")


def student_of(name: str, pattern: re.Pattern) -> str:
    """The student id of an upload: its top folder, else what `pattern` finds in the file name."""
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".", "/")]
    if len(parts) > 1:
        candidate = parts[0]
    else:
        match = pattern.search(parts[-1]) if parts else None
        if not match:
            raise BadInput(f"no student id in the name (expected {pattern.pattern!r})")
        candidate = match.group("student")
    if not STUDENT_ID.fullmatch(candidate):
        raise BadInput(f"{candidate[:40]!r} is not a usable student id (letters, digits, . _ @ -)")
    return candidate


def collect_downloads(source: Path, root: Path = course.REPO, pattern: str = DEFAULT_PATTERN) -> CollectLog:
    """Place every notebook of an LMS download into submitted/; the latest per student and lesson wins."""
    log = CollectLog()
    regex = re.compile(pattern)
    chosen: dict[tuple[str, str], tuple[Upload, object]] = {}
    for upload in read_uploads(source):
        try:
            if not upload.name.lower().endswith(".ipynb"):
                raise BadInput(f"not a notebook ({PurePosixPath(upload.name).suffix or 'no extension'})")
            student = student_of(upload.name, regex)
            nb = read_notebook_bytes(upload.data, upload.name)
            lesson = identify_lesson(nb, Path(upload.name), root)
        except BadInput as error:
            log.unplaced.append((upload.name, str(error).removeprefix(f"{upload.name}: ")))
            _keep_unplaced(upload, root)
            continue
        key = (student, lesson)
        if key in chosen:
            older, newer = sorted([chosen[key][0], upload], key=lambda u: (u.timestamp, u.name))
            log.superseded.append((student, lesson, older.name, newer.name))
            if newer is not upload:
                continue
        chosen[key] = (upload, nb)
    for (student, lesson), (upload, nb) in sorted(chosen.items()):
        place(nb, student, lesson, upload.timestamp, root)
        log.placed.append((student, lesson, upload.name))
    return log


def place(nb, student: str, lesson: str, timestamp: datetime, root: Path = course.REPO) -> Path:
    """Write one submission where nbgrader's autograde looks for it, with its timestamp."""
    folder = root / ".grading" / "submitted" / student / lesson
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{lesson}.ipynb")
    (folder / "timestamp.txt").write_text(timestamp.strftime("%Y-%m-%d %H:%M:%S.%f UTC"))
    return folder / f"{lesson}.ipynb"


def _keep_unplaced(upload: Upload, root: Path) -> None:
    """Keep a copy of a file that could not be placed, under a safe flat name."""
    folder = root / ".grading" / "unplaced"
    folder.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9._-]+|\.\.+", "_", upload.name)[-120:].lstrip(".") or "file"
    target, number = folder / safe, 1
    while target.exists() and target.read_bytes() != upload.data:  # never overwrite another file
        number += 1
        target = folder / f"{number}-{safe}"
    target.write_bytes(upload.data)


def collect_exchange(lessons: list[str], root: Path = course.REPO, exchange: Path | None = None) -> CollectLog:
    """nbgrader's own collect from the exchange, logging students who submitted more than once."""
    config = course.nbgrader_config(root, exchange)
    inbound = Path(config.Exchange.root) / config.CourseDirectory.course_id / "inbound"
    api = NbGraderAPI(config=config)
    log = CollectLog()
    for lesson in lessons:
        versions: dict[str, list[str]] = {}
        for entry in sorted(inbound.glob(f"*+{lesson}+*")) if inbound.is_dir() else []:
            versions.setdefault(entry.name.split("+")[0], []).append(entry.name)
        if not versions:
            continue
        with quiet_stderr():
            _require(api.collect(lesson, update=True), "collect")
        for student, names in sorted(versions.items()):
            latest = max(names, key=lambda n: n.split("+")[2])
            log.placed.append((student, lesson, f"exchange:{latest}"))
            log.superseded += [(student, lesson, older, latest) for older in names if older != latest]
    return log
