"""Feedback pages, grade exports and the class report, from a small class written by hand as grading leaves it.

Four students take two lessons: one gets full marks, one hands in the stubs and skips a lesson, two hold
known misconceptions; a fifth is enrolled but hands in nothing. Their gradebook, autograded notebooks and
graded.json are written as `grader grade` writes them (tests/results_by_hand.py), so no kernel runs; the
one test here that grades for real is the last. Whole classes graded for real go through these writers
in tests/integration (test_demo, test_hostile).
"""

import base64
import csv
import html
import re
import shutil
from html.parser import HTMLParser

import nbformat
import numpy as np
import pytest
from nbgrader.api import Gradebook

from grader.course import Course, contract, read_cached
from grader.course.gradebook import lesson_gradebook
from grader.engine import status
from grader.engine.sandbox import autograde_sandboxed
from grader.engine.scores import MESSAGE_LIMIT, MISTAKE_LIMIT, MISTAKES_LIMIT, report_of
from grader.engine.testrunner import is_test_cell
from grader.instructor.export import write_canvas_csv, write_grades_csv
from grader.instructor.feedback import page_name, student_page, write_feedback
from grader.instructor.report import (
    MisconceptionCount,
    misconception_chart,
    misconception_counts,
    misconception_holders,
    pass_rate_grid,
    pass_rate_heatmap,
    score_histogram,
    write_report,
)
from grader.instructor.results import ClassResults, Student, class_results
from grader.learner import checks
from grader.learner.hints import misconceptions
from grader.proof import catalogue
from tests.results_by_hand import Graded, course_by_hand, error, executed, not_written, write_every_output, wrong
from tests.support import COURSE, marked_lines, run_apart

pytestmark = pytest.mark.xdist_group("reporting-class")  # its tests share a module-scoped fixture (tests/conftest.py)

NAIVE, MASKING = "01_naive_division", "06_masking"
LESSONS = [NAIVE, MASKING]


def misconception(entry_id: str):
    return next(m for m in misconceptions() if m.id == entry_id)


WHOLE_ARRAY = misconception("naive_sums_whole_array")  # cy and di
MASK_WITH_ZERO = misconception("masked_with_zero")  # cy
CAUSAL_TRIU = misconception("causal_triu")  # di

# student -> lesson -> what went wrong in it: None for nothing (full marks), "stubs", or the misconception
# its learner holds (a lesson left out = no submission)
CLASS = {
    "ada": {NAIVE: None, MASKING: None},
    "bo": {NAIVE: "stubs"},
    "cy": {NAIVE: WHOLE_ARRAY, MASKING: MASK_WITH_ZERO},
    "di": {NAIVE: WHOLE_ARRAY, MASKING: CAUSAL_TRIU},
}
NAMES = {
    "ada": dict(first_name="Ada", last_name="Lovelace", lms_user_id="1001"),
    "eve": dict(first_name="Eve"),
}  # eve is enrolled but submits nothing


def autograded(lesson: str, wrong_with) -> nbformat.NotebookNode:
    """The autograded notebook of a submission of `lesson` whose learner got `wrong_with` (see CLASS) wrong."""
    if wrong_with is None:
        return executed(COURSE, lesson)
    if wrong_with == "stubs":
        return executed(COURSE, lesson, not_written(COURSE, lesson))
    return executed(COURSE, lesson, wrong(COURSE, lesson, wrong_with))


def build_class(root) -> Course:
    """The class, graded by hand into the course directory `root`, with every output written to root/out."""
    graded = {
        (student, lesson): Graded(autograded(lesson, wrong_with))
        for student, lessons in CLASS.items()
        for lesson, wrong_with in lessons.items()
    }
    course = course_by_hand(COURSE, root, LESSONS, graded, NAMES)
    results = class_results(course)
    out = root / "out"
    write_every_output(results, out)
    return course


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """The class's course directory, its results and outputs."""
    root = tmp_path_factory.mktemp("reporting-class")
    build_class(root)
    out = root / "out"
    return root, class_results(Course(root)), out, sorted((out / "feedback").glob("*.html"))


