"""A made-up class taken through the whole instructor pipeline: `python -m grader.proof.demo`.

A fresh course directory gets the lessons' text sources. A seeded, simulated class then
hands work in the ways real classes do: through nbgrader's exchange, or as an LMS zip
with Canvas-style names, with broken files, a notebook for another course, a stray text
file and second tries among them. Every instructor step runs through the real command
line (`python -m grader --course DIR ...`), so the demo shows what an instructor sees.
The result is a course directory nbgrader's formgrader opens (`make formgrader COURSE=DIR`).
"""

from __future__ import annotations

import json
import random
import shlex
import shutil
import subprocess
import sys
import time
import zipfile
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from grader.course import Course, NotACourse, text_source_in
from grader.course.authoring import self_contained
from grader.course.directory import CONFIG
from grader.learner import hints
from grader.proof.simulate import Upload, content, name_lms_files, simulate_class

DEFAULT_LESSONS = ["01_naive_division", "03_shared_denominator", "06_masking"]
DEMO = "demo"  # the default course directory, under the sources course's .grading/
MARKER = ".softmax-demo"  # a new run wipes only a folder that holds this (or an empty one)
PLAN = "simulated-class.json"  # what each simulated student handed in, and how each step went
DOWNLOADS = "lms-submissions.zip"
# Appended to the sources' nbgrader_config.py: whatever those settings say about places, this course is here.
ROOTED_HERE = """
# --- added by python -m grader.proof.demo: the demo course is the directory holding this file ---
from pathlib import Path as DemoPath

demo_course = DemoPath(__file__).resolve().parent
c.CourseDirectory.root = str(demo_course)
c.CourseDirectory.db_url = f"sqlite:///{demo_course / '.grading' / 'gradebook.db'}"
c.Exchange.root = str(demo_course / ".grading" / "exchange")
"""
FIRST_NAMES = [
    "Amara",
    "Bo",
    "Carmen",
    "Dev",
    "Elif",
    "Farah",
    "Goran",
    "Hana",
    "Ines",
    "Jonas",
    "Kwame",
    "Lena",
    "Mateo",
    "Nadia",
    "Omar",
    "Priya",
    "Quinn",
    "Rosa",
    "Sven",
    "Tariq",
    "Uma",
    "Viktor",
    "Wen",
    "Yusuf",
]
LAST_NAMES = [
    "Achebe",
    "Berg",
    "Chen",
    "Diaz",
    "Eriksen",
    "Fofana",
    "Garcia",
    "Haddad",
    "Ito",
    "Jensen",
    "Kowalski",
    "Lopez",
    "Mensah",
    "Novak",
    "Okafor",
    "Patel",
    "Rossi",
    "Schmidt",
    "Tanaka",
    "Volkov",
    "Wong",
    "Yilmaz",
]


@dataclass
class Step:
    name: str
    command: str
    returncode: int
    seconds: float
    output: str = ""


class StepFailed(RuntimeError):
    """A pipeline step exited with an error; later steps would only repeat it."""


# --- what students and the instructor do -----------------------------------------------------------


def submit_to_exchange(uploads: list[Upload], root: Path) -> None:
    """Each exchange upload handed in with nbgrader's own submit, in-process (the CLI costs ~3 s a call).

    A student's folder holds `softmax/<lesson>/<lesson>.ipynb`, since the exchange's paths
    include the course id.
    """
    from nbgrader.auth import Authenticator
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.exchange.default.submit import ExchangeSubmit

    course = Course(root)
    config = course.nbgrader_config()
    config.Exchange.cache = str(root / "students" / ".nbgrader-cache")
    for upload in sorted((u for u in uploads if u.channel == "exchange"), key=lambda u: -u.minutes_early):
        home = root / "students" / upload.student
        notebook = home / config.CourseDirectory.course_id / upload.lesson / f"{upload.lesson}.ipynb"
        notebook.parent.mkdir(parents=True, exist_ok=True)
        notebook.write_bytes(content(course, upload))
        coursedir = CourseDirectory(config=config, assignment_id=upload.lesson, student_id=upload.student)
        submit = ExchangeSubmit(
            coursedir=coursedir, authenticator=Authenticator(config=config), config=config, assignment_dir=str(home)
        )
        submit.start()
        print(f"  {upload.student} submitted {upload.lesson} ({upload.kind})", flush=True)


def write_downloads(uploads: list[Upload], root: Path) -> Path:
    """The LMS's "download submissions" zip; each entry's time is when it arrived, later tries listed first.

    The deadline is the last full hour (UTC, as collect reads zip times), so these times sit
    just before the exchange's, which nbgrader stamps with the real clock.
    """
    deadline = datetime.now(timezone.utc).replace(tzinfo=None, minute=0, second=0, microsecond=0)
    path, course = root / DOWNLOADS, Course(root)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for upload in sorted((u for u in uploads if u.channel == "lms"), key=lambda u: u.minutes_early):
            arrived = deadline - timedelta(minutes=upload.minutes_early)
            archive.writestr(zipfile.ZipInfo(upload.name, arrived.timetuple()[:6]), content(course, upload))
    return path


