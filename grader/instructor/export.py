"""Grades out of the gradebook as CSV: a plain table, and Canvas's gradebook-import format.

A missing submission counts 0 in both, as the course's grading rule says, and so does one
that could not be read; the plain table's `problems` column says which (as ClassResults.counts
counts them), and why.
"""

from __future__ import annotations

import csv
from pathlib import Path

from grader.instructor.results import ClassResults, points

# Canvas reads these columns as the student's identity; every later column is an assignment.
CANVAS_STUDENT_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
# Canvas's own exports indent this label; its importer finds the row by the words.
CANVAS_POINTS_POSSIBLE = "    Points Possible"
# A cell a spreadsheet would read as a formula when it starts with one of these.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def as_text(value: str) -> str:
    """A name or id as a spreadsheet shows it: one that would start a formula gets a leading apostrophe."""
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


def problems_of(results: ClassResults, student: str) -> list[str]:
    """What went wrong with a student's hand-ins: each lesson missing, its grading problem (timeout, ...), its late
    penalty and each file that could not be read (with the reason and the file's name), then the files of no known
    lesson."""
    problems = []
    for lesson in [*results.lessons, None]:
        if lesson and results.state(student, lesson) == "missing":
            problems.append(f"{lesson}: missing (nothing handed in)")
        if lesson and (problem := results.problem(student, lesson)):
            problems.append(f"{lesson}: {problem[0]}")
        if lesson and (penalty := results.late_penalty(student, lesson)):
            problems.append(f"{lesson}: late, {points(penalty)} point(s) taken off")
        for rejection in results.rejected(student, lesson):
            if not lesson:
                problems.append(f"a file of no known lesson could not be read: {rejection.file} ({rejection.reason})")
            elif results.report(student, lesson):
                problems.append(
                    f"{lesson}: a later file could not be read: {rejection.file} ({rejection.reason}); "
                    "the earlier one is graded"
                )
            else:
                problems.append(f"{lesson}: could not be read: {rejection.file} ({rejection.reason})")
    return problems


def write_grades_csv(results: ClassResults, path: Path) -> None:
    """One row per student id (the roster's, then any other whose hand-in could not be read): each lesson's
    score, the total, and what went wrong (problems_of); the header gives each maximum."""
    header = (
        ["student"]
        + [f"{lesson} ({points(results.max_scores[lesson])})" for lesson in results.lessons]
        + [f"total ({points(sum(results.max_scores.values()))})", "problems"]
    )
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(header)
        for student in results.everyone:
            writer.writerow(
                [as_text(student.id)]
                + [points(results.score(student.id, lesson)) for lesson in results.lessons]
                + [points(results.total(student.id)), as_text("; ".join(problems_of(results, student.id)))]
            )


def write_canvas_csv(results: ClassResults, path: Path) -> None:
    """Canvas's gradebook import: identity columns, a Points Possible row, one column per lesson.

    The nbgrader id goes in SIS Login ID; ID (Canvas's user id) is the gradebook's LMS user id when known.
    """
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(CANVAS_STUDENT_COLUMNS + results.lessons)
        writer.writerow(
            [CANVAS_POINTS_POSSIBLE, "", "", "", ""]
            + [points(results.max_scores[lesson]) for lesson in results.lessons]
        )
        for student in results.students:
            writer.writerow(
                [as_text(student.name), as_text(student.lms_user_id or ""), "", as_text(student.id), ""]
                + [points(results.score(student.id, lesson)) for lesson in results.lessons]
            )
