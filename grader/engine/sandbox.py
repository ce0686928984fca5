"""nbgrader's autograde of one notebook: its own preprocessors, called in the order its Autograde runs them.

nbgrader's converter would build a course directory per submission, copy its gradebook,
write and re-read the notebook between its two passes and validate it after every step.
Here its steps (ClearOutput, DeduplicateIds, OverwriteKernelspec, OverwriteCells,
CheckCellMetadata, then Execute, IgnorePattern, ClearMetadataPreprocessor, LimitOutput) run on
the notebook in memory, CheckCellMetadata once per distinct grading metadata. OverwriteCells
restores every test cell (hidden tests included) from the lesson's gradebook (recorded once by
generate_assignment's own steps, cached: course.gradebook.lesson_gradebook; read once per process:
LessonRecord), and Execute runs
test cells outside the learner's kernel (testrunner). The notebook is validated after each
pass, as nbconvert's optimistic validation does. Scores are read from the executed notebook
with nbgrader's own rule (scores.scores_of), so the steps that only write the throw-away
gradebook (SaveAutoGrades, AssignLatePenalties) are left out: the course's gradebook is
written by the instructor's process alone (instructor.grading.record).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import json
import multiprocessing.util
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbconvert.preprocessors import ClearMetadataPreprocessor
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import (
    CheckCellMetadata,
    ClearOutput,
    DeduplicateIds,
    IgnorePattern,
    LimitOutput,
    OverwriteCells,
    OverwriteKernelspec,
)
from nbgrader.utils import setenv

from grader.course import Course
from grader.course.gradebook import lesson_gradebook
from grader.course.limits import Limits
from grader.course.nbgrader_calls import GradingFailed, failure_line, quiet_stderr
from grader.engine.scores import Report, report_of, scores_of
from grader.engine.testrunner import TestsOutsideKernel
from grader.learner import predictions

LEARNER = "learner"
IOPUB_SECONDS = 30
GRADING_KERNEL = (  # what a grading kernel is started with (see autograde_sandboxed)
    "--DisplayFormatter.active_types=text/plain",  # its displays: text alone
    "--HistoryManager.enabled=False",  # no history database (In, Out and _i stay as ever)
    "--InteractiveShell.xmode=Plain",  # tracebacks without their source context
    # its log's debug lines not even made: traitlets sets the kernel's logger to DEBUG and leaves the level to its
    # handler, so each of the few debug lines ipykernel logs per cell was made (a stack walk each) and then dropped
    '--IPKernelApp.logging_config={"loggers": {"IPKernelApp": {"level": "WARNING"}}}',
)


class CheckCellMetadataOnce(CheckCellMetadata):
    """nbgrader's CheckCellMetadata, run once per distinct grading metadata in this process.

    Its verdict depends on each cell's type and nbgrader metadata alone (a cell's text only
    appears in its messages), and after OverwriteCells nearly every submission of a lesson
    carries the same. nbgrader re-checks its own JSON schema for every cell it validates, about
    a tenth of a grading's CPU; a notebook whose metadata passed before passes again."""

    passed: dict[str, None] = {}  # digests of the metadata that passed, oldest first
    KEPT = 1024

    def preprocess(self, nb, resources):
        digest = metadata_digest(nb)
        if digest not in self.passed:
            nb, resources = super().preprocess(nb, resources)
            if len(self.passed) >= self.KEPT:
                del self.passed[next(iter(self.passed))]
            self.passed[digest] = None
        return nb, resources


def metadata_digest(nb) -> str:
    """A digest of what nbgrader's metadata check reads: each cell's type and nbgrader metadata, in order."""
    seen = [
        [index, cell.get("cell_type"), cell.metadata["nbgrader"]]
        for index, cell in enumerate(nb.cells)
        if "nbgrader" in cell.get("metadata", {})
    ]
    return hashlib.sha256(json.dumps(seen, sort_keys=True, default=repr).encode()).hexdigest()


@dataclass(frozen=True)
class RecordedSource:
    """What nbgrader's OverwriteCells reads of a cell the lesson's gradebook records (nbgrader.api.SourceCell)."""

    name: str
    cell_type: str
    locked: bool
    checksum: str | None
    source: str


@dataclass(frozen=True)
class RecordedPoints:
    """What nbgrader's OverwriteCells reads of a graded cell the lesson's gradebook records (a GradeCell's or
    TaskCell's points)."""

    max_score: float


