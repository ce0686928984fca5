"""Feedback pages, grade exports and the class report, from a small class graded by real nbgrader.

Four students take two lessons: one gets full marks, one hands in the stubs and skips a
lesson, two hold known misconceptions; a fifth is enrolled but hands in nothing.
"""
import csv
import html
import re
import shutil
from html.parser import HTMLParser

import nbformat
import pytest
from nbgrader.api import Gradebook
from nbgrader.apps import NbGraderAPI

from grader import course
from grader.catalogue import misconceptions
from grader.export import write_canvas_csv, write_grades_csv
from grader.feedback import write_feedback
from grader.report import write_report
from grader.results import class_results
from grader.selfgrade import _require, quiet_stderr
from tests.conftest import once_per_run


NAIVE, MASKING = "01_naive_division", "06_masking"
LESSONS = [NAIVE, MASKING]


def misconception(entry_id: str):
    return next(m for m in misconceptions() if m.id == entry_id)


WHOLE_ARRAY = misconception("naive_sums_whole_array")     # cy and di
MASK_WITH_ZERO = misconception("masked_with_zero")        # cy
CAUSAL_TRIU = misconception("causal_triu")                # di


def with_mistake(lesson: str, entry) -> dict[str, str]:
    """The reference answers with one function replaced by a catalogued misconception."""
    return {**course.reference_answers(lesson), entry.function: entry.source}


# student -> lesson -> answers (a lesson left out = no submission)
CLASS = {
    "ada": {NAIVE: course.reference_answers(NAIVE), MASKING: course.reference_answers(MASKING)},
    "bo": {NAIVE: {}},
    "cy": {NAIVE: with_mistake(NAIVE, WHOLE_ARRAY), MASKING: with_mistake(MASKING, MASK_WITH_ZERO)},
    "di": {NAIVE: with_mistake(NAIVE, WHOLE_ARRAY), MASKING: with_mistake(MASKING, CAUSAL_TRIU)},
}
NAMES = {"ada": dict(first_name="Ada", last_name="Lovelace", lms_user_id="1001"),
         "eve": dict(first_name="Eve")}  # eve is enrolled but submits nothing


def build_class(root):
    """Autograde the class in the course directory `root` with real nbgrader, then write every output."""
    config = course.nbgrader_config(root)
    api = NbGraderAPI(config=config)
    with Gradebook(config.CourseDirectory.db_url) as gradebook:
        for student, names in NAMES.items():
            gradebook.update_or_create_student(student, **names)
    for lesson in LESSONS:
        source = course.source_notebook(lesson, root)
        source.parent.mkdir(parents=True)
        shutil.copy(course.source_notebook(lesson), source)
        with quiet_stderr():
            _require(api.generate_assignment(lesson), "generate_assignment")
    for student, lessons in CLASS.items():
        for lesson, answers in lessons.items():
            submitted = root / ".grading" / "submitted" / student / lesson / f"{lesson}.ipynb"
            submitted.parent.mkdir(parents=True)
            nbformat.write(course.learner_notebook(lesson, answers), submitted)
            with quiet_stderr():
                _require(api.autograde(lesson, student), "autograde")
    results = class_results(root)
    out = root / "out"
    write_feedback(results, out / "feedback")
    write_grades_csv(results, out / "grades.csv")
    write_canvas_csv(results, out / "canvas.csv")
    write_report(results, out / "report.html")


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """The class's course directory (built once per test run), its results and outputs."""
    root = once_per_run(tmp_path_factory, "reporting-class", build_class)
    out = root / "out"
    return root, class_results(root), out, sorted((out / "feedback").glob("*.html"))


def gradebook_scores(root) -> dict[tuple[str, str], float]:
    with Gradebook(course.nbgrader_config(root).CourseDirectory.db_url) as gradebook:
        return {(s.student.id, lesson): float(s.score)
                for lesson in LESSONS for s in gradebook.find_assignment(lesson).submissions}


def read_csv(path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.reader(file))


def marked_lines(begin: str, end: str, lessons=LESSONS) -> list[str]:
    """The lines between `begin` and `end` markers in the lessons' source notebooks, long enough to tell."""
    lines = []
    for lesson in lessons:
        for cell in nbformat.read(course.source_notebook(lesson), as_version=4).cells:
            inside = False
            for line in cell.source.splitlines():
                if line.strip() == begin:
                    inside = True
                elif line.strip() == end:
                    inside = False
                elif inside and len(line.strip()) > 15:
                    lines.append(line.strip())
    return lines


class Tables(HTMLParser):
    """Every <table id=...> of a page as rows of cell texts (header row first)."""

    def __init__(self, text: str):
        super().__init__()
        self.tables, self.current, self.cell = {}, None, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.current = self.tables.setdefault(attrs.get("id"), [])
        elif tag == "tr" and self.current is not None:
            self.current.append([])
        elif tag in ("td", "th") and self.current is not None:
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.current[-1].append("".join(self.cell).strip())
            self.cell = None
        elif tag == "table":
            self.current = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def test_results_hold_every_student_and_lesson(graded_class):
    root, results, _, _ = graded_class
    assert [s.id for s in results.students] == ["ada", "bo", "cy", "di", "eve"]
    assert results.lessons == LESSONS
    assert results.max_scores == {NAIVE: 12, MASKING: 14}
    assert results.report("bo", MASKING) is None and results.report("eve", NAIVE) is None
    scores = gradebook_scores(root)
    assert len(scores) == 7
    for (student, lesson), score in scores.items():
        assert results.report(student, lesson).score == score
    assert results.score("ada", NAIVE) == 12 and results.score("bo", NAIVE) == 0
    assert 0 < results.score("cy", NAIVE) < 12 and 0 < results.score("di", MASKING) < 14


