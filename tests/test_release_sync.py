"""notebooks/ and solutions/*.ipynb are exactly what the text sources generate."""
import shutil
from pathlib import Path

import pytest

from grader import course
from grader.course.release import release


def differences(root: Path) -> list[str]:
    """Files whose committed copy differs from the one rebuilt under `root`."""
    release(root=root, progress=lambda _: None)
    rebuilt = {p.relative_to(root) for p in (root / course.RELEASE).rglob("*") if p.is_file()}
    committed = {p.relative_to(course.REPO) for p in (course.REPO / course.RELEASE).rglob("*")
                 if p.is_file() and ".ipynb_checkpoints" not in p.parts}
    built = {course.source_notebook(lesson, root).relative_to(root) for lesson in course.lesson_ids(root)}
    wrong = sorted(str(p) for p in rebuilt ^ committed)
    wrong += sorted(str(p) for p in (rebuilt & committed) | built
                    if not (course.REPO / p).is_file() or (root / p).read_bytes() != (course.REPO / p).read_bytes())
    return wrong


@pytest.fixture
def course_copy(tmp_path):
    """A throw-away course directory holding only the lessons' text sources."""
    for lesson in course.lesson_ids():
        target = course.text_source(lesson, tmp_path)
        target.parent.mkdir(parents=True)
        shutil.copy(course.text_source(lesson), target)
    return tmp_path


def test_release_is_in_sync_with_sources(course_copy):
    assert differences(course_copy) == [], "run `make release` and commit solutions/ and notebooks/"


def test_an_edited_source_is_noticed(course_copy):
    lesson = course.lesson_ids()[0]
    source = course.text_source(lesson, course_copy)
    source.write_text(source.read_text().replace("By the end of this lesson", "After this lesson"))
    expected = {course.source_notebook(lesson, course_copy), course.release_notebook(lesson, course_copy)}
    assert set(differences(course_copy)) == {str(p.relative_to(course_copy)) for p in expected}
