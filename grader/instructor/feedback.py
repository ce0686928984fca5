"""One feedback page per student, built only from graded reports.

The pages go back to students, so they are made from scores and the messages the
checks printed, never from cell sources: hidden tests and solutions cannot leak.
"""

from __future__ import annotations

import hashlib
import re
from html import escape
from pathlib import Path

from grader.engine.scores import MESSAGE_LIMIT, NAME_LIMIT, Report, TestResult, clipped
from grader.instructor.results import ClassResults, Student, points

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
"""


def page(title: str, body: str, style: str = STYLE) -> str:
    """A self-contained HTML page: no scripts, no external resources."""
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{style}</style>\n</head>\n"
        f"<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def result_row(test: TestResult) -> str:
    result = "passed" if test.passed else "failed"
    message = f"<pre>{escape(clipped(test.message, MESSAGE_LIMIT))}</pre>" if test.message else "(no message)"
    return (
        f'<tr class="{result}"><td><code>{escape(test.grade_id)}</code></td>'
        f"<td>{points(test.points)} / {points(test.max_points)}</td><td>{result}</td><td>{message}</td></tr>"
    )


def lesson_section(lesson: str, max_score: float, report: Report | None, problem: tuple[str, str] | None = None) -> str:
    """One lesson: its score, any problem the grading met, then every test with its points, result and message."""
    heading = f"<h2>{escape(lesson)}</h2>"
    if problem:
        heading += (
            f'\n<p class="failed">Grading met a problem: <strong>{escape(clipped(problem[0], NAME_LIMIT))}'
            f"</strong> ({escape(clipped(problem[1], MESSAGE_LIMIT))}).</p>"
        )
    if report is None:
        return (
            f'{heading}\n<p class="missing">No graded submission: <strong>missing</strong> '
            f"(0 of {points(max_score)} points).</p>"
        )
    rows = "\n".join(result_row(t) for t in report.tests)
    return (
        f"{heading}\n<p>Score: <strong>{points(report.score)} / {points(report.max_score)}</strong></p>\n"
        f"<table>\n<caption>Tests of {escape(lesson)}</caption>\n<thead><tr>"
        f'<th scope="col">Test</th><th scope="col">Points</th><th scope="col">Result</th>'
        f'<th scope="col">Message</th></tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table>'
    )


def student_page(results: ClassResults, student: Student) -> str:
    total = results.total(student.id)
    possible = sum(results.max_scores.values())
    sections = "\n".join(
        lesson_section(
            lesson, results.max_scores[lesson], results.report(student.id, lesson), results.problem(student.id, lesson)
        )
        for lesson in results.lessons
    )
    shown_id = clipped(student.id, NAME_LIMIT)
    who = student.name if student.name == shown_id else f"{student.name} ({shown_id})"
    title = f"Feedback for {who}: {COURSE_TITLE}"
    body = (
        f"<h1>{escape(title)}</h1>\n<p>Total: <strong>{points(total)} / {points(possible)}</strong> "
        f"over {len(results.lessons)} lesson(s). A failed test says what was expected, what came back, "
        f"and the likely mistake with a hint.</p>\n{sections}"
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
    """Write <out_dir>/<page_name(student id)> for every student; return the paths in student order."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for student in results.students:
        path = out_dir / page_name(student.id)
        path.write_text(student_page(results, student), encoding="utf-8")
        paths.append(path)
    return paths
