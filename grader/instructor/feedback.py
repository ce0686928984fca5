"""One feedback page per student, built only from graded reports and the hand-ins collect could not read.

The pages go back to students, so they are made from scores, the messages the checks
printed and the lessons' section headings, never from cell sources: hidden tests and
solutions cannot leak. A page opens with a summary of every lesson (score, the mistakes
named, the sections to look at again); each lesson then explains each likely mistake once,
and its tests say what was expected and what came back. A failed hidden test of a lesson
that can still be handed in says instead what it checks (grader.course.feedback_policy):
what it called and expected would make a lookup table to hand in again.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from html import escape
from pathlib import Path

from grader.engine.scores import MESSAGE_LIMIT, NAME_LIMIT, Report, TestResult, clipped
from grader.instructor.collect import Rejection
from grader.instructor.results import ClassResults, HiddenTest, Student, Withheld, points
from grader.learner import hints
from grader.learner.predictions import is_prediction

COURSE_TITLE = "Softmax, step by step"

# Black on white; results are words, not colours. The Okabe-Ito accents have the 3:1 contrast
# WCAG asks of non-text marks (#0072B2 5.1:1, #D55E00 4.0:1, #767676 4.5:1 on white).
STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #111; background: #fff; line-height: 1.5; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 2rem; }
caption { text-align: left; font-weight: bold; padding: 0.25rem 0; }
th, td { border: 1px solid #767676; padding: 0.35rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; font-size: 0.9rem; }
.passed { border-left: 0.4rem solid #0072B2; }
.failed { border-left: 0.4rem solid #D55E00; font-weight: bold; }
.missing { border-left: 0.4rem solid #767676; padding-left: 0.5rem; }
ol.diagnoses li { margin-bottom: 0.75rem; }
"""
# What a passing public check prints (grader.learner.checks.passed): true in the lab, not on a page of graded work,
# where the hidden tests have run.
LAB_ONLY = " Hidden tests run when your work is graded."
# A check's diagnosis line (grader.learner.checks.failure), and the hint line that follows it.
LIKELY_MISTAKE, HINT = "likely mistake:", "hint:"
PREDICTION_LABEL = " (prediction)"  # beside a prediction's test: it graded a guess, not a function
NOT_WRITTEN = "not written yet"  # how a check words a function still a stub
CLIPPED_END = re.compile(r" \[\.\.\. clipped: [\d,]+ more characters\]$")  # how a clipped message ends (clipped)


@dataclass
class Diagnosis:
    """A catalogued mistake a lesson's failing tests named: explained once, with the tests that show it."""

    description: str
    hint: str = ""
    tests: list[str] = field(default_factory=list)


def page(title: str, body: str, style: str = STYLE) -> str:
    """A self-contained HTML page: no scripts, no external resources."""
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{style}</style>\n</head>\n"
        f"<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def graded_wording(message: str) -> str:
    """A check's message as a page of graded work words it (LAB_ONLY dropped)."""
    return message.replace(LAB_ONLY, "")


def diagnosed(report: Report) -> tuple[list[Diagnosis], dict[str, str]]:
    """The mistakes the lesson's failing tests named, each once and in the order first named, with its hint; and
    each test's message as its row shows it: without the diagnosis lines the list above gives instead.

    Only mistakes a check recorded as data (TestResult.mistakes) count: a line of the message that merely says
    "likely mistake:" (the learner's own error text, say) is shown as it is.
    """
    found: dict[str, Diagnosis] = {}
    messages = {}
    for test in report.tests:
        lines, kept, index = graded_wording(test.message).splitlines(), [], 0
        while index < len(lines):
            line = lines[index].strip()
            description = line[len(LIKELY_MISTAKE) :].strip() if line.startswith(LIKELY_MISTAKE) else None
            if test.passed or description not in test.mistakes:
                kept.append(lines[index])
                index += 1
                continue
            diagnosis = found.setdefault(description, Diagnosis(description))
            following = lines[index + 1].strip() if index + 1 < len(lines) else ""
            if following.startswith(HINT):
                diagnosis.hint = diagnosis.hint or following[len(HINT) :].strip()
                index += 1
            index += 1
        messages[test.grade_id] = "\n".join(kept)
        for description in [] if test.passed else test.mistakes:
            tests = found.setdefault(description, Diagnosis(description)).tests
            tests += [] if test.grade_id in tests else [test.grade_id]
    return list(found.values()), messages


