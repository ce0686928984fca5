"""A course directory: its lessons (sources and release), its nbgrader settings and its .grading folder.

Every part of the grader is handed the Course it works on; only a command line picks one (Course.find).
"""

from __future__ import annotations

import functools
import os
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

from traitlets import TraitError
from traitlets.config import Config, PyFileConfigLoader

from grader.course.feedback_policy import HiddenTestFeedback
from grader.course.limits import Limits
from grader.course.service_policy import GradingService

SOLUTIONS = "solutions"
RELEASE = "notebooks"
CONFIG = "nbgrader_config.py"
GRADING = ".grading"
REPO = Path(__file__).resolve().parents[2]  # this checkout, when the package runs from one


class NotACourse(ValueError):
    """The directory is not a course directory: it lacks nbgrader_config.py or solutions/."""


@dataclass(frozen=True)
class Course:
    """The course directory at `root` (resolved); its nbgrader_config.py holds the nbgrader settings."""

    root: Path
    db_url: str | None = None  # the gradebook's database (--db); else nbgrader_config.py's db_url

    def __post_init__(self):
        root = Path(self.root).expanduser().resolve()
        missing = [
            name
            for name, there in ((CONFIG, (root / CONFIG).is_file()), (f"{SOLUTIONS}/", (root / SOLUTIONS).is_dir()))
            if not there
        ]
        if missing:
            raise NotACourse(f"{root} is not a course directory (it has no {' and no '.join(missing)})")
        object.__setattr__(self, "root", root)

    @classmethod
    def find(cls, given: Path | None = None, here: Path | None = None) -> Course:
        """The course a command works on: `given` (--course); else the current directory (`here`) if it holds
        nbgrader_config.py; else this repository, if the package runs from one. NotACourse if none, or if its
        nbgrader_config.py cannot be read (its line named)."""
        here = Path.cwd() if here is None else Path(here)
        found = [given] if given is not None else [c for c in (here, REPO) if (c / CONFIG).is_file()][:1]
        if not found:
            raise NotACourse(f"{here} holds no {CONFIG}: name the course directory with --course DIR")
        course = cls(found[0])
        try:
            course.nbgrader_settings()
        except Exception as error:
            config = course.root / CONFIG
            at = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == str(config)]
            where = f"line {at[-1]}: " if at and not isinstance(error, SyntaxError) else ""  # a SyntaxError says it
            raise NotACourse(
                f"{config} cannot be read ({where}{type(error).__name__}: {error}): put it right, or name another "
                "course with --course DIR"
            ) from None
        return course

    def lesson_ids(self) -> list[str]:
        """Lesson ids, in course order: every solutions/<id>/ that holds <id>.py."""
        return lesson_ids_in(self.root)

    def built_lessons(self) -> list[str]:
        """The lessons whose source notebook `release` has built: the only ones a hand-in can be of (a lesson
        being written has its text source alone)."""
        return [lesson for lesson in self.lesson_ids() if self.source_notebook(lesson).is_file()]

    def text_source(self, lesson: str) -> Path:
        """The jupytext file a lesson is written in (its one source of truth)."""
        return text_source_in(self.root, lesson)

    def source_notebook(self, lesson: str) -> Path:
        """The nbgrader source notebook built from the text source."""
        return source_notebook_in(self.root, lesson)

    def release_notebook(self, lesson: str) -> Path:
        """The student notebook nbgrader generates from the source notebook."""
        return self.root / RELEASE / lesson / f"{lesson}.ipynb"

    @property
    def grading(self) -> Path:
        """Where everything grading produces lives (gradebook, submissions, exchange): git-ignored."""
        return self.root / GRADING

    @property
    def cache(self) -> Path:
        """Gradebooks built once per version of a lesson's source notebook (gradebook.lesson_gradebook)."""
        return self.grading / "cache"

    def nbgrader_config(self, exchange: Path | None = None, at: Path | None = None) -> Config:
        """The course's own nbgrader_config.py; with `at`, the same settings moved to the directory `at`.

        Its gradebook is `db_url` when given, else the db_url the file sets (a PostgreSQL server's, say),
        else .grading/gradebook.db; with `at`, always the SQLite file under `at`.

        `at` serves the throw-away course directories that a grading or a test builds. The
        exchange is `exchange` when given; else the configured one, moved along with the
        course when it is the default under .grading/. It is created if missing.
        """
        put_venv_tools_on_path()
        config = self.nbgrader_settings()
        target = Path(at).resolve() if at is not None else self.root
        config.CourseDirectory.root = str(target)
        if self.db_url and at is None:
            config.CourseDirectory.db_url = self.db_url
        elif at is not None or "db_url" not in config.CourseDirectory:  # a copy's gradebook is its own
            config.CourseDirectory.db_url = f"sqlite:///{target / GRADING / 'gradebook.db'}"
        configured = Path(config.Exchange.get("root") or self.grading / "exchange")
        if exchange is None:
            exchange = target / GRADING / "exchange" if configured == self.grading / "exchange" else configured
        config.Exchange.root = str(Path(exchange).resolve())
        Path(config.Exchange.root).mkdir(parents=True, exist_ok=True)
        return config

    def nbgrader_settings(self) -> Config:
        """The course's nbgrader_config.py as written: no path moved, no folder made (what a grading step reads)."""
        return PyFileConfigLoader(CONFIG, path=str(self.root)).load_config()

    def hidden_test_feedback(self) -> HiddenTestFeedback:
        """What students' feedback shows of failed hidden tests, as nbgrader_config.py sets it (feedback_policy)."""
        return HiddenTestFeedback(config=self.nbgrader_settings())

    def grading_service(self) -> GradingService:
        """When the grading service releases feedback and how many hand-ins it grades, lesson by lesson, as
        nbgrader_config.py sets it (service_policy); NotACourse if it sets one that cannot be used."""
        try:
            return GradingService(config=self.nbgrader_settings())
        except TraitError as error:
            raise NotACourse(
                f"{self.root / CONFIG} sets a GradingService policy that cannot be used ({error})"
            ) from None

    def limits(self) -> Limits:
        """What one grading may use (seconds per cell and notebook, a kernel's memory), as nbgrader_config.py says;
        NotACourse if it sets one that is no limit."""
        try:
            return Limits.from_config(self.nbgrader_settings())
        except TraitError as error:
            raise NotACourse(f"{self.root / CONFIG} sets a limit that cannot be used ({error}): put it right") from None

    def reference_answers(self, lesson: str) -> dict[str, str]:
        """The reference code of every solution cell of a lesson, by grade_id, as a learner would type it."""
        nb = read_cached(self.source_notebook(lesson))
        markers = ("### BEGIN SOLUTION", "### END SOLUTION")
        return {
            c.metadata.nbgrader.grade_id: "\n".join(
                line for line in c.source.splitlines() if line.strip() not in markers
            )
            for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("solution")
        }

    def graded_functions(self, lesson: str) -> list[str]:
        """The functions a lesson grades, in lesson order: its solution cells that are not a prediction's guess."""
        nb = read_cached(self.source_notebook(lesson))
        return [
            c.metadata.nbgrader.grade_id
            for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("solution") and "prediction" not in c.metadata
        ]

    def test_ids(self, lesson: str) -> list[str]:
        """The grade ids of the lesson's test cells, in order (each scores 0 when a submission lacks it)."""
        nb = read_cached(self.source_notebook(lesson))
        return [
            c.metadata.nbgrader.grade_id
            for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata.nbgrader.get("solution")
        ]

    def predictions(self, lesson: str) -> dict[str, str]:
        """{prediction id (its tests cell's grade_id): the guess cell's grade_id, the variable it sets}, in order.

        A guess cell is a solution cell too: `reference_answers` holds the reference guesses, so
        that the reference gets full marks, and `learner_notebook(lesson, {})` leaves them unwritten.
        """
        nb = read_cached(self.source_notebook(lesson))
        return {
            c.metadata["prediction"]: c.metadata.nbgrader.grade_id
            for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("solution") and "prediction" in c.metadata
        }

    def learner_notebook(self, lesson: str, answers: dict[str, str]):
        """The student release with the given solution cells filled in, as a learner would."""
        import nbformat

        nb = nbformat.read(self.release_notebook(lesson), as_version=4)
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in answers:
                cell.source = answers[grade_id]
        return nb


