"""The instructor's class report, read at a glance: which mistakes the class makes, which tests it fails.

One self-contained HTML page. At the top, a chart of the misconceptions held by the most students
and a heatmap of every test's pass rate in every lesson; below them the tables behind both, one row
per mistake or test, and each lesson's score histogram. Its figures are PNGs inside the page, drawn
with matplotlib's Agg canvas (no pyplot, so no global backend is touched), in colour-blind-safe
colours (Okabe-Ito, cividis), each with alt text saying what it shows.
"""

from __future__ import annotations

import base64
import math
import textwrap
from collections import Counter
from dataclasses import dataclass
from html import escape
from pathlib import Path

import numpy as np
from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, MultipleLocator

from grader.engine.scores import MESSAGE_LIMIT, NAME_LIMIT, clipped
from grader.instructor.feedback import COURSE_TITLE, PREDICTION_LABEL, STYLE, page
from grader.instructor.results import ClassResults, Student, points
from grader.learner.figures import OKABE_ITO, FigureWithAlt
from grader.learner.hints import misconceptions
from grader.learner.predictions import is_prediction

# The page is wide enough for the two figures side by side on a laptop (1280 px), and its tables span it,
# so that a catalogued mistake takes at most two lines; the figures are drawn at the size they are shown.
REPORT_STYLE = (
    STYLE
    + """
body { max-width: 76rem; margin: 1rem auto; }
h1 { font-size: 1.6rem; margin: 0 0 0.25rem; }
h2 { margin: 1.5rem 0 0.5rem; }
p.lede { margin: 0 0 0.75rem; }
nav { font-size: 0.9rem; }
.glance { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; margin-bottom: 1rem; }
.glance p.empty { width: 36rem; }
img { max-width: 100%; height: auto; }
table { font-size: 0.9rem; }
th, td { padding: 0.25rem 0.5rem; }
td.number { text-align: right; white-space: nowrap; }
table.mistakes { table-layout: fixed; font-size: 0.85rem; }
table.mistakes td.lesson, table.mistakes td.function { overflow-wrap: anywhere; }
table.mistakes details p { margin: 0.25rem 0; }
summary { cursor: pointer; color: #0b5394; }
.lesson-row { display: flex; flex-wrap: wrap; gap: 0 1.5rem; align-items: flex-start; }
.lesson-row table { flex: 1 1 30rem; width: auto; margin-top: 0; }
table.rates tbody { counter-reset: test; }
table.rates tbody tr { counter-increment: test; }
table.rates tbody td:first-child::before { content: counter(test) ". "; color: #555; }
"""
)
TOP_MISCONCEPTIONS = 10  # how many the chart at the top shows; the table below lists every one
FIGURE_WIDTH = 5.3  # inches at FigureWithAlt's 110 dpi: two figures side by side in the page's 76rem
CELL_COLORMAP = "cividis"  # perceptually uniform, and readable with every common colour-vision deficiency


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


def pass_rate_grid(results: ClassResults) -> dict[str, list[PassRate]]:
    """What the heatmap shows: every lesson (course order) with its tests' pass rates, empty when nothing was graded."""
    return {lesson: pass_rates(results, lesson) for lesson in results.lessons}


def named_mistakes(results: ClassResults, lesson: str, student: str) -> set[tuple[str, str]]:
    """(description, failing test) for each catalogued mistake a failing test of this submission named."""
    report = results.report(student, lesson)
    if report is None:
        return set()
    return {(description, t.grade_id) for t in report.tests if not t.passed for description in t.mistakes}


def misconception_counts(results: ClassResults) -> list[MisconceptionCount]:
    """Every misconception a failing check named, most common first; a student counts once per lesson.

    The mistakes are the ones each check recorded as data (TestResult.mistakes); a message is
    never read for them, since it quotes what the learner's code returned and raised.
    """
    holders = misconception_holders(results)
    tests: dict[tuple[str, str], set[str]] = {}
    for lesson in results.lessons:
        for student in results.students:
            for description, test in named_mistakes(results, lesson, student.id):
                tests.setdefault((lesson, description), set()).add(test)
    rows = [
        MisconceptionCount(
            lesson,
            ", ".join(sorted(tests[lesson, description])),
            description,
            len(students),
            len(results.submitted(lesson)),
        )
        for (lesson, description), students in holders.items()
    ]
    return sorted(rows, key=lambda m: (-m.students, results.lessons.index(m.lesson), m.description))


