"""Course(root) and --course: every command works on the course it is given, with that course's own tests and
settings, and writes its gradebook cache there; the engine's entry point takes and returns plain data."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from grader import cli
from grader.course import Course, NotACourse
from grader.course.limits import Limits
from grader.course.release import release
from grader.engine import status
from grader.engine.grade import Outcome, grade_outcome, grade_submission
from grader.engine.inert import inert_text
from grader.engine.warmkernel import ADDRESS
from grader.instructor.grading import Job, record
from tests.support import COURSE, run_apart, run_cli_here

LESSON = "01_naive_division"
OTHER = "06_masking"  # a lesson the copy does not have
TEST = "test_naive_normalize_rows"  # a test cell of LESSON
MORE = 5  # points the copy adds to it


def points_of(source: Path, grade_id: str) -> float:
    cell = next(
        c
        for c in nbformat.read(source, as_version=4).cells
        if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id
    )
    return float(cell.metadata.nbgrader.points)


def course_copy(folder: Path, more_points: int = MORE) -> Path:
    """LESSON alone, copied from this course (its settings, text source, source notebook and release), with
    TEST worth `more_points` more in the text source and the source notebook."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(COURSE.root / "nbgrader_config.py", folder)
    for part in ("solutions", "notebooks"):
        shutil.copytree(COURSE.root / part / LESSON, folder / part / LESSON)
    copy = Course(folder)
    before = points_of(COURSE.source_notebook(LESSON), TEST)
    text = copy.text_source(LESSON).read_text()
    marker = re.compile(rf'(grade_id="{TEST}" points=){before:g}\b')
    assert marker.search(text), "the test cell's marker moved: update TEST"
    copy.text_source(LESSON).write_text(marker.sub(rf"\g<1>{before + more_points:g}", text))
    nb = nbformat.read(copy.source_notebook(LESSON), as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == TEST:
            cell.metadata.nbgrader.points = before + more_points
    nbformat.write(nb, copy.source_notebook(LESSON))
    return folder


def reference_notebook(folder: Path) -> Path:
    path = folder / f"{LESSON}.ipynb"
    nbformat.write(COURSE.learner_notebook(LESSON, COURSE.reference_answers(LESSON)), path)
    return path


def repository_full_marks() -> float:
    source = nbformat.read(COURSE.source_notebook(LESSON), as_version=4)
    return sum(
        float(c.metadata.nbgrader.points)
        for c in source.cells
        if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata.nbgrader.get("solution")
    )


def cached_gradebooks(course: Course) -> set[str]:
    return {p.name for p in course.cache.glob(f"{LESSON}-*.db")} if course.cache.is_dir() else set()


# ----------------------------------------------------------------- the Course object


def test_a_folder_without_settings_or_solutions_is_not_a_course(tmp_path):
    with pytest.raises(NotACourse, match="no nbgrader_config.py and no solutions/"):
        Course(tmp_path)
    (tmp_path / "nbgrader_config.py").write_text("")
    with pytest.raises(NotACourse, match="no solutions/"):
        Course(tmp_path)


def test_a_course_knows_its_lessons_files_and_folders(tmp_path):
    copy = Course(course_copy(tmp_path))
    assert copy.root == tmp_path.resolve() and copy.lesson_ids() == [LESSON]
    assert copy.source_notebook(LESSON) == tmp_path / "solutions" / LESSON / f"{LESSON}.ipynb"
    assert copy.release_notebook(LESSON) == tmp_path / "notebooks" / LESSON / f"{LESSON}.ipynb"
    assert copy.cache == tmp_path / ".grading" / "cache"
    assert copy.reference_answers(LESSON) == COURSE.reference_answers(LESSON)
    assert Course(str(tmp_path)) == copy  # a root given as text, as a worker process is handed it


def test_the_settings_are_the_courses_own_and_move_with_at(tmp_path):
    root = course_copy(tmp_path / "course")
    settings = (root / "nbgrader_config.py").read_text()
    (root / "nbgrader_config.py").write_text(settings.replace('"softmax"', '"another-course"'))
    config = Course(root).nbgrader_config()
    assert config.CourseDirectory.course_id == "another-course"  # not this repository's "softmax"
    assert config.CourseDirectory.root == str(root.resolve())
    assert config.Exchange.root == str(root.resolve() / ".grading" / "exchange")
    moved = Course(root).nbgrader_config(at=tmp_path / "elsewhere")
    assert moved.CourseDirectory.course_id == "another-course"
    assert moved.CourseDirectory.root == str((tmp_path / "elsewhere").resolve())
    elsewhere = (tmp_path / "elsewhere").resolve()
    assert moved.CourseDirectory.db_url == f"sqlite:///{elsewhere / '.grading' / 'gradebook.db'}"
    assert moved.Exchange.root == str((tmp_path / "elsewhere").resolve() / ".grading" / "exchange")
    assert Course(root).nbgrader_config(exchange=tmp_path / "x").Exchange.root == str((tmp_path / "x").resolve())


# ----------------------------------------------------------------- the command line's course


def test_the_default_course_is_the_current_directory_when_it_holds_settings(tmp_path):
    root = course_copy(tmp_path / "course")
    assert Course.find(here=root) == Course(root)
    assert Course.find(here=tmp_path) == COURSE  # else this repository
    assert Course.find(tmp_path / "course") == Course(root)


def test_check_run_in_a_course_directory_grades_with_its_tests(tmp_path, monkeypatch):
    """The command line, run from the copy with no --course: the copy's points. In this process (test_cli and
    test_install run `check` in processes of their own)."""
    root = course_copy(tmp_path / "course")
    monkeypatch.chdir(root)
    run = run_cli_here("check", reference_notebook(tmp_path), "--json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["score"] == report["max_score"] == repository_full_marks() + MORE
    assert cached_gradebooks(Course(root))


def test_a_course_that_is_not_one_is_a_one_line_error(tmp_path, capsys):
    assert cli.main(["--course", str(tmp_path), "check", str(reference_notebook(tmp_path))]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "is not a course directory" in error


def test_check_honours_course_its_lessons_tests_and_cache(tmp_path, capsys):
    root = course_copy(tmp_path / "course")
    before = cached_gradebooks(COURSE)
    assert run_apart(cli.main, ["--course", str(root), "check", str(reference_notebook(tmp_path)), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    test = next(t for t in report["tests"] if t["grade_id"] == TEST)
    assert test["max_points"] == points_of(COURSE.source_notebook(LESSON), TEST) + MORE and test["passed"]
    assert report["max_score"] == repository_full_marks() + MORE
    assert cached_gradebooks(Course(root)) and cached_gradebooks(COURSE) == before  # the copy's cache only


def test_grade_honours_course_and_passes_the_memory_limit_without_the_environment(tmp_path, capsys):
    root = course_copy(tmp_path / "course")
    copy = Course(root)
    before = cached_gradebooks(COURSE)
    assert cli.main(["--course", str(root), "release", LESSON, "--no-exchange"]) == 0
    submitted = copy.grading / "submitted" / "ada" / LESSON
    submitted.mkdir(parents=True)
    shutil.copy(reference_notebook(tmp_path), submitted / f"{LESSON}.ipynb")
    environment = dict(os.environ)
    assert run_apart(cli.main, ["--course", str(root), "grade", "--memory", "700", "--jobs", "1"]) == 0, (
        capsys.readouterr()
    )
    # only the zygote's address is published, for the worker processes that fork kernels from it
    environment.pop(ADDRESS, None)
    assert {k: v for k, v in os.environ.items() if k != ADDRESS} == environment
    with Gradebook(copy.nbgrader_config().CourseDirectory.db_url) as gb:
        assert float(gb.find_submission(LESSON, "ada").score) == repository_full_marks() + MORE
    assert cached_gradebooks(copy) and cached_gradebooks(COURSE) == before


ENTRIES = f'''
from grader.proof.alternatives import Alternative
LESSON = "{LESSON}"
ALTERNATIVES = [Alternative("reference_again", "naive_normalize", "the reference, as a file's entry",
                            {COURSE.reference_answers(LESSON)["naive_normalize"]!r})]
'''


def test_prove_honours_course_its_lessons_tests_and_cache(tmp_path, capsys):
    root = course_copy(tmp_path / "course")
    before = cached_gradebooks(COURSE)
    assert cli.main(["--course", str(root), "prove", "--lesson", OTHER]) == 2  # not a lesson of the copy
    assert f"known: {LESSON}" in capsys.readouterr().err
    entries = tmp_path / "entries.py"
    entries.write_text(ENTRIES)
    assert (
        run_apart(
            cli.main,
            ["--course", str(root), "prove", "--lesson", LESSON, "--entries", str(entries), "--json", "--jobs", "1"],
        )
        == 0
    ), capsys.readouterr()
    [proof] = json.loads(capsys.readouterr().out)["entries"]
    assert proof["score"] == proof["max_score"] == repository_full_marks() + MORE
    assert cached_gradebooks(Course(root)) and cached_gradebooks(COURSE) == before


# ----------------------------------------------------------------- the engine's plain data


def test_grade_submission_takes_and_returns_plain_data_that_records_as_before(tmp_path):
    root = course_copy(tmp_path / "course", more_points=0)
    copy = Course(root)
    release(copy, [LESSON], progress=lambda _: None)
    data = reference_notebook(tmp_path).read_bytes()
    direct = run_apart(grade_outcome, copy, LESSON, data, None, ["numpy.py", "notes.txt"], Limits(10))
    assert direct.status == status.SUSPICIOUS and "numpy.py" in direct.detail and "notes.txt" not in direct.detail
    crossed = json.loads(json.dumps(direct.as_data()))
    assert crossed == direct.as_data() and Outcome.from_data(crossed) == direct
    # an unreadable file never reaches a kernel: the entry point itself, as a worker runs it
    empty = grade_submission(str(root), LESSON, b"", None, [], Limits(10))
    assert (
        json.loads(json.dumps(empty))
        == empty
        == {"status": status.INVALID, "result": None, "detail": "an empty file, not a notebook"}
    )
    for student, outcome in (("direct", direct), ("crossed", Outcome.from_data(crossed))):
        job = Job(student, LESSON, tmp_path / "unused.ipynb", None, "digest")
        record(copy, job, outcome.result, outcome.status, outcome.detail)
    with Gradebook(copy.nbgrader_config().CourseDirectory.db_url) as gb:
        recorded = {
            student: (
                [(g.name, g.auto_score, g.needs_manual_grade) for g in nb.grades],
                [c.auto_comment for c in nb.comments],
                nb.flagged,
            )
            for student in ("direct", "crossed")
            for nb in [gb.find_submission_notebook(LESSON, LESSON, student)]
        }
    assert recorded["direct"] == recorded["crossed"] and recorded["direct"][2]
    autograded = {
        student: (copy.grading / "autograded" / student / LESSON / f"{LESSON}.ipynb").read_text()
        for student in ("direct", "crossed")
    }
    assert autograded["direct"] == autograded["crossed"] == inert_text(direct.result.autograded)
