"""Every hand-in is accounted for, and feedback a student reads.

A class graded by hand (tests/results_by_hand.py, no kernel runs) gets an LMS zip collected into it for real:
files that cannot be read (empty, HTML under a notebook's name, another course's notebook, a text file, no
student id, a name holding a terminal escape), a student on no roster, and two students who hand in twice (a
broken file then a good one; a good one then a broken one). Each file left out must reach `grade`'s summary, the
grades CSV, the report's problems table and the student's feedback page with its reason, never as "missing".
The feedback pages of students graded by hand must open with a summary per lesson and name each diagnosis once.
"""

from __future__ import annotations

import contextlib
import csv
import html
import io
import json
import re
import zipfile
from datetime import datetime, timezone

import nbformat
import numpy as np
import pytest
from nbgrader.api import Gradebook

from grader.course import Course
from grader.engine.sandbox import Sandboxed
from grader.engine.scores import report_of, scores_of
from grader.exchange.layout import receipt_of
from grader.instructor import collect as collect_module
from grader.instructor.collect import REJECTED, Rejection, collect_downloads, collect_exchange, standing
from grader.instructor.feedback import LAB_ONLY, NOT_WRITTEN, write_feedback
from grader.instructor.grading import STATE, grade_class, record, submissions
from grader.instructor.results import class_results
from grader.learner import checks
from grader.learner.hints import misconceptions
from grader.proof.simulate import another_course_notebook
from tests.results_by_hand import Graded, course_by_hand, error, executed, write_every_output, wrong
from tests.support import COURSE

pytestmark = pytest.mark.xdist_group("hand-ins")  # its tests share a module-scoped fixture (tests/conftest.py)

NAIVE = "01_naive_division"
WHOLE_ARRAY = next(m for m in misconceptions() if m.id == "naive_sums_whole_array")
ESCAPED = "hal_1_\x1b[2J_01_naive_division.ipynb"  # a name that would clear an instructor's terminal
# file in the zip -> (its bytes, the student, the lesson it is recorded for, the reason a student reads)
BROKEN = {
    "dan_1_2_01_naive_division.ipynb": (b"", "dan", NAIVE, "it is empty"),
    "eli_1_2_01_naive_division.ipynb": (
        b"<!DOCTYPE html>\n<html><body>my work</body></html>\n",
        "eli",
        NAIVE,
        "it is not a notebook (perhaps saved in another format, such as HTML, under a notebook's name)",
    ),
    "fay_1_2_01_naive_division.ipynb": (
        nbformat.writes(another_course_notebook()).encode(),
        "fay",
        NAIVE,
        "it is a notebook, but not of a lesson of this course",
    ),
    "gus_1_2_notes.txt": (b"my notebook is attached\n", "gus", "", "it is not a notebook (a .txt file)"),
    "zed_1_2_01_naive_division.ipynb": (b"{not json", "zed", NAIVE, "it is not a notebook"),  # on no roster
    "nounderscore.ipynb": (b"", "", "", "it could not be read as a notebook of this course"),  # names no student
    ESCAPED: (b"", "hal", NAIVE, "it is empty"),
}
ROSTER = ["ann", "cy", "dan", "eli", "fay", "gus", "hal", "ivy", "jon"]
EARLY, LATE = (2026, 11, 30, 10, 0, 0), (2026, 11, 30, 12, 0, 0)


def full_marks_notebook() -> str:
    return nbformat.writes(COURSE.learner_notebook(NAIVE, COURSE.reference_answers(NAIVE)))


