"""Each lesson's release, its exercises left as stubs, run top to bottom as a learner runs it (one kernel per lesson,
errors allowed): every failing cell says in one line which exercise to finish, and none leaves a figure.

The rule only, never a particular cell: other work changes the lessons' text. A failing cell shows one line,
either stubs.pointer's ("Finish `f` above ...") or, for a visible check of a stub, stubs.check_pointer's
("CheckFailed: `f` is not written yet ..."), and the functions it names are stubs of the lesson. A graded
prediction's check, its guess not written yet, shows its own message instead: one line (wrapped as the checks
wrap a line, its later parts indented) naming the prediction, and no frame; so does the cell computing its answer,
which waits for the guess (predictions.reveal), and a cell needing what that cell makes says to commit the guess.
"""

import asyncio
import re
from dataclasses import dataclass

import nbformat
import pytest

from grader.engine.warmkernel import ForkedKernelManager
from tests.support import COURSE, run_apart

ANSI = re.compile(r"\x1b\[[0-9;]*m")
NAMES = r"((?:`\w+`(?:, )?)+)"
# "Finish `f` above ...", "Commit your guess for `predict_x` above ...", or both: what a cell needs from above
POINTER = re.compile(
    rf"(?:Finish {NAMES}(?: and commit your guess for {NAMES})?|Commit your guess for {NAMES}) above to "
    r"(?:run this cell|see this plot)[,:] .*\."
)
CHECK = re.compile(r"CheckFailed: (`\w+`) is not written yet \(it still raises NotImplementedError\): .*\.")
FRAMES = ("Traceback (most recent call last)", "Cell In[", 'File "', "---->")  # what IPython shows of a frame


@dataclass
class Ran:
    source: str
    prediction: str | None  # the id of the prediction whose tests cell this is
    ename: str | None
    shown: list[str]
    images: int


def release_cells(lesson: str) -> tuple[list, set[str]]:
    """The release's code cells, and the names of the functions its exercise (solution) cells define: its stubs."""
    nb = nbformat.read(COURSE.release_notebook(lesson), as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    exercises = [c.source for c in code if c.metadata.get("nbgrader", {}).get("solution")]
    return code, set(re.findall(r"^def (\w+)\(", "\n".join(exercises), flags=re.M))


async def run_as_a_learner(cells: list, cwd) -> list[Ran]:
    """Run every cell in one kernel, as JupyterLab sends them (allow_stdin), going on after a failure."""
    km = ForkedKernelManager(kernel_name="python3")
    await km.start_kernel(cwd=str(cwd))
    client = km.client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=60)
        ran = []
        for cell in cells:
            messages: list[dict] = []
            await client.execute_interactive(cell.source, timeout=300, stop_on_error=False, output_hook=messages.append)
            errors = [m["content"] for m in messages if m["msg_type"] == "error"]
            shown = [ANSI.sub("", line) for e in errors for line in "\n".join(e["traceback"]).splitlines()]
            images = sum(
                m["msg_type"] in ("display_data", "execute_result")
                and any(kind.startswith("image/") for kind in m["content"]["data"])
                for m in messages
            )
            ename = errors[0]["ename"] if errors else None
            ran.append(Ran(cell.source, cell.metadata.get("prediction"), ename, shown, images))
        return ran
    finally:
        client.stop_channels()
        await km.shutdown_kernel(now=True)


def named_stubs(ran: Ran) -> list[str] | None:
    """The functions a failure's output names to finish, when it is the one line of either form; else None."""
    if len(ran.shown) != 1 or any(frame in ran.shown[0] for frame in FRAMES):
        return None
    pointed = POINTER.fullmatch(ran.shown[0])
    if pointed:
        return re.findall(r"`(\w+)`", " ".join(group for group in pointed.groups() if group))
    checked = ran.ename == "CheckFailed" and CHECK.fullmatch(ran.shown[0])
    return re.findall(r"`(\w+)`", checked.group(1)) if checked else None


def names_its_prediction(ran: Ran, prediction: str | None) -> bool:
    """A prediction's check, or the cell computing its answer, shows one line (its later parts indented, as the
    checks wrap it) that names it."""
    first, *rest = ran.shown or [""]
    return (
        ran.ename in ("CheckFailed", "NotCommitted")
        and first.startswith(f"{ran.ename}: {prediction}: ")
        and all(line.startswith("    ") for line in rest)
        and not any(frame in line for line in ran.shown for frame in FRAMES)
    )


def names_an_exercise(ran: Ran, stubs: set[str], predictions: set[str]) -> bool:
    """Whether a failure shows one of the allowed lines, naming stubs or predictions of the lesson (or, the check of
    a prediction or the cell computing its answer, that prediction)."""
    revealed = re.match(r'reveal\("(\w+)"', ran.source)
    if names_its_prediction(ran, ran.prediction or (revealed and revealed.group(1))):
        return True
    names = named_stubs(ran)
    return bool(names) and set(names) <= stubs | predictions


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_every_failing_cell_names_an_exercise_to_finish_and_leaves_no_figure(lesson, tmp_path):
    cells, stubs = release_cells(lesson)
    assert stubs, "a release has exercises"
    ran = run_apart(asyncio.run, run_as_a_learner(cells, tmp_path))
    failed = [r for r in ran if r.ename]
    assert any(r.ename != "CheckFailed" for r in failed), "the cells after a stub fail as well as its check"
    predictions = set(COURSE.predictions(lesson))
    wrong = [
        (r.source.splitlines()[0], r.ename, r.shown) for r in failed if not names_an_exercise(r, stubs, predictions)
    ]
    assert not wrong, f"{lesson}: failing cells that do not name an exercise in one line: {wrong}"
    drawn = [(r.source.splitlines()[0], r.images) for r in failed if r.images]
    assert not drawn, f"{lesson}: failing cells that left a figure: {drawn}"