def misconception_holders(results: ClassResults) -> dict[tuple[str, str], list[Student]]:
    """(lesson, description) -> the students (in student order) whose failing tests named that misconception."""
    holders: dict[tuple[str, str], list[Student]] = {}
    for lesson in results.lessons:
        for student in results.students:
            for description in {d for d, _ in named_mistakes(results, lesson, student.id)}:
                holders.setdefault((lesson, description), []).append(student)
    return holders


def function_of(count: MisconceptionCount) -> str:
    """The function the catalogue files this mistake under (of the failing tests' function when two share it)."""
    candidates = sorted({m.function for m in misconceptions(lesson=count.lesson) if m.description == count.description})
    tested = [f for f in candidates if all(t.startswith(f"test_{f}_") for t in count.test.split(", "))]
    return ", ".join(tested or candidates) or "(not catalogued)"


def percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def image(figure: FigureWithAlt) -> str:
    """The figure as an <img> holding its PNG at its drawn size, with alt text saying what it shows."""
    FigureCanvasAgg(figure.fig)  # draw with Agg; no pyplot, so no global backend changes
    png = figure.png
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")  # the PNG's IHDR
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<img src="data:image/png;base64,{data}" width="{width}" height="{height}" '
        f'alt="{escape(figure.alt, quote=True)}">'
    )


def short(text: str, width: int, lines: int = 2) -> str:
    """`text` wrapped at `width` characters on at most `lines` lines, the rest cut off with an ellipsis."""
    return "\n".join(textwrap.wrap(text, width, max_lines=lines, placeholder=" …"))


def misconception_chart(counts: list[MisconceptionCount], top: int = TOP_MISCONCEPTIONS) -> FigureWithAlt:
    """A bar per misconception, the `top` held by the most students, each under its lesson and description."""
    shown = counts[:top]
    fig = Figure(figsize=(FIGURE_WIDTH, 0.9 + 0.46 * len(shown)), layout="constrained")
    ax = fig.add_subplot()
    ax.barh(range(len(shown)), [m.students for m in shown], height=0.32, color=OKABE_ITO["blue"])
    most = max(m.students for m in shown)
    for row, m in enumerate(shown):
        label = short(f"{m.lesson} · {m.description}", 84)  # drawn as written: a "$" in it is no TeX to choke on
        ax.text(0, row - 0.2, label, fontsize=8, va="bottom", ha="left", linespacing=1.1, parse_math=False)
        ax.text(m.students + most * 0.01, row, f"{m.students} ({percent(m.share)})", fontsize=8, va="center")
    ax.set_ylim(len(shown) - 0.5, -0.95)  # most common on top, room above the first label
    ax.set_xlim(0, most * 1.16)
    ax.set_yticks([])
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("students whose failing tests named it (% of the lesson's)")
    ax.set_title(f"Most common misconceptions ({len(shown)} of {len(counts)})", fontsize=10)
    ax.spines[["top", "right", "left"]].set_visible(False)
    alt = (
        f"Bar chart of the {len(shown)} misconception(s), of {len(counts)} named, held by the most students: "
        + "; ".join(f"{m.lesson}, {short(m.description, 90, 1)}: {m.students} student(s)" for m in shown)
        + ". The table below lists every one."
    )
    return FigureWithAlt(fig, alt)


def cell_text_colour(rgb: tuple[float, float, float]) -> str:
    """Black on a light cell, white on a dark one (by the cell's relative luminance)."""
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.18 else "white"


HEATMAP_ROWS_HEIGHT = 3.45  # inches for all the rows at most, so that chart and map fit a laptop's first screen


