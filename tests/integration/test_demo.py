"""`python -m grader.proof.demo` on a small class: every instructor step copes with what a real class hands in.

Eight students, one lesson: half submit through the exchange, half in an LMS zip that
holds a file that is not JSON, an empty one, another course's notebook, a stray text file
and a second try; one exchange student also submits twice.
"""

import csv
import html
import json
import shlex
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from grader.course import SOLUTIONS, Course, read_cached, text_source_in
from grader.course.authoring import build_notebook
from grader.proof.demo import DEFAULT_LESSONS, PLAN, formgrader_command, fresh_course
from grader.proof.simulate import BROKEN
from tests.support import COURSE, once_per_run, run_small_demo
from tests.support import SMALL_DEMO_LESSON as LESSON
from tests.support import SMALL_DEMO_STUDENTS as STUDENTS

STEPS = [
    "release",
    "roster: the instructor enrols the class",
    "students submit to the exchange",
    "collect (exchange)",
    "collect (LMS zip)",
    "grade",
    "feedback",
    "export",
    "report",
]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """(course directory, the demo's plan of the class, its stdout), from one run per test session."""
    folder = once_per_run(tmp_path_factory, "demo", run_small_demo)
    stdout = (folder / "stdout.txt").read_text()
    assert (folder / "returncode.txt").read_text() == "0", stdout + (folder / "stderr.txt").read_text()
    root = folder / "course"
    return root, json.loads((root / PLAN).read_text()), stdout


def final_uploads(plan) -> dict[tuple[str, str], dict]:
    """Each student's latest upload of each lesson (the one that should count)."""
    latest = {}
    for upload in plan["uploads"]:
        if upload["kind"] == "stray-text":
            continue
        key = (upload["student"], upload["lesson"])
        if key not in latest or upload["minutes_early"] < latest[key]["minutes_early"]:
            latest[key] = upload
    return latest


def step(plan, name) -> dict:
    return next(s for s in plan["steps"] if s["name"] == name)


def test_every_step_ran_and_succeeded(demo):
    _, plan, stdout = demo
    assert [s["name"] for s in plan["steps"]] == STEPS
    assert all(s["returncode"] == 0 for s in plan["steps"])
    assert "== Summary" in stdout and "report.html" in stdout


# How formgrader reads a course (nbgrader's FormgradeExtension.load_config): nbgrader_config.py of the directory
# the server starts in, as written; printed as JSON.
AS_FORMGRADER_READS = """
import json
from nbgrader.apps.baseapp import NbGrader
from nbgrader.coursedir import CourseDirectory

app = NbGrader()
app.load_config_file()
course = CourseDirectory(config=app.config)
names = ("course_id", "root", "db_url", "source_directory", "release_directory", "submitted_directory",
         "autograded_directory", "feedback_directory")
print(json.dumps({name: getattr(course, name) for name in names}))
"""


