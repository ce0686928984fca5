"""What a learner sees when a check fails: the message, never the grader's traceback.

In a real IPython kernel (as JupyterLab and nbgrader's Validate run the notebook) a failing
check's error output is its message (expected, got, largest error, likely mistake, hint);
when the learner's own code raised, its frames follow, and no frame of the grader's does.
`nbgrader validate` prints the same message whole. Grading is unaffected: there the test
cells run outside the kernel, and scores and messages are those of tests/unit/engine.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

from grader.engine.sandbox import IOPUB_SECONDS
from grader.learner.checks import (
    CheckFailed,
    CheckMisused,
    check_call,
    check_generated,
    check_own_generator,
    check_raises,
    shown_to_learner,
    wrapped,
)
from grader.proof import catalogue
from tests.support import ANSI, COURSE, assert_no_grader_frame, plain, run_apart

pytestmark = pytest.mark.xdist_group("shown-messages")  # its tests share a module-scoped fixture (tests/conftest.py)

LESSON = "01_naive_division"
WHOLE_ARRAY = next(m for m in catalogue.misconceptions("naive_normalize") if m.id == "naive_sums_whole_array")
FIRST_LESSON = "docs/tutorials/first-lesson.md"  # the learner's tutorial, which shows these messages

# The learner's code, as a solution cell holds it: one wrong answer, one bug two calls deep, one wrong exception.
LEARNER_CELL = f"""
import numpy as np
from grader.learner.checks import check_call, check_generated, check_own_generator, check_raises
{WHOLE_ARRAY.source}
def row_shares(scores):
    return share_of(np.asarray(scores, dtype=float))

def share_of(x):
    return x / x.sum(axis=-1, keepdims=True) + {{}}["missing"]

def must_refuse(scores):
    raise KeyError("scores not looked at")

def stub(scores):
    raise NotImplementedError()

def softmax(scores):
    x = np.asarray(scores, dtype=float)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)

def stable_softmax(scores, temperature=1.0):
    e = np.exp(np.asarray(scores, dtype=float) / temperature)
    return e / (e.sum(axis=-1, keepdims=True) + 1)
