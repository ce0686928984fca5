"""A cell that fails because an exercise above is still a stub shows one line naming the function to finish, and
no half-drawn figure; any other failure keeps its traceback; grading and Validate see IPython's own outputs."""

import asyncio
import re
from dataclasses import dataclass

import nbformat
from nbclient import NotebookClient

from grader.engine import sandbox
from grader.engine.warmkernel import ForkedKernelManager
from grader.learner import stubs
from tests.support import COURSE, run_apart

LESSON = COURSE.lesson_ids()[0]  # 01_naive_division: naive_normalize, then is_distribution
ANSI = re.compile(r"\x1b\[[0-9;]*m")
TRACEBACK = "Traceback (most recent call last)"  # IPython's header of a traceback with frames
NAIVE, IS_DISTRIBUTION = ["naive_normalize"], ["is_distribution"]
OUTPUTS = ("stream", "display_data", "execute_result", "error")  # the messages a cell's outputs are made of


@dataclass
class Ran:
    """What a cell showed: its error's name (None: it passed) and traceback lines, the images it displayed, what it
    printed, and the kinds of every output it sent."""

    ename: str | None
    shown: list[str]
    images: int
    printed: str
    outputs: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.shown)


def setup_and_stubs() -> list[str]:
    """The release's setup cell and its stubs, as a learner who skips every exercise runs them."""
    nb = nbformat.read(COURSE.release_notebook(LESSON), as_version=4)
    cells = [c for c in nb.cells if c.cell_type == "code"]
    setup = next(c.source for c in cells if c.metadata.get("nbgrader", {}).get("grade_id") == "setup")
    solutions = [
        c.source for c in cells if c.metadata.get("nbgrader", {}).get("solution") and "prediction" not in c.metadata
    ]  # a prediction's guess cell is no stub: it holds `guess_... = ""`
    assert "point_at_stubs()" in setup and all("raise NotImplementedError()" in s for s in solutions)
    return [setup, *solutions]


async def outcomes(cells: list[str], tmp_path) -> list[Ran]:
    """Run `cells` one by one in a fresh kernel, as JupyterLab sends them (a person there: allow_stdin)."""
    km = ForkedKernelManager(kernel_name="python3")
    await km.start_kernel(cwd=str(tmp_path))
    client = km.client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=30)
        found = []
        for code in cells:
            messages: list[dict] = []
            await client.execute_interactive(code, timeout=30, stop_on_error=False, output_hook=messages.append)
            errors = [m["content"] for m in messages if m["msg_type"] == "error"]
            shown = [ANSI.sub("", line) for line in "\n".join(errors[0]["traceback"]).splitlines()] if errors else []
            images = [
                m
                for m in messages
                if m["msg_type"] in ("display_data", "execute_result") and "image/png" in m["content"]["data"]
            ]
            printed = "".join(m["content"]["text"] for m in messages if m["msg_type"] == "stream")
            kinds = [m["msg_type"] for m in messages if m["msg_type"] in OUTPUTS]
            found.append(Ran(errors[0]["ename"] if errors else None, shown, len(images), printed, kinds))
        return found
    finally:
        client.stop_channels()
        await km.shutdown_kernel(now=True)


def run(cells, tmp_path, after_stubs=True) -> list[Ran]:
    """What `cells` showed, run after the release's setup cell and stubs (or after the setup cell alone)."""
    given = setup_and_stubs() if after_stubs else setup_and_stubs()[:1]
    ran = run_apart(asyncio.run, outcomes([*given, *cells], tmp_path))
    assert [r.ename for r in ran[: len(given)]] == [None] * len(given), ran
    return ran[len(given) :]


def test_a_cell_that_calls_a_stub_shows_one_line_naming_it(tmp_path):
    cells = [
        "weights = naive_normalize([1, 2, 1])",  # calls the stub
        "def twice(scores):\n    return 2 * naive_normalize(scores)",
        "twice([1, 2])",  # through a function of the lesson's
        "try:\n    is_distribution([1.0])\nexcept NotImplementedError as e:\n    raise RuntimeError('x') from e",
        "%tb",
    ]
    called, _, through, wrapped, whole = run(cells, tmp_path)
    assert called.ename == "NotImplementedError"  # the same error, the kernel's status unchanged
    assert called.shown == [stubs.pointer(NAIVE)]
    assert called.shown == ["Finish `naive_normalize` above to run this cell: it is not written yet."]
    assert through.shown == [stubs.pointer(NAIVE)]
    assert wrapped.ename == "RuntimeError" and wrapped.shown == [stubs.pointer(IS_DISTRIBUTION)]
    # %tb still shows the whole traceback of the last failure, frames and all
    assert whole.ename == "RuntimeError" and TRACEBACK in whole.text and "is_distribution" in whole.text


