"""Simulated classes: what the demo, the benchmarks and the tests hand in, built in one place.

`simulate_class` is a seeded class that hands work in the ways real classes do (the demo's:
right, partial and misconceived answers, broken files, second tries); `class_in_thirds`
is a plain one (a third correct, a third stubs, a third with one misconception) that
plain nbgrader can grade too (the benchmark's, and test_pipeline's). `released_course`
and `hand_in` make a course directory with lessons released and submissions in place.
"""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook

from grader.course import Course, text_source_in
from grader.proof import alternatives, catalogue
from grader.proof.guesses import wrong_guesses

BROKEN = ("not-json", "empty", "other-course", "stray-text")


@dataclass
class Upload:
    """One thing a simulated student hands in."""

    student: str
    lesson: str  # the lesson it is meant for
    channel: str  # "exchange" or "lms"
    kind: str  # correct, partial, misconceived, or one of BROKEN
    entries: list[str] = field(default_factory=list)  # catalogue ids used, or the functions left as stubs
    answers: dict[str, str] | None = None  # the solution cells filled in; None for a broken upload
    minutes_early: int = 60  # how long before the deadline it arrived; orders a student's versions
    name: str = ""  # its file name in the LMS zip


# --- the demo's class -------------------------------------------------------------------------


def common_mistake(function: str, rng: random.Random):
    """A catalogued misconception of `function`, the first few listed (the classic ones) far more often."""
    entries = catalogue.misconceptions(function=function)
    return rng.choices(entries, weights=[1 / (rank + 1) ** 2 for rank in range(len(entries))])[0]


def work(course: Course, lesson: str, rng: random.Random) -> tuple[str, list[str], dict[str, str]]:
    """What one student writes for one lesson: (kind, catalogue ids or stubbed functions, answers)."""
    reference = course.reference_answers(lesson)  # the reference guesses of its predictions too
    functions = course.graded_functions(lesson)
    roll = rng.random()
    if roll < 0.4:  # correct: the reference, or another right way for some functions
        answers, used = dict(reference), []
        for function in functions:
            others = alternatives.alternatives(function=function)
            if others and rng.random() < 0.4:
                other = rng.choice(others)
                answers[function] = other.source.strip() + "\n"
                used.append(other.id)
        return "correct", used, answers
    if roll < 0.6:  # partial: some functions still stubs (all of them when there is only one)
        stubbed = rng.sample(functions, rng.randint(1, max(1, len(functions) - 1)))
        return "partial", stubbed, {f: code for f, code in reference.items() if f not in stubbed}
    chosen = rng.sample(functions, 2 if len(functions) > 1 and rng.random() < 0.3 else 1)
    answers, used = dict(reference), []
    for function in chosen:
        mistake = common_mistake(function, rng)
        answers[function] = mistake.source.strip() + "\n"
        used.append(mistake.id)
    answers.update(wrong_guesses(course, lesson))  # and, having guessed rather than looked, misses the predictions
    return "misconceived", used, answers