def test_formgrader_reads_the_demo_course_and_its_gradebook(demo):
    root, plan, _ = demo
    read = subprocess.run(
        [sys.executable, "-c", AS_FORMGRADER_READS], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert read.returncode == 0, read.stderr
    settings = json.loads(read.stdout)
    assert settings["course_id"] == COURSE.nbgrader_settings().CourseDirectory.course_id
    assert settings["root"] == str(root.resolve())
    assert settings["db_url"] == f"sqlite:///{root.resolve() / '.grading' / 'gradebook.db'}"
    assert (root / settings["source_directory"] / LESSON / f"{LESSON}.ipynb").is_file()
    assert (root / settings["release_directory"] / LESSON / f"{LESSON}.ipynb").is_file()
    for folder in ("submitted_directory", "autograded_directory", "feedback_directory"):
        assert (root / settings[folder]).is_dir(), folder
    graded = {key for key, upload in final_uploads(plan).items() if upload["kind"] not in BROKEN}
    with Gradebook(settings["db_url"]) as gradebook:
        assert {s.id for s in gradebook.students} == {u["student"] for u in plan["uploads"]}
        assert {(s.student.id, LESSON) for s in gradebook.find_assignment(LESSON).submissions} == graded
        assert all((root / settings["autograded_directory"] / s / LESSON).is_dir() for s, _ in graded)


def test_the_demo_course_is_its_own_even_when_the_sources_name_their_places(tmp_path):
    """Sources whose settings name their own root and gradebook must not point formgrader at them."""
    sources = tmp_path / "sources"
    source = text_source_in(sources, LESSON)
    source.parent.mkdir(parents=True)
    source.write_text(COURSE.text_source(LESSON).read_text())
    pinned = f'\nc.CourseDirectory.root = "{sources}"\nc.CourseDirectory.db_url = "sqlite:///{sources}/gradebook.db"\n'
    (sources / "nbgrader_config.py").write_text((COURSE.root / "nbgrader_config.py").read_text() + pinned)
    demo_course = tmp_path / "demo"
    fresh_course(Course(sources), demo_course, [LESSON])
    read = subprocess.run(
        [sys.executable, "-c", AS_FORMGRADER_READS], cwd=demo_course, capture_output=True, text=True, timeout=120
    )
    assert read.returncode == 0, read.stderr
    settings = json.loads(read.stdout)
    assert settings["root"] == str(demo_course.resolve())
    assert settings["db_url"] == f"sqlite:///{demo_course.resolve() / '.grading' / 'gradebook.db'}"


def test_a_course_of_some_lessons_has_those_lessons_and_no_other(tmp_path):
    """06 takes 05's reference code, and 04 takes 03's: the demo course of 01, 04 and 06 has three lessons, as
    formgrader lists them, and each builds from it (04's release once failed for want of 03's text source; then 03 and
    05, brought along, became lessons of the demo course, and collect failed every LMS file for want of 05's
    notebook)."""
    lessons = ["01_naive_division", "04_temperature", "06_masking"]
    fresh_course(COURSE, tmp_path / "demo", lessons)
    course = Course(tmp_path / "demo")
    assert course.lesson_ids() == lessons
    assert sorted(path.name for path in (course.root / SOLUTIONS).iterdir()) == lessons  # formgrader's list
    for lesson in lessons:
        assert build_notebook(course.text_source(lesson), course.root) == read_cached(COURSE.source_notebook(lesson))


def test_the_summary_ends_with_the_command_that_opens_formgrader(demo):
    root, _, stdout = demo
    lines = stdout.rstrip().splitlines()
    assert lines[-2].startswith("Open the class in formgrader")
    words = shlex.split(lines[-1])
    assert words[0] == "make" and "formgrader" in words
    makes = Path(words[words.index("-C") + 1]) if "-C" in words else Path.cwd()
    (course,) = [word.removeprefix("COURSE=") for word in words if word.startswith("COURSE=")]
    assert (makes / course).resolve() == root.resolve()
    assert "\nformgrader:" in (makes / "Makefile").read_text()


def test_the_command_is_typed_where_the_instructor_is(tmp_path):
    course = COURSE.grading / "demo"
    assert formgrader_command(course, COURSE, here=COURSE.root) == "make formgrader COURSE=.grading/demo"
    assert formgrader_command(course, COURSE, here=tmp_path) == f"make -C {COURSE.root} formgrader COURSE=.grading/demo"
    elsewhere = tmp_path / "a class" / "course"
    assert formgrader_command(elsewhere, COURSE, here=COURSE.root) == f"make formgrader COURSE='{elsewhere}'"
    (tmp_path / "solutions").mkdir()
    (tmp_path / "nbgrader_config.py").write_text((COURSE.root / "nbgrader_config.py").read_text())
    without_makefile = Course(tmp_path)
    assert formgrader_command(elsewhere, without_makefile, here=tmp_path) == (
        f"cd '{elsewhere}' && jupyter lab --LabApp.default_url=/formgrader"
    )


def test_the_class_is_believable(demo):
    _, plan, _ = demo
    uploads = plan["uploads"]
    assert {u["student"] for u in uploads} == {f"s{n:02d}" for n in range(1, STUDENTS + 1)}
    assert {u["channel"] for u in uploads} == {"exchange", "lms"}
    assert set(BROKEN) <= {u["kind"] for u in uploads}
    for upload in uploads:
        if upload["channel"] == "lms":
            assert upload["name"].startswith(upload["student"] + "_")


def test_gradebook_holds_every_placed_submission_graded(demo):
    root, plan, _ = demo
    expected = {key for key, upload in final_uploads(plan).items() if upload["kind"] not in BROKEN}
    placed = {(p.parent.parent.name, p.parent.name) for p in (root / ".grading" / "submitted").glob("*/*/*.ipynb")}
    assert placed == expected
    with Gradebook(Course(root).nbgrader_config().CourseDirectory.db_url) as gradebook:
        submissions = gradebook.find_assignment(LESSON).submissions
        assert {(s.student.id, LESSON) for s in submissions} == expected
        for submission in submissions:
            assert not submission.needs_manual_grade
            assert all(grade.auto_score is not None for nb in submission.notebooks for grade in nb.grades)
            assert (root / ".grading" / "autograded" / submission.student.id / LESSON / f"{LESSON}.ipynb").is_file()
        assert {s.id for s in gradebook.students} == {u["student"] for u in plan["uploads"]}


REASONS = {
    "not-json": "not valid JSON",
    "empty": "an empty file",
    "other-course": "not a notebook of a known lesson",
    "stray-text": "not a notebook (.txt)",
}


def test_broken_files_are_unplaced_with_reasons_and_kept(demo):
    root, plan, _ = demo
    output = step(plan, "collect (LMS zip)")["output"]
    broken = [u for u in plan["uploads"] if u["kind"] in BROKEN]
    assert {u["kind"] for u in broken} == set(BROKEN)
    assert f"Could not place {len(broken)} file(s)" in output
    for upload in broken:
        line = next(line for line in output.splitlines() if line.strip().startswith(upload["name"] + ":"))
        assert REASONS[upload["kind"]] in line
        assert (root / ".grading" / "unplaced" / upload["name"]).is_file()


def test_the_later_of_two_submissions_is_kept(demo):
    root, plan, _ = demo
    versions: dict = {}
    for upload in plan["uploads"]:
        if upload["kind"] not in BROKEN:
            versions.setdefault((upload["student"], upload["lesson"]), []).append(upload)
    twice = {key: ups for key, ups in versions.items() if len(ups) > 1}
    assert {ups[0]["channel"] for ups in twice.values()} == {"exchange", "lms"}
    reference = Course(root).reference_answers(LESSON)
    for (student, lesson), ups in twice.items():
        later = min(ups, key=lambda u: u["minutes_early"])
        assert later["kind"] == "correct" and not later["entries"]  # the earlier try left stubs
        kept = nbformat.read(root / ".grading" / "submitted" / student / lesson / f"{lesson}.ipynb", as_version=4)
        answers = {
            c.metadata.nbgrader.grade_id: c.source for c in kept.cells if c.metadata.get("nbgrader", {}).get("solution")
        }
        assert answers == reference
    lms = next(ups for ups in twice.values() if ups[0]["channel"] == "lms")
    earlier, later = sorted(lms, key=lambda u: -u["minutes_early"])
    assert f"kept {later['name']}, not {earlier['name']}" in step(plan, "collect (LMS zip)")["output"]


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.reader(file))