def enrol(uploads: list[Upload], user_ids: dict[str, str], root: Path, rng: random.Random) -> None:
    """Import the class roster into the gradebook, so a student whose every file was unusable still gets a row."""
    from nbgrader.api import Gradebook

    with Gradebook(Course(root).nbgrader_config().CourseDirectory.db_url) as gradebook:
        for student in sorted(user_ids):
            gradebook.update_or_create_student(
                student,
                first_name=rng.choice(FIRST_NAMES),
                last_name=rng.choice(LAST_NAMES),
                lms_user_id=user_ids[student],
            )


def run_grader(root: Path, name: str, *args: str) -> Step:
    """One step through the real command line, its output shown as it comes."""
    shown = f"python -m grader --course {root} {' '.join(args)}"
    print(f"\n== {name}: {shown}", flush=True)
    start = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "grader", "--course", str(root), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None, "stdout=PIPE gives a stream"
    lines = []
    for line in process.stdout:
        print("   " + line, end="", flush=True)
        lines.append(line)
    step = Step(name, shown, process.wait(), time.monotonic() - start, "".join(lines))
    if step.returncode:
        raise StepFailed(f"{name} exited with {step.returncode}")
    return step


def in_process(name: str, action) -> Step:
    print(f"\n== {name}", flush=True)
    start = time.monotonic()
    action()
    return Step(name, "(in-process)", 0, time.monotonic() - start)


def fresh_course(sources: Course, root: Path, lessons: list[str]) -> None:
    """An empty course directory holding the nbgrader settings of `sources` and its `lessons`, and no other: each
    lesson's text source self-contained (the reference code it takes from an earlier lesson written in place).

    The settings are the sources' own with the course's places pinned to this directory,
    so formgrader, which reads nbgrader_config.py as written, opens this class and its gradebook.
    """
    if root.exists() and any(root.iterdir()) and not (root / MARKER).exists():
        raise SystemExit(
            f"error: {root} is not empty and not a demo course directory ({MARKER} missing); not wiping it"
        )
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    (root / MARKER).write_text("made by python -m grader.proof.demo; wiped by the next run\n")
    (root / CONFIG).write_text((sources.root / CONFIG).read_text().rstrip("\n") + "\n" + ROOTED_HERE)
    for lesson in lessons:
        target = text_source_in(root, lesson)
        target.parent.mkdir(parents=True)
        target.write_text(self_contained(lesson, sources.root))
    settings = Course(root).nbgrader_settings().CourseDirectory
    for folder in (settings.submitted_directory, settings.autograded_directory, settings.feedback_directory):
        (root / folder).mkdir(parents=True, exist_ok=True)  # nbgrader's layout, complete before anything is graded


def formgrader_command(course: Path, sources: Course, here: Path | None = None) -> str:
    """The one command, typed in `here` (default: the current directory), that opens formgrader on `course`.

    It is the sources' `make formgrader` when their Makefile has that target (make reads COURSE
    from the Makefile's folder), else Jupyter itself started in the course directory.
    """
    course, makes = Path(course).resolve(), sources.root.resolve()
    here = (Path.cwd() if here is None else Path(here)).resolve()
    makefile = makes / "Makefile"
    if makefile.is_file() and "\nformgrader:" in makefile.read_text():
        named = course.relative_to(makes) if course.is_relative_to(makes) else course
        elsewhere = "" if here == makes else f" -C {shlex.quote(str(makes))}"
        return f"make{elsewhere} formgrader COURSE={shlex.quote(str(named))}"
    return f"cd {shlex.quote(str(course))} && jupyter lab --LabApp.default_url=/formgrader"


def run(
    sources: Course,
    students: int = 30,
    lessons: list[str] | None = None,
    jobs: int | None = None,
    root: Path | None = None,
    seed: int = 2025,
) -> tuple[list[Upload], list[Step]]:
    """Build the course from the lessons of `sources` in `root` (default: the sources' .grading/demo),
    simulate the class and run every step; stops at the first failing step."""
    lessons = lessons or DEFAULT_LESSONS
    root = Path(root).resolve() if root is not None else sources.grading / DEMO
    rng = random.Random(seed)
    fresh_course(sources, root, lessons)
    steps = [run_grader(root, "release", "release", *lessons)]
    uploads = simulate_class(Course(root), students, lessons, rng)
    user_ids = name_lms_files(uploads, rng)
    steps.append(in_process("roster: the instructor enrols the class", lambda: enrol(uploads, user_ids, root, rng)))
    steps.append(in_process("students submit to the exchange", lambda: submit_to_exchange(uploads, root)))
    downloads = write_downloads(uploads, root)
    steps.append(run_grader(root, "collect (exchange)", "collect", *lessons))
    steps.append(run_grader(root, "collect (LMS zip)", "collect", "--from", str(downloads)))
    steps.append(run_grader(root, "grade", "grade", *lessons, *(["--jobs", str(jobs)] if jobs else [])))
    for output in ("feedback", "export", "report"):
        steps.append(run_grader(root, output, output))
    plan = {
        "seed": seed,
        "lessons": lessons,
        "steps": [asdict(s) for s in steps],
        "uploads": [{k: v for k, v in asdict(u).items() if k != "answers"} for u in uploads],
    }
    (root / PLAN).write_text(json.dumps(plan, indent=1))
    return uploads, steps


