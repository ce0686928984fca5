"""Broken and hostile submissions, graded in one batch with ordinary ones (testbed/hostile/).

The class goes through the whole pipeline as an instructor runs it: `collect --from` an LMS
zip, `grade --timeout 8 --memory 512`, then `feedback`, `export` and `report`. The batch
must finish, each submission must get its status and exactly the points it deserves, the
ordinary students' pages must be those of a class without the hostile ones, nothing of a
kernel may outlive the batch, and the table of docs/reference/hostile.md must match.
"""

from __future__ import annotations

import csv
import html
import os
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import nbformat
import pytest

from grader.course import Course
from grader.engine import isolation, testrunner
from grader.engine.bridge import INTERRUPT_GRACE
from grader.instructor.export import FORMULA_STARTS
from grader.instructor.grading import statuses
from grader.instructor.report import misconception_counts
from grader.instructor.results import class_results
from grader.learner.predictions import is_prediction
from grader.proof.pages import block as page_block
from testbed.hostile import page as hostile_page
from testbed.hostile.grading import collect_logs, grade, grade_corpus, outcomes, write_outputs
from testbed.hostile.kinds import KINDS, NOT_COLLECTED, SIZES
from testbed.hostile.lesson import FULL, LESSON, TIMEOUT, notebook, released_course, submit
from testbed.hostile.payloads import FORGED_LINE, FORGED_MISCONCEPTION, RACED_FILE
from testbed.hostile.scripts import GUESSED, MARKDOWN_HEADING, SHOWN_HTML
from tests.support import active_markup, formgrader_page, marked_lines, once_per_run, printed_by

pytestmark = pytest.mark.xdist_group("hostile")  # its tests read one graded class (tests/conftest.py)

ORDINARY = {"ordinary_full": (notebook, FULL), "ordinary_stub": (None, 0.0)}
COLLECT_PEAK_MB = 512  # a collect holds one file at a time, and Python with nbgrader takes about 100 MB
KEPT_MB = 64  # what collect may keep of the zip bomb in .grading/unplaced/
PAGE_BYTES, AUTOGRADED_BYTES = 200_000, 2_000_000
# A slow or mute cell costs that cell: its time limit, a grace period after the interrupt no
# longer than another, and the rest of the notebook, which takes an ordinary student a few
# seconds (15 s on a machine busy with the rest of the batch). A kernel that stays mute for
# every later cell costs each its full limit instead (7 cells after is_distribution's, 56 s), and
# no notebook runs past its own limit (NOTEBOOK_SECONDS: 80 s), where cells x timeout would be 152 s.
SLOW_SECONDS = 2 * TIMEOUT + 15
NOTEBOOK_SECONDS = testrunner.NOTEBOOK_TIMES * TIMEOUT  # `grade` sets no --notebook-timeout: the default


def grade_corpus_and_ordinary_class(folder):
    """The corpus graded (grade_corpus), and the two ordinary students in a class of their own in folder/ordinary
    graded at the same time: the corpus's batch spends most of its time waiting on time limits. Both classes are
    released here one after the other (nbgrader changes this process's directory while it releases); the ordinary
    class's commands run beside the corpus's as processes of their own."""
    ordinary = released_ordinary_class(folder / "ordinary")
    with ThreadPoolExecutor(max_workers=1) as beside:
        graded = beside.submit(grade_ordinary_class, ordinary, folder / "ordinary")
        grade_corpus(folder)
        graded.result()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = once_per_run(tmp_path_factory, "hostile", grade_corpus_and_ordinary_class)
    return folder, outcomes(folder / "course")


def test_the_batch_finishes_and_grades_every_submission(corpus):
    folder, got = corpus
    returncode, output = (folder / "grade.txt").read_text().split("\n", 1)
    assert returncode == "0", output
    isolated = isolation.available()
    expected = {kind.student_id for kind in KINDS if isolated or not kind.needs_isolation} | set(ORDINARY)
    assert set(got) == expected, f"missing: {sorted(expected - set(got))}, unexpected: {sorted(set(got) - expected)}"