def test_a_check_of_a_stub_shows_one_line_and_a_check_of_wrong_code_its_whole_message(tmp_path):
    cells = [
        "check_call(naive_normalize, [[1, 3], [2, 2]], expect=[[0.25, 0.75], [0.5, 0.5]])",
        "def naive_normalize(scores):\n    return np.asarray(scores, dtype=float)",  # finished, wrong
        "check_call(naive_normalize, [[1, 3], [2, 2]], expect=[[0.25, 0.75], [0.5, 0.5]])",
    ]
    stub, _, wrong = run(cells, tmp_path)
    assert stub.ename == "CheckFailed" and stub.shown == [stubs.check_pointer("naive_normalize")]
    assert stub.shown == [
        "CheckFailed: `naive_normalize` is not written yet (it still raises NotImplementedError): finish it above."
    ]
    assert wrong.ename == "CheckFailed" and "is not right" in wrong.text and "expected:" in wrong.text
    assert "Finish" not in wrong.text and "finish it above" not in wrong.text


def test_every_error_a_skipped_stub_leaves_behind_shows_one_line(tmp_path):
    """A later cell fails on what the stub's cell did not make, whatever the error: NameError, KeyError, ..."""
    made_half = {
        "weights = naive_normalize([1, 2, 1])": NAIVE,  # never made
        "table = {}\nfor key in ('a', 'b'):\n    table[key] = naive_normalize([1, 2])": NAIVE,  # left empty
        "best = None\nbest = naive_normalize([1, 3])": NAIVE,  # left None
        "rows = []\nfor scores in ([1, 2], [3, 4]):\n    rows.append(is_distribution(scores))": IS_DISTRIBUTION,
    }
    failing = {  # the error, the cell, the name it needs, the stub behind that name
        "NameError": ("print(weights.sum())", "weights", NAIVE),
        "KeyError": ("table['a']", "table", NAIVE),
        "TypeError": ("best + 1", "best", NAIVE),
        "AttributeError": ("best.sum()", "best", NAIVE),
        "IndexError": ("rows[0]", "rows", IS_DISTRIBUTION),
        "ValueError": ("np.array(rows).reshape(2, 1)", "rows", IS_DISTRIBUTION),  # a shape error
    }
    ran = run([*made_half, *(cell for cell, _, _ in failing.values())], tmp_path)
    for r, stub in zip(ran, made_half.values(), strict=False):
        assert r.ename == "NotImplementedError" and r.shown == [stubs.pointer(stub)]
    for (ename, (_, needed, stub)), r in zip(failing.items(), ran[len(made_half) :], strict=True):
        assert r.ename == ename and r.shown == [stubs.pointer(stub, [needed])], (ename, r)
    assert ran[len(made_half)].shown == [
        "Finish `naive_normalize` above to run this cell, then run the cells below it again: "
        "`weights` could not be made without it."
    ]


def test_what_a_failed_cell_made_before_it_stopped_is_not_blamed_on_the_stub(tmp_path):
    cells = [
        "scores = [1, 2, 1]\nweights = naive_normalize(scores)",
        "scores[7]",  # made before the stub's line: an IndexError of the learner's own
        "print(wieghts)",  # a typo, not a name the stub kept from being made
        "weights = np.ones(2)\nboth = naive_normalize(weights)",  # makes `weights` at last, then stops
        "weights.no_such_attribute",
    ]
    _, own, typo, _, made_at_last = run(cells, tmp_path)
    assert (
        made_at_last.ename == "AttributeError" and TRACEBACK in made_at_last.text and "Finish" not in made_at_last.text
    )
    assert own.ename == "IndexError" and TRACEBACK in own.text and "Finish" not in own.text
    assert typo.ename == "NameError" and TRACEBACK in typo.text and "Finish" not in typo.text


def test_a_real_error_in_a_finished_function_keeps_its_traceback(tmp_path):
    cells = [
        "rows = []\nrows.append(is_distribution([1.0]))",  # is_distribution is still a stub
        "def naive_normalize(scores):\n    scores = np.asarray(scores, dtype=float)\n"
        "    return scores / scores.sum(axis=1)",  # finished, with a bug
        "naive_normalize([1, 2, 1]) + len(rows)",  # reads what the stub kept from being made, too
        "def is_distribution(weights, atol=1e-8):\n    total = weights.sum()\n    raise NotImplementedError()",
        "is_distribution([0.5, 0.5])",  # a half-written stub's own code fails
    ]
    _, _, finished, _, half_written = run(cells, tmp_path)
    assert finished.ename == "AxisError" and TRACEBACK in finished.text and "scores.sum(axis=1)" in finished.text
    assert "Finish" not in finished.text
    assert half_written.ename == "AttributeError" and TRACEBACK in half_written.text
    assert "weights.sum()" in half_written.text and "Finish" not in half_written.text


