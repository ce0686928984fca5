"""Grade one learner notebook exactly as the instructor's autograde would.

The notebook is placed as a submission in a throw-away course directory that holds a
copy of the lesson's gradebook (built once by nbgrader's generate_assignment); nbgrader's
autograde restores every test cell (hidden tests included) from it, runs the notebook,
and the scores and messages are read from the executed notebook.
"""
from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import os
import re
import shutil
import tempfile
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path

import nbformat
import nbgrader
from nbgrader.api import Gradebook
from nbgrader.apps import NbGraderAPI
from nbgrader.converters import Autograde
from nbgrader.preprocessors import Execute
from nbgrader.utils import determine_grade

from . import course
from .testrunner import TestsOutsideKernel, is_test_cell
from .untrusted import MAX_NOTEBOOK_BYTES, grade_id_of, shape_problem

LEARNER = "learner"
IOPUB_SECONDS = 30
# nbgrader's autograde steps, with its Execute replaced by one that runs test cells outside the kernel
AUTOGRADE_STEPS = [TestsOutsideKernel if step is Execute else step
                   for step in Autograde.class_traits()["autograde_preprocessors"].default()]
MISSING_TEST = "this test cell is missing from the notebook, so it scores 0: restore it from the release"
# The most a report keeps of one test's message, of a name (an exception's, a student's) and of the
# catalogued mistakes a test names: a submission may raise, print or return anything, and its pages stay small.
MESSAGE_LIMIT = 4000
NAME_LIMIT = 200
MISTAKES_LIMIT = 20
MISTAKE_LIMIT = 500
CLIPPED = " [... clipped: {:,} more characters]"


class BadInput(ValueError):
    """The file cannot be graded as a lesson notebook (missing, not JSON, unknown lesson)."""


class GradingFailed(RuntimeError):
    """nbgrader could not grade a notebook that looked gradable."""


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


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """Read a learner's file, turning every way it can be unreadable into BadInput."""
    path = Path(path)
    if not path.is_file():
        raise BadInput(f"{path}: no such file")
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_NOTEBOOK_BYTES + 1)
    except OSError as error:
        raise BadInput(f"{path}: cannot be read ({error.strerror})") from None
    return read_notebook_bytes(data, path)


def read_notebook_bytes(data: bytes, path) -> nbformat.NotebookNode:
    """Parse a learner's file; `path` only names it in messages. Whatever the bytes, the only
    exception is BadInput."""
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise BadInput(f"{path}: larger than the {MAX_NOTEBOOK_BYTES // 2**20} MB a notebook may be")
    if not data.strip():
        raise BadInput(f"{path}: an empty file, not a notebook")
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError, MemoryError) as error:  # ValueError: bad UTF-8 or JSON, a 5000-digit number
        detail = "nested too deep" if isinstance(error, RecursionError) else str(error)[:200] or type(error).__name__
        raise BadInput(f"{path}: not a notebook (not valid JSON: {detail})") from None
    problem = shape_problem(raw)
    if problem:
        raise BadInput(f"{path}: not a notebook ({problem})")
    try:
        nb = nbformat.reads(json.dumps(raw), as_version=4)
        nbformat.validate(nb)
    except Exception as error:
        first_line = str(error).strip().splitlines()[0][:200] if str(error).strip() else type(error).__name__
        raise BadInput(f"{path}: not a valid Jupyter notebook ({first_line})") from None
    return nb


def grade_ids_in_order(nb: nbformat.NotebookNode) -> list[str]:
    """The grade id of each cell that has one (grade_id_of: metadata of another shape gives none)."""
    return [grade_id for grade_id in map(grade_id_of, nb.get("cells", [])) if grade_id is not None]


def grade_ids(nb: nbformat.NotebookNode) -> set[str]:
    return set(grade_ids_in_order(nb))


def identify_lesson(nb: nbformat.NotebookNode, path: Path, course_dir: Path = course.REPO) -> str:
    """The lesson of the course in `course_dir` whose graded cells this notebook carries."""
    ids = grade_ids(nb)
    lessons = course.lesson_ids(course_dir)
    overlap = {lesson: len(ids & grade_ids(course.read_cached(course.source_notebook(lesson, course_dir))))
               for lesson in lessons}
    best = max(overlap, key=overlap.get, default=None)
    if best is None or overlap[best] == 0:
        raise BadInput(f"{path}: not a notebook of a known lesson "
                       f"(none of its cells belong to {', '.join(lessons)})")
    return best


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
            return clipped("wrote to stderr (nbgrader gives such a cell 0): "
                           + str(output.get("text", ""))[:MESSAGE_LIMIT].strip(), MESSAGE_LIMIT)
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