def test_ordinary_students_are_untouched(corpus):
    _, got = corpus
    assert got["ordinary_full"] == ("graded", FULL) and got["ordinary_stub"] == ("graded", 0.0)


@pytest.mark.parametrize("kind", KINDS, ids=[k.id for k in KINDS])
def test_each_kind_gets_its_status_and_the_points_it_deserves(kind, corpus):
    if kind.needs_isolation and not isolation.available():
        pytest.skip("it reaches the course by absolute path, which only isolated kernels (root) stop")
    _, got = corpus
    found = got.get(kind.student_id, ("neither graded nor listed by collect", None))
    assert found == (kind.status, kind.score), f"{kind.id} ({kind.what}): got {found}, not {(kind.status, kind.score)}"


def test_problems_are_flagged_in_the_gradebook_and_explained_in_feedback(corpus):
    folder, got = corpus
    from nbgrader.api import Gradebook

    with Gradebook(Course(folder / "course").nbgrader_config().CourseDirectory.db_url) as gb:
        flagged = {
            sub.student.id for sub in gb.find_assignment(LESSON).submissions for nb in sub.notebooks if nb.flagged
        }
    assert flagged == {student for student, (status, _) in got.items() if status not in ("graded", NOT_COLLECTED)}
    report = class_results(Course(folder / "course")).report("os_exit", LESSON)
    tests = [t for t in report.tests if not is_prediction(t.grade_id)]  # the corpus answers no prediction
    assert all("kernel" in t.message and ("stopped" in t.message or "died" in t.message) for t in tests), [
        t.message for t in tests
    ]


def test_the_reference_page_shows_the_outcome_of_every_kind(corpus):
    if not isolation.available():
        pytest.skip("the page's table is of a grading as root, with every kind")
    _, got = corpus
    assert hostile_page.table() == hostile_page.render(got), (
        f"{hostile_page.PAGE.name}'s table of hostile submissions is out of date: python -m testbed.hostile --page"
    )
    stamp = page_block(hostile_page.PAGE, hostile_page.BEGIN, hostile_page.END).splitlines()[0]
    assert re.fullmatch(
        r"Graded by `python -m testbed\.hostile` on \d{4}-\d\d-\d\d: \d+ cores \(.+\), as root.*", stamp
    )


def test_the_outcome_table_is_written_into_its_block_alone(tmp_path):
    """`python -m testbed.hostile --page` rewrites the block between its markers, dated, and nothing else."""
    copy = tmp_path / "hostile.md"
    copy.write_text(hostile_page.PAGE.read_text())
    head, rest = copy.read_text().split(hostile_page.BEGIN)
    tail = rest.split(hostile_page.END)[1]
    made_up = {kind.student_id: (NOT_COLLECTED, None) if kind.make is None else ("graded", FULL) for kind in KINDS}
    hostile_page.write(made_up, copy)
    text = copy.read_text()
    assert text.startswith(head + hostile_page.BEGIN + "\n") and text.endswith(hostile_page.END + tail)
    assert (
        hostile_page.table(copy) == hostile_page.render(made_up) and f"| {KINDS[0].what} | graded | 12 / 12 |" in text
    )
    stamp = page_block(copy, hostile_page.BEGIN, hostile_page.END).splitlines()[0]
    assert stamp.startswith(f"Graded by `python -m testbed.hostile` on {datetime.now(timezone.utc):%Y-%m-%d}: ")
    assert f"{os.cpu_count()} cores" in stamp


def test_feedback_export_and_report_run_on_the_whole_class(corpus):
    folder, _ = corpus
    codes = (folder / "outputs.txt").read_text().splitlines()
    assert [line.split()[:2] for line in codes] == [["feedback", "0"], ["export", "0"], ["report", "0"]], codes