def pass_rate_heatmap(grid: dict[str, list[PassRate]]) -> FigureWithAlt:
    """A cell per test (rows, in notebook order) and lesson (columns): the share of graded submissions passing it."""
    lessons = list(grid)
    rows = max(len(rates) for rates in grid.values())
    shares = np.full((rows, len(lessons)), np.nan)
    for column, rates in enumerate(grid.values()):
        for row, rate in enumerate(rates):
            shares[row, column] = 100 * rate.share
    row_height = min(0.215, HEATMAP_ROWS_HEIGHT / rows)  # a long lesson squeezes its rows: the map stays on screen
    fig = Figure(figsize=(FIGURE_WIDTH, 1.55 + row_height * rows), layout="constrained")
    ax = fig.add_subplot()
    colormap = colormaps[CELL_COLORMAP].with_extremes(bad="white")
    cells = ax.imshow(np.ma.masked_invalid(shares), cmap=colormap, vmin=0, vmax=100, aspect="auto")
    for (row, column), share in np.ndenumerate(shares):
        if not math.isnan(share):
            colour = cell_text_colour(to_rgb(colormap(share / 100)))
            ax.text(
                column, row, f"{share:.0f}", ha="center", va="center", fontsize=7 * row_height / 0.215, color=colour
            )
    ax.set_xticks(
        range(len(lessons)), lessons, rotation=35, ha="right", rotation_mode="anchor", fontsize=7.5, parse_math=False
    )
    ax.set_yticks(range(rows), [str(n + 1) for n in range(rows)], fontsize=7)
    ax.set_ylabel("test (numbered as in each lesson's table)")
    ax.set_title("Pass rate per test (% of graded submissions)", fontsize=10)
    ax.tick_params(which="both", length=0)
    ax.xaxis.set_minor_locator(MultipleLocator(1, offset=0.5))
    ax.yaxis.set_minor_locator(MultipleLocator(1, offset=0.5))
    ax.grid(which="minor", color="white", linewidth=1.5)
    ax.spines[:].set_visible(False)
    bar = fig.colorbar(cells, ax=ax, shrink=0.6, pad=0.02)
    bar.set_label("passed (%)")
    alt = (
        "Heatmap of the pass rate of every test (rows, numbered in notebook order) of each lesson (columns), "
        "as the share of the lesson's graded submissions that passed it. "
        + " ".join(lesson_in_words(lesson, rates) for lesson, rates in grid.items())
        + " Each lesson's table below names every test."
    )
    return FigureWithAlt(fig, alt)


def lesson_in_words(lesson: str, rates: list[PassRate]) -> str:
    """One sentence of the heatmap's alt text: a lesson's range of pass rates and its hardest test."""
    if not rates:
        return f"{lesson}: no graded submission."
    hardest = min(rates, key=lambda r: r.share)
    low, high = percent(hardest.share), percent(max(r.share for r in rates))
    if low == high:
        return f"{lesson}: {len(rates)} tests, all at {low}."
    return f"{lesson}: {len(rates)} tests, {low} to {high}; lowest {hardest.test} ({low})."


def score_histogram(lesson: str, scores: list[float], max_score: float) -> FigureWithAlt:
    """One bar per whole score from 0 to the maximum, each labelled with its count, the tallest whole in view."""
    top = math.ceil(max_score)
    fig = Figure(figsize=(4.2, 2.3), layout="constrained")
    ax = fig.add_subplot()
    counts, _ = np.histogram(scores, bins=[b - 0.5 for b in range(top + 2)])
    bars = ax.bar(range(top + 1), counts, width=1, color=OKABE_ITO["blue"], edgecolor="white")
    ax.bar_label(bars, labels=[f"{n:.0f}" if n else "" for n in counts], fontsize=7, padding=1)
    ax.set(
        xlim=(-0.5, top + 0.5),
        ylim=(0, max(counts) * 1.2 + 0.5),  # room above the tallest bar and its label
        xlabel=f"score (points out of {points(max_score)})",
        ylabel="students",
    )
    ax.set_title(f"{lesson}: scores of {len(scores)} graded submission(s)", fontsize=9, parse_math=False)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    spread = "; ".join(
        f"{points(score)} points: {n} student(s)" for score, n in sorted(Counter(scores).items(), reverse=True)
    )
    alt = (
        f"Histogram of the scores of the {len(scores)} graded submission(s) of {lesson}, "
        f"out of {points(max_score)} points. {spread}."
    )
    return FigureWithAlt(fig, alt)