def lesson_gradebook(lesson: str, course_dir: Path = course.REPO) -> Path:
    """A gradebook that already holds the lesson, as nbgrader's generate_assignment records it.

    Built once per version of the source notebook (of the course in `course_dir`) and
    cached under the repository's .grading/cache/, so each grading skips
    generate_assignment and the creation of a new database (~2 s).
    """
    source = course.source_notebook(lesson, course_dir)
    digest = hashlib.sha256(source.read_bytes() + nbgrader.__version__.encode()).hexdigest()[:16]
    cached = course.REPO / ".grading" / "cache" / f"{lesson}-{digest}.db"
    if cached.is_file():
        return cached
    with tempfile.TemporaryDirectory(prefix="softmax-gradebook-") as tmp:
        root = _course_with_source(Path(tmp), lesson, course_dir)
        config = course.nbgrader_config(root)
        with quiet_stderr():
            require_success(NbGraderAPI(config=config).generate_assignment(lesson), "generate_assignment")
        cached.parent.mkdir(parents=True, exist_ok=True)
        staged = cached.with_suffix(f".{os.getpid()}.tmp")
        shutil.copy(root / ".grading" / "gradebook.db", staged)
        os.replace(staged, cached)  # atomic: parallel graders never see half a file
    return cached


def _course_with_source(root: Path, lesson: str, course_dir: Path = course.REPO) -> Path:
    """Make `root` a course directory holding the lesson's source notebook from `course_dir`."""
    source = course.source_notebook(lesson, root)
    source.parent.mkdir(parents=True)
    shutil.copy(course.source_notebook(lesson, course_dir), source)
    return root


def grade_notebook(path: Path) -> Report:
    """Grade the notebook at `path` with its lesson's full tests; return the report."""
    nb = read_notebook(path)
    return autograde_sandboxed(identify_lesson(nb, Path(path)), nb).report


@dataclass
class Sandboxed:
    """What nbgrader's autograde produced for one submission in its own course directory."""

    report: Report
    autograded: str                          # the autograded notebook, as JSON text
    grades: dict[str, tuple[float | None, bool]] = field(default_factory=dict)  # cell -> auto_score, needs_manual


def autograde_sandboxed(lesson: str, nb: nbformat.NotebookNode, timestamp: str | None = None,
                        timeout: int | None = None, warm: bool = False,
                        course_dir: Path = course.REPO) -> Sandboxed:
    """Run nbgrader's autograde on one submission in a throw-away course directory.

    The directory holds only a copy of the lesson's gradebook and the submission, so the
    learner's code runs away from the real gradebook, the solutions and other students.
    `timestamp` is the submission's timestamp.txt; `timeout` the seconds allowed per cell;
    `warm` forks the kernel from a process with its imports done (see warmkernel);
    `course_dir` is the course whose source notebook holds the tests.
    """
    gradebook = lesson_gradebook(lesson, course_dir)
    with tempfile.TemporaryDirectory(prefix="softmax-grade-") as tmp:
        root = Path(tmp)
        # nbgrader restores the tests from the gradebook: the source notebook (solutions and
        # hidden tests) stays out of the directory the learner's code runs in.
        (root / course.SOLUTIONS / lesson).mkdir(parents=True)
        (root / ".grading").mkdir()
        shutil.copy(gradebook, root / ".grading" / "gradebook.db")
        submitted = root / ".grading" / "submitted" / LEARNER / lesson / f"{lesson}.ipynb"
        submitted.parent.mkdir(parents=True)
        nbformat.write(without_duplicate_ids(nb), submitted)
        if timestamp:
            (submitted.parent / "timestamp.txt").write_text(timestamp)
        config = course.nbgrader_config(root)
        if timeout:
            config.Execute.timeout = timeout
        if warm:
            config.Execute.kernel_manager_class = "grader.warmkernel.ForkedKernelManager"
        config.Autograde.autograde_preprocessors = AUTOGRADE_STEPS
        # a cell's printed output may trail its reply on a loaded machine; nbgrader's 4 s would fail the cell
        config.Execute.iopub_timeout = IOPUB_SECONDS
        with quiet_stderr():
            require_success(NbGraderAPI(config=config).autograde(lesson, LEARNER), "autograde")
        autograded = root / ".grading" / "autograded" / LEARNER / lesson / f"{lesson}.ipynb"
        text = autograded.read_text()
        executed = nbformat.reads(text, as_version=4)
        return Sandboxed(report_of(executed, lesson, course_dir), text, scores_of(executed, lesson, course_dir))