def test_feedback_shows_no_hidden_test_or_solution_text(corpus):
    folder, got = corpus
    pages = list((folder / "feedback").rglob("*.html"))
    assert len(pages) == len([student for student, (status, _) in got.items() if status != NOT_COLLECTED])
    secret = marked_lines("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS", [LESSON])
    secret += marked_lines("### BEGIN SOLUTION", "### END SOLUTION", [LESSON])
    assert len(secret) > 10
    for page in pages:
        text = html.unescape(page.read_text(encoding="utf-8"))
        assert not [line for line in secret if line in text], page.name


HIDDEN_INPUT = "[[1., 2., 5.], [4., 4., 2.]]"  # test_naive_normalize_rows's first input, as a message shows it


def test_feedback_before_the_due_date_shows_no_hidden_input_or_expected_value(corpus):
    """The corpus's lesson has no due date, so it can still be handed in: no page shows what a failed hidden test
    called or expected (a line of its message naming a call or an expected value, unless a public test of the same
    student shows that line too), though the instructor's view of the same tests holds them."""
    folder, _ = corpus
    results = class_results(Course(folder / "course"))
    hidden = results.withheld[LESSON].tests
    shown_somewhere = 0
    for student in results.students:
        report, page = results.report(student.id, LESSON), folder / "feedback" / f"{student.id}.html"
        if report is None or not page.is_file():
            continue
        text = html.unescape(page.read_text(encoding="utf-8"))
        public = "\n".join(t.message for t in report.tests if t.grade_id not in hidden)
        secret = [
            line.strip()
            for test in report.tests
            if test.grade_id in hidden and not test.passed
            for line in test.message.splitlines()
            if ("expected:" in line or "naive_normalize(" in line or "is_distribution(" in line)
            and line.strip() not in public
        ]
        shown_somewhere += bool(secret)
        assert not [line for line in secret if line in text], student.id
        assert HIDDEN_INPUT not in text, student.id
    assert shown_somewhere > 10  # the instructor's view holds them for most of the corpus


# ----------------------------------------------------------------- the ordinary students, in a class of their own


def released_ordinary_class(folder) -> Path:
    """The two ordinary students alone, handed in to a course of their own; its root."""
    root = released_course(folder / "course")
    submit(root, "ordinary_full", notebook())
    submit(root, "ordinary_stub", (root / "notebooks" / LESSON / f"{LESSON}.ipynb").read_bytes())
    return root


def grade_ordinary_class(root, folder) -> None:
    """The ordinary class graded and given feedback as the corpus is (commands run as processes of their own); the
    pages are what the tests compare, so no export or report."""
    grade(root, folder / "grade.txt")
    write_outputs(root, folder, ["feedback"])


def test_ordinary_students_pages_are_those_of_a_class_without_the_hostile_ones(corpus):
    folder, _ = corpus
    alone = folder / "ordinary"
    assert (alone / "grade.txt").read_text().startswith("0\n"), (alone / "grade.txt").read_text()
    for student in ORDINARY:
        page, own = folder / "feedback" / f"{student}.html", alone / "feedback" / f"{student}.html"
        assert page.read_bytes() == own.read_bytes(), f"{student}'s page differs when graded beside the corpus"


# ----------------------------------------------------------------- collect


def test_every_collect_finishes_whatever_the_zip_holds(corpus):
    folder, _ = corpus
    logs = collect_logs(folder)
    assert {"collect.txt", "collect-lms_zip_bomb.txt"} <= set(logs)
    assert {name: code for name, (code, _) in logs.items() if code != "0"} == {}, logs


def test_a_zip_bomb_costs_collect_neither_memory_nor_disk(corpus):
    folder, _ = corpus
    _, output = collect_logs(folder)["collect-lms_zip_bomb.txt"]
    peak_mb = int(re.findall(r"^peak KB (\d+)$", output, re.M)[-1]) // 1024
    assert peak_mb < COLLECT_PEAK_MB, f"collect of a 1 GB entry peaked at {peak_mb} MB"
    unplaced = folder / "course" / ".grading" / "unplaced"
    kept = sum(path.stat().st_size for path in unplaced.rglob("*") if path.is_file())
    assert kept < KEPT_MB * 2**20, f"collect kept {kept // 2**20} MB in .grading/unplaced/"


