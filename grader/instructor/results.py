"""Every graded submission of the class, read once for the feedback pages, the grade exports and the report;
with every hand-in collect could not read (collect.Rejection), so that none of them shows as missing."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook

from grader.course import Course, read_cached
from grader.course.contract import hidden_lines, properties, tested_functions
from grader.course.feedback_policy import NEVER
from grader.course.gradebook import start_gradebook
from grader.engine.scores import MISSING_TEST, NAME_LIMIT, Report, TestResult, clipped, messages_of, mistakes_of
from grader.engine.submission import grade_ids_in_order
from grader.engine.untrusted import grade_id_of
from grader.instructor.collect import Rejection, read_rejections, standing
from grader.instructor.grading import statuses
from grader.learner.predictions import is_prediction

HEADING = re.compile(r"^#{1,6}\s+(\S.*?)\s*#*\s*$")  # a Markdown heading line, its text


@dataclass(frozen=True)
class Student:
    """A student as the gradebook knows them; names may be unknown (None)."""

    id: str
    first_name: str | None = None
    last_name: str | None = None
    lms_user_id: str | None = None

    @property
    def name(self) -> str:
        """'Last, First' as gradebooks sort names, or the id when no name is known (clipped to NAME_LIMIT)."""
        return clipped(", ".join(part for part in (self.last_name, self.first_name) if part) or self.id, NAME_LIMIT)


@dataclass(frozen=True)
class HiddenTest:
    """A test cell with hidden tests: the function it tests and the properties it checks, in words."""

    function: str
    properties: tuple[str, ...] = ()


@dataclass(frozen=True)
class Withheld:
    """A lesson whose failed hidden tests students' pages show without what they called and expected
    (grader.course.feedback_policy): until its due date (None: none is set), or never."""

    until: datetime | None
    never: bool
    tests: dict[str, HiddenTest] = field(default_factory=dict)  # test grade_id -> what it is


@dataclass(frozen=True)
class Counts:
    """A class's hand-ins as `count` counts them: the one rule the report, the grades CSV, the feedback pages and the
    summaries of `grade` and the demo read. Each lesson of each student of the class (the roster, and any other
    student a hand-in names) is graded, could not be read, or missing; a file that could not be read and is of no
    known lesson, or names no student, belongs to no lesson and is counted apart."""

    students: int
    off_roster: int  # of the students, those on no roster: a hand-in that could not be read names them
    lessons: int
    graded: int  # a hand-in of the lesson graded
    flagged: int  # of the graded, those whose grading met a problem (flagged in the gradebook)
    later_unread: int  # of the graded, those with a later hand-in that could not be read (the earlier one counts)
    unreadable: int  # a hand-in of the lesson could not be read, and none is graded
    unknown_lesson: int  # files that could not be read, of no known lesson
    no_student: int  # files that could not be read, naming no student

    @property
    def expected(self) -> int:
        return self.students * self.lessons

    @property
    def handed_in(self) -> int:
        return self.graded + self.unreadable

    @property
    def missing(self) -> int:
        return self.expected - self.handed_in

    def sentence(self) -> str:
        """The counts in one line of text (the report's first line, the last of `grade`'s summary)."""
        off = f" ({self.off_roster} on no roster)" if self.off_roster else ""
        among = [
            f"{n} {what}"
            for n, what in (
                (self.flagged, "with a grading problem"),
                (self.later_unread, "whose later file could not be read"),
            )
            if n
        ]
        files = [
            f"{n} file(s) {what}"
            for n, what in ((self.unknown_lesson, "of no known lesson"), (self.no_student, "naming no student"))
            if n
        ]
        graded = f"{self.graded} graded" + (f" ({', '.join(among)})" if among else "")
        return (
            f"{self.students} student(s){off}, {self.lessons} lesson(s): {self.expected} submission(s) expected, "
            f"{self.handed_in} handed in: {graded}, {self.unreadable} could not be read; {self.missing} missing."
            + (f" Also could not be read: {', '.join(files)}." if files else "")
        )


def count(
    roster: list[str],
    lessons: list[str],
    graded: set[tuple[str, str]],
    flagged: set[tuple[str, str]],
    rejections: list[tuple[Rejection, bool]],
    lesson: str | None = None,
    student: str | None = None,
) -> Counts:
    """How the class's hand-ins stand (Counts): `graded` and `flagged` hold (student, lesson) pairs, `rejections`
    the standing ones (collect.standing); with `lesson` or `student`, that lesson's or student's alone."""
    everyone = sorted(set(roster) | {r.student for r, _ in rejections if r.student})
    students = [s for s in everyone if student in (None, s)]
    taught = [name for name in lessons if lesson in (None, name)]
    unread = {(r.student, r.lesson) for r, _ in rejections if r.lesson in lessons}
    later = {(r.student, r.lesson) for r, earlier in rejections if earlier}
    pairs = {(s, name) for s in students for name in taught}
    apart = [  # the files of no (student, lesson) of the class
        r
        for r, _ in rejections
        if (not r.student or r.lesson not in lessons) and lesson is None and student in (None, r.student)
    ]
    return Counts(
        students=len(students),
        off_roster=len(set(students) - set(roster)),
        lessons=len(taught),
        graded=len(pairs & graded),
        flagged=len(pairs & graded & flagged),
        later_unread=len(pairs & graded & later),
        unreadable=len((pairs & unread) - graded),
        unknown_lesson=sum(1 for r in apart if r.student),
        no_student=sum(1 for r in apart if not r.student),
    )


@dataclass
class ClassResults:
    """A report for every (student id, lesson); None where nothing was graded (a missing submission)."""

    students: list[Student]
    lessons: list[str]
    max_scores: dict[str, float]
    reports: dict[tuple[str, str], Report | None] = field(default_factory=dict)
    statuses: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)  # problems only: status, detail
    # hand-ins collect left out and no later graded one replaced (collect.standing), with whether an earlier
    # hand-in of the lesson is graded; a lesson that is not one of `lessons` counts as not known
    rejections: list[tuple[Rejection, bool]] = field(default_factory=list)
    # (lesson, test) -> the heading of the lesson's section to look at again when the test fails
    sections: dict[tuple[str, str], str] = field(default_factory=dict)
    # lesson -> its hidden tests whose inputs and expected values students' pages do not show now
    withheld: dict[str, Withheld] = field(default_factory=dict)
    # (student, lesson) -> the late penalty nbgrader's plugin gave a graded submission (grading.LatePenalty), when
    # it gave one; its report's score is already less by it
    late_penalties: dict[tuple[str, str], float] = field(default_factory=dict)

    def problem(self, student: str, lesson: str) -> tuple[str, str] | None:
        """(status, detail) when the grading of this submission met a problem (see grader.status)."""
        return self.statuses.get((student, lesson))

    def rejected(self, student: str, lesson: str | None) -> list[Rejection]:
        """The student's hand-ins of `lesson` that could not be read (None: those of no known lesson), latest first."""
        found = [r for r, _ in self.rejections if r.student == student and self.lesson_of(r) == (lesson or "")]
        return sorted(found, key=lambda r: r.handed_in, reverse=True)

    def lesson_of(self, rejection: Rejection) -> str:
        """The rejection's lesson if it is one of this class's, else ""."""
        return rejection.lesson if rejection.lesson in self.lessons else ""

    def counts(self, lesson: str | None = None, student: str | None = None) -> Counts:
        """How the class's hand-ins stand (`count`); with `lesson` or `student`, that lesson's or student's alone."""
        graded = {key for key, report in self.reports.items() if report is not None}
        roster = [s.id for s in self.students]
        return count(roster, self.lessons, graded, set(self.statuses), self.rejections, lesson, student)

    def state(self, student: str, lesson: str) -> str:
        """ "graded", "could not be read" or "missing": how `count` counts this lesson of this student."""
        counts = self.counts(lesson, student)
        return "graded" if counts.graded else "could not be read" if counts.unreadable else "missing"

    @property
    def everyone(self) -> list[Student]:
        """Every student on the roster (the gradebook's) and any other whose hand-in could not be read, in id order."""
        known = {s.id for s in self.students}
        others = sorted({r.student for r, _ in self.rejections if r.student and r.student not in known})
        return sorted(self.students + [Student(s) for s in others], key=lambda s: s.id)

    def section(self, lesson: str, test: str) -> str:
        """The heading of the section of `lesson` to look at again when `test` fails; "" when not known."""
        return self.sections.get((lesson, test), "")

    def report(self, student: str, lesson: str) -> Report | None:
        return self.reports.get((student, lesson))

    def late_penalty(self, student: str, lesson: str) -> float:
        """The points taken off the lesson's score because it was handed in after its due date (0: none)."""
        return self.late_penalties.get((student, lesson), 0.0)

    def score(self, student: str, lesson: str) -> float:
        """The lesson's score; a missing submission counts 0."""
        report = self.report(student, lesson)
        return report.score if report else 0.0

    def total(self, student: str) -> float:
        return sum(self.score(student, lesson) for lesson in self.lessons)

    def submitted(self, lesson: str) -> list[Report]:
        """The lesson's graded reports, in student order."""
        return [r for r in (self.report(s.id, lesson) for s in self.students) if r is not None]