def without_duplicate_ids(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy in which only the last cell of each grade id keeps its nbgrader metadata.

    nbgrader means to do this itself (DeduplicateIds) but leaves an empty metadata dict
    behind, which its own schema check then rejects, failing the whole notebook.
    """
    nb = copy.deepcopy(nb)
    seen = set()
    for cell in reversed(nb.cells):
        meta = cell.metadata.get("nbgrader")
        grade_id = meta.get("grade_id") if isinstance(meta, dict) and isinstance(meta.get("grade_id"), str) else None
        if grade_id in seen:
            del cell.metadata["nbgrader"]
        elif grade_id is not None:
            seen.add(grade_id)
    return nb


def report_of(executed: nbformat.NotebookNode, lesson: str, course_dir: Path = course.REPO) -> Report:
    """The Report of an executed notebook: its scores (scores_of) and each test cell's message."""
    source = course.read_cached(course.source_notebook(lesson, course_dir))
    max_points = {c.metadata.nbgrader.grade_id: float(c.metadata.nbgrader.points) for c in source.cells
                  if c.metadata.get("nbgrader", {}).get("grade")}
    messages = {c.metadata["nbgrader"]["grade_id"]: cell_message(c) for c in executed.cells
                if c.metadata.get("nbgrader", {}).get("grade")}
    mistakes = {c.metadata["nbgrader"]["grade_id"]: cell_mistakes(c) for c in executed.cells
                if is_test_cell(c) and "grade_id" in c.metadata["nbgrader"]}
    tests = [TestResult(name, score, max_points[name], score >= max_points[name], messages.get(name, MISSING_TEST),
                        mistakes.get(name, []))
             for name, (score, _) in scores_of(executed, lesson, course_dir).items()]
    return Report(lesson, sum(t.points for t in tests), sum(t.max_points for t in tests), tests)


def scores_of(executed: nbformat.NotebookNode, lesson: str, course_dir: Path = course.REPO) -> dict:
    """Each test's (score, needs manual grading), read from the executed notebook with nbgrader's own rule.

    Read here, outside the learner's kernel, rather than from the sandbox's gradebook, which
    the learner's code could have written to. A test cell missing from the notebook scores 0.
    """
    scores = {name: (0.0, False) for name in test_ids(lesson, course_dir)}
    for cell in executed.cells:
        name = cell.metadata.get("nbgrader", {}).get("grade_id")
        if name in scores and cell.cell_type == "code":
            scores[name] = (float(determine_grade(cell)[0]), False)
    return scores


def test_ids(lesson: str, course_dir: Path = course.REPO) -> list[str]:
    """The grade ids of the lesson's test cells, in order."""
    source = course.read_cached(course.source_notebook(lesson, course_dir))
    return [c.metadata.nbgrader.grade_id for c in source.cells
            if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata.nbgrader.get("solution")]


@contextlib.contextmanager
def quiet_stderr():
    """Keep nbgrader's and the kernels' chatter off stderr; replay it if grading fails.

    Works on file descriptor 2, because the kernels nbgrader starts inherit it.
    """
    with tempfile.TemporaryFile() as sink, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        saved = os.dup(2)
        os.dup2(sink.fileno(), 2)
        try:
            yield
        except BaseException:
            os.dup2(saved, 2)
            sink.seek(0)
            os.write(2, sink.read())
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def require_success(result: dict, step: str) -> None:
    """Raise GradingFailed with the most telling line of nbgrader's log when a step failed."""
    if result["success"]:
        return
    lines = f"{result.get('log', '')}\n{result.get('error', '')}".strip().splitlines()
    causes = [line.strip() for line in lines
              if re.match(r"\s*[\w.]+(Error|Exception): ", line) and "NbGraderException" not in line]
    detail = causes[-1] if causes else (lines[-1].strip() if lines else "no details")
    raise GradingFailed(f"nbgrader {step} failed: {detail}")


def read_report(root: Path, lesson: str, student: str) -> Report:
    """One graded submission of the course in `root` as a Report: scores from its gradebook,
    messages from its autograded notebook, in the order of its source notebook."""
    config = course.nbgrader_config(root)
    autograded = Path(config.CourseDirectory.root) / ".grading" / "autograded" / student / lesson / f"{lesson}.ipynb"
    graded = nbformat.read(autograded, as_version=4) if autograded.is_file() else nbformat.v4.new_notebook()
    messages = {c.metadata["nbgrader"]["grade_id"]: cell_message(c) for c in graded.cells
                if c.metadata.get("nbgrader", {}).get("grade")}
    mistakes = {c.metadata["nbgrader"]["grade_id"]: cell_mistakes(c) for c in graded.cells
                if is_test_cell(c) and "grade_id" in c.metadata["nbgrader"]}
    with Gradebook(config.CourseDirectory.db_url) as gradebook:
        cells = gradebook.find_notebook(lesson, lesson).grade_cells
        lesson_tests = {cell.name: float(cell.max_score) for cell in cells}
        submission = gradebook.find_submission_notebook(lesson, lesson, student)
        scores = {g.name: float(g.score) for g in submission.grades if g.score is not None}
    source = course.source_notebook(lesson, root)
    order = [grade_id for grade_id in grade_ids_in_order(course.read_cached(source))
             if grade_id in lesson_tests]
    tests = [TestResult(grade_id, scores.get(grade_id, 0.0), lesson_tests[grade_id],
                        scores.get(grade_id, 0.0) >= lesson_tests[grade_id],
                        messages.get(grade_id, MISSING_TEST), mistakes.get(grade_id, []))
             for grade_id in order]
    return Report(lesson, sum(t.points for t in tests), sum(t.max_points for t in tests), tests)


def render_table(report: Report) -> str:
    """A plain-text table of the report, then the full message of every failed test."""
    rows = [(t.grade_id, f"{t.points:g}/{t.max_points:g}", "passed" if t.passed else "FAILED",
             (t.message.splitlines() or [""])[0]) for t in report.tests]
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