# --- the summary -----------------------------------------------------------------------------------


def named_mistakes(results) -> Counter:
    """(lesson, description) -> how many students' failing tests named it (once per student, whatever the tests)."""
    counts: Counter = Counter()
    for lesson in results.lessons:
        for report in results.submitted(lesson):
            counts.update({(lesson, mistake) for test in report.tests if not test.passed for mistake in test.mistakes})
    return counts


def summary(root: Path, uploads: list[Upload], steps: list[Step], sources: Course | None = None) -> str:
    """What the run made and how long each step took, ending with the command that opens the class in formgrader."""
    from grader.instructor.results import class_results

    results = class_results(Course(root))
    unplaced = root / ".grading" / "unplaced"
    kept = len(list(unplaced.iterdir())) if unplaced.is_dir() else 0
    lessons_handed_in = [(u.student, u.lesson) for u in uploads if u.kind != "stray-text"]
    earlier = len(lessons_handed_in) - len(set(lessons_handed_in))
    planted = Counter(
        m.description for m in hints.misconceptions() for u in uploads if u.kind == "misconceived" and m.id in u.entries
    )
    lines = [
        "",
        "== Summary",
        f"Students: {len({u.student for u in uploads})} "
        f"({len({u.student for u in uploads if u.channel == 'exchange'})} used the exchange)",
        f"Files handed in: {len(uploads)} ({earlier} earlier tries a later one replaced; {kept} kept in unplaced/)",
        f"The class: {results.counts().sentence()}",
        "Mean score per lesson (graded submissions):",
    ]
    for lesson in results.lessons:
        scores = [r.score for r in results.submitted(lesson)]
        mean = sum(scores) / len(scores) if scores else 0.0
        lines.append(f"  {lesson}: {mean:.1f} / {results.max_scores[lesson]:g} over {len(scores)}")
    lines.append("Top misconceptions (students whose feedback names it; how many were given it):")
    for (lesson, description), count in named_mistakes(results).most_common(3):
        lines.append(f"  {count:>3}  {lesson}: {description} (given to {planted[description]})")
    lines.append("Time per step:")
    lines += [f"  {s.seconds:6.1f} s  {s.name}" for s in steps]
    lines.append(f"  {sum(s.seconds for s in steps):6.1f} s  in all")
    grading = root / ".grading"
    lines += [
        "Outputs:",
        f"  report      {grading / 'report.html'}",
        f"  exports     {grading / 'exports' / 'grades.csv'}, {grading / 'exports' / 'canvas.csv'}",
        f"  feedback    {grading / 'feedback-html'}/",
        f"  gradebook   {grading / 'gradebook.db'}",
        f"  unplaced    {unplaced}/",
        f"  the class   {root / PLAN} (what each simulated student handed in)",
        "Open the class in formgrader (students, lessons, scores, each graded notebook):",
        f"  {formgrader_command(root, sources or Course(root))}",
    ]
    return "\n".join(lines)


def main(argv=None) -> int:
    from grader.commandline import OneLineParser, in_one_line, positive

    parser = OneLineParser(prog="python -m grader.proof.demo", description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=positive, default=30, metavar="N", help="class size (default: %(default)s)")
    parser.add_argument(
        "--lessons", nargs="+", default=DEFAULT_LESSONS, metavar="ID", help="lessons to run (default: %(default)s)"
    )
    parser.add_argument("--jobs", type=positive, metavar="N", help="submissions graded at once (default: grade's own)")
    parser.add_argument(
        "--course",
        type=Path,
        metavar="DIR",
        help="course directory, wiped and rebuilt (default: .grading/demo of the sources course)",
    )
    parser.add_argument(
        "--sources",
        type=Path,
        metavar="DIR",
        help="the course whose lessons the demo copies (default: as python -m grader picks one)",
    )
    parser.add_argument("--seed", type=int, default=2025, help="seed of the simulated class (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        sources = Course.find(args.sources)
    except NotACourse as error:
        parser.error(str(error))
    unknown = sorted(set(args.lessons) - set(sources.lesson_ids()))
    if unknown:
        parser.error(f"unknown lesson(s): {', '.join(unknown)}")

    def demo() -> int:
        try:
            uploads, steps = run(sources, args.students, args.lessons, args.jobs, args.course, args.seed)
        except StepFailed as error:
            print(f"\ndemo stopped: {error}", file=sys.stderr)
            return 1
        print(summary(Path(args.course).resolve() if args.course else sources.grading / DEMO, uploads, steps, sources))
        return 0

    return in_one_line(demo, "the demo starts over when run again")


if __name__ == "__main__":
    sys.exit(main())
