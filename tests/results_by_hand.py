"""A graded class written by hand: what `grader grade` leaves in a course directory, in a fraction of a second.

The feedback, export and report writers read a course's gradebook, its autograded notebooks and
.grading/graded.json (grader.instructor.results.class_results). Grading a class for real runs every
notebook in a kernel first, which takes a minute; the writers' tests only need what it leaves behind,
so `course_by_hand` writes that directly, with the code that grading itself writes it with:

- the gradebook starts as a copy of the first lesson's cached one (course.gradebook.lesson_gradebook, made once
  per version of the lesson, so no new database, which costs nbgrader a run of alembic, is made here);
  every other lesson goes in as generate_assignment records it (course.gradebook.record_lesson: nbgrader's own
  steps up to SaveCells, over the lesson's source notebook);
- each submission goes in with `grader.instructor.grading.record`, as `grade` records it: its scores
  read from its autograded notebook by nbgrader's own rule (scores_of), flagged when it has a problem;
- graded.json holds each submission's digest, status and detail, in the shape grading saves it.

An autograded notebook is made with `executed`: the lesson's source notebook (so it holds hidden
tests and solutions, which no page may show) with each test cell's outputs, and the mistakes its check
recorded, as a run leaves them. `wrong` and `not_written` give the outcomes a misconception or a stub
leads to. With nothing graded, `course_by_hand` gives a released course that `grade` can run on.
Classes graded for real, end to end, are in tests/integration (test_pipeline, test_demo, test_hostile).
"""

from __future__ import annotations

import copy
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook

from grader.course import Course, read_cached
from grader.course.contract import tested_functions
from grader.course.gradebook import lesson_gradebook, record_lesson
from grader.engine import status
from grader.engine.sandbox import Sandboxed
from grader.engine.scores import report_of, scores_of
from grader.engine.testrunner import is_test_cell
from grader.instructor.export import write_canvas_csv, write_grades_csv
from grader.instructor.feedback import write_feedback
from grader.instructor.grading import STATE, record, submissions
from grader.instructor.report import write_report
from grader.learner.checks import failure
from grader.learner.hints import Misconception

Outputs = list[dict]  # a cell's outputs, as nbformat dicts
Outcomes = dict[str, tuple[Outputs, dict]]  # test grade_id -> (its outputs, the "grader" metadata its run recorded)


def error(evalue: str, ename: str = "CheckFailed") -> dict:
    """An error output, as a test cell whose check failed (or that raised) leaves it."""
    return {"output_type": "error", "ename": ename, "evalue": evalue, "traceback": []}


def executed(course: Course, lesson: str, outcomes: Outcomes | None = None, answers_metadata=None):
    """The lesson's source notebook as if executed: each test cell in `outcomes` gets (outputs, the "grader"
    metadata a run records); the others pass silently. `answers_metadata` goes on every solution cell."""
    outcomes = outcomes or {}
    nb = copy.deepcopy(read_cached(course.source_notebook(lesson)))
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if is_test_cell(cell):
            outputs, recorded = outcomes.get(grade_id, ([], {"mistakes": []}))
            cell.outputs = [nbformat.from_dict(o) for o in outputs]
            cell.metadata["grader"] = recorded
        elif grade_id and answers_metadata is not None:
            cell.metadata["grader"] = answers_metadata
    return nb


def wrong(course: Course, lesson: str, entry: Misconception) -> Outcomes:
    """What a run records when the learner's `entry.function` is the catalogued misconception `entry`: every
    test of that function fails with a check's message naming it, and records it as the check does."""
    failed = failure([f"{entry.function}(...) is not right"], [(entry.description, entry.hint)])
    return {
        grade_id: ([error(str(failed))], {"mistakes": list(failed.mistakes)})
        for grade_id, function in tested_functions(course, lesson).items()
        if function == entry.function
    }


def not_written(course: Course, lesson: str) -> Outcomes:
    """What a run records for the release's stubs: every test fails, as the checks word a stub."""
    return {
        grade_id: (
            [error(f"{function}(...): not written yet (it still raises NotImplementedError).")],
            {"mistakes": []},
        )
        for grade_id, function in tested_functions(course, lesson).items()
    }


@dataclass
class Graded:
    """One submission as grading left it: its autograded notebook (see `executed`), status and detail."""

    notebook: nbformat.NotebookNode
    status: str = status.GRADED
    detail: str = ""


def course_by_hand(
    sources: Course,
    root: Path,
    lessons: list[str],
    graded: dict[tuple[str, str], Graded],
    names: dict[str, dict] | None = None,
) -> Course:
    """A course directory at `root` holding `lessons` of `sources` as released (text sources, source and
    release notebooks, the lessons in its gradebook and its gradebook cache, so `grade` can run on it), with
    every (student, lesson) of `graded` recorded as graded; `names` are the gradebook's names of students
    (first_name, last_name, lms_user_id), who are enrolled whether or not they hand anything in."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(sources.root / "nbgrader_config.py", root)  # roots itself where it lies
    for lesson in lessons:
        for path in (sources.text_source(lesson), sources.source_notebook(lesson), sources.release_notebook(lesson)):
            copied = root / path.relative_to(sources.root)
            copied.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, copied)
    course = Course(root)
    cached = [lesson_gradebook(sources, lesson) for lesson in lessons]
    course.cache.mkdir(parents=True)
    for gradebook_file in cached:  # named by the source notebook's digest, which the copy shares
        shutil.copy(gradebook_file, course.cache / gradebook_file.name)
    shutil.copy(cached[0], course.grading / "gradebook.db")
    config = course.nbgrader_config()
    db_url = config.CourseDirectory.db_url
    for lesson in lessons[1:]:
        record_lesson(course, lesson, db_url)  # as generate_assignment records it
    with Gradebook(db_url) as gradebook:
        for student, student_names in (names or {}).items():
            gradebook.update_or_create_student(student, **student_names)
    for (student, lesson), submission in graded.items():  # handed in, as collect leaves it
        handed_in = course.grading / "submitted" / student / lesson / f"{lesson}.ipynb"
        handed_in.parent.mkdir(parents=True)
        nbformat.write(submission.notebook, handed_in)
    state = {}
    for job in submissions(course, lessons):
        submission = graded[job.student, job.lesson]
        result = Sandboxed(
            report_of(course, submission.notebook, job.lesson),
            nbformat.writes(submission.notebook),
            scores_of(course, submission.notebook, job.lesson),
        )
        record(course, job, result, submission.status, submission.detail)
        state[job.key] = {"digest": job.digest, "status": submission.status, "detail": submission.detail}
    (course.grading / STATE).write_text(json.dumps(state, indent=1, sort_keys=True))  # as grading saves it
    return course


def write_every_output(results, out: Path) -> None:
    """What an instructor's feedback, export and report commands write for a class: feedback pages, both CSVs and
    the report, under `out`."""
    write_feedback(results, out / "feedback")
    write_grades_csv(results, out / "grades.csv")
    write_canvas_csv(results, out / "canvas.csv")
    write_report(results, out / "report.html")
