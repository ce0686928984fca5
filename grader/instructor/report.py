"""The instructor's class report: how each lesson went, which tests failed, which mistakes the class makes.

One self-contained HTML page; its figures are PNGs inside the page, drawn with
matplotlib's Agg canvas (no pyplot, so no global backend is touched).
"""

from __future__ import annotations

import base64
import io
import math
from collections import Counter
from dataclasses import dataclass
from html import escape
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from grader.engine.scores import MESSAGE_LIMIT, NAME_LIMIT, clipped
from grader.instructor.feedback import COURSE_TITLE, STYLE, page
from grader.instructor.results import ClassResults, points
from grader.learner.figures import OKABE_ITO

REPORT_STYLE = STYLE + "img { max-width: 100%; height: auto; }\ntd.number { text-align: right; }\n"


@dataclass(frozen=True)
class PassRate:
    lesson: str
    test: str
    max_points: float
    passed: int
    submissions: int

    @property
    def share(self) -> float:
        return self.passed / self.submissions


@dataclass(frozen=True)
class MisconceptionCount:
    """How many students' failing tests (`test`: their names) named `description`; each student counts once."""

    lesson: str
    test: str
    description: str
    students: int
    submissions: int

    @property
    def share(self) -> float:
        return self.students / self.submissions


def pass_rates(results: ClassResults, lesson: str) -> list[PassRate]:
    """Each test of the lesson, in notebook order, with how many graded submissions passed it."""
    reports = results.submitted(lesson)
    if not reports:
        return []
    return [
        PassRate(
            lesson,
            test.grade_id,
            test.max_points,
            sum(t.passed for r in reports for t in r.tests if t.grade_id == test.grade_id),
            len(reports),
        )
        for test in reports[0].tests
    ]


def misconception_counts(results: ClassResults) -> list[MisconceptionCount]:
    """Every misconception a failing check named, most common first; a student counts once per lesson.

    The mistakes are the ones each check recorded as data (TestResult.mistakes); a message is
    never read for them, since it quotes what the learner's code returned and raised.
    """
    students: dict[tuple[str, str], int] = {}
    tests: dict[tuple[str, str], set[str]] = {}
    for lesson in results.lessons:
        for report in results.submitted(lesson):
            named = {(description, t.grade_id) for t in report.tests if not t.passed for description in t.mistakes}
            for description in {d for d, _ in named}:
                students[lesson, description] = students.get((lesson, description), 0) + 1
            for description, test in named:
                tests.setdefault((lesson, description), set()).add(test)
    rows = [
        MisconceptionCount(
            lesson, ", ".join(sorted(tests[lesson, description])), description, n, len(results.submitted(lesson))
        )
        for (lesson, description), n in students.items()
    ]
    return sorted(rows, key=lambda m: (-m.students, results.lessons.index(m.lesson), m.description))


def percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def image(fig: Figure, alt: str) -> str:
    """The figure as an <img> holding its PNG, with alt text saying what it shows."""
    buffer = io.BytesIO()
    FigureCanvasAgg(fig)  # draw with Agg; no pyplot, so no global backend changes
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")  # "tight" keeps long titles and test names whole
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{escape(alt, quote=True)}">'


def score_histogram(lesson: str, scores: list[float], max_score: float) -> str:
    """One bar per whole score from 0 to the maximum."""
    top = math.ceil(max_score)
    fig = Figure(figsize=(6.4, 3.2), layout="constrained")
    ax = fig.add_subplot()
    ax.hist(scores, bins=[b - 0.5 for b in range(top + 2)], color=OKABE_ITO["blue"], edgecolor="white")
    ax.set(
        xlim=(-0.5, top + 0.5),
        xlabel=f"score (points out of {points(max_score)})",
        ylabel="students",
        title=f"{lesson}: scores of {len(scores)} submission(s)",
    )
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    spread = "; ".join(
        f"{points(score)} points: {n} student(s)" for score, n in sorted(Counter(scores).items(), reverse=True)
    )
    alt = (
        f"Histogram of the scores of the {len(scores)} graded submission(s) of {lesson}, "
        f"out of {points(max_score)} points. {spread}."
    )
    return image(fig, alt)


def pass_rate_chart(lesson: str, rates: list[PassRate]) -> str:
    """A horizontal bar per test: the share of submissions that passed it."""
    fig = Figure(figsize=(8, 1.0 + 0.35 * len(rates)), layout="constrained")
    ax = fig.add_subplot()
    names = [r.test for r in rates]
    ax.barh(names, [100 * r.share for r in rates], color=OKABE_ITO["bluish green"])
    ax.invert_yaxis()  # notebook order, top to bottom
    ax.set(
        xlim=(0, 100),
        xlabel="submissions that passed (%)",
        ylabel="test",
        title=f"{lesson}: pass rate per test ({rates[0].submissions} submission(s))",
    )
    alt = (
        f"Bar chart of the pass rate of each test of {lesson} over {rates[0].submissions} graded "
        f"submission(s): " + "; ".join(f"{r.test} {percent(r.share)}" for r in rates) + "."
    )
    return image(fig, alt)