@dataclass(frozen=True)
class LessonRecord:
    """A lesson's gradebook as nbgrader's OverwriteKernelspec and OverwriteCells read it, read once per process.

    Each opens the gradebook for every submission and asks it, cell by cell, for what the lesson
    recorded (about 20 ms of a grading's CPU in a lesson of 30 graded cells), though a lesson's
    gradebook never changes (course.gradebook.lesson_gradebook: a new version of the lesson is a new
    file). This answers the same questions, with the same MissingEntry for a cell it does not hold,
    from what nbgrader's own Gradebook gave once (lesson_record)."""

    assignment: str
    notebook: str
    kernelspec: str | None
    source_cells: dict[str, RecordedSource]
    graded_cells: dict[str, RecordedPoints]

    def __enter__(self) -> LessonRecord:
        return self

    def __exit__(self, *_) -> None:
        """Nothing to close: OverwriteCells uses its gradebook in a `with`."""

    def find_source_cell(self, name: str, notebook: str, assignment: str) -> RecordedSource:
        if (notebook, assignment) == (self.notebook, self.assignment) and name in self.source_cells:
            return self.source_cells[name]
        raise MissingEntry(f"No such source cell: {assignment}/{notebook}/{name}")

    def find_graded_cell(self, name: str, notebook: str, assignment: str) -> RecordedPoints:
        if (notebook, assignment) == (self.notebook, self.assignment) and name in self.graded_cells:
            return self.graded_cells[name]
        raise MissingEntry(f"No such graded cell: {assignment}/{notebook}/{name}")


@functools.lru_cache(maxsize=32)
def lesson_record(db_url: str, notebook: str, assignment: str) -> LessonRecord:
    """What the gradebook at `db_url` records of a lesson's notebook, read through nbgrader's Gradebook; its
    cells by name (a grade cell before a task cell of the same name, as Gradebook.find_graded_cell looks)."""
    with Gradebook(db_url) as gradebook:
        recorded = gradebook.find_notebook(notebook, assignment)
        sources = {
            cell.name: RecordedSource(cell.name, cell.cell_type, cell.locked, cell.checksum, cell.source)
            for cell in recorded.source_cells
        }
        graded = {cell.name: RecordedPoints(cell.max_score) for cell in [*recorded.task_cells, *recorded.grade_cells]}
        return LessonRecord(assignment, notebook, recorded.kernelspec, sources, graded)


def recorded_lesson(resources: dict) -> LessonRecord:
    """The LessonRecord of the notebook an autograde step's `resources` name."""
    named = resources["nbgrader"]
    return lesson_record(named["db_url"], named["notebook"], named["assignment"])


class OverwriteKernelspecFromRecord(OverwriteKernelspec):
    """nbgrader's OverwriteKernelspec, with the lesson's kernelspec read once per process (LessonRecord)."""

    def preprocess(self, nb, resources):
        recorded = recorded_lesson(resources).kernelspec
        kernelspec = json.loads(recorded) if recorded is not None else None  # parsed for each: it is the notebook's
        if kernelspec:
            nb.metadata["kernelspec"] = kernelspec
        return nb, resources


class OverwriteCellsFromRecord(OverwriteCells):
    """nbgrader's OverwriteCells, its own check of every cell, asking a LessonRecord rather than the gradebook.

    With add_missing_cells (which reads more of the gradebook), it is nbgrader's own as it is."""

    def preprocess(self, nb, resources):
        if self.add_missing_cells:
            return super().preprocess(nb, resources)
        self.notebook_id = resources["nbgrader"]["notebook"]
        self.assignment_id = resources["nbgrader"]["assignment"]
        self.db_url = resources["nbgrader"]["db_url"]
        self.gradebook = recorded_lesson(resources)  # what OverwriteCells.preprocess_cell asks, cell by cell
        return super(OverwriteCells, self).preprocess(nb, resources)


# nbgrader's Autograde: its sanitizing pass, then its grading pass, with Execute replaced by one that runs
# test cells outside the kernel; without the two steps that only write its own gradebook, and without its
# second CheckCellMetadata, since no step in between changes a cell's nbgrader metadata
SANITIZE_STEPS = (
    ClearOutput,
    DeduplicateIds,
    OverwriteKernelspecFromRecord,
    OverwriteCellsFromRecord,
    CheckCellMetadataOnce,
)
AUTOGRADE_STEPS = (TestsOutsideKernel, IgnorePattern, ClearMetadataPreprocessor, LimitOutput)


