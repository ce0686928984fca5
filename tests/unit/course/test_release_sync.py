"""notebooks/ and solutions/*.ipynb are exactly what the text sources generate."""

import shutil
from pathlib import Path

import pytest

from grader.course import RELEASE, Course, authoring, read_cached, source_notebook_in, text_source_in
from grader.course.release import release
from tests.support import COURSE


def differences(root: Path) -> list[str]:
    """Files whose committed copy differs from the one rebuilt under `root`."""
    release(Course(root), progress=lambda _: None)
    rebuilt = {p.relative_to(root) for p in (root / RELEASE).rglob("*") if p.is_file()}
    committed = {
        p.relative_to(COURSE.root)
        for p in (COURSE.root / RELEASE).rglob("*")
        if p.is_file() and ".ipynb_checkpoints" not in p.parts
    }
    built = {source_notebook_in(root, lesson).relative_to(root) for lesson in Course(root).lesson_ids()}
    wrong = sorted(str(p) for p in rebuilt ^ committed)
    wrong += sorted(
        str(p)
        for p in (rebuilt & committed) | built
        if not (COURSE.root / p).is_file() or (root / p).read_bytes() != (COURSE.root / p).read_bytes()
    )
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


def test_an_edited_reference_reaches_every_lesson_given_it(course_copy):
    """05's stable_softmax is written once; 06, 08, 09 and 10 are given it in full (05's release holds only a stub)."""
    source = text_source_in(course_copy, "05_stable_softmax")
    source.write_text(source.read_text().replace("evidence = np.exp(z)\n", "evidence = np.exp(z)  # no overflow\n"))
    reusers = ("06_masking", "08_log_softmax", "09_gradient", "10_online_softmax")
    changed = [source_notebook_in(course_copy, "05_stable_softmax")]
    changed += [
        path
        for lesson in reusers
        for path in (Course(course_copy).source_notebook(lesson), Course(course_copy).release_notebook(lesson))
    ]
    expected = {str(path.relative_to(course_copy)) for path in changed}
    assert set(differences(course_copy)) == expected
    given = read_cached(Course(course_copy).release_notebook("08_log_softmax"))
    assert sum("evidence = np.exp(z)  # no overflow" in c.source for c in given.cells) == 1


def test_the_release_holds_the_given_code_not_a_stub():
    """A reference marker's code is given to the learner in full, in the committed student notebook."""
    given = 0
    for lesson in COURSE.lesson_ids():
        release = [c.source for c in read_cached(COURSE.release_notebook(lesson)).cells]
        for line in COURSE.text_source(lesson).read_text().splitlines():
            if match := authoring.REFERENCE.match(line):
                code = COURSE.reference_answers(match["lesson"])[match["function"]]
                assert any(code in cell for cell in release), f"{lesson}: {match['function']} is not given in full"
                given += 1
    assert given == 8  # stable_softmax in 06, 08, 09 and 10; masked_softmax in 07; and the rest the lessons name
    attention = read_cached(COURSE.release_notebook("07_attention"))
    cell = next(c for c in attention.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "given_from_lesson_06")
    assert cell.source.startswith("def masked_softmax(") and "raise ValueError" in cell.source
    assert "YOUR CODE HERE" not in cell.source and cell.metadata.nbgrader.locked
