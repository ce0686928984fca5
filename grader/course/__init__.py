"""Where the course's files live, and nbgrader settings for any course directory."""
from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

from traitlets.config import Config, PyFileConfigLoader

REPO = Path(__file__).resolve().parent.parent.parent
SOLUTIONS = "solutions"
RELEASE = "notebooks"


def lesson_ids(root: Path = REPO) -> list[str]:
    """Lesson ids, in course order: every solutions/<id>/ that holds <id>.py."""
    folder = root / SOLUTIONS
    return sorted(d.name for d in folder.iterdir() if (d / f"{d.name}.py").is_file()) if folder.is_dir() else []


def text_source(lesson: str, root: Path = REPO) -> Path:
    """The jupytext file a lesson is written in (its one source of truth)."""
    return root / SOLUTIONS / lesson / f"{lesson}.py"


def source_notebook(lesson: str, root: Path = REPO) -> Path:
    """The nbgrader source notebook built from the text source."""
    return root / SOLUTIONS / lesson / f"{lesson}.ipynb"


def release_notebook(lesson: str, root: Path = REPO) -> Path:
    """The student notebook nbgrader generates from the source notebook."""
    return root / RELEASE / lesson / f"{lesson}.ipynb"


def put_venv_tools_on_path() -> None:
    """nbgrader shells out to `alembic`; make the one beside this interpreter findable."""
    tools = os.path.dirname(os.path.abspath(sys.executable))  # absolute: nbgrader changes directory
    if tools not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = tools + os.pathsep + os.environ.get("PATH", "")


def nbgrader_config(root: Path = REPO, exchange: Path | None = None) -> Config:
    """The repository's nbgrader_config.py, moved to the course directory `root`.

    The same settings serve the real course (root = the repository) and every
    throw-away course directory that a check or a test builds. The exchange is
    `exchange` when given; else the configured one, moved along with the course when it
    is the default under .grading/. It is created if missing.
    """
    put_venv_tools_on_path()
    loader = PyFileConfigLoader("nbgrader_config.py", path=str(REPO))
    config = loader.load_config()
    root = Path(root).resolve()
    grading = root / ".grading"
    config.CourseDirectory.root = str(root)
    config.CourseDirectory.db_url = f"sqlite:///{grading / 'gradebook.db'}"
    configured = Path(config.Exchange.root)
    if exchange is None:
        default = REPO / ".grading" / "exchange"
        exchange = grading / "exchange" if configured == default else configured
    config.Exchange.root = str(Path(exchange).resolve())
    Path(config.Exchange.root).mkdir(parents=True, exist_ok=True)
    return config


def reference_answers(lesson: str, root: Path = REPO) -> dict[str, str]:
    """The reference code of every solution cell of a lesson, by grade_id, as a learner would type it."""
    nb = read_cached(source_notebook(lesson, root))
    return {c.metadata.nbgrader.grade_id: "\n".join(line for line in c.source.splitlines()
                                                   if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))
            for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")}


def learner_notebook(lesson: str, answers: dict[str, str], root: Path = REPO):
    """The student release with the given solution cells filled in, as a learner would."""
    import nbformat

    nb = nbformat.read(release_notebook(lesson, root), as_version=4)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell.source = answers[grade_id]
    return nb


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