def check_hints(lesson: str, test: TestResult) -> dict[str, str]:
    """The hint of each mistake the test named, from sources the learner's code cannot write: the lesson's
    catalogue, else the check's own lines, which end its message (grader.learner.checks.failure) after anything the
    learner's code raised, so the last line naming a mistake is the check's, unless the message was clipped."""
    catalogue = {m.description: m.hint for m in hints.misconceptions(lesson=lesson)}
    found = {description: catalogue[description] for description in test.mistakes if description in catalogue}
    lines = [] if CLIPPED_END.search(test.message) else [line.strip() for line in test.message.splitlines()]
    for line, following in zip(lines, lines[1:], strict=False):
        description = line[len(LIKELY_MISTAKE) :].strip() if line.startswith(LIKELY_MISTAKE) else None
        if description in test.mistakes and description not in catalogue and following.startswith(HINT):
            found[description] = following[len(HINT) :].strip()  # a later line overrides an earlier one
    return found


def withheld_message(lesson: str, test: TestResult, hidden: HiddenTest, withheld: Withheld) -> str:
    """What a failed hidden test's row says while its inputs are withheld: what it checks, the mistakes it named
    with their hints, and when it shows more. Nothing of its message: that holds what it called and expected, and
    whatever the learner's code raised, which may be those inputs again."""
    function = hidden.function or "a function of the lesson"
    if NOT_WRITTEN in test.message:
        return f"A hidden test of {function}, which is {NOT_WRITTEN} (it still raises NotImplementedError)."
    lines = [f"A hidden test of {function}" + (". It checks:" if hidden.properties else ".")]
    lines += [f"  - {statement}" for statement in hidden.properties]
    named = check_hints(lesson, test)
    for description in test.mistakes:
        lines.append(f"  {LIKELY_MISTAKE} {description}")
        lines += [f"  {HINT} {named[description]}"] if named.get(description) else []
    if withheld.never:
        lines.append("Its inputs and expected values are not shown: this lesson's hidden tests stay hidden.")
    elif withheld.until is None:
        lines.append("Its inputs and expected values are shown here after the lesson's due date (none is set yet).")
    else:
        lines.append(
            f"Its inputs and expected values are shown here after the due date, {withheld.until:%Y-%m-%d %H:%M} UTC."
        )
    return "\n".join(lines)


def shown_report(results: ClassResults, report: Report) -> Report:
    """The report as a student's page shows it: each failed hidden test whose inputs are withheld now
    (ClassResults.withheld) with its withheld_message instead of the check's."""
    withheld = results.withheld.get(report.lesson)
    if withheld is None:
        return report
    tests = [
        replace(test, message=withheld_message(report.lesson, test, withheld.tests[test.grade_id], withheld))
        if not test.passed and test.grade_id in withheld.tests
        else test
        for test in report.tests
    ]
    return replace(report, tests=tests)


def inline(text: str) -> str:
    """A heading's text as HTML: escaped, its `code` spans as <code>."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(text))


def sections_to_revisit(results: ClassResults, report: Report) -> list[str]:
    """The headings of the lesson's sections its failing tests point back to, in lesson order, each once."""
    found = [results.section(report.lesson, t.grade_id) for t in report.tests if not t.passed]
    return list(dict.fromkeys(heading for heading in found if heading))


def when(rejection: Rejection) -> str:
    """When a hand-in arrived, as a student reads it."""
    time = rejection.time()
    return f", handed in {time:%Y-%m-%d %H:%M} UTC" if isinstance(time, datetime) else ""


def rejection_line(rejection: Rejection, earlier_graded: bool, lesson_known: bool = True) -> str:
    """One hand-in that could not be read, as its student reads it."""
    what = f"(file <code>{escape(clipped(rejection.file, NAME_LIMIT))}</code>{escape(when(rejection))})"
    if not lesson_known:
        return (
            f'<p class="failed">A file you handed in could not be read: {escape(rejection.reason)} {what}. '
            "It is not known which lesson it was for, so it was graded for none.</p>"
        )
    if earlier_graded:
        return (
            f'<p class="failed">A later file you handed in could not be read: {escape(rejection.reason)} {what}. '
            "Your earlier hand-in of this lesson, below, is the one graded.</p>"
        )
    return f'<p class="failed">Your file could not be read: {escape(rejection.reason)} {what}.</p>'


