"""Numbers that agree: `grade`'s summary, the report's first line, tables and charts, the grades CSV and the feedback
pages count a class's hand-ins by one rule (ClassResults.counts).

A class written by hand (tests/results_by_hand.py; no kernel runs) takes two lessons and holds every kind of hand-in:
graded; graded with a problem; graded, with a later file that could not be read; a file that could not be read and
nothing graded; nothing handed in; a file of no known lesson; a file naming no student; a student on no roster. The
LMS download of the broken ones is collected for real and `grade` runs on the class through the command line. Once,
the report said "(0 could not be read, 30 missing)" above a problems table listing 2 unread files, and the demo
"(45 could not be read, 0 missing)" above a summary table of 15 missing per lesson.
"""

from __future__ import annotations

import csv
import html
import json
import re
import zipfile

import nbformat
import pytest

from grader.engine import status
from grader.engine.sandbox import Sandboxed
from grader.engine.scores import report_of, scores_of
from grader.instructor.collect import collect_downloads
from grader.instructor.grading import STATE, record, submissions
from grader.instructor.results import Counts, class_results
from tests.results_by_hand import Graded, course_by_hand, executed, write_every_output
from tests.support import COURSE, run_cli_here

pytestmark = pytest.mark.xdist_group("counts")  # its tests share a module-scoped fixture (tests/conftest.py)

NAIVE, MASKING = "01_naive_division", "06_masking"
LESSONS = [NAIVE, MASKING]
ROSTER = ["ann", "bo", "dan", "eve", "gus", "jon"]
EARLY, LATE = (2026, 11, 30, 10, 0, 0), (2026, 11, 30, 12, 0, 0)
GRADED, UNREAD, MISSING = "graded", "could not be read", "missing"
# (student, lesson) -> how it stands; zed is on no roster
TRUTH = {
    ("ann", NAIVE): GRADED,
    ("ann", MASKING): GRADED,
    ("bo", NAIVE): GRADED,  # with a problem: a cell ran out of time
    ("bo", MASKING): MISSING,
    ("dan", NAIVE): UNREAD,  # an empty file
    ("dan", MASKING): GRADED,
    ("eve", NAIVE): MISSING,  # enrolled, hands in nothing
    ("eve", MASKING): MISSING,
    ("gus", NAIVE): MISSING,  # a text file, of no known lesson
    ("gus", MASKING): MISSING,
    ("jon", NAIVE): GRADED,  # and a later file that could not be read
    ("jon", MASKING): MISSING,
    ("zed", NAIVE): UNREAD,
    ("zed", MASKING): MISSING,
}
EXPECTED = Counts(
    students=7,
    off_roster=1,
    lessons=2,
    graded=5,
    flagged=1,
    later_unread=1,
    unreadable=2,
    unknown_lesson=1,
    no_student=1,
)


def downloads(path) -> None:
    """The LMS download: jon's good hand-in then a broken one, and a broken file of each other kind."""
    good = nbformat.writes(COURSE.learner_notebook(NAIVE, COURSE.reference_answers(NAIVE)))
    with zipfile.ZipFile(path, "w") as archive:
        for name, when, data in [
            (f"jon_1_1_{NAIVE}.ipynb", EARLY, good),
            (f"jon_1_2_{NAIVE}.ipynb", LATE, "<html></html>"),
            (f"dan_1_1_{NAIVE}.ipynb", EARLY, ""),
            (f"zed_1_1_{NAIVE}.ipynb", EARLY, "{not json"),
            ("gus_1_1_notes.txt", EARLY, "my notebook is attached"),
            ("nounderscore.ipynb", EARLY, ""),
        ]:
            archive.writestr(zipfile.ZipInfo(name, when), data)


@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    """(what `grade` printed, the outputs' folder, the class's results) for the class with every kind."""
    root = tmp_path_factory.mktemp("counts")
    graded = {
        ("ann", NAIVE): Graded(executed(COURSE, NAIVE)),
        ("ann", MASKING): Graded(executed(COURSE, MASKING)),
        ("bo", NAIVE): Graded(executed(COURSE, NAIVE), status.TIMEOUT, "cell 12 ran past 30 s"),
        ("dan", MASKING): Graded(executed(COURSE, MASKING)),
    }
    course = course_by_hand(COURSE, root / "course", LESSONS, graded, {student: {} for student in ROSTER})
    downloads(root / "lms.zip")
    collect_downloads(root / "lms.zip", course)
    state = json.loads((course.grading / STATE).read_text())
    (job,) = [job for job in submissions(course, [NAIVE]) if job.student == "jon"]  # graded as `grade` would
    notebook = executed(course, NAIVE)
    record(
        course,
        job,
        Sandboxed(report_of(course, notebook, NAIVE), nbformat.writes(notebook), scores_of(course, notebook, NAIVE)),
    )
    state[job.key] = {"digest": job.digest, "status": status.GRADED, "detail": ""}
    (course.grading / STATE).write_text(json.dumps(state))
    ran = run_cli_here("--course", course.root, "grade")
    assert ran.returncode == 0 and ran.stdout.startswith("Graded 0 submission(s)"), ran
    results = class_results(course)
    write_every_output(results, root / "out")
    return ran.stdout, root / "out", results


def tally(states: dict[tuple[str, str], str]) -> dict[str, int]:
    return {kind: sum(state == kind for state in states.values()) for kind in (GRADED, UNREAD, MISSING)}