def points(value: float) -> str:
    """A score as people write it: 12.0 -> '12', 6.5 -> '6.5'."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class Enrolment:
    """What the gradebook of a course holds of its class: students by id, lessons by name (course order), when each
    graded submission was handed in (None: not known), each lesson's maximum and latest due date."""

    students: list[Student]
    lessons: list[str]
    graded_at: dict[tuple[str, str], datetime | None]
    max_scores: dict[str, float]
    due: dict[str, datetime | None]
    late_penalties: dict[tuple[str, str], float]  # the graded submissions with one (nbgrader's, see grading.record)


def enrolment(course: Course) -> Enrolment:
    """Read the gradebook of `course` (an empty one is started if it has none yet)."""
    db_url = course.nbgrader_config().CourseDirectory.db_url
    start_gradebook(course, db_url)
    with Gradebook(db_url) as gradebook:
        students = sorted(
            (Student(s.id, s.first_name, s.last_name, s.lms_user_id) for s in gradebook.students), key=lambda s: s.id
        )
        assignments = sorted(gradebook.assignments, key=lambda a: a.name)
        return Enrolment(
            students,
            [a.name for a in assignments],
            {(s.student.id, s.assignment.name): s.timestamp for a in assignments for s in a.submissions},
            {a.name: float(a.max_score) for a in assignments},
            {a.name: latest_due_date(a) for a in assignments},
            {
                (s.student.id, a.name): float(s.late_submission_penalty)
                for a in assignments
                for s in a.submissions
                if s.late_submission_penalty
            },
        )


