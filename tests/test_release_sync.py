"""notebooks/ and solutions/*.ipynb are exactly what the text sources generate."""
import shutil
from pathlib import Path

import pytest

from grader.course import RELEASE, Course, source_notebook_in, text_source_in
from grader.course.release import release
from tests.conftest import COURSE


def differences(root: Path) -> list[str]:
    """Files whose committed copy differs from the one rebuilt under `root`."""
    release(Course(root), progress=lambda _: None)
    rebuilt = {p.relative_to(root) for p in (root / RELEASE).rglob("*") if p.is_file()}
    committed = {p.relative_to(COURSE.root) for p in (COURSE.root / RELEASE).rglob("*")
                 if p.is_file() and ".ipynb_checkpoints" not in p.parts}
    built = {source_notebook_in(root, lesson).relative_to(root) for lesson in Course(root).lesson_ids()}
    wrong = sorted(str(p) for p in rebuilt ^ committed)
    wrong += sorted(str(p) for p in (rebuilt & committed) | built
                    if not (COURSE.root / p).is_file() or (root / p).read_bytes() != (COURSE.root / p).read_bytes())
    return wrong


@pytest.fixture
def course_copy(tmp_path):
    """A throw-away course directory holding only the nbgrader settings and the lessons' text sources."""
    shutil.copy(COURSE.root / "nbgrader_config.py", tmp_path)
    for lesson in COURSE.lesson_ids():
        target = text_source_in(tmp_path, lesson)
        target.parent.mkdir(parents=True)
        shutil.copy(COURSE.text_source(lesson), target)
    return tmp_path


def test_release_is_in_sync_with_sources(course_copy):
    assert differences(course_copy) == [], "run `make release` and commit solutions/ and notebooks/"


def test_an_edited_source_is_noticed(course_copy):
    lesson = COURSE.lesson_ids()[0]
    source = text_source_in(course_copy, lesson)
    source.write_text(source.read_text().replace("By the end of this lesson", "After this lesson"))
    expected = {source_notebook_in(course_copy, lesson), Course(course_copy).release_notebook(lesson)}
    assert set(differences(course_copy)) == {str(p.relative_to(course_copy)) for p in expected}
