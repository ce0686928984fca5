"""A cell that fails while an exercise above is still a stub names the function to finish (in a real kernel)."""

import asyncio
import re

import nbformat

from grader.engine.warmkernel import ForkedKernelManager
from grader.learner import stubs
from tests.support import COURSE, run_apart

LESSON = COURSE.lesson_ids()[0]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


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


async def failures(cells: list[str], tmp_path) -> list[dict]:
    """Run `cells` one by one in a fresh kernel; for each, its error (ename, evalue, traceback text) or None."""
    km = ForkedKernelManager(kernel_name="python3")
    await km.start_kernel(cwd=str(tmp_path))
    client = km.client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=30)
        found = []
        for code in cells:
            errors = []

            def keep(msg, errors=errors):
                if msg["msg_type"] == "error":
                    errors.append(msg["content"])

            await client.execute_interactive(code, timeout=30, output_hook=keep)
            found.append(
                {
                    "ename": errors[0]["ename"],
                    "evalue": errors[0]["evalue"],
                    "text": ANSI.sub("", "\n".join(errors[0]["traceback"])),
                }
                if errors
                else None
            )
        return found
    finally:
        client.stop_channels()
        await km.shutdown_kernel(now=True)


def run(cells, tmp_path):
    return run_apart(asyncio.run, failures(cells, tmp_path))


def test_a_skipped_stubs_later_cells_say_which_function_to_finish(tmp_path):
    given = setup_and_stubs()
    later = [
        "weights = naive_normalize([1, 2, 1])",  # calls the stub
        "print(weights.sum())",  # uses what the failed cell never made
        "is_distribution(weights)",
        "1 / 0",  # nothing to do with the exercises
    ]
    outcome = run([*given, *later], tmp_path)
    assert outcome[: len(given)] == [None] * len(given)
    calls, uses, both, unrelated = outcome[len(given) :]
    assert calls["ename"] == "NotImplementedError"  # the same error, the kernel's status unchanged
    assert calls["text"].splitlines()[-1] == stubs.pointer(["naive_normalize"], NotImplementedError())
    assert "`naive_normalize` is not written yet: finish it in its exercise above" in calls["text"]
    assert uses["ename"] == "NameError" and "`is_distribution`" in uses["text"]
    assert "`naive_normalize`, `is_distribution` above are not written yet" in uses["text"]
    assert "the cell that makes `weights` may have failed" in uses["text"]
    assert both["ename"] == "NameError"
    assert unrelated["ename"] == "ZeroDivisionError" and ">>>" not in unrelated["text"]


def test_a_finished_function_is_no_longer_named(tmp_path):
    setup, *_ = setup_and_stubs()
    answers = COURSE.reference_answers(LESSON)
    cells = [
        setup,
        answers["naive_normalize"],
        "def is_distribution(weights, atol=1e-8):\n    raise NotImplementedError()",
        "naive_normalize([1, 2, 1]).sum()",
        "is_distribution([0.5, 0.5])",
        "print(missing)",
    ]
    *_, fine, stub, missing = run(cells, tmp_path)
    assert fine is None
    assert stub["text"].splitlines()[-1] == stubs.pointer(["is_distribution"], NotImplementedError())
    assert "`is_distribution` above is not written yet" in missing["text"] and "naive_normalize" not in missing["text"]


def test_without_a_stub_a_failure_is_left_as_it_was(tmp_path):
    setup, *_ = setup_and_stubs()
    cells = [setup, "print(nothing)", "def mine():\n    raise NotImplementedError('later')", "mine()"]
    _, missing, _, mine = run(cells, tmp_path)
    assert missing["ename"] == "NameError" and ">>>" not in missing["text"]
    # A function of the learner's own that raises NotImplementedError is named as well: it is not finished either.
    assert mine["ename"] == "NotImplementedError" and "`mine` is not written yet" in mine["text"]


def test_running_the_setup_cell_again_adds_the_line_once(tmp_path):
    setup, stub, *_ = setup_and_stubs()
    *_, failed = run([setup, setup, stub, "naive_normalize([1])"], tmp_path)
    assert failed["text"].count(">>>") == 1


def test_outside_ipython_it_registers_nothing():
    assert stubs.point_at_stubs() is False


def test_a_stub_is_a_notebook_function_that_still_raises_not_implemented():
    namespace = {}
    exec("def f(x):\n    raise NotImplementedError()\ndef g(x):\n    return x\n_h = f", namespace)
    namespace["__name__"] = "__main__"
    for name in ("f", "g", "_h"):
        namespace[name].__module__ = "__main__"
    assert stubs.unfinished(namespace) == ["f"]
    assert stubs.unfinished({"imported": stubs.point_at_stubs}) == []