def lms_zip(path) -> None:
    """The LMS download: every broken file, and two students who hand in twice."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, (data, *_) in BROKEN.items():
            archive.writestr(zipfile.ZipInfo(name, EARLY), data)
        archive.writestr(zipfile.ZipInfo(f"ivy_1_1_{NAIVE}.ipynb", EARLY), b"")  # broken first ...
        archive.writestr(zipfile.ZipInfo(f"ivy_1_2_{NAIVE}.ipynb", LATE), full_marks_notebook())  # ... then good
        archive.writestr(zipfile.ZipInfo(f"jon_1_1_{NAIVE}.ipynb", EARLY), full_marks_notebook())  # good first ...
        archive.writestr(zipfile.ZipInfo(f"jon_1_2_{NAIVE}.ipynb", LATE), b"<html></html>")  # ... then broken


def graded_as_collected(course: Course, students: list[str]) -> None:
    """Record what collect placed for `students` as `grade` would have graded it (full marks, with the time of the
    hand-in), and in graded.json, so that `grade` finds nothing left to grade."""
    state = json.loads((course.grading / STATE).read_text())
    for job in submissions(course, [NAIVE]):
        if job.student in students:
            graded = executed(course, NAIVE)
            result = Sandboxed(
                report_of(course, graded, NAIVE), nbformat.writes(graded), scores_of(course, graded, NAIVE)
            )
            record(course, job, result)
            state[job.key] = {"digest": job.digest, "status": "graded", "detail": ""}
    (course.grading / STATE).write_text(json.dumps(state))


@pytest.fixture(scope="module")
def hand_ins(tmp_path_factory):
    """The course after collect and `grade`: its course, collect's and grade's logs, and the outputs' folder."""
    root = tmp_path_factory.mktemp("hand-ins")
    graded = {
        ("ann", NAIVE): Graded(executed(COURSE, NAIVE)),
        ("cy", NAIVE): Graded(executed(COURSE, NAIVE, wrong(COURSE, NAIVE, WHOLE_ARRAY))),
    }
    course = course_by_hand(COURSE, root / "course", [NAIVE], graded, {s: {} for s in ROSTER})
    lms_zip(root / "lms.zip")
    collected = collect_downloads(root / "lms.zip", course)
    graded_as_collected(course, ["ivy", "jon"])
    graded_log = grade_class(course)
    results = class_results(course)
    out = root / "out"
    write_every_output(results, out)
    return course, collected, graded_log, out


def page_text(path) -> str:
    """A page's text as a reader sees it: its <main> without tags, entities read."""
    text = path.read_text(encoding="utf-8")
    return html.unescape(re.sub(r"<[^>]+>", "", text[text.index("<main>") :]))


def grades_csv(out) -> dict[str, list[str]]:
    with open(out / "grades.csv", newline="", encoding="utf-8") as file:
        return {row[0]: row[1:] for row in list(csv.reader(file))[1:]}