def text_of(cell: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()


def table_rows(page: str, table_id: str) -> list[list[str]]:
    table = page[re.search(rf'<table[^>]* id="{table_id}"', page).start() :]
    table = table[: table.index("</table>")]
    return [
        [text_of(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
        if "<td" in row
    ]


def test_the_rule_counts_each_kind_as_the_class_was_built(counted):
    _, _, results = counted
    assert results.counts() == EXPECTED
    assert EXPECTED.expected == len(TRUTH) and EXPECTED.missing == tally(TRUTH)[MISSING]
    assert {key: results.state(*key) for key in TRUTH} == TRUTH
    for lesson in LESSONS:
        assert tally({k: v for k, v in TRUTH.items() if k[1] == lesson}) == {
            GRADED: results.counts(lesson).graded,
            UNREAD: results.counts(lesson).unreadable,
            MISSING: results.counts(lesson).missing,
        }


def test_grade_s_summary_counts_as_the_rule(counted):
    printed, _, _ = counted
    assert printed.rstrip().splitlines()[-1] == f"The class: {EXPECTED.sentence()}"
    assert EXPECTED.sentence() == (
        "7 student(s) (1 on no roster), 2 lesson(s): 14 submission(s) expected, 7 handed in: 5 graded (1 with a "
        "grading problem, 1 whose later file could not be read), 2 could not be read; 7 missing. Also could not be "
        "read: 1 file(s) of no known lesson, 1 file(s) naming no student."
    )
    files = printed[printed.index("file(s) handed in could not be read") :].splitlines()[1:-1]
    assert len(files) == EXPECTED.unreadable + EXPECTED.later_unread + EXPECTED.unknown_lesson + EXPECTED.no_student
    assert sum("an earlier hand-in of the lesson is graded" in line for line in files) == EXPECTED.later_unread
    assert sum("(no lesson known)" in line and "(no student id)" not in line for line in files) == 1
    assert sum(line.startswith("  (no student id)") for line in files) == EXPECTED.no_student


def test_the_report_counts_as_the_rule_in_its_first_line_tables_and_charts(counted):
    _, out, results = counted
    page = (out / "report.html").read_text(encoding="utf-8")
    assert f'<p class="lede">{html.escape(EXPECTED.sentence())}</p>' in page
    summary = {row[0]: row[2:6] for row in table_rows(page, "summary")}
    for lesson in LESSONS:
        counts = tally({k: v for k, v in TRUTH.items() if k[1] == lesson})
        assert summary[lesson] == [str(counts[GRADED] + counts[UNREAD]), *map(str, counts.values())], lesson
        graded = counts[GRADED]
        assert f"Histogram of the scores of the {graded} graded submission(s) of {lesson}," in page
        assert {row[3] for row in table_rows(page, f"pass-rates-{lesson}")} == {str(graded)}
    kinds = [(row[0], row[1], row[2]) for row in table_rows(page, "problems")]
    assert sorted(kinds) == sorted(
        [
            ("bo", NAIVE, status.TIMEOUT),
            ("dan", NAIVE, "not read"),
            ("zed", NAIVE, "not read"),
            ("jon", NAIVE, "later file not read"),
            ("gus", "(no lesson known)", "not read"),
            ("(no student id)", "(no lesson known)", "not read"),
        ]
    )
    assert sum(kind[2] == status.TIMEOUT for kind in kinds) == EXPECTED.flagged
    assert results.counts().graded == sum(len(results.submitted(lesson)) for lesson in LESSONS)


def test_the_grades_csv_counts_as_the_rule(counted):
    _, out, _ = counted
    with open(out / "grades.csv", newline="", encoding="utf-8") as file:
        header, *rows = list(csv.reader(file))
    assert [row[0] for row in rows] == sorted({student for student, _ in TRUTH})  # zed, on no roster, too
    states = {}
    for row in rows:
        problems = row[-1]
        for lesson in LESSONS:
            states[row[0], lesson] = (
                MISSING
                if f"{lesson}: missing" in problems
                else UNREAD
                if f"{lesson}: could not be read" in problems
                else GRADED
            )
    assert states == TRUTH
    by_student = {row[0]: row[-1] for row in rows}
    assert f"{NAIVE}: {status.TIMEOUT}" in by_student["bo"]
    assert f"{NAIVE}: a later file could not be read" in by_student["jon"]
    assert "a file of no known lesson could not be read" in by_student["gus"]


def test_each_feedback_page_counts_its_student_as_the_rule(counted):
    _, out, results = counted
    for student in ROSTER:
        page = (out / "feedback" / f"{student}.html").read_text(encoding="utf-8")
        rows = {row[0]: row for row in table_rows(page, "at-a-glance")}
        states = {
            (student, lesson): UNREAD
            if rows[lesson][2].startswith("your file could not be read")
            else MISSING
            if rows[lesson][2].startswith("nothing handed in (missing)")
            else GRADED
            for lesson in LESSONS
        }
        assert states == {key: state for key, state in TRUTH.items() if key[0] == student}, student
        counts = tally(states)
        standing = ", ".join(f"{n} {kind}" for kind, n in counts.items() if n)
        assert f"over 2 lesson(s): {standing}." in text_of(page), student
        mine = results.counts(student=student)
        assert (mine.graded, mine.unreadable, mine.missing) == tuple(counts.values())
    assert not (out / "feedback" / "zed.html").exists()  # a student on no roster: a CSV row, no page