def test_a_finished_function_is_no_longer_named(tmp_path):
    cells = [
        "shares = naive_normalize([1, 2, 1])",
        "flags = is_distribution([0.5, 0.5])",
        COURSE.reference_answers(LESSON)["naive_normalize"],
        "print(shares)",  # it waited on naive_normalize, finished now: the cell that makes it has to run again
        "shares = naive_normalize([1, 2, 1])\nprint(flags)",  # still waits on is_distribution
        "print(shares.sum())",
    ]
    *_, stale, without_flags, fine = run(cells, tmp_path)
    assert stale.ename == "NameError" and TRACEBACK in stale.text and "Finish" not in stale.text
    assert without_flags.shown == [stubs.pointer(IS_DISTRIBUTION, ["flags"])]
    assert fine.ename is None and fine.printed.strip() == "1.0"


def test_without_a_stub_a_failure_is_left_as_it_was(tmp_path):
    cells = ["print(nothing)", "1 / 0", "def broken(:\n    pass", "def mine():\n    raise NotImplementedError('later')"]
    missing, division, syntax, _, mine = run([*cells, "mine()"], tmp_path, after_stubs=False)
    assert missing.ename == "NameError" and TRACEBACK in missing.text and "Finish" not in missing.text
    assert division.ename == "ZeroDivisionError" and TRACEBACK in division.text
    assert syntax.ename == "SyntaxError" and "Finish" not in syntax.text
    # A function of the learner's own that raises NotImplementedError is named as well: it is not finished either.
    assert mine.ename == "NotImplementedError" and mine.shown == [stubs.pointer(["mine"])]


def test_a_plot_that_fails_half_way_shows_no_figure(tmp_path):
    cells = [
        "fig, ax = plt.subplots()\nax.plot([1, 2, 3])\nax.plot(naive_normalize([1, 2]))",  # a stub stops it
        "fig, ax = plt.subplots()\nax.plot([1, 2, 3])\nax.plot(undefined_thing)",  # the learner's own error
        "fig, ax = plt.subplots()\nax.plot([1, 2, 3])",  # the control: a whole plot is drawn
    ]
    stopped, own, whole = run(cells, tmp_path)
    assert stopped.images == 0 and stopped.shown == [stubs.pointer(NAIVE, plot=True)]
    assert stopped.shown == ["Finish `naive_normalize` above to see this plot: it is not written yet."]
    assert own.images == 0 and own.ename == "NameError" and TRACEBACK in own.text
    assert whole.ename is None and whole.images == 1


def test_running_the_setup_cell_again_shows_the_line_once(tmp_path):
    setup, *_ = setup_and_stubs()
    _, failed = run([setup, "naive_normalize([1])"], tmp_path)
    assert failed.shown == [stubs.pointer(NAIVE)]


def setup_cell(lesson: str) -> str:
    nb = nbformat.read(COURSE.release_notebook(lesson), as_version=4)
    return next(c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "setup")


def test_every_lessons_setup_cell_shows_nothing(tmp_path):
    """Each setup cell ends with `point_at_stubs()`, which showed a bare True in the lab (False in Validate)."""
    setups = [setup_cell(lesson) for lesson in COURSE.lesson_ids()]
    assert all(setup.rstrip().splitlines()[-1].startswith("point_at_stubs()") for setup in setups)
    asked = "from grader.learner.stubs import pointing_at_stubs\nprint(pointing_at_stubs())"
    # As JupyterLab runs them, one lesson after another in a kernel: each took effect and showed nothing.
    *ran, pointing = run_apart(asyncio.run, outcomes([*setups, asked], tmp_path))
    assert [r.outputs for r in ran] == [[]] * len(setups) and pointing.printed == "True\n"
    # As nbgrader's Validate runs a lesson (nbclient, no person there): nothing shown either.
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(setup) for setup in setups])
    client = NotebookClient(
        nb, timeout=60, iopub_timeout=sandbox.IOPUB_SECONDS, resources={"metadata": {"path": str(tmp_path)}}
    )
    run_apart(client.execute)
    assert [cell.outputs for cell in nb.cells] == [[]] * len(setups)