def gradebook_scores(root) -> dict[tuple[str, str], float]:
    with Gradebook(Course(root).nbgrader_config().CourseDirectory.db_url) as gradebook:
        return {
            (s.student.id, lesson): float(s.score)
            for lesson in LESSONS
            for s in gradebook.find_assignment(lesson).submissions
        }


def read_csv(path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.reader(file))


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
    assert results.max_scores == {NAIVE: 15, MASKING: 17}
    assert results.report("bo", MASKING) is None and results.report("eve", NAIVE) is None
    scores = gradebook_scores(root)
    assert len(scores) == 7
    for (student, lesson), score in scores.items():
        assert results.report(student, lesson).score == score
    assert results.score("ada", NAIVE) == 15 and results.score("bo", NAIVE) == 0
    assert 0 < results.score("cy", NAIVE) < 15 and 0 < results.score("di", MASKING) < 17


def test_grades_csv_holds_the_gradebook_scores(graded_class):
    root, results, out, _ = graded_class
    rows = read_csv(out / "grades.csv")
    assert rows[0] == ["student", "01_naive_division (15)", "06_masking (17)", "total (32)", "problems"]
    missing = f"{MASKING}: missing (nothing handed in)"  # every submission handed in was graded without a problem
    assert {row[0]: row[-1] for row in rows[1:]} == {
        "ada": "",
        "bo": missing,
        "cy": "",
        "di": "",
        "eve": f"{NAIVE}: missing (nothing handed in); {missing}",
    }
    scores = gradebook_scores(root)
    by_student = {row[0]: [float(x) for x in row[1:-1]] for row in rows[1:]}
    assert list(by_student) == ["ada", "bo", "cy", "di", "eve"]
    for student, (naive, masking, total) in by_student.items():
        assert naive == scores.get((student, NAIVE), 0) and masking == scores.get((student, MASKING), 0)
        assert total == naive + masking
    assert by_student["ada"] == [15, 17, 32] and by_student["eve"] == [0, 0, 0]


def test_canvas_csv_has_points_possible_and_names(graded_class):
    root, _, out, _ = graded_class
    rows = read_csv(out / "canvas.csv")
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", NAIVE, MASKING]
    assert rows[1][0].strip() == "Points Possible" and rows[1][5:] == ["15", "17"]
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
        for test in results.report("cy", lesson).tests:  # its diagnosis lines once, above its lesson's tests
            assert all(line.strip() in cy for line in test.message.splitlines())
    assert f"likely mistake: {WHOLE_ARRAY.description}" in cy and '<th scope="col">Message</th>' in cy
    bo = (out / "feedback" / "bo.html").read_text(encoding="utf-8")
    assert "not written yet" in bo and "missing" in bo
    eve = (out / "feedback" / "eve.html").read_text(encoding="utf-8")
    assert eve.count("<strong>missing</strong>") == 2 and "0 / 32" in eve


@pytest.mark.parametrize(
    "begin,end", [("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"), ("### BEGIN SOLUTION", "### END SOLUTION")]
)
def test_feedback_shows_no_hidden_test_or_solution_code(graded_class, begin, end):
    _, _, _, paths = graded_class
    secret = marked_lines(begin, end, LESSONS)
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
    assert len(images) == 4  # the misconception chart, the pass-rate heatmap, a histogram per lesson
    for tag in images:
        assert 'src="data:image/png;base64,' in tag
        assert re.search(r'alt="[^"]{20,}"', tag)
    for lesson, submissions in ((NAIVE, 4), (MASKING, 3)):
        assert f'alt="Histogram of the scores of the {submissions} graded submission(s) of {lesson}' in text
    tables = Tables(text).tables
    summary = {row[0]: row for row in tables["summary"][1:]}
    assert summary[NAIVE][2:6] == ["4", "4", "0", "1"] and summary[MASKING][2:6] == ["3", "3", "0", "2"]
    naive_rates = {row[0]: row for row in tables[f"pass-rates-{NAIVE}"][1:]}
    assert naive_rates["test_naive_normalize_rows"][2:] == ["1", "4", "25%"]  # the whole-array sum fails it
    assert naive_rates["test_is_distribution_public"][2:] == ["3", "4", "75%"]  # only the stub fails it
    masking_rates = {row[0]: row for row in tables[f"pass-rates-{MASKING}"][1:]}
    assert masking_rates["test_padding_mask_batches"][2:] == ["3", "3", "100%"]