@dataclass
class Sandboxed:
    """What nbgrader's autograde produced for one submission."""

    report: Report | None
    autograded: str  # the autograded notebook, as JSON text
    grades: dict[str, tuple[float | None, bool]] = field(default_factory=dict)  # cell -> auto_score, needs_manual
    executed: nbformat.NotebookNode | None = field(default=None, compare=False)  # the same notebook, parsed

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
    limits: Limits | None = None,
    warm: bool = False,
) -> Sandboxed:
    """Run nbgrader's autograde steps on one submission of a lesson of `course`.

    The learner's kernel starts in an empty directory of its own: the gradebook, the
    solutions and other students are elsewhere. `timestamp` (the submission's timestamp.txt)
    changes nothing here: the course's gradebook records it (instructor.grading.record). `limits`
    are the seconds a cell and the whole notebook may run and the megabytes of a warm kernel
    (default: the course's, Course.limits); `warm` forks the kernel from a process with its
    imports done (see warmkernel).
    """
    config = course.nbgrader_settings()
    limits = course.limits() if limits is None else limits
    config.Execute.timeout = limits.cell_seconds
    config.TestsOutsideKernel.notebook_timeout = limits.notebook_seconds
    if warm:
        config.Execute.kernel_manager_class = "grader.engine.warmkernel.ForkedKernelManager"
        config.ForkedKernelManager.memory = limits.memory_mb
    # a cell's printed output may trail its reply on a loaded machine; nbgrader's 4 s would fail the cell
    config.Execute.iopub_timeout = IOPUB_SECONDS
    config.Execute.shutdown_kernel = "immediate"  # nothing is left to save in a graded kernel
    # Outputs of the learner's cells do not count: the kernel shows them as text only, so it never draws a
    # figure (drawing the lessons' figures was most of a kernel's work), and it shows a failed cell's
    # traceback in IPython's plain form (the form with source context costs about 11 ms of CPU more per
    # failed cell, and a stub's notebook fails in a dozen). It keeps no history database either (about 1.5 ms
    # per cell; In, Out and _i are kept as ever). What the learner's code computes is the same; a display of
    # raw data (display(..., raw=True)) is kept, and bounded, as ever.
    config.Execute.extra_arguments = list(GRADING_KERNEL)
    with tempfile.TemporaryDirectory(prefix="softmax-grade-") as workdir, quiet_stderr():
        resources = {
            "unique_key": lesson,
            "nbgrader": {
                "student": LEARNER,
                "assignment": lesson,
                "notebook": lesson,
                "db_url": f"sqlite:///{readable_gradebook(lesson_gradebook(course, lesson))}",
            },
            "metadata": {"name": lesson, "path": workdir},  # the kernel's working directory
        }
        try:
            _, executed = nbformat.validator.normalize(without_duplicate_ids(nb))
            # the guesses the learner committed before the answers showed, read before ClearOutput drops them
            with predictions.recorded_commitments(predictions.commitments_in(executed)):
                executed = run_autograde_steps(executed, resources, config)
        except Exception as error:
            raise GradingFailed(f"nbgrader autograde failed: {failure_line(error)}") from error
    text = nbformat.v4.writes(executed)  # validated above
    return Sandboxed(report_of(course, executed, lesson), text, scores_of(course, executed, lesson), executed)


def run_autograde_steps(executed: nbformat.NotebookNode, resources: dict, config) -> nbformat.NotebookNode:
    """nbgrader's sanitizing pass, then its grading pass, the notebook validated after each."""
    for steps in (SANITIZE_STEPS, AUTOGRADE_STEPS):
        with setenv(NBGRADER_EXECUTION="autograde") if steps is AUTOGRADE_STEPS else contextlib.nullcontext():
            for step in steps:
                executed, resources = step(config=config)(executed, resources)
        nbformat.validate(executed, relax_add_props=True)
    return executed


@functools.lru_cache(maxsize=32)
def readable_gradebook(cached: Path) -> Path:
    """This process's own copy of a cached lesson gradebook, for nbgrader's steps that read the lesson from it.

    A copy, because nbgrader's Gradebook may write when it opens a database (it records a
    missing course), and parallel graders must not write the shared cache."""
    folder = Path(tempfile.mkdtemp(prefix="softmax-gradebooks-"))
    # nothing left behind when the process ends: multiprocessing runs these at the exit of a worker too,
    # where atexit's handlers are not run
    multiprocessing.util.Finalize(None, shutil.rmtree, args=(folder, True), exitpriority=0)
    copied = folder / cached.name
    shutil.copy(cached, copied)
    return copied


def without_duplicate_ids(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy in which only the last cell of each grade id keeps its nbgrader metadata.

    nbgrader means to do this itself (DeduplicateIds) but leaves an empty metadata dict
    behind, which its own schema check then rejects, failing the whole notebook. Only the
    cells it changes are copied (the caller's normalize copies the whole notebook).
    """
    nb = copy.copy(nb)
    nb.cells = list(nb.cells)
    seen = set()
    for index in reversed(range(len(nb.cells))):
        cell = nb.cells[index]
        meta = cell.metadata.get("nbgrader")
        grade_id = meta.get("grade_id") if isinstance(meta, dict) and isinstance(meta.get("grade_id"), str) else None
        if grade_id in seen:
            cell = nb.cells[index] = copy.copy(cell)
            cell.metadata = copy.copy(cell.metadata)
            del cell.metadata["nbgrader"]
        elif grade_id is not None:
            seen.add(grade_id)
    return nb
