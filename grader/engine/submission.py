"""A learner's file read as a lesson notebook: every way it can be unreadable is BadInput, and its lesson is
the one whose graded cells it carries."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from grader.course import Course, read_cached
from grader.engine.untrusted import MAX_NOTEBOOK_BYTES, grade_id_of, shape_problem

if TYPE_CHECKING:
    import nbformat


class BadInput(ValueError):
    """The file cannot be graded as a lesson notebook (missing, not JSON, unknown lesson)."""


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """Read a learner's file, turning every way it can be unreadable into BadInput."""
    return read_notebook_bytes(read_limited(path), path)


def read_limited(path: Path) -> bytes:
    """A learner's file, at most one byte past what a notebook may be; BadInput if it cannot be read."""
    path = Path(path)
    if not path.is_file():
        raise BadInput(f"{path}: no such file")
    try:
        with open(path, "rb") as stream:
            return stream.read(MAX_NOTEBOOK_BYTES + 1)
    except OSError as error:
        raise BadInput(f"{path}: cannot be read ({error.strerror})") from None


def read_notebook_bytes(data: bytes | str, path) -> nbformat.NotebookNode:
    """Parse a learner's file; `path` only names it in messages. Whatever the bytes, the only
    exception is BadInput."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise BadInput(f"{path}: larger than the {MAX_NOTEBOOK_BYTES // 2**20} MB a notebook may be")
    if not data.strip():
        raise BadInput(f"{path}: an empty file, not a notebook")
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError, MemoryError) as error:  # ValueError: bad UTF-8 or JSON, a 5000-digit number
        detail = "nested too deep" if isinstance(error, RecursionError) else str(error)[:200] or type(error).__name__
        raise BadInput(f"{path}: not a notebook (not valid JSON: {detail})") from None
    problem = shape_problem(raw)
    if problem:
        raise BadInput(f"{path}: not a notebook ({problem})")
    import nbformat  # here, not at the top: the command line imports this module, and nbformat takes 0.3 s

    try:
        nb = nbformat.convert(notebook_of(raw), 4)
        nbformat.validate(nb)
    except Exception as error:
        first_line = str(error).strip().splitlines()[0][:200] if str(error).strip() else type(error).__name__
        raise BadInput(f"{path}: not a valid Jupyter notebook ({first_line})") from None
    return nb


def notebook_of(raw: dict) -> nbformat.NotebookNode:
    """The notebook that nbformat.reads would give for this JSON, in the version it was written in (the JSON is
    parsed once, here, rather than written back out for nbformat to parse again)."""
    import nbformat

    major, minor = nbformat.reader.get_version(raw)
    if major not in nbformat.versions:
        raise nbformat.NBFormatError(f"Unsupported nbformat version {major}")
    try:
        return nbformat.versions[major].to_notebook_json(raw, minor=minor)
    except AttributeError as error:
        raise nbformat.ValidationError(f"The notebook is invalid and is missing an expected key: {error}") from None


def grade_ids_in_order(nb: nbformat.NotebookNode) -> list[str]:
    """The grade id of each cell that has one (grade_id_of: metadata of another shape gives none)."""
    return [grade_id for grade_id in map(grade_id_of, nb.get("cells", [])) if grade_id is not None]


def grade_ids(nb: nbformat.NotebookNode) -> set[str]:
    return set(grade_ids_in_order(nb))


def identify_lesson(course: Course, nb: nbformat.NotebookNode, path: Path) -> str:
    """The lesson of `course` whose graded cells this notebook carries: one `release` has built."""
    ids = grade_ids(nb)
    lessons = course.built_lessons()
    overlap = {lesson: len(ids & grade_ids(read_cached(course.source_notebook(lesson)))) for lesson in lessons}
    best = max(overlap, key=overlap.__getitem__, default=None)
    if best is None or overlap[best] == 0:
        unbuilt = sorted(set(course.lesson_ids()) - set(lessons))
        later = f"; not built yet (`python -m grader release` builds it): {', '.join(unbuilt)}" if unbuilt else ""
        raise BadInput(
            f"{path}: not a notebook of a known lesson (none of its cells belong to {', '.join(lessons)}{later})"
        )
    return best