def test_report_counts_the_injected_misconceptions(graded_class):
    _, _, out, _ = graded_class
    rows = Tables((out / "report.html").read_text(encoding="utf-8")).tables["misconceptions"][1:]
    expected = {
        WHOLE_ARRAY.description: (NAIVE, "2", "50%"),
        MASK_WITH_ZERO.description: (MASKING, "1", "33%"),
        CAUSAL_TRIU.description: (MASKING, "1", "33%"),
    }
    for description, (lesson, students, share) in expected.items():
        found = [row for row in rows if row[2] == description]
        assert len(found) == 1, f"once per lesson in the report: {description}"
        assert found[0][0] == lesson and found[0][3:] == [students, share], found
    assert int(rows[0][3]) == max(int(row[3]) for row in rows)  # most common first


def test_every_figure_is_shown_at_the_size_it_was_drawn(graded_class):
    """Each <img> states its PNG's own width and height, so the page lays it out whole, neither stretched nor cut."""
    _, _, out, _ = graded_class
    text = (out / "report.html").read_text(encoding="utf-8")
    shown = re.findall(r'<img src="data:image/png;base64,([^"]+)" width="(\d+)" height="(\d+)"', text)
    assert len(shown) == text.count("<img ") == 4
    for data, width, height in shown:
        png = base64.b64decode(data)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (int(width), int(height))


def passes(lesson: str, test: str, wrong_with) -> bool:
    """Whether a submission whose learner got `wrong_with` (see CLASS) wrong passes `test`, as the class was built."""
    if wrong_with is None:
        return True
    if wrong_with == "stubs":
        return False
    return contract.tested_functions(COURSE, lesson)[test] != wrong_with.function


def grade_ids(lesson: str) -> list[str]:
    return [c.metadata.nbgrader.grade_id for c in read_cached(COURSE.source_notebook(lesson)).cells if is_test_cell(c)]


def test_the_heatmap_shows_each_tests_share_of_the_graded_submissions_passing_it(graded_class):
    _, results, _, _ = graded_class
    handed_in = {lesson: [lessons[lesson] for lessons in CLASS.values() if lesson in lessons] for lesson in LESSONS}
    passed = {  # how many of the lesson's graded submissions pass each test, in notebook order
        lesson: [
            sum(passes(lesson, test, wrong_with) for wrong_with in handed_in[lesson]) for test in grade_ids(lesson)
        ]
        for lesson in LESSONS
    }
    predicted = [test in COURSE.predictions(NAIVE) for test in grade_ids(NAIVE)]
    functions_tests = [n for n, guess in zip(passed[NAIVE], predicted, strict=True) if not guess]
    assert functions_tests == [1] * 6 + [3] * 4  # cy and di sum the whole array, bo hands in the stubs
    assert [n for n, guess in zip(passed[NAIVE], predicted, strict=True) if guess] == [3] * sum(predicted)
    masking_functions = [contract.tested_functions(COURSE, MASKING).get(test) for test in grade_ids(MASKING)]
    padding_tests = [
        n for n, function in zip(passed[MASKING], masking_functions, strict=True) if function == "padding_mask"
    ]
    assert len(passed[MASKING]) == 17 and padding_tests == [3] * 3  # nobody got padding_mask wrong
    grid = pass_rate_grid(results)
    assert {lesson: [(r.passed, r.submissions) for r in rates] for lesson, rates in grid.items()} == {
        lesson: [(n, len(handed_in[lesson])) for n in passed[lesson]] for lesson in LESSONS
    }
    expected = {lesson: [100 * n / len(handed_in[lesson]) for n in passed[lesson]] for lesson in LESSONS}

    heatmap = pass_rate_heatmap(grid)
    ax = heatmap.fig.axes[0]
    cells = ax.images[0].get_array()
    rows = max(len(expected[NAIVE]), len(expected[MASKING]))  # 06 has 17 tests with its predictions, 01 has 13
    assert cells.shape == (rows, 2) and ax.images[0].get_cmap().name.startswith("cividis")
    tests_of_01 = len(expected[NAIVE])
    assert cells.mask[:, 0].tolist() == [False] * tests_of_01 + [True] * (rows - tests_of_01)
    assert not cells.mask[:, 1].any()
    for column, lesson in enumerate(LESSONS):
        assert cells[: len(expected[lesson]), column].tolist() == pytest.approx(expected[lesson])
    printed = {(round(t.get_position()[0]), round(t.get_position()[1])): t.get_text() for t in ax.texts}
    assert printed == {
        (column, row): f"{share:.0f}"
        for column, lesson in enumerate(LESSONS)
        for row, share in enumerate(expected[lesson])
    }
    assert [t.get_text() for t in ax.get_xticklabels()] == LESSONS
    assert [t.get_text() for t in ax.get_yticklabels()] == [str(n) for n in range(1, rows + 1)]
    assert ax.get_ylabel() and heatmap.fig.axes[1].get_ylabel() == "passed (%)"  # the colour bar
    assert f"{NAIVE}: {tests_of_01} tests, 25% to 75%; lowest test_naive_normalize_public (25%)." in heatmap.alt