def result_row(test: TestResult, message: str, diagnoses: list[Diagnosis]) -> str:
    """A test's points, result and message; a failing one refers to the diagnoses above that it shows."""
    result = "passed" if test.passed else "failed"
    numbers = [str(n) for n, d in enumerate(diagnoses, 1) if test.grade_id in d.tests]
    if numbers:
        message += f"\n  (likely mistake {', '.join(numbers)} above)"
    shown = (
        f"<pre>{escape(clipped(message.strip(chr(10)), MESSAGE_LIMIT))}</pre>" if message.strip() else "(no message)"
    )
    label = PREDICTION_LABEL if is_prediction(test.grade_id) else ""
    return (
        f'<tr class="{result}"><td><code>{escape(test.grade_id)}</code>{label}</td>'
        f"<td>{points(test.points)} / {points(test.max_points)}</td><td>{result}</td><td>{shown}</td></tr>"
    )


def diagnoses_list(lesson: str, diagnoses: list[Diagnosis], results: ClassResults) -> str:
    """Each likely mistake of a lesson once: what it is, its hint, the tests that show it, where to look again."""
    if not diagnoses:
        return ""
    items = []
    for diagnosis in diagnoses:
        hint = f"\nhint: {diagnosis.hint}" if diagnosis.hint else ""
        places = list(dict.fromkeys(h for h in (results.section(lesson, t) for t in diagnosis.tests) if h))
        look = f" Look again at {', '.join(f'“{inline(h)}”' for h in places)}." if places else ""
        tests = ", ".join(f"<code>{escape(t)}</code>" for t in diagnosis.tests)
        items.append(
            f"<li><pre>{LIKELY_MISTAKE} {escape(diagnosis.description)}{escape(hint)}</pre>"
            f"<p>Failing tests that show it: {tests}.{look}</p></li>"
        )
    return '<h3>What went wrong</h3>\n<ol class="diagnoses">\n' + "\n".join(items) + "\n</ol>"


def lesson_section(
    results: ClassResults, student: str, lesson: str, diagnoses: list[Diagnosis], messages: dict[str, str]
) -> str:
    """One lesson: its score, any problem the grading met or file that could not be read, each likely mistake
    once, then every test with its points, result and message."""
    report, problem, max_score = (
        results.report(student, lesson),
        results.problem(student, lesson),
        results.max_scores[lesson],
    )
    heading = f'<h2 id="lesson-{escape(lesson)}">{escape(lesson)}</h2>'
    if problem:
        heading += (
            f'\n<p class="failed">Grading met a problem: <strong>{escape(clipped(problem[0], NAME_LIMIT))}'
            f"</strong> ({escape(clipped(problem[1], MESSAGE_LIMIT))}).</p>"
        )
    heading += "".join(f"\n{rejection_line(r, report is not None)}" for r in results.rejected(student, lesson))
    if report is None:
        if results.rejected(student, lesson):
            return f'{heading}\n<p class="missing">Nothing of it could be graded: 0 of {points(max_score)} points.</p>'
        maybe = (
            "; the file above that could not be read may have been meant for it"
            if results.rejected(student, None)
            else ""
        )
        return (
            f'{heading}\n<p class="missing">No graded submission: <strong>missing</strong> '
            f"(0 of {points(max_score)} points{maybe}).</p>"
        )
    rows = "\n".join(result_row(t, messages[t.grade_id], diagnoses) for t in report.tests)
    penalty = results.late_penalty(student, lesson)
    late = (
        f' <span class="late">({points(penalty)} point(s) taken off: handed in after the due date)</span>'
        if penalty
        else ""
    )
    return (
        f"{heading}\n<p>Score: <strong>{points(report.score)} / {points(report.max_score)}</strong>{late}</p>\n"
        f"{diagnoses_list(lesson, diagnoses, results)}\n"
        f"<table>\n<caption>Tests of {escape(lesson)}</caption>\n<thead><tr>"
        f'<th scope="col">Test</th><th scope="col">Points</th><th scope="col">Result</th>'
        f'<th scope="col">Message</th></tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table>'
    )