def table(table_id: str, caption: str, headers: list[str], rows: list[list[str]], numeric: tuple[int, ...] = ()) -> str:
    """An HTML table; cells are escaped here, columns in `numeric` are right-aligned."""

    def cell(i: int, text: str) -> str:
        return f'<td class="number">{escape(text)}</td>' if i in numeric else f"<td>{escape(text)}</td>"

    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in headers)
    body = "\n".join("<tr>" + "".join(cell(i, text) for i, text in enumerate(row)) + "</tr>" for row in rows)
    return (
        f'<table id="{escape(table_id)}">\n<caption>{escape(caption)}</caption>\n<thead><tr>{head}</tr></thead>\n'
        f"<tbody>\n{body}\n</tbody>\n</table>"
    )


def summary(results: ClassResults) -> str:
    graded = sum(len(results.submitted(lesson)) for lesson in results.lessons)
    expected = len(results.students) * len(results.lessons)
    rows = []
    for lesson in results.lessons:
        scores = [r.score for r in results.submitted(lesson)]
        mean = sum(scores) / len(scores) if scores else None
        rows.append(
            [
                lesson,
                points(results.max_scores[lesson]),
                str(len(scores)),
                str(len(results.students) - len(scores)),
                points(mean) if mean is not None else "–",
                percent(mean / results.max_scores[lesson]) if mean is not None and results.max_scores[lesson] else "–",
            ]
        )
    return (
        f"<h2>Summary</h2>\n<p>{len(results.students)} student(s), {len(results.lessons)} lesson(s), "
        f"{graded} graded submission(s) of {expected} ({expected - graded} missing).</p>\n"
        + table(
            "summary",
            "Mean score per lesson (over graded submissions; missing ones are not counted)",
            ["Lesson", "Max score", "Submissions", "Missing", "Mean score", "Mean (% of max)"],
            rows,
            numeric=(1, 2, 3, 4, 5),
        )
    )


def problems_section(results: ClassResults) -> str:
    """Submissions the grading met a problem with (timeout, kernel died, ...), and hand-ins collect could not
    read (empty, not a notebook, another course's, ...): they need a look. A file that could not be read is
    listed here with its reason, never counted as a missing submission."""
    heading = "<h2>Submissions with a problem</h2>\n"
    if not results.statuses and not results.rejections:
        return heading + "<p>None: every submission ran to the end.</p>"
    rows = [
        [clipped(student, NAME_LIMIT), lesson, clipped(status, NAME_LIMIT), clipped(detail, MESSAGE_LIMIT)]
        for (student, lesson), (status, detail) in sorted(results.statuses.items())
    ]
    rows += [
        [
            clipped(rejection.student, NAME_LIMIT) or "(no student id)",
            results.lesson_of(rejection) or "(no lesson known)",
            "later file not read" if earlier else "not read",
            clipped(
                f"{rejection.file}: {rejection.detail}" + ("; the earlier hand-in is graded" if earlier else ""),
                MESSAGE_LIMIT,
            ),
        ]
        for rejection, earlier in sorted(results.rejections, key=lambda pair: (pair[0].student, pair[0].lesson))
    ]
    return heading + table(
        "problems",
        "Submissions whose grading met a problem (flagged in the gradebook), and hand-ins that could not be read "
        "(not collected; kept in .grading/unplaced/)",
        ["Student", "Lesson", "Status", "Detail"],
        rows,
    )


def misconceptions_section(results: ClassResults) -> str:
    counts = misconception_counts(results)
    heading = (
        "<h2>Most common misconceptions</h2>\n<p>Each failing check names the catalogued mistake(s) "
        "the learner's code behaves like; a student counts once per lesson.</p>\n"
    )
    if not counts:
        return heading + "<p>No failing test named a catalogued misconception.</p>"
    rows = [[m.lesson, m.test, m.description, str(m.students), percent(m.share)] for m in counts]
    return heading + table(
        "misconceptions",
        "Likely mistakes named in failing tests, most common first",
        ["Lesson", "Failing tests", "Likely mistake", "Students", "Share of submissions"],
        rows,
        numeric=(3, 4),
    )


def lesson_section(results: ClassResults, lesson: str) -> str:
    reports = results.submitted(lesson)
    heading = f'<h2 id="lesson-{escape(lesson)}">{escape(lesson)}</h2>\n'
    if not reports:
        return heading + "<p>No graded submissions yet.</p>"
    rates = pass_rates(results, lesson)
    rows = [[r.test, points(r.max_points), str(r.passed), str(r.submissions), percent(r.share)] for r in rates]
    return (
        heading
        + "<h3>Scores</h3>\n"
        + f"<p>{score_histogram(lesson, [r.score for r in reports], results.max_scores[lesson])}</p>\n"
        + "<h3>Pass rate per test</h3>\n"
        + f"<p>{pass_rate_chart(lesson, rates)}</p>\n"
        + table(
            f"pass-rates-{lesson}",
            f"Pass rate per test of {lesson}",
            ["Test", "Points", "Passed", "Submissions", "Pass rate"],
            rows,
            numeric=(1, 2, 3, 4),
        )
    )


def write_report(results: ClassResults, path: Path) -> None:
    """Write the class report to `path`: summary, misconceptions, then each lesson's figures and tables."""
    title = f"Class report: {COURSE_TITLE}"
    body = "\n".join(
        [f"<h1>{escape(title)}</h1>", summary(results), problems_section(results), misconceptions_section(results)]
        + [lesson_section(results, lesson) for lesson in results.lessons]
    )
    Path(path).write_text(page(title, body, REPORT_STYLE), encoding="utf-8")