def test_the_chart_shows_the_students_behind_each_misconception_most_common_first(graded_class):
    _, results, _, _ = graded_class
    counts = misconception_counts(results)
    chart = misconception_chart(counts)
    ax = chart.fig.axes[0]
    assert [bar.get_width() for bar in ax.patches] == [2, 1, 1]
    texts = [t.get_text() for t in ax.texts]
    labels, numbers = texts[0::2], texts[1::2]
    assert numbers == ["2 (50%)", "1 (33%)", "1 (33%)"]
    assert " ".join(labels[0].split()) == f"{NAIVE} · {WHOLE_ARRAY.description}"
    assert {" ".join(label.split()) for label in labels[1:]} == {
        f"{MASKING} · {MASK_WITH_ZERO.description}",
        f"{MASKING} · {CAUSAL_TRIU.description}",
    }
    assert all(label.count("\n") <= 1 for label in labels)  # at most two lines each
    assert ax.get_xlabel().startswith("students") and ax.get_title() == "Most common misconceptions (3 of 3)"
    assert ax.get_xlim()[1] > 2  # the longest bar and its count stay inside the axes
    assert f"{NAIVE}, {WHOLE_ARRAY.description}: 2 student(s)" in chart.alt
    one = misconception_chart(counts, top=1)
    assert [bar.get_width() for bar in one.fig.axes[0].patches] == [2]
    assert one.fig.axes[0].get_title() == "Most common misconceptions (1 of 3)"


def test_a_mistake_that_looks_like_tex_is_drawn_as_written():
    odd = [MisconceptionCount(NAIVE, "test_naive_normalize_rows", r"costs $\frac{$ and $x^$ " + "y" * 400, 1, 2)]
    chart = misconception_chart(odd)
    assert chart.png.startswith(b"\x89PNG")
    label = chart.fig.axes[0].texts[0].get_text()
    assert label.startswith(f"{NAIVE} · costs $\\frac{{$") and label.endswith("…") and label.count("\n") == 1


def test_the_misconception_table_names_the_function_and_folds_away_who_holds_it(graded_class):
    _, results, out, _ = graded_class
    assert {key: [s.id for s in students] for key, students in misconception_holders(results).items()} == {
        (NAIVE, WHOLE_ARRAY.description): ["cy", "di"],
        (MASKING, MASK_WITH_ZERO.description): ["cy"],
        (MASKING, CAUSAL_TRIU.description): ["di"],
    }
    text = (out / "report.html").read_text(encoding="utf-8")
    rows = {row[2]: row for row in Tables(text).tables["misconceptions"][1:]}
    for entry, students in ((WHOLE_ARRAY, "cy, di"), (MASK_WITH_ZERO, "cy"), (CAUSAL_TRIU, "di")):
        where = rows[entry.description][1]
        assert where.startswith(entry.function + "students, tests") and students in where
    assert text.count("<details>") == 3 and text.count('<td class="mistake">') == 3