def simulate_class(course: Course, students: int, lessons: list[str], rng: random.Random) -> list[Upload]:
    """Every upload of the class, each student's versions of a lesson oldest first.

    About half use the exchange, the rest the LMS. On the first lesson, LMS students send
    a file that is not JSON, an empty file and another course's notebook, and one tries
    twice; another adds a stray text file; one exchange student also submits twice.
    """
    ids = [f"s{n:0{max(2, len(str(students)))}d}" for n in range(1, students + 1)]
    by_exchange = set(rng.sample(ids, students // 2))
    uploads = []
    for student in ids:
        for lesson in lessons:
            kind, entries, answers = work(course, lesson, rng)
            uploads.append(
                Upload(
                    student,
                    lesson,
                    "exchange" if student in by_exchange else "lms",
                    kind,
                    entries,
                    answers,
                    rng.randint(5, 4 * 24 * 60),
                )
            )
    first = lessons[0]

    def upload_of(student: str) -> Upload:
        return next(u for u in uploads if u.student == student and u.lesson == first)

    lms = [s for s in ids if s not in by_exchange]
    rng.shuffle(lms)
    for student, kind in zip(lms, BROKEN[:3], strict=False):
        broken = upload_of(student)
        broken.kind, broken.entries, broken.answers = kind, [], None
    twice = lms[3:4] + sorted(by_exchange)[:1]
    for student in twice:
        later = upload_of(student)
        later.kind, later.entries, later.answers = "correct", [], course.reference_answers(first)
        later.minutes_early = 30
        stubbed = course.graded_functions(first)[:1]
        earlier = Upload(
            student,
            first,
            later.channel,
            "partial",
            stubbed,
            {f: code for f, code in later.answers.items() if f not in stubbed},
            2 * 24 * 60,
        )
        uploads.insert(uploads.index(later), earlier)
    if lms:
        uploads.append(Upload(lms[-1], first, "lms", "stray-text", minutes_early=rng.randint(5, 600)))
    return uploads


def name_lms_files(uploads: list[Upload], rng: random.Random) -> dict[str, str]:
    """Canvas-style names, `<student>_<user id>_<submission id>_<file>`; returns each student's user id."""
    user_ids: dict[str, str] = {}
    for upload in uploads:
        user_ids.setdefault(upload.student, str(rng.randint(10000, 99999)))
        if upload.channel == "lms":
            original = "notes.txt" if upload.kind == "stray-text" else f"{upload.lesson}.ipynb"
            upload.name = f"{upload.student}_{user_ids[upload.student]}_{rng.randint(1000000, 9999999)}_{original}"
    return user_ids


def another_course_notebook() -> nbformat.NotebookNode:
    """A real notebook, but homework for another course: it carries none of our lessons' cells."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Statistics 101, week 3: linear regression"),
        nbformat.v4.new_code_cell("import numpy as np\nslope, intercept = np.polyfit([1, 2, 3], [2, 4, 7], 1)"),
    ]
    return nb


def content(course: Course, upload: Upload) -> bytes:
    """The bytes of an upload as the student's file holds them."""
    if upload.kind == "not-json":  # "Download as HTML", saved under the notebook's name
        return f"<!DOCTYPE html>\n<html><head><title>{upload.lesson}</title></head><body>...</body></html>\n".encode()
    if upload.kind == "empty":
        return b""
    if upload.kind == "stray-text":
        return b"Hi! My notebook is attached. The last check still fails, sorry.\n"
    if upload.kind == "other-course":
        return nbformat.writes(another_course_notebook()).encode()
    assert upload.answers is not None, "only a broken upload has no answers"
    return nbformat.writes(course.learner_notebook(upload.lesson, upload.answers)).encode()


# --- a plain class, and a course directory holding it ---------------------------------------------


def class_in_thirds(course: Course, students: int, lessons: list[str]) -> dict[tuple[str, str], nbformat.NotebookNode]:
    """Every student's notebook per lesson: a third correct, a third stubs, a third with one misconception."""
    class_ = {}
    for number in range(students):
        student = f"s{number + 1:02d}"
        for lesson in lessons:
            answers = course.reference_answers(lesson)
            if number % 3 == 1:
                answers = {}
            elif number % 3 == 2:
                wrong = catalogue.misconceptions(lesson=lesson)
                entry = wrong[number % len(wrong)]
                answers[entry.function] = entry.source
            class_[student, lesson] = course.learner_notebook(lesson, answers)
    return class_


def released_course(sources: Course, root: Path, lessons: list[str]) -> Path:
    """A course directory of the lessons (from `sources`, each self-contained: see authoring.self_contained),
    released into its gradebook (no exchange, no submissions)."""
    from grader.course.authoring import self_contained
    from grader.course.release import release

    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(sources.root / "nbgrader_config.py", root)  # roots itself where it lies
    for lesson in lessons:
        text_source_in(root, lesson).parent.mkdir(parents=True)
        text_source_in(root, lesson).write_text(self_contained(lesson, sources.root))
    release(Course(root), lessons, progress=lambda _: None)
    return root


def hand_in(root: Path, student: str, lesson: str, data: bytes, beside=()) -> None:
    """Put a student's file (and the (path, bytes) handed in beside it) where nbgrader's autograde looks."""
    folder = root / ".grading" / "submitted" / student / lesson
    folder.mkdir(parents=True)
    (folder / f"{lesson}.ipynb").write_bytes(data)
    for name, data_beside in beside:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data_beside)


def course_with_class(sources: Course, root: Path, lessons: list[str], class_) -> Path:
    """A course directory with the lessons released and the class's submissions ((student, lesson) -> notebook)."""
    released_course(sources, root, lessons)
    for (student, lesson), nb in class_.items():
        hand_in(root, student, lesson, nbformat.writes(nb).encode())
    return root


def cell_scores(course: Course, lessons: list[str]) -> dict[tuple[str, str, str], float]:
    """(student, lesson, cell) -> score, from the course's gradebook."""
    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gb:
        return {
            (sub.student.id, lesson, grade.name): float(grade.score)
            for lesson in lessons
            for sub in gb.find_assignment(lesson).submissions
            for nb in sub.notebooks
            for grade in nb.grades
        }