def summary_row(results: ClassResults, student: str, lesson: str, diagnoses: list[Diagnosis]) -> list[str]:
    """A lesson at a glance, as HTML cells: its score, what to work on, where in the lesson to look again."""
    report, problem = results.report(student, lesson), results.problem(student, lesson)
    link = f'<a href="#lesson-{escape(lesson)}">{escape(lesson)}</a>'
    if report is None:
        rejected = results.rejected(student, lesson)
        what = (
            f"your file could not be read: {escape(rejected[0].reason)}"
            if rejected
            else "nothing handed in (missing); a file you handed in that could not be read (below) may be meant for it"
            if results.rejected(student, None)
            else "nothing handed in (missing)"
        )
        return [link, f"0 / {points(results.max_scores[lesson])}", what, "–"]
    failed = [t for t in report.tests if not t.passed]
    named = [escape(d.description) for d in diagnoses]
    missed = [t for t in failed if is_prediction(t.grade_id)]  # a prediction names no mistake: it was a guess
    unnamed = [t for t in failed if not t.mistakes and t not in missed]
    stubs = [t for t in unnamed if NOT_WRITTEN in t.message]
    if stubs:
        named.append(f"{len(stubs)} failing test(s): a function is {NOT_WRITTEN}")
    if len(unnamed) > len(stubs):
        named.append(f"{len(unnamed) - len(stubs)} failing test(s) name no likely mistake: read their messages")
    if missed:
        named.append(f"{len(missed)} prediction(s) not right or not written: the explanation under each says why")
    if problem:
        named.append(f"grading met a problem: {escape(clipped(problem[0], NAME_LIMIT))}")
    if results.rejected(student, lesson):
        named.append("a later file could not be read")
    what = "<br>".join(named) if named else "every test passed"
    places = sections_to_revisit(results, report)
    look = "<br>".join(f"“{inline(h)}”" for h in places) if places else "–"
    late = " (late)" if results.late_penalty(student, lesson) else ""
    return [link, f"{points(report.score)} / {points(report.max_score)}{late}", what, look]


def summary_table(rows: list[list[str]]) -> str:
    """The page's opening table: a row per lesson (cells already HTML)."""
    body = "\n".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return (
        '<table id="at-a-glance">\n<caption>Your lessons at a glance</caption>\n<thead><tr>'
        '<th scope="col">Lesson</th><th scope="col">Score</th><th scope="col">What to work on</th>'
        f'<th scope="col">Where to look again</th></tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>'
    )


def student_page(results: ClassResults, student: Student, note: str = "") -> str:
    """The student's page: their whole course at a glance, then each lesson; `note`, plain text, under the total (the
    grading service's word on the lesson's attempts)."""
    total = results.total(student.id)
    possible = sum(results.max_scores.values())
    read = {
        lesson: diagnosed(shown_report(results, report)) if (report := results.report(student.id, lesson)) else ([], {})
        for lesson in results.lessons
    }
    summary = summary_table([summary_row(results, student.id, lesson, read[lesson][0]) for lesson in results.lessons])
    unknown = "".join(f"\n{rejection_line(r, False, lesson_known=False)}" for r in results.rejected(student.id, None))
    sections = "\n".join(lesson_section(results, student.id, lesson, *read[lesson]) for lesson in results.lessons)
    shown_id = clipped(student.id, NAME_LIMIT)
    who = student.name if student.name == shown_id else f"{student.name} ({shown_id})"
    title = f"Feedback for {who}: {COURSE_TITLE}"
    withheld = "; before the due date, a failed hidden test says what it checks instead" if results.withheld else ""
    counts = results.counts(student=student.id)
    standing = (
        ", ".join(
            f"{n} {what}"
            for n, what in (
                (counts.graded, "graded"),
                (counts.unreadable, "could not be read"),
                (counts.missing, "missing"),
            )
            if n
        )
        or "none yet"
    )
    body = (
        f"<h1>{escape(title)}</h1>\n<p>Total: <strong>{points(total)} / {points(possible)}</strong> "
        f"over {counts.lessons} lesson(s): {standing}. Each lesson below names its likely mistakes once, with a hint "
        f"and the part of the lesson to read again; then each test says what was expected and what came back{withheld}."
        "</p>" + (f"\n<p><strong>{escape(note)}</strong></p>" if note else "") + f"\n{summary}{unknown}\n{sections}"
    )
    return page(title, body)


def page_name(student_id: str) -> str:
    """<student id>.html; an id that is no plain file name (a slash, a control character, a leading dot,
    over 200 bytes) gets student-<digest>.html instead: no id writes outside the folder or fails to be written."""
    raw = student_id.encode("utf-8", "surrogatepass")
    if len(raw) <= 200 and re.fullmatch(r"[^./\\\x00-\x1f\x7f][^/\\\x00-\x1f\x7f]*", student_id):
        return f"{student_id}.html"
    return f"student-{hashlib.sha256(raw).hexdigest()[:16]}.html"


def write_feedback(results: ClassResults, out_dir: Path) -> list[Path]:
    """Write <out_dir>/<page_name(student id)> for every student on the roster (the gradebook's); return the paths
    in student order. A student on no roster whose only hand-in could not be read gets no page: the grades CSV,
    `grade` and the report list them."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for student in results.students:
        path = out_dir / page_name(student.id)
        path.write_text(student_page(results, student), encoding="utf-8")
        paths.append(path)
    return paths