def glance(results: ClassResults) -> str:
    """The top of the page: the class's hand-ins counted (ClassResults.counts), then the misconception chart and the
    pass-rate heatmap side by side."""
    lede = f'<p class="lede">{escape(results.counts().sentence())}</p>\n'
    links = ['<a href="#summary-heading">summary</a>', '<a href="#misconceptions-heading">misconceptions</a>'] + [
        f'<a href="#lesson-{escape(lesson, quote=True)}">{escape(lesson)}</a>' for lesson in results.lessons
    ]
    nav = f'<nav aria-label="Sections">Below: {" · ".join(links)}</nav>\n'
    counts = misconception_counts(results)
    chart = (
        image(misconception_chart(counts))
        if counts
        else '<p class="empty">No failing test named a catalogued misconception.</p>'
    )
    grid = pass_rate_grid(results)
    heatmap = (
        image(pass_rate_heatmap(grid)) if any(grid.values()) else '<p class="empty">No graded submissions yet.</p>'
    )
    return lede + f'<div class="glance">\n{chart}\n{heatmap}\n</div>\n' + nav


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
    """Each lesson's hand-ins, counted as the page's first line counts them, and its mean score."""
    rows = []
    for lesson in results.lessons:
        counts = results.counts(lesson)
        scores = [r.score for r in results.submitted(lesson)]
        mean = sum(scores) / len(scores) if scores else None
        rows.append(
            [lesson, points(results.max_scores[lesson])]
            + [str(n) for n in (counts.handed_in, counts.graded, counts.unreadable, counts.missing)]
            + [
                points(mean) if mean is not None else "–",
                percent(mean / results.max_scores[lesson]) if mean is not None and results.max_scores[lesson] else "–",
            ]
        )
    return '<h2 id="summary-heading">Summary</h2>\n' + table(
        "summary",
        "Hand-ins and mean score per lesson (the mean over graded submissions only)",
        ["Lesson", "Max score", "Handed in", "Graded", "Could not be read", "Missing", "Mean score", "Mean (% of max)"],
        rows,
        numeric=(1, 2, 3, 4, 5, 6, 7),
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


def breakable(name: str) -> str:
    """`name` escaped, with a line break allowed after each underscore: long lesson and function names stay narrow."""
    return escape(name).replace("_", "_<wbr>")


def misconceptions_section(results: ClassResults) -> str:
    """One row per misconception: lesson, function, the mistake, how many students; who and where folded away."""
    counts = misconception_counts(results)
    heading = (
        '<h2 id="misconceptions-heading">Most common misconceptions</h2>\n<p>Each failing check names the '
        "catalogued mistake(s) the learner's code behaves like; a student counts once per lesson.</p>\n"
    )
    if not counts:
        return heading + "<p>No failing test named a catalogued misconception.</p>"
    holders = misconception_holders(results)
    rows = []
    for m in counts:
        names = ", ".join(escape(s.name) for s in holders[m.lesson, m.description])
        details = f"<details><summary>students, tests</summary><p>{names}</p><p>Failing: {escape(m.test)}</p></details>"
        rows.append(
            f'<tr><td class="lesson">{breakable(m.lesson)}</td>'
            f'<td class="function">{breakable(function_of(m))}{details}</td>'
            f'<td class="mistake">{escape(m.description)}</td>'
            f'<td class="number">{m.students}</td><td class="number">{percent(m.share)}</td></tr>'
        )
    head = "".join(f'<th scope="col">{h}</th>' for h in ("Lesson", "Function", "Likely mistake", "Students", "Share"))
    # Fixed widths but for the mistake, which takes the rest: at 1280 px the longest catalogued one takes two lines.
    widths = "".join(f'<col style="width: {w}">' for w in ("8rem", "9rem", "auto", "5.5rem", "4rem"))
    return heading + (
        '<table id="misconceptions" class="mistakes">\n<caption>Likely mistakes named in failing tests, most common '
        "first (share: of the lesson's graded submissions)</caption>\n"
        f"<colgroup>{widths}</colgroup>\n<thead><tr>{head}</tr></thead>\n<tbody>\n"
        + "\n".join(rows)
        + "\n</tbody>\n</table>"
    )


def lesson_section(results: ClassResults, lesson: str) -> str:
    """A lesson's score histogram beside the table of its tests' pass rates (numbered as in the heatmap)."""
    reports = results.submitted(lesson)
    heading = f'<h2 id="lesson-{escape(lesson, quote=True)}">{escape(lesson)}</h2>\n'
    if not reports:
        return heading + "<p>No graded submissions yet.</p>"
    rates = pass_rates(results, lesson)
    rows = [
        [r.test + (PREDICTION_LABEL if is_prediction(r.test) else ""), points(r.max_points), str(r.passed)]
        + [str(r.submissions), percent(r.share)]
        for r in rates
    ]
    rates_table = table(
        f"pass-rates-{lesson}",
        f"Pass rate per test of {lesson}",
        ["Test", "Points", "Passed", "Submissions", "Pass rate"],
        rows,
        numeric=(1, 2, 3, 4),
    ).replace("<table ", '<table class="rates" ', 1)
    histogram = image(score_histogram(lesson, [r.score for r in reports], results.max_scores[lesson]))
    return heading + f'<div class="lesson-row">\n{histogram}\n{rates_table}\n</div>'


def write_report(results: ClassResults, path: Path) -> None:
    """Write the class report to `path`: the figures at a glance, the summary, problems and misconceptions, then
    each lesson's histogram and pass rates."""
    title = f"Class report: {COURSE_TITLE}"
    body = "\n".join(
        [f"<h1>{escape(title)}</h1>", glance(results), summary(results), problems_section(results)]
        + [misconceptions_section(results)]
        + [lesson_section(results, lesson) for lesson in results.lessons]
    )
    Path(path).write_text(page(title, body, REPORT_STYLE), encoding="utf-8")