"""
# The test cells, by what each shows.
TEST_CELLS = {
    "wrong": "check_call(naive_normalize, [[1, 3], [2, 2]], expect=[[0.25, 0.75], [0.5, 0.5]])",
    "raises": "check_call(row_shares, [1.0, 3.0], expect=[0.25, 0.75])",
    "wrong error": "check_raises(must_refuse, [1.0, -1.0], error=ValueError)",
    "generated": (
        "check_generated(row_shares, lambda rng, size: rng.random(size), reference=lambda x: x / x.sum(), seed=1)"
    ),
    "stub": "check_call(stub, [1.0, 3.0], expect=[0.25, 0.75])",
    "misused": "check_own_generator(naive_normalize, [1.0, 3.0])",
    "crash": "check_call(softmax, [1.0, 1.0], expect=[0.5, 0.5])",
    "property": "check_call(stable_softmax, [[1.0, 1.0], [2.0, 2.0]], expect=[[0.5, 0.5], [0.5, 0.5]])",
}


@pytest.fixture(scope="module")
def shown(tmp_path_factory) -> dict[str, nbformat.NotebookNode]:
    """Each test cell's error output after a run of the notebook in a real IPython kernel, by the cell's name."""
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(LEARNER_CELL)] + [nbformat.v4.new_code_cell(c) for c in TEST_CELLS.values()]
    )
    folder = tmp_path_factory.mktemp("shown")
    client = NotebookClient(
        nb, timeout=120, iopub_timeout=IOPUB_SECONDS, allow_errors=True, resources={"metadata": {"path": str(folder)}}
    )
    run_apart(client.execute)
    assert not [o for o in nb.cells[0].outputs if o.output_type == "error"], nb.cells[0].outputs
    errors = {}
    for name, cell in zip(TEST_CELLS, nb.cells[1:], strict=True):
        (error,) = [o for o in cell.outputs if o.output_type == "error"]
        errors[name] = error
    return errors


def shown_text(output) -> str:
    return ANSI.sub("", "\n".join(output.traceback))


def test_a_wrong_answer_shows_expected_got_error_mistake_and_hint_and_no_grader_frame(shown):
    output = shown["wrong"]
    text = shown_text(output)
    assert output.ename == "CheckFailed"
    assert text.startswith("CheckFailed: naive_normalize([[1, 3], [2, 2]]) is not right: largest error 0.375")
    assert "  expected: [[0.25, 0.75]," in text and "  got:      [[0.125, 0.375]," in text
    assert f"likely mistake: {WHOLE_ARRAY.description}" in plain(text)
    assert f"hint: {WHOLE_ARRAY.hint}" in plain(text)
    assert "Traceback" not in text and "Cell In[" not in text
    assert_no_grader_frame(text)


def test_the_message_shown_is_the_message_recorded(shown):
    """Only the line breaks differ: what grading records (the error's value) is the same text."""
    for name, output in shown.items():
        first_part = shown_text(output).split("\n\nWhere your code raised")[0]
        assert plain(first_part) == plain(f"{output.ename}: {output.evalue}"), name


@pytest.mark.parametrize("name", ["raises", "generated"])
def test_an_error_in_the_learner_s_code_keeps_the_learner_s_frames_and_only_those(shown, name):
    text = shown_text(shown[name])
    message, _, frames = text.partition("Where your code raised the KeyError:")
    assert "raised KeyError: 'missing'" in message and "Traceback" not in message
    assert "in row_shares(scores)" in frames and "in share_of(x)" in frames
    assert "return share_of(np.asarray(scores, dtype=float))" in frames
    assert 'return x / x.sum(axis=-1, keepdims=True) + {}["missing"]' in frames
    assert frames.rstrip().endswith("KeyError: 'missing'")
    assert_no_grader_frame(text)


def test_the_wrong_exception_keeps_the_frames_that_raised_it(shown):
    text = shown_text(shown["wrong error"])
    assert text.startswith("CheckFailed: must_refuse([1.0, -1.0]) raised KeyError: 'scores not looked at'")
    assert "\n  expected it to raise ValueError.\n" in text
    assert "in must_refuse(scores)" in text and 'raise KeyError("scores not looked at")' in text
    assert_no_grader_frame(text)


def test_a_stub_and_a_misused_check_show_one_sentence(shown):
    stub, misused = shown_text(shown["stub"]), shown_text(shown["misused"])
    assert plain(stub) == "CheckFailed: stub([1.0, 3.0]): not written yet (it still raises NotImplementedError)."
    assert shown["misused"].ename == "CheckMisused"
    assert plain(misused) == "CheckMisused: check_own_generator needs a numpy.random.Generator among the arguments"


def test_every_line_shown_of_a_message_fits_nbgrader_validate_s_width(shown):
    for name in ("wrong", "stub", "misused"):
        assert max(map(len, shown_text(shown[name]).splitlines())) <= 80, name


# ------------------------------------------------------------------ the same, without a kernel


def row_shares(scores):
    return share_of(np.asarray(scores, dtype=float))


def share_of(x):
    return x / x[0]  # a 0-d array cannot be indexed: IndexError


def test_outside_ipython_the_learner_s_frames_are_python_s_traceback_without_the_grader_s():
    with pytest.raises(CheckFailed) as failed:
        check_call(row_shares, 2.0, expect=1.0)
    assert isinstance(failed.value.__cause__, IndexError)
    lines = "\n".join(shown_to_learner(failed.value))
    assert "Traceback (most recent call last)" in lines and __file__ in lines
    assert "in share_of" in lines and "in row_shares" in lines
    assert_no_grader_frame(lines)


def test_the_failure_for_a_learner_s_error_has_it_as_its_cause_in_every_check():
    def refuse(x, rng=None):
        raise LookupError("no")

    for check in (
        lambda: check_call(refuse, [1.0], expect=[1.0]),
        lambda: check_raises(refuse, [1.0], error=ValueError),
        lambda: check_generated(refuse, lambda rng, size: rng.random(size), reference=lambda x: x, seed=0),
        lambda: check_own_generator(refuse, [1.0], rng=np.random.default_rng(0)),
    ):
        with pytest.raises(CheckFailed) as failed:
            check()
        assert isinstance(failed.value.__cause__, LookupError)


def test_a_wrong_answer_has_no_cause_and_a_misused_check_is_still_a_type_error():
    with pytest.raises(CheckFailed) as failed:
        check_call(lambda x: np.asarray(x, dtype=float), [1.0], expect=[2.0])
    assert failed.value.__cause__ is None
    assert plain("\n".join(shown_to_learner(failed.value))) == plain(f"CheckFailed: {failed.value}")
    with pytest.raises(TypeError) as misused:
        check_own_generator(lambda x: x, [1.0])
    assert type(misused.value) is CheckMisused


def test_long_lines_are_wrapped_under_themselves_and_short_ones_kept():
    line = "  likely mistake: " + "word " * 30
    shown = wrapped(f"first\n{line.rstrip()}\n  got: [1, 2]")
    assert shown[0] == "first" and shown[-1] == "  got: [1, 2]"
    assert all(len(piece) <= 80 for piece in shown)
    assert all(piece.startswith("      word") for piece in shown[2:-1])
    assert " ".join(" ".join(shown).split()) == " ".join(f"first {line} got: [1, 2]".split())


# ------------------------------------------------------------------ nbgrader validate


def test_nbgrader_validate_prints_the_message_of_a_wrong_answer_and_of_a_stub_whole(tmp_path):
    guesses = {guess: COURSE.reference_answers(LESSON)[guess] for guess in COURSE.predictions(LESSON).values()}
    nb = COURSE.learner_notebook(LESSON, {**guesses, "naive_normalize": WHOLE_ARRAY.source.strip()})
    nbformat.write(nb, tmp_path / f"{LESSON}.ipynb")
    run = subprocess.run(
        [sys.executable, "-m", "nbgrader", "validate", f"{LESSON}.ipynb"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    printed = run.stdout
    assert "VALIDATION FAILED ON 4 CELL(S)" in printed, printed + run.stderr  # public and details cells of both
    said = plain(printed)
    assert "CheckFailed: naive_normalize([[1, 3], [2, 2]]) is not right: largest error 0.375 at index (0, 1)" in said
    assert f"likely mistake: {WHOLE_ARRAY.description} hint: {WHOLE_ARRAY.hint}" in said
    assert (
        "CheckFailed: is_distribution([0.25, 0.5, 0.25]): not written yet (it still raises NotImplementedError)."
        in said
    )
    errors = printed.split("The error was:")[1:]
    assert all("..." not in error.split("=" * 20)[0] for error in errors), printed  # no line cut short
    assert_no_grader_frame(printed)


def test_the_learner_s_tutorial_shows_what_a_failing_check_prints(shown):
    tutorial = (COURSE.root / FIRST_LESSON).read_text()
    example = tutorial.split("A failure looks like this")[1].split("```")[1]
    assert textwrap.dedent(example).strip("\n") == shown_text(shown["wrong"])


def test_a_crash_says_what_the_input_had_and_shows_the_learner_s_line(shown):
    text = shown_text(shown["crash"])
    message, _, frames = text.partition("\n\nWhere your code raised the AxisError:")
    assert plain(message).startswith(
        "CheckFailed: softmax([1.0, 1.0]) raised AxisError: axis 1 is out of bounds for array of dimension 1 why: "
        "`scores` was one row (a Python list of 2 numbers), which has axis 0 only"
    )
    assert "your line that raised it: e = np.exp(x - x.max(axis=1, keepdims=True)) (in softmax" in plain(message)
    assert plain(message).count("hint:") == 1 and "in softmax(scores)" in frames
    assert_no_grader_frame(text)


def test_a_wrong_answer_no_mistake_explains_names_the_property_it_breaks(shown):
    text = plain(shown_text(shown["property"]))
    assert "broken property (value): the weights of each row sum to 1. stable_softmax([1.0, 2.0]) returned " in text
    assert "[0.2447, 0.6652]: the row sums to 0.909969, not 1." in text
    assert text.count("hint:") == 1 and "likely mistake" not in text


@pytest.mark.parametrize("name", ["crash", "property"])
def test_the_learner_s_tutorial_shows_a_crash_and_a_broken_property_explained(shown, name):
    tutorial = (COURSE.root / FIRST_LESSON).read_text()
    example = tutorial.split(f"<!-- shown: {name} -->")[1].split("```")[1]
    assert textwrap.dedent(example).strip("\n") == shown_text(shown[name]).split("\n\nWhere your code raised")[0]