def grading_problems(course: Course) -> dict[tuple[str, str], tuple[str, str]]:
    """(student, lesson) -> (status, detail) of each graded submission whose grading met a problem."""
    return {key: value for key, value in statuses(course).items() if value[0] != "graded"}


def class_counts(course: Course) -> Counts:
    """The class's counts (`count`, as the report gives them) read without a graded notebook: `grade`'s summary."""
    known = enrolment(course)
    rejections = standing(read_rejections(course), known.graded_at)
    roster = [s.id for s in known.students]
    return count(roster, known.lessons, set(known.graded_at), set(grading_problems(course)), rejections)


def class_results(course: Course, only: str | None = None) -> ClassResults:
    """Read the gradebook of `course` and each graded submission's autograded notebook; with `only`, a student's id,
    that student's alone (the grading service's one feedback page, without reading the class)."""
    known = enrolment(course)
    lessons = known.lessons
    students = [student for student in known.students if only is None or student.id == only]
    reports = {
        (student.id, lesson): read_report(course, lesson, student.id, known.late_penalties.get((student.id, lesson), 0))
        if (student.id, lesson) in known.graded_at
        else None
        for student in students
        for lesson in lessons
    }
    rejections = standing(read_rejections(course), known.graded_at)
    sections = {(lesson, test): heading for lesson in lessons for test, heading in look_again(course, lesson).items()}
    policy, now = course.hidden_test_feedback(), datetime.now(UTC).replace(tzinfo=None)
    withheld = {
        lesson: Withheld(known.due[lesson], policy.policy(lesson) == NEVER, hidden_tests(course, lesson))
        for lesson in lessons
        if not policy.shows_inputs(lesson, known.due[lesson], now)
    }
    problems = {key: problem for key, problem in grading_problems(course).items() if key in known.graded_at}
    return ClassResults(
        students,
        lessons,
        known.max_scores,
        reports,
        problems,
        rejections,
        sections,
        withheld,
        known.late_penalties,
    )