def problems_table(out) -> list[list[str]]:
    text = (out / "report.html").read_text(encoding="utf-8")
    table = text[text.index('<table id="problems">') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
    return [[html.unescape(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows]


def test_collect_records_every_file_it_leaves_out(hand_ins):
    course, collected, _, _ = hand_ins
    recorded = json.loads((course.grading / REJECTED).read_text())["rejected"]
    by_file = {entry["file"]: entry for entry in recorded}
    escaped = "hal_1_\\x1b[2J_01_naive_division.ipynb"
    assert set(by_file) == {name for name in BROKEN if name != ESCAPED} | {
        escaped,
        f"ivy_1_1_{NAIVE}.ipynb",
        f"jon_1_2_{NAIVE}.ipynb",
    }
    for name, (_, student, lesson, reason) in BROKEN.items():
        entry = by_file[escaped if name == ESCAPED else name]
        assert (entry["student"], entry["lesson"]) == (student, lesson), name
        assert entry["reason"].startswith(reason), (name, entry["reason"])
        assert entry["handed_in"] == datetime(*EARLY, tzinfo=timezone.utc).isoformat()
    assert "\x1b" not in (course.grading / REJECTED).read_text()
    assert len(collected.unplaced) == len(recorded)  # collect's own log lists each too, as before
    collect_downloads(course.root.parent / "lms.zip", course)  # collecting the same download again ...
    assert json.loads((course.grading / REJECTED).read_text())["rejected"] == recorded  # ... records nothing twice


def test_the_exchange_records_what_it_leaves_out_with_student_lesson_and_time(tmp_path):
    course = course_by_hand(COURSE, tmp_path / "course", [NAIVE], {})
    exchange = tmp_path / "exchange"
    inbound = exchange / course.nbgrader_config(exchange).CourseDirectory.course_id / "inbound"
    when = "2026-11-30 12:00:00.000000 UTC"
    folder = inbound / f"bob+{NAIVE}+{when}+a1b2"
    folder.mkdir(parents=True)
    (folder / "timestamp.txt").write_text(when)
    (folder / f"{NAIVE}.ipynb").symlink_to(course.source_notebook(NAIVE))
    (inbound / f"cy+{NAIVE}+not a time+a1b2").mkdir()
    received = receipt_of(folder)  # the exchange's time, not the one its name says
    collect_exchange(course, [NAIVE], exchange)
    recorded = {
        (r["student"], r["lesson"], r["reason"], r["handed_in"])
        for r in json.loads((course.grading / REJECTED).read_text())["rejected"]
    }
    assert recorded == {
        ("bob", NAIVE, "it is a link to another file, not a file", received.isoformat()),
        ("cy", NAIVE, "the time it was handed in could not be read", ""),
    }


def test_a_good_hand_in_wins_over_an_earlier_broken_one_and_is_not_erased_by_a_later_one():
    def rejection(student, hour):
        return Rejection(student, NAIVE, "f.ipynb", "it is empty", "an empty file", f"2026-11-30T{hour}:00:00+00:00")

    graded_at = {("ivy", NAIVE): datetime(2026, 11, 30, 12), ("jon", NAIVE): datetime(2026, 11, 30, 10)}
    graded_at[("kim", NAIVE)] = None  # graded, with no time known: the graded one wins
    rejections = [rejection("ivy", 10), rejection("jon", 12), rejection("kim", 12), rejection("lu", 12)]
    assert standing(rejections, graded_at) == [(rejections[1], True), (rejections[3], False)]


def test_each_file_left_out_reaches_grade_csv_report_and_feedback_never_as_missing(hand_ins):
    course, _, graded_log, out = hand_ins
    summary = graded_log.render()
    assert (
        graded_log.graded == []
        and f"{len(BROKEN) + 1} file(s) handed in could not be read, so were not graded" in summary
    )
    lines = summary.splitlines()
    for name, (_, student, lesson, _) in BROKEN.items():
        shown = name.replace("\x1b", "\\x1b")
        line = next(line for line in lines if shown + ":" in line)
        assert line.startswith(f"  {student or '(no student id)'} / {lesson or '(no lesson known)'}: ")
    assert (
        f"  jon / {NAIVE}: jon_1_2_{NAIVE}.ipynb" in summary and "an earlier hand-in of the lesson is graded" in summary
    )
    assert "ivy" not in summary and "\x1b" not in summary  # a later good hand-in wins

    rows, table = grades_csv(out), problems_table(out)
    assert list(rows) == sorted([*ROSTER, "zed"])  # zed, on no roster, gets a row too
    for name, (_, student, lesson, reason) in BROKEN.items():
        shown = name.replace("\x1b", "\\x1b")
        assert [row for row in table if shown in row[3]], name
        if not student:
            assert table[[shown in row[3] for row in table].index(True)][:3] == [
                "(no student id)",
                "(no lesson known)",
                "not read",
            ]
            continue
        assert rows[student][0] == "0" and shown in rows[student][-1] and reason in rows[student][-1]
        if student not in ROSTER:  # a row in the CSV and the report, but no page: feedback goes to the roster
            assert not (out / "feedback" / f"{student}.html").exists()
            continue
        page = page_text(out / "feedback" / f"{student}.html")
        if lesson:
            assert f"Your file could not be read: {reason}" in page
            assert "missing" not in page and "Nothing of it could be graded: 0 of 15 points" in page
        else:
            assert f"A file you handed in could not be read: {reason}" in page
            assert "nothing handed in (missing); a file you handed in that could not be read (below)" in page
        assert shown in page and "\x1b" not in page
    assert rows["ivy"] == ["15", "15", ""]  # the good hand-in after the broken one is graded, with no problem
    assert rows["jon"][:2] == ["15", "15"] and "a later file could not be read" in rows["jon"][-1]
    jon = page_text(out / "feedback" / "jon.html")
    assert "Score: 15 / 15" in jon and "A later file you handed in could not be read: it is not a notebook" in jon
    assert "Your earlier hand-in of this lesson, below, is the one graded." in jon
    assert ["jon", NAIVE, "later file not read"] == next(row for row in table if row[0] == "jon")[:3]
    assert "could not be read" not in page_text(out / "feedback" / "ivy.html")
    results = class_results(course)
    unread = [s.id for s in results.everyone if results.state(s.id, NAIVE) == "could not be read"]
    assert unread == ["dan", "eli", "fay", "hal", "zed"]
    assert [s.id for s in results.students] == ROSTER  # the roster stays the gradebook's
    assert len(results.submitted(NAIVE)) == 4  # ann, cy, ivy, jon
    lede = (  # the report's first line counts unread hand-ins apart from missing ones (gus's file names no lesson)
        "10 student(s) (1 on no roster), 1 lesson(s): 10 submission(s) expected, 9 handed in: 4 graded (1 whose later "
        "file could not be read), 5 could not be read; 1 missing. Also could not be read: 1 file(s) of no known "
        "lesson, 1 file(s) naming no student."
    )
    assert f'<p class="lede">{lede}</p>' in (out / "report.html").read_text(encoding="utf-8")
    with open(out / "canvas.csv", newline="", encoding="utf-8") as file:
        assert sorted(row[3] for row in list(csv.reader(file))[2:]) == ROSTER  # what Canvas imports: the roster


def test_feedback_opens_with_a_summary_and_names_each_diagnosis_once(hand_ins):
    _, _, _, out = hand_ins
    cy = page_text(out / "feedback" / "cy.html")
    raw = (out / "feedback" / "cy.html").read_text(encoding="utf-8")
    failing = len(wrong(COURSE, NAIVE, WHOLE_ARRAY))
    assert failing > 1  # the check named the mistake in each of these tests' messages
    assert cy.count(f"likely mistake: {WHOLE_ARRAY.description}") == 1
    assert cy.count(f"hint: {WHOLE_ARRAY.hint}") == 1
    assert cy.count("(likely mistake 1 above)") == failing
    glance = raw[raw.index('<table id="at-a-glance">') : raw.index("</table>")]
    assert raw.index('<table id="at-a-glance">') < raw.index(f'<h2 id="lesson-{NAIVE}">')  # at the top
    cells = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td>(.*?)</td>", glance, re.S)]
    score = next(line for line in cy.splitlines() if line.startswith("Score: "))
    assert cells[0] == NAIVE and cells[1] == score.removeprefix("Score: ") and WHOLE_ARRAY.description in cells[2]
    assert cells[3] == "“5. Exercise: naive_normalize”"  # where the function is defined
    assert "<code>naive_normalize</code>" in glance
    ann = page_text(out / "feedback" / "ann.html")
    assert "every test passed" in ann and "likely mistake:" not in ann


def test_a_graded_page_keeps_the_checks_words_but_not_what_holds_only_in_the_lab(tmp_path):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        checks.passed("naive_normalize")
    assert LAB_ONLY in printed.getvalue()  # the sentence the checks print in the lab

    def naive_normalize(x):
        raise NotImplementedError

    with pytest.raises(checks.CheckFailed) as stub:
        checks.check_call(naive_normalize, np.array([1.0, 3.0]), expect=np.array([0.25, 0.75]))
    assert NOT_WRITTEN in str(stub.value)
    tests = list(wrong(COURSE, NAIVE, WHOLE_ARRAY))
    outcomes = {
        tests[0]: ([{"output_type": "stream", "name": "stdout", "text": printed.getvalue()}], {"mistakes": []}),
        tests[1]: ([error(str(stub.value))], {"mistakes": []}),
    }
    course = course_by_hand(
        COURSE, tmp_path / "course", [NAIVE], {("bo", NAIVE): Graded(executed(COURSE, NAIVE, outcomes))}
    )
    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gradebook:  # past: the hidden tests are shown
        gradebook.update_or_create_assignment(NAIVE, duedate=datetime(2000, 1, 1))
    page = page_text(write_feedback(class_results(course), tmp_path / "feedback")[0])
    assert "✓ naive_normalize: the public checks passed." in page and "Hidden tests run" not in page
    assert str(stub.value) in page and f"1 failing test(s): a function is {NOT_WRITTEN}" in page


def test_grading_keeps_the_submission_secret_release_feedback_names_the_page_with(tmp_path):
    """nbgrader's autograde copies it into autograded/ and generate_feedback on into feedback/; without it
    release_feedback (nbgrader's, and the hub's strict one) stops at the first student."""
    course = course_by_hand(COURSE, tmp_path / "course", [NAIVE], {})
    submitted = course.grading / "submitted" / "ann" / NAIVE
    submitted.mkdir(parents=True)
    (submitted / f"{NAIVE}.ipynb").write_text(full_marks_notebook())
    (submitted / "submission_secret.txt").write_text("s" * 128)
    [job] = submissions(course, [NAIVE])
    graded = executed(course, NAIVE)
    record(
        course,
        job,
        Sandboxed(report_of(course, graded, NAIVE), nbformat.writes(graded), scores_of(course, graded, NAIVE)),
    )
    assert (course.grading / "autograded" / "ann" / NAIVE / "submission_secret.txt").read_text() == "s" * 128


def test_with_the_hub_s_exchange_collect_takes_each_student_s_own_hand_in_and_lists_one_under_another_s_name(
    tmp_path, monkeypatch
):
    """The hub's strict exchange collects a hand-in only from the account it is named after, and collect reads
    copies of inbound, all of them the collector's: the owners are checked on inbound itself (issue 41: `grader
    collect` as the hub's grader account said "Collected 2" and collected nothing). Owners as the hub's accounts
    have them, given here (one account runs the unit tests); tests/hub/test_journey.py runs it as the real users."""
    course = course_by_hand(COURSE, tmp_path / "course", [NAIVE], {})
    with open(course.root / "nbgrader_config.py", "a") as settings:
        settings.write("c.ExchangeFactory.collect = 'grader.exchange.instructor.Collect'\n")
    exchange = tmp_path / "exchange"
    inbound = exchange / course.nbgrader_config(exchange).CourseDirectory.course_id / "inbound"
    when = "2026-11-30 12:00:00.000000 UTC"
    owners = {}
    for named, owner in (("bob", "bob"), ("eve", "mallory")):
        folder = inbound / f"{named}+{NAIVE}+{when}+a1b2"
        folder.mkdir(parents=True)
        (folder / "timestamp.txt").write_text(when)
        (folder / f"{NAIVE}.ipynb").write_bytes(course.release_notebook(NAIVE).read_bytes())
        owners[folder.name] = owner
    monkeypatch.setattr(collect_module, "owner_name", lambda path: owners[path.name], raising=False)
    log = collect_exchange(course, [NAIVE], exchange)
    submitted = course.grading / "submitted"
    assert sorted(path.name for path in submitted.iterdir()) == ["bob"]
    assert (submitted / "bob" / NAIVE / f"{NAIVE}.ipynb").read_bytes() == course.release_notebook(NAIVE).read_bytes()
    assert [student for student, _, _ in log.placed] == ["bob"]
    assert log.unplaced == [(f"exchange:eve+{NAIVE}+{when}+a1b2", "handed in under the name eve by mallory")]
    assert not (course.grading / REJECTED).exists()  # no hand-in of eve's: nothing to show on eve's feedback