def test_the_histogram_shows_its_tallest_bar_whole(graded_class):
    """Every bar and its count fit under the top of the axes, also when the whole class has one score."""
    _, results, _, _ = graded_class
    scores = [r.score for r in results.submitted(NAIVE)]
    assert sorted(scores) == [0, 8, 8, 15]  # bo's stubs; cy and di lose the 7 points of naive_normalize's tests
    for shown in (scores, [15.0] * 5):
        ax = score_histogram(NAIVE, shown, 15).fig.axes[0]
        heights = {round(bar.get_x() + bar.get_width() / 2): bar.get_height() for bar in ax.patches}
        assert {score: n for score, n in heights.items() if n} == {round(s): shown.count(s) for s in set(shown)}
        assert ax.get_ylim() == (0, pytest.approx(max(heights.values()) * 1.2 + 0.5))
        assert sorted(t.get_text() for t in ax.texts if t.get_text()) == sorted(str(shown.count(s)) for s in set(shown))


def lesson_cells(gradebook_file, lesson: str) -> dict:
    """What a gradebook records of a lesson's notebook: its grade, solution and source cells, its kernel."""
    with Gradebook(f"sqlite:///{gradebook_file}", COURSE.nbgrader_config().CourseDirectory.course_id) as gradebook:
        notebook = gradebook.find_notebook(lesson, lesson)
        return {
            "grade": {c.name: (float(c.max_score), c.cell_type) for c in notebook.grade_cells},
            "solution": sorted(c.name for c in notebook.solution_cells),
            "source": {c.name: (c.source, c.checksum, c.locked, c.cell_type) for c in notebook.source_cells},
            "kernelspec": notebook.kernelspec,
        }


def test_the_class_by_hand_records_each_lesson_as_generate_assignment_does(graded_class, tmp_path):
    """The builder's gradebook holds each lesson exactly as nbgrader's generate_assignment records it (the
    cached lesson gradebook), so the writers read what they read after a real release and grading."""
    root, _, _, _ = graded_class
    for lesson in LESSONS:
        released = shutil.copy(lesson_gradebook(COURSE, lesson), tmp_path / f"{lesson}.db")  # read a copy: the cache
        assert lesson_cells(root / ".grading" / "gradebook.db", lesson) == lesson_cells(released, lesson)  # stays as is
    with Gradebook(Course(root).nbgrader_config().CourseDirectory.db_url) as gradebook:
        assert {s.id for s in gradebook.students} == set(CLASS) | set(NAMES)
        assert not any(n.flagged for lesson in LESSONS for n in gradebook.notebook_submissions(lesson, lesson))


def test_a_problem_grading_met_reaches_every_output(tmp_path):
    """A submission graded with a problem (here a timeout) is flagged in the gradebook, and graded.json's status
    and detail reach the grade export, the feedback page and the report."""
    detail = "test_naive_normalize_rows ran past the time limit and was stopped"
    stopped = {"test_naive_normalize_rows": ([error("", "CellTimeoutError")], {})}
    timed_out = Graded(executed(COURSE, NAIVE, stopped), status.TIMEOUT, detail)
    course = course_by_hand(
        COURSE,
        tmp_path / "course",
        [NAIVE],
        {("ann", NAIVE): timed_out, ("ben", NAIVE): Graded(executed(COURSE, NAIVE))},
    )
    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gradebook:
        flagged = {n.student.id: n.flagged for n in gradebook.notebook_submissions(NAIVE, NAIVE)}
    assert flagged == {"ann": True, "ben": False}
    results = class_results(course)
    assert results.problem("ann", NAIVE) == (status.TIMEOUT, detail) and results.problem("ben", NAIVE) is None
    assert results.score("ann", NAIVE) == 14 and results.score("ben", NAIVE) == 15
    write_grades_csv(results, tmp_path / "grades.csv")
    assert [row[-1] for row in read_csv(tmp_path / "grades.csv")[1:]] == [f"{NAIVE}: {status.TIMEOUT}", ""]
    page = write_feedback(results, tmp_path / "feedback")[0].read_text(encoding="utf-8")
    assert f"Grading met a problem: {status.TIMEOUT} ({detail})" in html.unescape(re.sub(r"<[^>]+>", "", page))
    write_report(results, tmp_path / "report.html")
    problems = Tables((tmp_path / "report.html").read_text(encoding="utf-8")).tables["problems"][1:]
    assert problems == [["ann", NAIVE, status.TIMEOUT, detail]]


