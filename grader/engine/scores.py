"""What a grading found, as plain data: each test's points, message and named mistakes (Report), read from
an executed notebook outside the learner's kernel, and bounded whatever the submission printed or raised."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

import nbformat
from nbgrader.utils import determine_grade

from grader.course import Course, read_cached
from grader.engine.testrunner import is_test_cell

MISSING_TEST = "this test cell is missing from the notebook, so it scores 0: restore it from the release"
# The most a report keeps of one test's message, of a name (an exception's, a student's) and of the
# catalogued mistakes a test names: a submission may raise, print or return anything, and its pages stay small.
MESSAGE_LIMIT = 4000
NAME_LIMIT = 200
MISTAKES_LIMIT = 20
MISTAKE_LIMIT = 500
CLIPPED = " [... clipped: {:,} more characters]"


@dataclass
class TestResult:
    grade_id: str
    points: float
    max_points: float
    passed: bool
    message: str
    mistakes: list[str] = field(default_factory=list)  # the catalogued mistakes its check named (cell_mistakes)


@dataclass
class Report:
    lesson: str
    score: float
    max_score: float
    tests: list[TestResult] = field(default_factory=list)

    def to_json(self) -> str:
        """The report as `check --json` prints it: scores and messages of each test."""
        report = asdict(self)
        for test in report["tests"]:
            del test["mistakes"]
        return json.dumps(report)

    def as_data(self) -> dict:
        """The whole report (named mistakes included) as JSON-able data, to cross a process boundary."""
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict) -> Report:
        """The report back from as_data's output."""
        return cls(data["lesson"], data["score"], data["max_score"], [TestResult(**test) for test in data["tests"]])


def clipped(text, limit: int) -> str:
    """`text` in at most `limit` characters; a longer one is cut and says so (CLIPPED).
    Clipping a clipped text again changes nothing."""
    text = str(text)
    if len(text) <= limit:
        return text
    kept = max(0, limit - len(CLIPPED.format(len(text))))  # the marker of the whole length is the longest
    return text[:kept] + CLIPPED.format(len(text) - kept)


def cell_message(cell) -> str:
    """What a graded test cell said: the check's failure, an error, or its printed pass line (clipped)."""
    outputs = cell.get("outputs", [])
    for output in outputs:
        if output.get("output_type") == "error":
            ename, evalue = clipped(output.get("ename", ""), NAME_LIMIT), str(output.get("evalue", ""))
            if ename in ("CheckFailed", "AssertionError") and evalue:
                return clipped(evalue, MESSAGE_LIMIT)
            return clipped(f"{ename}: {evalue}".rstrip(": "), MESSAGE_LIMIT)
        if output.get("output_type") == "stream" and output.get("name") == "stderr":
            return clipped(
                "wrote to stderr (nbgrader gives such a cell 0): "
                + str(output.get("text", ""))[:MESSAGE_LIMIT].strip(),
                MESSAGE_LIMIT,
            )
    printed = "".join(str(o.get("text", "")) for o in outputs if o.get("output_type") == "stream")
    return clipped(printed.strip(), MESSAGE_LIMIT)


def cell_mistakes(cell) -> list[str]:
    """The catalogued mistakes a test cell's check named, as the grading recorded them in the cell's
    metadata ("grader": {"mistakes": [...]}); never read from its message, which quotes the learner's
    code. Anything but a list of strings there counts as none; the list and each entry are capped."""
    recorded = cell.get("metadata", {}).get("grader")
    mistakes = recorded.get("mistakes") if isinstance(recorded, dict) else None
    if not isinstance(mistakes, list) or not all(isinstance(m, str) for m in mistakes[:MISTAKES_LIMIT]):
        return []
    return list(dict.fromkeys(clipped(m, MISTAKE_LIMIT) for m in mistakes[:MISTAKES_LIMIT]))


def messages_of(executed: nbformat.NotebookNode) -> dict[str, str]:
    """grade id -> what each graded cell of an executed notebook said (cell_message)."""
    return {
        c.metadata["nbgrader"]["grade_id"]: cell_message(c)
        for c in executed.cells
        if c.metadata.get("nbgrader", {}).get("grade")
    }


def mistakes_of(executed: nbformat.NotebookNode) -> dict[str, list[str]]:
    """grade id -> the catalogued mistakes each test cell's check named (cell_mistakes)."""
    return {
        c.metadata["nbgrader"]["grade_id"]: cell_mistakes(c)
        for c in executed.cells
        if is_test_cell(c) and "grade_id" in c.metadata["nbgrader"]
    }


def report_of(course: Course, executed: nbformat.NotebookNode, lesson: str) -> Report:
    """The Report of an executed notebook: its scores (scores_of) and each test cell's message."""
    source = read_cached(course.source_notebook(lesson))
    max_points = {
        c.metadata.nbgrader.grade_id: float(c.metadata.nbgrader.points)
        for c in source.cells
        if c.metadata.get("nbgrader", {}).get("grade")
    }
    messages, mistakes = messages_of(executed), mistakes_of(executed)
    tests = [
        TestResult(
            name,
            score,
            max_points[name],
            score >= max_points[name],
            messages.get(name, MISSING_TEST),
            mistakes.get(name, []),
        )
        for name, (score, _) in scores_of(course, executed, lesson).items()
    ]
    return Report(lesson, sum(t.points for t in tests), sum(t.max_points for t in tests), tests)


def scores_of(course: Course, executed: nbformat.NotebookNode, lesson: str) -> dict:
    """Each test's (score, needs manual grading), read from the executed notebook with nbgrader's own rule.

    Read here, outside the learner's kernel, rather than from the sandbox's gradebook, which
    the learner's code could have written to. A test cell missing from the notebook scores 0.
    """
    scores = {name: (0.0, False) for name in course.test_ids(lesson)}
    for cell in executed.cells:
        name = cell.metadata.get("nbgrader", {}).get("grade_id")
        if name in scores and cell.cell_type == "code":
            scores[name] = (float(determine_grade(cell)[0]), False)
    return scores


def render_table(report: Report) -> str:
    """A plain-text table of the report, then the full message of every failed test."""
    rows = [
        (
            t.grade_id,
            f"{t.points:g}/{t.max_points:g}",
            "passed" if t.passed else "FAILED",
            (t.message.splitlines() or [""])[0],
        )
        for t in report.tests
    ]
    header = ("test", "points", "result", "message")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(3)]
    line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r[:3], widths, strict=False)) + "  " + r[3]  # noqa: E731
    out = [f"Lesson {report.lesson}", line(header), line(tuple("-" * w for w in widths) + ("-" * 7,))]
    out += [line(r) for r in rows]
    out.append(f"Total: {report.score:g} / {report.max_score:g}")
    failed = [t for t in report.tests if not t.passed and "\n" in t.message]
    if failed:
        out.append("\nDetails of failed tests:")
        out += [f"\n[{t.grade_id}]\n{t.message}" for t in failed]
    return "\n".join(out)
