"""nbgrader's autograde of one notebook in a throw-away course directory.

The directory holds a copy of the lesson's gradebook (built once by nbgrader's generate_assignment and
cached) and the submission; nbgrader restores every test cell (hidden tests included) from it and runs
the notebook, with test cells run outside the learner's kernel (testrunner).
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import os
import re
import shutil
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import nbgrader
from nbgrader.apps import NbGraderAPI
from nbgrader.converters import Autograde
from nbgrader.preprocessors import Execute

from grader.course import SOLUTIONS, Course, source_notebook_in
from grader.engine.scores import Report, report_of, scores_of
from grader.engine.submission import identify_lesson, read_notebook
from grader.engine.testrunner import TestsOutsideKernel

LEARNER = "learner"
IOPUB_SECONDS = 30
# nbgrader's autograde steps, with its Execute replaced by one that runs test cells outside the kernel
AUTOGRADE_STEPS = [
    TestsOutsideKernel if step is Execute else step
    for step in Autograde.class_traits()["autograde_preprocessors"].default()
]


class GradingFailed(RuntimeError):
    """nbgrader could not grade a notebook that looked gradable."""


def lesson_gradebook(course: Course, lesson: str) -> Path:
    """A gradebook that already holds the lesson, as nbgrader's generate_assignment records it.

    Built once per version of the course's source notebook and cached in the course's
    .grading/cache/, so each grading skips generate_assignment and the creation of a new
    database (~2 s).
    """
    source = course.source_notebook(lesson)
    digest = hashlib.sha256(source.read_bytes() + nbgrader.__version__.encode()).hexdigest()[:16]
    cached = course.cache / f"{lesson}-{digest}.db"
    if cached.is_file():
        return cached
    with tempfile.TemporaryDirectory(prefix="softmax-gradebook-") as tmp:
        root = Path(tmp)
        copied = source_notebook_in(root, lesson)
        copied.parent.mkdir(parents=True)
        shutil.copy(source, copied)
        config = course.nbgrader_config(at=root)
        with quiet_stderr():
            require_success(NbGraderAPI(config=config).generate_assignment(lesson), "generate_assignment")
        cached.parent.mkdir(parents=True, exist_ok=True)
        staged = cached.with_suffix(f".{os.getpid()}.tmp")
        shutil.copy(root / ".grading" / "gradebook.db", staged)
        os.replace(staged, cached)  # atomic: parallel graders never see half a file
    return cached


def grade_notebook(course: Course, path: Path) -> Report:
    """Grade the notebook at `path` with its lesson's full tests (the lesson of `course` it belongs to)."""
    nb = read_notebook(path)
    report = autograde_sandboxed(course, identify_lesson(course, nb, Path(path)), nb).report
    assert report is not None, "autograde always reports (only a notebook never graded has no report)"
    return report


@dataclass
class Sandboxed:
    """What nbgrader's autograde produced for one submission in its own course directory."""

    report: Report | None
    autograded: str  # the autograded notebook, as JSON text
    grades: dict[str, tuple[float | None, bool]] = field(default_factory=dict)  # cell -> auto_score, needs_manual

    def as_data(self) -> dict:
        """JSON-able data, to cross a process boundary."""
        return {
            "report": None if self.report is None else self.report.as_data(),
            "autograded": self.autograded,
            "grades": {cell: [score, manual] for cell, (score, manual) in self.grades.items()},
        }

    @classmethod
    def from_data(cls, data: dict) -> Sandboxed:
        """The result back from as_data's output."""
        return cls(
            None if data["report"] is None else Report.from_data(data["report"]),
            data["autograded"],
            {cell: (score, manual) for cell, (score, manual) in data["grades"].items()},
        )


def autograde_sandboxed(
    course: Course,
    lesson: str,
    nb: nbformat.NotebookNode,
    timestamp: str | None = None,
    timeout: int | None = None,
    warm: bool = False,
    memory: int | None = None,
) -> Sandboxed:
    """Run nbgrader's autograde on one submission of a lesson of `course` in a throw-away course directory.

    The directory holds only a copy of the lesson's gradebook and the submission, so the
    learner's code runs away from the real gradebook, the solutions and other students.
    `timestamp` is the submission's timestamp.txt; `timeout` the seconds allowed per cell;
    `warm` forks the kernel from a process with its imports done (see warmkernel), and
    `memory` is the megabytes such a kernel may use (default: ForkedKernelManager's).
    """
    gradebook = lesson_gradebook(course, lesson)
    with tempfile.TemporaryDirectory(prefix="softmax-grade-") as tmp:
        root = Path(tmp)
        # nbgrader restores the tests from the gradebook: the source notebook (solutions and
        # hidden tests) stays out of the directory the learner's code runs in.
        (root / SOLUTIONS / lesson).mkdir(parents=True)
        (root / ".grading").mkdir()
        shutil.copy(gradebook, root / ".grading" / "gradebook.db")
        submitted = root / ".grading" / "submitted" / LEARNER / lesson / f"{lesson}.ipynb"
        submitted.parent.mkdir(parents=True)
        nbformat.write(without_duplicate_ids(nb), submitted)
        if timestamp:
            (submitted.parent / "timestamp.txt").write_text(timestamp)
        config = course.nbgrader_config(at=root)
        if timeout:
            config.Execute.timeout = timeout
        if warm:
            config.Execute.kernel_manager_class = "grader.engine.warmkernel.ForkedKernelManager"
            if memory is not None:
                config.ForkedKernelManager.memory = memory
        config.Autograde.autograde_preprocessors = AUTOGRADE_STEPS
        # a cell's printed output may trail its reply on a loaded machine; nbgrader's 4 s would fail the cell
        config.Execute.iopub_timeout = IOPUB_SECONDS
        with quiet_stderr():
            require_success(NbGraderAPI(config=config).autograde(lesson, LEARNER), "autograde")
        autograded = root / ".grading" / "autograded" / LEARNER / lesson / f"{lesson}.ipynb"
        text = autograded.read_text()
        executed = nbformat.reads(text, as_version=4)
        return Sandboxed(report_of(course, executed, lesson), text, scores_of(course, executed, lesson))


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
    causes = [
        line.strip()
        for line in lines
        if re.match(r"\s*[\w.]+(Error|Exception): ", line) and "NbGraderException" not in line
    ]
    detail = causes[-1] if causes else (lines[-1].strip() if lines else "no details")
    raise GradingFailed(f"nbgrader {step} failed: {detail}")