def release_with(extra: list[str]) -> nbformat.NotebookNode:
    """The untouched release of LESSON with `extra` code cells after its stubs' cells."""
    nb = nbformat.read(COURSE.release_notebook(LESSON), as_version=4)
    last_stub = max(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("solution"))
    nb.cells[last_stub + 1 : last_stub + 1] = [nbformat.v4.new_code_cell(code) for code in extra]
    return nb


def test_a_kernel_run_by_nbclient_registers_nothing(tmp_path):
    """nbgrader's Validate and nbconvert run notebooks with nbclient: their outputs stay IPython's own."""
    nb = release_with(
        [
            "from grader.learner.stubs import pointing_at_stubs\nprint('pointing:', pointing_at_stubs())",
            "calls_the_stub = naive_normalize([1, 2, 1])",
        ]
    )
    path = {"metadata": {"path": str(tmp_path)}}
    # nbclient's own 4 s for outputs trailing a reply drops them on a loaded machine: wait as grading does
    client = NotebookClient(nb, timeout=60, iopub_timeout=sandbox.IOPUB_SECONDS, allow_errors=True, resources=path)
    run_apart(client.execute)
    printed = [o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert "pointing: False\n" in printed
    called = next(c for c in nb.cells if c.source.startswith("calls_the_stub"))
    (error,) = [o for o in called.outputs if o.output_type == "error"]
    shown = ANSI.sub("", "\n".join(error.traceback))
    assert error.ename == "NotImplementedError" and TRACEBACK in shown and "Finish" not in shown


def test_grading_sees_the_release_fail_with_ipythons_own_tracebacks():
    nb = release_with(["calls_the_stub = naive_normalize([1, 2, 1])", "print(calls_the_stub)"])
    graded = sandbox.autograde_sandboxed(COURSE, LESSON, nb, warm=True)
    assert graded.report.score == 0
    cells = {c.source: c for c in graded.executed.cells if c.cell_type == "code"}
    for source, ename in (
        ("calls_the_stub = naive_normalize([1, 2, 1])", "NotImplementedError"),
        ("print(calls_the_stub)", "NameError"),
    ):
        (error,) = [o for o in cells[source].outputs if o.output_type == "error"]
        shown = ANSI.sub("", "\n".join(error.traceback))
        assert error.ename == ename and TRACEBACK in shown and "Finish" not in shown


def test_outside_ipython_it_registers_nothing():
    assert stubs.point_at_stubs() is None and stubs.pointing_at_stubs() is False


def test_a_stub_is_a_notebook_function_that_still_raises_not_implemented():
    namespace = {}
    exec("def f(x):\n    raise NotImplementedError()\ndef g(x):\n    return x\n_h = f", namespace)
    namespace["__name__"] = "__main__"
    for name in ("f", "g", "_h"):
        namespace[name].__module__ = "__main__"
    assert stubs.unfinished(namespace) == ["f"]
    assert stubs.unfinished({"imported": stubs.point_at_stubs}) == []


def test_what_a_cell_makes_and_what_it_takes_in():
    cell = (
        "import numpy as np\nrows, table = [], {}\nfor key in keys:\n    table[key] = f(key)\n    rows.append(g(key))\n"
        "def helper(x):\n    inner = x\n    return inner\nsquares = [k * k for k in keys]\ncount += 1"
    )
    assert stubs.made_by(cell) == {
        "np": False, "rows": True, "table": True, "key": False, "helper": False, "squares": False, "count": True,
    }  # fmt: skip
    assert stubs.wanted_by(cell) == {"keys", "f", "g", "count"}
    assert stubs.unrun(cell, 4) == {
        "key": False,
        "table": True,
        "rows": True,
        "helper": False,
        "squares": False,
        "count": True,
    }
    assert stubs.unrun("x = (\n 1)\ny = 2", 2) == {"x": False, "y": False}
    assert stubs.made_by("print(") == {} and stubs.wanted_by("print(") == set()


def test_a_check_cell_run_before_its_guess_cell_says_to_run_the_guess_cell_first(tmp_path):
    check = 'check_guess("predict_journey_weight", guess_journey_weight, choices=["a", "b", "c", "d"])'
    before, other, _, after = run(
        [check, "print(guess_not_made_anywhere)", 'guess_journey_weight = "b"', check], tmp_path
    )
    assert before.ename == "NameError"  # the same error, the kernel's status unchanged
    assert before.shown == [
        "NameError: guess_journey_weight is not set yet: run the guess cell above first (the cell that sets "
        "guess_journey_weight), then this cell."
    ]
    assert other.ename == "NameError" and TRACEBACK in other.text  # a name no check of a guess reads: as it was
    assert after.ename is None and "is written down" in after.printed
