"""Nothing a submission carries runs in a page or file the instructor opens: the autograded notebook grading
records (which formgrader and nbgrader's feedback show), the feedback pages, the report and the grade exports."""

from __future__ import annotations

import csv
import html
import itertools
import re

import nbformat
from nbconvert.filters.markdown_mistune import markdown2html_mistune
from nbgrader.api import Gradebook

from grader.engine import scores, status
from grader.instructor.collect import Rejection
from grader.instructor.export import FORMULA_STARTS, write_canvas_csv, write_grades_csv
from grader.instructor.feedback import write_feedback
from grader.instructor.report import write_report
from grader.instructor.results import ClassResults, Student
from tests.results_by_hand import Graded, course_by_hand, executed
from tests.support import COURSE, active_markup, formgrader_page

LESSON = "01_naive_division"
RUN = "document.title='ran'"
MARKUP = [
    f"<script>{RUN}</script>",
    f'<img src=x onerror="{RUN}">',
    f"<a href='javascript:{RUN}'>a</a>",
    f'"><svg onload="{RUN}">',
    f"<iframe srcdoc='<script>{RUN}</script>'>",
]


def test_grading_records_the_autograded_notebook_inert(tmp_path):
    """What formgrader shows of a recorded submission runs nothing of its own: grading.record writes the
    notebook made inert, whatever the grading sent back."""
    nb = executed(COURSE, LESSON)
    code = next(cell for cell in nb.cells if cell.cell_type == "code")
    code.outputs = [
        nbformat.v4.new_output("display_data", data={"text/html": markup, "text/plain": "shown"}) for markup in MARKUP
    ]
    nb.cells.insert(1, nbformat.v4.new_markdown_cell("\n\n".join(MARKUP) + f"\n\n[a link](javascript:{RUN})"))
    course = course_by_hand(COURSE, tmp_path / "course", [LESSON], {("ann", LESSON): Graded(nb)})
    recorded = nbformat.read(course.grading / "autograded" / "ann" / LESSON / f"{LESSON}.ipynb", as_version=4)
    formgraders_own = active_markup(formgrader_page(nbformat.v4.new_notebook()))
    assert active_markup(formgrader_page(nb)) - formgraders_own, "the notebook grading sent back is active"
    assert not active_markup(formgrader_page(recorded)) - formgraders_own


def test_a_flagged_submissions_status_reads_as_written_in_nbgraders_feedback(tmp_path):
    """Grading writes a flagged submission's status as its first comment, which nbgrader's feedback renders as
    Markdown; a detail quoting the file (here an invalid tag) shows as written, and nothing of it runs."""
    detail = f"not a valid Jupyter notebook ('{MARKUP[1]},' does not match '^[^,]+$'); [a](javascript:{RUN})"
    flagged = Graded(executed(COURSE, LESSON), status.INVALID, detail)
    course = course_by_hand(COURSE, tmp_path / "course", [LESSON], {("ann", LESSON): flagged})
    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gradebook:
        [comment] = [
            c.auto_comment for c in gradebook.find_submission_notebook(LESSON, LESSON, "ann").comments if c.auto_comment
        ]
    shown = markdown2html_mistune(comment)  # as the feedback template's markdown2html filter renders it
    assert not active_markup(shown)
    assert html.unescape(re.sub(r"<[^>]+>", "", shown)).strip() == f"{status.INVALID}: {detail}"


def hostile(index: int) -> str:
    """A text a submission or a roster may hold: markup that could run, or a spreadsheet formula, in turn."""
    return f"{FORMULA_STARTS[index % len(FORMULA_STARTS)]}HYPERLINK(1) {MARKUP[index % len(MARKUP)]}"


def hostile_class() -> ClassResults:
    """Every text of a class that a submission or a roster controls (names, ids, messages, named mistakes,
    problems, file names) set to `hostile` ones."""
    texts = (hostile(index) for index in itertools.count())
    students = [Student(f"s{n}", next(texts), next(texts), next(texts)) for n in range(3)]
    reports = {
        (student.id, LESSON): scores.Report(
            LESSON,
            1.0,
            2.0,
            [
                scores.TestResult("test_a", 1.0, 1.0, True, next(texts)),
                scores.TestResult("test_b", 0.0, 1.0, False, next(texts), [next(texts)]),
            ],
        )
        for student in students
    }
    problems = {(student.id, LESSON): (next(texts), next(texts)) for student in students}
    rejected = [(Rejection.of(next(texts), next(texts), student.id, LESSON), True) for student in students]
    rejected.append((Rejection.of(next(texts), next(texts), "s0", ""), False))
    return ClassResults(
        students, [LESSON], {LESSON: 2.0}, reports, problems, rejected, {(LESSON, "test_b"): next(texts)}
    )


def written(results: ClassResults, folder) -> list[str]:
    """The feedback pages and the report written for `results`."""
    pages = write_feedback(results, folder / "feedback")
    write_report(results, folder / "report.html")
    return [page.read_text(encoding="utf-8") for page in [*pages, folder / "report.html"]]


def test_feedback_report_and_exports_hold_nothing_that_runs(tmp_path):
    results = hostile_class()
    ordinary = ClassResults([Student("ann")], [LESSON], {LESSON: 2.0}, {("ann", LESSON): None})
    feedback, report = written(ordinary, tmp_path / "ordinary")
    own = active_markup(feedback)  # the head's meta and style, the report's the same
    assert own == active_markup(report)
    for page in written(results, tmp_path):
        assert "&lt;script&gt;" in page, "the learner's markup is shown, as text"
        assert not active_markup(page) - own
    write_grades_csv(results, tmp_path / "grades.csv")
    write_canvas_csv(results, tmp_path / "canvas.csv")
    for export in ("grades.csv", "canvas.csv"):
        with open(tmp_path / export, newline="", encoding="utf-8") as file:
            cells = [cell for row in csv.reader(file) for cell in row]
        assert any("HYPERLINK" in cell for cell in cells), export
        assert not [cell for cell in cells if cell.startswith(FORMULA_STARTS)], export