def test_the_collect_log_escapes_names(corpus):
    folder, _ = corpus
    _, output = collect_logs(folder)["collect.txt"]
    assert "\x1b" not in output, "an ANSI escape from a file name reached the collect log"
    forged = [line for line in output.splitlines() if line.startswith("  mallory / ")]
    assert not forged, f"a line forged by a file name: {forged}"
    assert [line for line in output.splitlines() if "forger_x" in line and "mallory_01.ipynb" in line], output


def test_the_grade_log_escapes_names(corpus):
    """forged_file_names hands in files whose names hold a newline and a forged line, ANSI escapes and a bidi
    override: grade's log shows each escaped, as collect's does."""
    folder, _ = corpus
    printed = (folder / "grade-stdout.txt").read_text()
    assert [c for c in printed if not c.isprintable() and c != "\n"] == [], "a raw control character in grade's log"
    forged = [line for line in (folder / "grade.txt").read_text().splitlines() if line.startswith(FORGED_LINE)]
    assert not forged, f"a line forged by a file name: {forged}"
    assert [line for line in printed.splitlines() if line.startswith("  forged_file_names / ") and "\\x1b[2K" in line]


def test_an_absolute_path_names_no_student(corpus):
    folder, _ = corpus
    students = {student.id for student in class_results(Course(folder / "course")).students}
    assert "tmp" not in students and not (folder / "course" / ".grading" / "submitted" / "tmp").exists()


# ----------------------------------------------------------------- the network, limits, slow kernels, sizes


def test_no_kernel_reached_the_service_on_the_machine(corpus):
    folder, _ = corpus
    assert (folder / "service.txt").read_text() == "0", "connections to the answer service on 127.0.0.1"


def test_nothing_of_a_kernel_outlives_the_batch(corpus):
    folder, _ = corpus
    left = (folder / "leftovers.txt").read_text()
    assert left == "", f"left after the batch:\n{left}"


def grading_seconds(folder: Path, student: str) -> float | None:
    """From the time the submission's first solution cell printed to the time its result was recorded."""
    graded = folder / "course" / ".grading" / "autograded" / student / LESSON / f"{LESSON}.ipynb"
    if not graded.is_file():
        return None
    text = "".join(printed_by(cell) for cell in nbformat.read(graded, as_version=4).cells)
    started = re.search(r"grading started at ([\d.]+)", text)
    return graded.stat().st_mtime - float(started.group(1)) if started else None


@pytest.mark.parametrize("kind", [k for k in KINDS if k.timed], ids=[k.id for k in KINDS if k.timed])
def test_a_slow_or_mute_cell_costs_that_cell_not_the_notebook(kind, corpus):
    folder, got = corpus
    seconds = grading_seconds(folder, kind.student_id)
    assert seconds is not None, f"{kind.id}: its notebook did not run (status {got.get(kind.student_id)})"
    assert seconds < SLOW_SECONDS, f"{kind.id}: its grading took {seconds:.0f} s (at most {SLOW_SECONDS} s)"


def test_cells_each_just_under_their_limit_cost_the_notebook_limit_at_most(corpus):
    folder, got = corpus
    seconds = grading_seconds(folder, "just_under_the_limit")
    assert seconds is not None, f"its notebook did not run (status {got.get('just_under_the_limit')})"
    assert seconds < NOTEBOOK_SECONDS + INTERRUPT_GRACE + 15, f"its grading took {seconds:.0f} s"
    _, detail = statuses(Course(folder / "course"))["just_under_the_limit", LESSON]
    assert f"the notebook ran past its {NOTEBOOK_SECONDS} s limit" in detail, detail