# --- misconceptions travel as data; every size on a page is bounded ------------------------------------

FORGED = "forged by the learner's own error message"
HUGE = 4_000_000
CLIPPED = "[... clipped: "  # how a clipped text ends: "[... clipped: 1,234 more characters]"


def ends_clipped(text: str) -> bool:
    return re.search(r" \[\.\.\. clipped: [\d,]+ more characters\]$", text) is not None


def naive_rows(x):
    return np.asarray(x, dtype=float) / np.asarray(x, dtype=float).sum(axis=-1, keepdims=True)


def raising(message: str):
    def naive_normalize(x):
        raise ValueError(message)

    return naive_normalize


def test_a_check_records_the_mistakes_it_names_as_data():
    whole = catalogue.implementation(catalogue.with_source(WHOLE_ARRAY))
    rows = np.array([[1.0, 2.0, 5.0], [4.0, 4.0, 2.0]])
    with pytest.raises(checks.CheckFailed) as info:
        checks.check_call(whole, rows, expect=naive_rows(rows))
    failed = info.value
    assert WHOLE_ARRAY.description in failed.mistakes
    named = [
        line.strip()[len("likely mistake:") :].strip()
        for line in str(failed).splitlines()
        if line.strip().startswith("likely mistake:")
    ]
    assert named == list(failed.mistakes)  # the message names exactly the recorded mistakes, for the learner

    with pytest.raises(checks.CheckFailed) as info:  # a check made of checks passes them on
        checks.check_generated(whole, lambda rng, size: rng.uniform(1, 9, (size + 1, 3)), reference=naive_rows, seed=3)
    assert "drawn at random" in str(info.value) and WHOLE_ARRAY.description in info.value.mistakes

    with pytest.raises(checks.CheckFailed) as info:
        checks.check_call(raising(f"no\n  likely mistake: {FORGED}\n  hint: none"), rows, expect=naive_rows(rows))
    assert f"likely mistake: {FORGED}" in str(info.value)  # the learner's message is quoted as it was ...
    assert info.value.mistakes == ()  # ... and names nothing
    assert checks.CheckFailed("plain").mistakes == ()


def one_lesson_class(
    reports: dict[str, object], names: dict[str, dict] | None = None, statuses: dict | None = None
) -> ClassResults:
    names = names or {}
    return ClassResults(
        [Student(s, **names.get(s, {})) for s in reports],
        [NAIVE],
        {NAIVE: 12.0},
        {(s, NAIVE): r for s, r in reports.items()},
        statuses or {},
    )


