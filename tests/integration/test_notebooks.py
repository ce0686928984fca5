"""Every lesson notebook runs top to bottom, prints the numbers docs/COURSE.md quotes, compares with PyTorch where
it is installed, and hides its answers."""

import re

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from grader.engine.sandbox import IOPUB_SECONDS
from grader.engine.warmkernel import ForkedKernelManager
from grader.learner.pytorch import INSTALL_LINE, SKIPPED_LINE
from tests import lessons
from tests.support import COURSE, LESSONS_WITH_TORCH, printed_by, run_apart, torch_cells

pytestmark = pytest.mark.xdist_group("executed-lessons")  # its tests share a module-scoped fixture (tests/conftest.py)

LESSONS = COURSE.lesson_ids()


def execute(path, tmp_path):
    """Run the notebook; each cell's stdout (and stderr) becomes one output, as Jupyter shows it.

    ipykernel sends what a cell has printed whenever its flush timer fires (0.2 s after a write, also
    one from the cell before), so one `print(label, array)` may arrive as two stream messages, cut
    after the label; kept apart, they would split the line that the lesson prints.

    The kernel is forked from the warm one grading uses (numpy and IPython imported once per run, not per notebook)."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        km=ForkedKernelManager(kernel_name="python3"),
        timeout=120,
        iopub_timeout=IOPUB_SECONDS,
        coalesce_streams=True,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    run_apart(client.execute)
    return nb


def printed(nb):
    return "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)


@pytest.fixture(scope="module", params=LESSONS)
def executed_solution(request, tmp_path_factory):
    lesson = request.param
    return lesson, execute(COURSE.source_notebook(lesson), tmp_path_factory.mktemp(lesson))


def test_solution_runs_without_error_or_stderr(executed_solution):
    """Only a cell tagged `expect-warning` (a warning shown on purpose) may write to stderr, and it must."""
    _, nb = executed_solution
    for cell in nb.cells:
        if cell.cell_type == "code":
            kinds = {(o.output_type, o.get("name")) for o in cell.outputs}
            assert ("error", None) not in kinds, cell.source
            shows_warning = "expect-warning" in cell.metadata.get("tags", [])
            assert (("stream", "stderr") in kinds) == shows_warning, cell.source


def test_solution_shows_course_numbers(executed_solution):
    lesson, nb = executed_solution
    text = printed(nb)
    for number in lessons.load(lesson).NUMBERS:
        assert number in text, f"{lesson} should print {number!r}"


def test_figures_render_with_alt_text(executed_solution):
    _, nb = executed_solution
    figures = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if "image/png" in o.get("data", {})]
    assert figures, "each lesson draws at least one figure"
    for figure in figures:
        assert re.search(r'<img [^>]*alt="[^"]{40,}"', figure["data"]["text/html"])


def test_with_torch_installed_every_torch_cell_prints_its_comparison(executed_solution):
    """Run as in a learner's lab (no grading variable) with torch installed, as CI installs it from requirements.txt:
    each PyTorch cell prints its comparison, not the install line (without torch this fails; it does not skip)."""
    lesson, nb = executed_solution
    cells = torch_cells(nb)
    assert bool(cells) == (lesson in LESSONS_WITH_TORCH), lesson
    for index in cells:
        text = printed_by(nb.cells[index])
        assert text.strip(), nb.cells[index].source
        assert INSTALL_LINE not in text and SKIPPED_LINE not in text, text


@pytest.mark.parametrize("lesson", LESSONS)
def test_release_runs_until_the_first_stub(lesson, tmp_path):
    """Everything before the learner's first exercise works; its check then says it is not written."""
    with pytest.raises(CellExecutionError) as stopped:
        execute(COURSE.release_notebook(lesson), tmp_path)
    assert stopped.value.ename == "CheckFailed" and "not written yet" in stopped.value.evalue


def _regions(text, begin, end):
    return re.findall(rf"{begin}\n(.*?)\n\s*{end}", text, flags=re.S)


@pytest.mark.parametrize("lesson", LESSONS)
def test_release_contains_no_solutions_or_hidden_tests(lesson):
    source = "\n".join(c.source for c in nbformat.read(COURSE.source_notebook(lesson), as_version=4).cells)
    released = "\n".join(c.source for c in nbformat.read(COURSE.release_notebook(lesson), as_version=4).cells)
    solutions = _regions(source, "### BEGIN SOLUTION", "### END SOLUTION")
    hidden = _regions(source, "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")
    assert solutions and hidden
    for block in solutions + hidden:
        assert block.strip() not in released
    assert "BEGIN SOLUTION" not in released and "HIDDEN TESTS" not in released