def latest_due_date(assignment) -> datetime | None:
    """When a gradebook assignment stops being handed in: its due date or the latest extension of it (naive UTC,
    as nbgrader keeps them); None when it has no due date."""
    if assignment.duedate is None:
        return None
    return max([assignment.duedate] + [s.duedate for s in assignment.submissions if s.duedate is not None])


def hidden_tests(course: Course, lesson: str) -> dict[str, HiddenTest]:
    """The lesson's test cells that hold hidden tests, each with its function and the statements of the properties
    its cell checks (grader.course.contract). A prediction's is left out: its hidden test compares a hash of the
    guess, and its message shows the learner's own guess only."""
    functions = tested_functions(course, lesson)
    statements: dict[str, list[str]] = {}
    for props in properties(course, lesson).values():
        for prop in props.values():
            for test in prop.tests:
                statements.setdefault(test, []).append(prop.text)
    return {
        test: HiddenTest(functions[test] or "", tuple(statements.get(test, ())))
        for test, source in test_sources(course, lesson).items()
        if hidden_lines(source) and not is_prediction(test)
    }


def test_sources(course: Course, lesson: str) -> dict[str, str]:
    """test grade_id -> its cell's source in the lesson's source notebook (hidden tests included)."""
    tests = tested_functions(course, lesson)
    return {
        cell.metadata.nbgrader.grade_id: cell.source
        for cell in read_cached(course.source_notebook(lesson)).cells
        if cell.metadata.get("nbgrader", {}).get("grade_id") in tests
    }


def look_again(course: Course, lesson: str) -> dict[str, str]:
    """test grade_id -> the heading of the section that defines the function it tests (else the section the
    test is in), read from the release the students have (from the source notebook's Markdown where there is
    no release; its solution cells are skipped)."""
    release = course.release_notebook(lesson)
    nb = read_cached(release if release.is_file() else course.source_notebook(lesson))
    heading = ""
    under: dict[str, str] = {}  # grade id -> the heading its cell is under
    for cell in nb.cells:
        if cell.get("cell_type") == "markdown" and not cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
            for line in cell.get("source", "").splitlines():
                if match := HEADING.match(line):
                    heading = clipped(match.group(1), NAME_LIMIT)
        grade_id = grade_id_of(cell)
        if grade_id is not None:
            under.setdefault(grade_id, heading)
    return {
        test: under.get(function or "") or under.get(test, "")
        for test, function in tested_functions(course, lesson).items()
    }


def read_report(course: Course, lesson: str, student: str, late_penalty: float = 0.0) -> Report:
    """One graded submission of `course` as a Report: scores from its gradebook,
    messages from its autograded notebook, in the order of its source notebook. Its score is less by its
    `late_penalty`, never below 0, as nbgrader's export counts it; its tests keep their points."""
    config = course.nbgrader_config()
    autograded = Path(config.CourseDirectory.root) / ".grading" / "autograded" / student / lesson / f"{lesson}.ipynb"
    graded = nbformat.read(autograded, as_version=4) if autograded.is_file() else nbformat.v4.new_notebook()
    messages, mistakes = messages_of(graded), mistakes_of(graded)
    with Gradebook(config.CourseDirectory.db_url) as gradebook:
        cells = gradebook.find_notebook(lesson, lesson).grade_cells
        lesson_tests = {cell.name: float(cell.max_score) for cell in cells}
        submission = gradebook.find_submission_notebook(lesson, lesson, student)
        scores = {g.name: float(g.score) for g in submission.grades if g.score is not None}
    order = [
        grade_id
        for grade_id in grade_ids_in_order(read_cached(course.source_notebook(lesson)))
        if grade_id in lesson_tests
    ]
    tests = [
        TestResult(
            grade_id,
            scores.get(grade_id, 0.0),
            lesson_tests[grade_id],
            scores.get(grade_id, 0.0) >= lesson_tests[grade_id],
            messages.get(grade_id, MISSING_TEST),
            mistakes.get(grade_id, []),
        )
        for grade_id in order
    ]
    score = max(0.0, sum(t.points for t in tests) - late_penalty)
    return Report(lesson, score, sum(t.max_points for t in tests), tests)
