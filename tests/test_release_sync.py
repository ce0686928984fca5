"""notebooks/ and solutions/*.ipynb are exactly what the text sources generate."""
import shutil
from pathlib import Path

import pytest

from grader import course
from grader.course import authoring
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


def test_an_edited_reference_reaches_every_lesson_given_it(course_copy):
    """05's stable_softmax is written once; 06, 08 and 09 are given it in full (05's release holds only a stub)."""
    source = course.text_source("05_stable_softmax", course_copy)
    source.write_text(source.read_text().replace("evidence = np.exp(z)\n", "evidence = np.exp(z)  # no overflow\n"))
    reusers = ("06_masking", "08_log_softmax", "09_gradient_and_online")
    changed = [course.source_notebook("05_stable_softmax", course_copy)]
    changed += [path(lesson, course_copy) for lesson in reusers
                for path in (course.source_notebook, course.release_notebook)]
    expected = {str(path.relative_to(course_copy)) for path in changed}
    assert set(differences(course_copy)) == expected
    given = course.read_cached(course.release_notebook("08_log_softmax", course_copy))
    assert sum("evidence = np.exp(z)  # no overflow" in c.source for c in given.cells) == 1


def test_the_release_holds_the_given_code_not_a_stub():
    """A reference marker's code is given to the learner in full, in the committed student notebook."""
    given = 0
    for lesson in course.lesson_ids():
        release = [c.source for c in course.read_cached(course.release_notebook(lesson)).cells]
        for line in course.text_source(lesson).read_text().splitlines():
            if match := authoring.REFERENCE.match(line):
                code = course.reference_answers(match["lesson"])[match["function"]]
                assert any(code in cell for cell in release), f"{lesson}: {match['function']} is not given in full"
                given += 1
    assert given == 6
    attention = course.read_cached(course.release_notebook("07_attention"))
    cell = next(c for c in attention.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "given_from_lesson_06")
    assert cell.source.startswith("def masked_softmax(") and "raise ValueError" in cell.source
    assert "YOUR CODE HERE" not in cell.source and cell.metadata.nbgrader.locked