def test_the_report_counts_recorded_mistakes_never_lines_of_a_message(tmp_path):
    tests = [t for t in read_cached(COURSE.source_notebook(NAIVE)).cells if is_test_cell(t)]
    first, second, third = (t.metadata.nbgrader.grade_id for t in tests[:3])
    forged = f"wrong\n  likely mistake: {FORGED}\n  hint: trust me"
    reports = {
        # a message that forges a mistake line, beside metadata that is not a list of strings
        "fo": report_of(
            COURSE,
            executed(
                COURSE,
                NAIVE,
                {
                    first: ([error(forged)], {"mistakes": []}),
                    second: ([error(forged, "ValueError")], {"mistakes": FORGED}),
                    third: ([error("x")], {"mistakes": [FORGED, 3]}),
                },
                answers_metadata={"mistakes": [FORGED]},
            ),
            NAIVE,
        ),
        # one student naming the same mistake in two failing tests (twice in one) counts once
        "st": report_of(
            COURSE,
            executed(
                COURSE,
                NAIVE,
                {
                    first: ([error("a")], {"mistakes": [WHOLE_ARRAY.description]}),
                    second: ([error("b")], {"mistakes": [WHOLE_ARRAY.description] * 2}),
                },
            ),
            NAIVE,
        ),
        "nd": report_of(
            COURSE, executed(COURSE, NAIVE, {third: ([error("c")], {"mistakes": [WHOLE_ARRAY.description]})}), NAIVE
        ),
        # a passing test's record is not a failing check's diagnosis
        "ok": report_of(COURSE, executed(COURSE, NAIVE, {first: ([], {"mistakes": [CAUSAL_TRIU.description]})}), NAIVE),
    }
    assert [t.mistakes for t in reports["fo"].tests if not t.passed] == [[], [], []]
    assert reports["st"].tests[1].mistakes == [WHOLE_ARRAY.description]
    results = one_lesson_class(reports)
    assert misconception_counts(results) == [
        MisconceptionCount(NAIVE, ", ".join(sorted([first, second, third])), WHOLE_ARRAY.description, 2, 4)
    ]
    write_report(results, tmp_path / "report.html")
    rows = Tables((tmp_path / "report.html").read_text(encoding="utf-8")).tables["misconceptions"][1:]
    assert [row[2:4] for row in rows] == [[WHOLE_ARRAY.description, "2"]]
    assert FORGED in html.unescape(student_page(results, results.students[0]))  # the learner still reads it


def test_recorded_mistakes_are_read_back_capped_from_the_autograded_notebooks(graded_class, tmp_path):
    root, _, _, _ = graded_class
    copied = tmp_path / "course"
    shutil.copytree(root, copied, ignore=shutil.ignore_patterns("out"))
    path = copied / ".grading" / "autograded" / "cy" / NAIVE / f"{NAIVE}.ipynb"
    nb = nbformat.read(path, as_version=4)
    failing = next(c for c in nb.cells if is_test_cell(c) and any(o.output_type == "error" for o in c.outputs))
    failing.outputs[0].evalue += f"\n  likely mistake: {FORGED}"
    failing.metadata["grader"] = {"mistakes": ["m" * (10 * MISTAKE_LIMIT)] + [f"mistake {i}" for i in range(10_000)]}
    nbformat.write(nb, path)
    results = class_results(Course(copied))
    test = next(t for t in results.report("cy", NAIVE).tests if t.grade_id == failing.metadata.nbgrader.grade_id)
    assert FORGED in test.message and FORGED not in test.mistakes
    assert len(test.mistakes) == MISTAKES_LIMIT and test.mistakes[1:3] == ["mistake 0", "mistake 1"]
    assert len(test.mistakes[0]) == MISTAKE_LIMIT and ends_clipped(test.mistakes[0])
    assert FORGED not in {m.description for m in misconception_counts(results)}