def lesson_ids_in(folder: Path) -> list[str]:
    """The lessons whose text sources `folder` (a course directory or one being built) holds, in course order."""
    solutions = Path(folder) / SOLUTIONS
    return sorted(d.name for d in solutions.iterdir() if (d / f"{d.name}.py").is_file()) if solutions.is_dir() else []


def text_source_in(folder: Path, lesson: str) -> Path:
    """Where a lesson's text source goes in `folder`, a course directory or one being built."""
    return Path(folder) / SOLUTIONS / lesson / f"{lesson}.py"


def source_notebook_in(folder: Path, lesson: str) -> Path:
    """Where a lesson's source notebook goes in `folder`, a course directory or one being built."""
    return Path(folder) / SOLUTIONS / lesson / f"{lesson}.ipynb"


def put_venv_tools_on_path() -> None:
    """nbgrader shells out to `alembic`; make the one beside this interpreter findable by it."""
    tools = os.path.dirname(os.path.abspath(sys.executable))  # absolute: nbgrader changes directory
    if tools not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = tools + os.pathsep + os.environ.get("PATH", "")


def read_cached(path: Path):
    """A lesson notebook (source or release) parsed once per version of the file; do not modify it.

    Grading reads the same few notebooks for every submission, and nbformat's validation
    is the slow part of reading.
    """
    path = Path(path)
    return _read(str(path), path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _read(path: str, _version: int):
    import nbformat

    return nbformat.read(path, as_version=4)