def test_csvs_have_a_row_per_student(demo):
    root, plan, _ = demo
    students = sorted({u["student"] for u in plan["uploads"]})
    exports = root / ".grading" / "exports"
    grades = read_csv(exports / "grades.csv")
    assert grades[0][0] == "student" and [row[0] for row in grades[1:]] == students
    canvas = read_csv(exports / "canvas.csv")
    assert canvas[1][0].strip() == "Points Possible"
    assert sorted(row[3] for row in canvas[2:]) == students
    kept = final_uploads(plan)
    for row in grades[1:]:
        if kept[(row[0], LESSON)]["kind"] in BROKEN:
            assert row[1] == "0"


def test_report_embeds_its_figures_and_feedback_pages_exist(demo):
    root, plan, _ = demo
    report = (root / ".grading" / "report.html").read_text()
    assert report.count('src="data:image/png;base64,') >= 2
    assert 'alt=""' not in report
    for student in {u["student"] for u in plan["uploads"]}:
        assert (root / ".grading" / "feedback-html" / f"{student}.html").is_file()


def test_the_broken_hand_ins_show_with_their_reason_never_as_missing(demo):
    """The empty file, the file that is not JSON and the other course's notebook of the class: `grade` lists each,
    and the grades CSV, the report's problems table and the student's feedback page give its reason; none of them
    says "missing". (Imports here: the rest of this file is another's to edit.)"""
    import html
    import re

    root, plan, _ = demo
    words = {
        "empty": "it is empty",
        "not-json": "it is not a notebook",
        "other-course": "not of a lesson of this course",
    }
    broken = [u for u in plan["uploads"] if u["kind"] in words]
    assert sorted(u["kind"] for u in broken) == sorted(words)
    graded = step(plan, "grade")["output"]
    grades = {row[0]: row for row in read_csv(root / ".grading" / "exports" / "grades.csv")}
    report = (root / ".grading" / "report.html").read_text(encoding="utf-8")
    problems = report[report.index('<table id="problems">') :]
    rows = [
        [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", problems[: problems.index("</table>")], re.S)
    ]
    for upload in broken:
        student, name, reason = upload["student"], upload["name"], words[upload["kind"]]
        assert f"  {student} / {LESSON}: {name}: " in graded
        assert grades[student][1] == "0" and name in grades[student][-1] and reason in grades[student][-1]
        assert [student, LESSON, "not read"] in [row[:3] for row in rows if row and name in row[-1]]
        page = (root / ".grading" / "feedback-html" / f"{student}.html").read_text(encoding="utf-8")
        text = html.unescape(re.sub(r"<[^>]+>", "", page[page.index("<main>") :]))
        line = next(line for line in text.splitlines() if line.startswith("Your file could not be read: "))
        assert reason in line and name in line
        assert "missing" not in text


def test_the_demo_as_make_demo_runs_it_grades_every_hand_in_but_the_broken_ones(tmp_path):
    """The tutorial's `make demo` (docs/tutorials/first-class.md), its lessons and seed as the Makefile gives them,
    on a class of 8: each student's last hand-in of each lesson is graded, but for the three broken files of a lesson
    and the stray text file of none, and the demo's summary, `grade`'s and the report's first line count it so. It
    once graded 45 of 90: its course held lesson 05, whose reference code lesson 06 takes, and collect failed every
    LMS file on 05's notebook."""
    from grader.instructor.results import Counts

    recipe = subprocess.run(
        ["make", "--no-print-directory", "-n", "-o", ".venv/.installed", "demo"],
        cwd=COURSE.root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    command = shlex.split(recipe.splitlines()[-1])
    assert Path(command[0]).name == "python" and command[1:] == ["-m", "grader.proof.demo"], recipe
    root = tmp_path / "demo"
    done = subprocess.run(
        [sys.executable, *command[1:], "--students", str(STUDENTS), "--course", str(root), "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    plan = json.loads((root / PLAN).read_text())
    latest = final_uploads(plan)
    expected = Counts(
        students=STUDENTS,
        off_roster=0,
        lessons=len(plan["lessons"]),
        graded=sum(upload["kind"] not in BROKEN for upload in latest.values()),
        flagged=0,
        later_unread=0,
        unreadable=sum(upload["kind"] in BROKEN for upload in latest.values()),
        unknown_lesson=sum(upload["kind"] == "stray-text" for upload in plan["uploads"]),
        no_student=0,
    ).sentence()
    assert expected.startswith(
        f"{STUDENTS} student(s), 3 lesson(s): 24 submission(s) expected, 24 handed in: 21 graded"
    )
    assert f"The class: {expected}" in done.stdout.split("== Summary")[1]
    assert f"The class: {expected}" in step(plan, "grade")["output"]
    assert f'<p class="lede">{html.escape(expected)}</p>' in (root / ".grading" / "report.html").read_text()
    assert "Traceback" not in done.stdout + done.stderr and "FileNotFoundError" not in done.stdout
    assert Course(root).lesson_ids() == plan["lessons"] == list(DEFAULT_LESSONS)