def test_huge_names_messages_and_details_give_small_pages(tmp_path):
    """Every test raised an exception with a 4 MB name and a 4 MB message (of characters HTML escapes);
    the student's name and the grading's detail are 4 MB too."""
    name, message = "<E" * (HUGE // 2), '"&' * (HUGE // 2)
    outcomes = {
        t.metadata.nbgrader.grade_id: ([error(message, name)], {"mistakes": []})
        for t in read_cached(COURSE.source_notebook(NAIVE)).cells
        if is_test_cell(t)
    }
    report = report_of(COURSE, executed(COURSE, NAIVE, outcomes), NAIVE)
    assert report.score == 0 and all(len(t.message) <= MESSAGE_LIMIT and ends_clipped(t.message) for t in report.tests)
    results = one_lesson_class(
        {"sam": report},
        names={"sam": dict(first_name="S" * HUGE, last_name="<" * HUGE)},
        statuses={("sam", NAIVE): ("suspicious code", "&" * HUGE)},
    )
    paths = write_feedback(results, tmp_path / "feedback")
    write_report(results, tmp_path / "report.html")
    page = paths[0].read_text(encoding="utf-8")
    assert page.count(CLIPPED) == 2 * len(report.tests) + 3  # each test's error name and message, the student's
    # name (in the title and the heading), the detail
    assert len(page.encode()) < len(report.tests) * 6 * MESSAGE_LIMIT  # at most 6 bytes of HTML per character
    assert (tmp_path / "report.html").stat().st_size < 300_000
    write_grades_csv(results, tmp_path / "grades.csv")
    write_canvas_csv(results, tmp_path / "canvas.csv")
    assert read_csv(tmp_path / "grades.csv")[1] == ["sam", "0", "0", f"{NAIVE}: suspicious code"]
    canvas = read_csv(tmp_path / "canvas.csv")[2]
    assert canvas[1:] == ["", "", "sam", "", "0"] and len(canvas[0]) <= 200 and canvas[0].startswith("<<<")


def test_names_that_would_start_a_spreadsheet_formula_are_exported_as_text(tmp_path):
    empty = report_of(COURSE, executed(COURSE, NAIVE, {}), NAIVE)
    results = one_lesson_class(
        {"=HYPERLINK(1)": empty, "ann": empty}, names={"=HYPERLINK(1)": dict(first_name="x", last_name="@SUM(A1)")}
    )
    write_grades_csv(results, tmp_path / "grades.csv")
    write_canvas_csv(results, tmp_path / "canvas.csv")
    grades, canvas = read_csv(tmp_path / "grades.csv"), read_csv(tmp_path / "canvas.csv")
    assert [row[0] for row in grades[1:]] == ["'=HYPERLINK(1)", "ann"]
    assert canvas[2][0] == "'@SUM(A1), x" and canvas[2][3] == "'=HYPERLINK(1)" and canvas[3][3] == "ann"


def test_a_page_name_stays_in_its_folder():
    assert page_name("ada") == "ada.html" and page_name("Ana María") == "Ana María.html"
    odd = ["../up", "a/b", ".hidden", "x" * 300, "é" * 150, "line\nbreak", ""]
    names = [page_name(i) for i in odd]
    assert all(re.fullmatch(r"student-[0-9a-f]{16}\.html", n) for n in names) and len(set(names)) == len(odd)


def test_a_submission_that_raises_huge_names_gets_a_small_page(tmp_path):
    """Graded for real: every function raises an exception with a 4 MB class name and message;
    one forges a 'likely mistake' line, and every cell carries a forged record of mistakes."""
    huge = (
        'def {name}(*args, **kwargs):\n    raise type("Huge" + "E" * 4_000_000, (ValueError,), {{}})("m" * 4_000_000)\n'
    )
    forging = (
        "def is_distribution(*args, **kwargs):\n"
        f'    raise ValueError("nope\\n  likely mistake: {FORGED}\\n  hint: none")\n'
    )
    nb = COURSE.learner_notebook(
        NAIVE, {"naive_normalize": huge.format(name="naive_normalize"), "is_distribution": forging}
    )
    for cell in nb.cells:
        cell.metadata["grader"] = {"mistakes": [FORGED]}
    report = run_apart(lambda: autograde_sandboxed(COURSE, NAIVE, nb).report)
    assert report.score == 0
    raised = [t for t in report.tests if "naive_normalize" in t.grade_id]
    assert raised and all(len(t.message) <= MESSAGE_LIMIT and "clipped" in t.message for t in raised)
    assert any(f"likely mistake: {FORGED}" in t.message for t in report.tests)
    assert all(FORGED not in t.mistakes for t in report.tests)
    results = one_lesson_class({"sam": report})
    page = write_feedback(results, tmp_path / "feedback")[0]
    assert page.stat().st_size < 200_000 and "clipped" in page.read_text(encoding="utf-8")
    write_report(results, tmp_path / "report.html")
    assert FORGED not in {m.description for m in misconception_counts(results)}
