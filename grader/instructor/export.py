"""Grades out of the gradebook as CSV: a plain table, and Canvas's gradebook-import format.

A missing submission counts 0 in both, as the course's grading rule says.
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


def write_grades_csv(results: ClassResults, path: Path) -> None:
    """One row per student id: each lesson's score, the total, and any grading problem (timeout, ...);
    the header gives each maximum."""
    header = (
        ["student"]
        + [f"{lesson} ({points(results.max_scores[lesson])})" for lesson in results.lessons]
        + [f"total ({points(sum(results.max_scores.values()))})", "problems"]
    )
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(header)
        for student in results.students:
            problems = [
                f"{lesson}: {problem[0]}"
                for lesson in results.lessons
                if (problem := results.problem(student.id, lesson))
            ]
            writer.writerow(
                [as_text(student.id)]
                + [points(results.score(student.id, lesson)) for lesson in results.lessons]
                + [points(results.total(student.id)), as_text("; ".join(problems))]
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