@pytest.mark.parametrize("student", SIZES)
def test_whatever_a_submission_returns_or_raises_its_page_and_notebook_stay_small(student, corpus):
    folder, _ = corpus
    page = folder / "feedback" / f"{student}.html"
    graded = folder / "course" / ".grading" / "autograded" / student / LESSON / f"{LESSON}.ipynb"
    assert page.stat().st_size < PAGE_BYTES, f"{student}: a feedback page of {page.stat().st_size:,} bytes"
    size = graded.stat().st_size
    assert size < AUTOGRADED_BYTES, f"{student}: an autograded notebook of {size:,} bytes"


def test_a_message_cannot_forge_a_misconception_in_the_report(corpus):
    folder, _ = corpus
    counted = [m.description for m in misconception_counts(class_results(Course(folder / "course")))]
    assert not [d for d in counted if FORGED_MISCONCEPTION in d], counted
    assert FORGED_MISCONCEPTION not in (folder / "report.html").read_text(encoding="utf-8")


# ----------------------------------------------------------------- links planted for root, the machine's terminals


def test_no_kernel_made_a_file_of_roots_its_own_through_a_link(corpus):
    if not isolation.available():
        pytest.skip("only a kernel that runs as a user of its own (as root) has root to fool")
    folder, got = corpus
    raced, beside = (os.stat(folder / "course" / name) for name in (RACED_FILE, "nbgrader_config.py"))
    assert got["races_links"][0] == "graded"  # its racer ran through the grading of its tests
    assert (raced.st_uid, raced.st_gid, oct(raced.st_mode)) == (beside.st_uid, beside.st_gid, oct(beside.st_mode))


def test_no_kernel_holds_a_terminal_of_the_machine(corpus):
    if not isolation.available():
        pytest.skip("only an isolated kernel (as root) has terminals of its own")
    folder, _ = corpus
    graded = folder / "course" / ".grading" / "autograded" / "holds_terminals" / LESSON / f"{LESSON}.ipynb"
    printed = "".join(printed_by(cell) for cell in nbformat.read(graded, as_version=4).cells)
    held = int(re.search(r"holds (\d+) terminals", printed).group(1))
    before, peak, after = map(int, (folder / "terminals.txt").read_text().split())
    assert held == isolation.PTYS, printed  # all of its own devpts, and no more
    assert peak - before <= isolation.PTYS and after == before, (before, peak, after)


# ----------------------------------------------------------------- scripts for the pages an instructor opens


def test_formgrader_shows_the_scripts_kind_with_nothing_that_runs(corpus):
    """Its autograded notebook, as formgrader's page shows it (nbgrader's exporter and template), holds nothing
    that runs but formgrader's own, and still holds its learner's notes."""
    folder, _ = corpus
    autograded = folder / "course" / ".grading" / "autograded" / "scripts_everywhere" / LESSON / f"{LESSON}.ipynb"
    page = formgrader_page(nbformat.read(autograded, as_version=4))
    assert not active_markup(page) - active_markup(formgrader_page(nbformat.v4.new_notebook()))
    assert MARKDOWN_HEADING in page and SHOWN_HTML in page


def test_the_class_pages_and_exports_show_the_scripts_kind_with_nothing_that_runs(corpus):
    """Its feedback page quotes its guess as text; nothing runs there or in the report; no export cell starts a
    formula."""
    folder, _ = corpus
    own = active_markup((folder / "feedback" / "ordinary_full.html").read_text(encoding="utf-8"))
    page = (folder / "feedback" / "scripts_everywhere.html").read_text(encoding="utf-8")
    assert html.escape(GUESSED) in page
    for text in (page, (folder / "report.html").read_text(encoding="utf-8")):
        assert not active_markup(text) - own
    for export in (folder / "exports").glob("*.csv"):
        with open(export, newline="", encoding="utf-8") as file:
            cells = [cell for row in csv.reader(file) for cell in row]
        assert "scripts_everywhere" in cells and not [cell for cell in cells if cell.startswith(FORMULA_STARTS)]