def test_grades_csv_holds_the_gradebook_scores(graded_class):
    root, results, out, _ = graded_class
    rows = read_csv(out / "grades.csv")
    assert rows[0] == ["student", "01_naive_division (12)", "06_masking (14)", "total (26)", "problems"]
    assert all(row[-1] == "" for row in rows[1:])  # this class was graded by plain nbgrader: no statuses
    scores = gradebook_scores(root)
    by_student = {row[0]: [float(x) for x in row[1:-1]] for row in rows[1:]}
    assert list(by_student) == ["ada", "bo", "cy", "di", "eve"]
    for student, (naive, masking, total) in by_student.items():
        assert naive == scores.get((student, NAIVE), 0) and masking == scores.get((student, MASKING), 0)
        assert total == naive + masking
    assert by_student["ada"] == [12, 14, 26] and by_student["eve"] == [0, 0, 0]


def test_canvas_csv_has_points_possible_and_names(graded_class):
    root, _, out, _ = graded_class
    rows = read_csv(out / "canvas.csv")
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", NAIVE, MASKING]
    assert rows[1][0].strip() == "Points Possible" and rows[1][5:] == ["12", "14"]
    students = {row[3]: row for row in rows[2:]}
    assert list(students) == ["ada", "bo", "cy", "di", "eve"]
    assert students["ada"][:3] == ["Lovelace, Ada", "1001", ""]
    assert students["eve"][0] == "Eve" and students["bo"][0] == "bo"
    scores = gradebook_scores(root)
    for student, row in students.items():
        assert [float(x) for x in row[5:]] == [scores.get((student, lesson), 0) for lesson in LESSONS]


def test_feedback_page_per_student_with_messages_and_missing_lessons(graded_class):
    _, results, out, paths = graded_class
    assert [p.name for p in paths] == [f"{s}.html" for s in ("ada", "bo", "cy", "di", "eve")]
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert '<html lang="en">' in text and "<title>Feedback for " in text
        assert not re.search(r"<(script|link)\b|\bsrc=|https?://", text)
    cy = html.unescape((out / "feedback" / "cy.html").read_text(encoding="utf-8"))
    for lesson in LESSONS:
        for test in results.report("cy", lesson).tests:
            assert test.message in cy
    assert f"likely mistake: {WHOLE_ARRAY.description}" in cy and '<th scope="col">Message</th>' in cy
    bo = (out / "feedback" / "bo.html").read_text(encoding="utf-8")
    assert "not written yet" in bo and "missing" in bo
    eve = (out / "feedback" / "eve.html").read_text(encoding="utf-8")
    assert eve.count("<strong>missing</strong>") == 2 and "0 / 26" in eve


@pytest.mark.parametrize("begin,end", [("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"),
                                       ("### BEGIN SOLUTION", "### END SOLUTION")])
def test_feedback_shows_no_hidden_test_or_solution_code(graded_class, begin, end):
    _, _, _, paths = graded_class
    secret = marked_lines(begin, end)
    assert len(secret) > 10
    for path in paths:
        raw = path.read_text(encoding="utf-8")
        for text in (raw, html.unescape(raw)):
            leaked = [line for line in secret if line in text]
            assert not leaked, f"{path.name} shows: {leaked}"


def test_report_has_summary_figures_and_pass_rates(graded_class):
    _, _, out, _ = graded_class
    text = (out / "report.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in text and not re.search(r"<(script|link)\b|https?://", text)
    images = re.findall(r"<img [^>]*>", text)
    assert len(images) == 4  # a histogram and a pass-rate chart per lesson
    for tag in images:
        assert 'src="data:image/png;base64,' in tag
        assert re.search(r'alt="[^"]{20,}"', tag)
    for lesson, submissions in ((NAIVE, 4), (MASKING, 3)):
        assert f'alt="Histogram of the scores of the {submissions} graded submission(s) of {lesson}' in text
    tables = Tables(text).tables
    summary = {row[0]: row for row in tables["summary"][1:]}
    assert summary[NAIVE][2:4] == ["4", "1"] and summary[MASKING][2:4] == ["3", "2"]
    naive_rates = {row[0]: row for row in tables[f"pass-rates-{NAIVE}"][1:]}
    assert naive_rates["test_naive_normalize_rows"][2:] == ["1", "4", "25%"]  # the whole-array sum fails it
    assert naive_rates["test_is_distribution_public"][2:] == ["3", "4", "75%"]  # only the stub fails it
    masking_rates = {row[0]: row for row in tables[f"pass-rates-{MASKING}"][1:]}
    assert masking_rates["test_padding_mask_batches"][2:] == ["3", "3", "100%"]


def test_report_counts_the_injected_misconceptions(graded_class):
    _, _, out, _ = graded_class
    rows = Tables((out / "report.html").read_text(encoding="utf-8")).tables["misconceptions"][1:]
    expected = {WHOLE_ARRAY.description: (NAIVE, "2", "50%"),
                MASK_WITH_ZERO.description: (MASKING, "1", "33%"),
                CAUSAL_TRIU.description: (MASKING, "1", "33%")}
    for description, (lesson, students, share) in expected.items():
        found = [row for row in rows if row[2] == description]
        assert len(found) == 1, f"once per lesson in the report: {description}"
        assert found[0][0] == lesson and found[0][3:] == [students, share], found
    assert int(rows[0][3]) == max(int(row[3]) for row in rows)  # most common first
