"""A prediction's guess is committed before its answer shows: the cell that computes the answer stops until then,
the first committed guess is recorded in the notebook (and found there again after a restart), and a guess changed
after the answer earns nothing when the work is graded."""

from __future__ import annotations

import json

import nbformat
import pytest
from nbclient import NotebookClient

from grader.engine.sandbox import autograde_sandboxed
from grader.learner import predictions
from grader.learner.checks import CheckFailed
from grader.learner.predictions import (
    RECORD_MIME,
    SESSION_VARIABLE,
    Commitment,
    check_guess,
    check_prediction,
    commitments_in,
    digest,
    recorded_commitments,
    reveal,
)
from grader.learner.pytorch import SKIP_VARIABLE
from tests.support import COURSE, run_cli_here

LESSON = "01_naive_division"
PREDICTION, VARIABLE = "predict_float_sum", "guess_float_sum"  # its answer is "no"


@pytest.fixture(autouse=True)
def fresh_kernel_state(monkeypatch):
    """Each test starts as a fresh kernel would: no check passed, nothing committed, no notebook file, not grading."""
    monkeypatch.setattr(predictions, "_CHECKED", {})
    monkeypatch.setattr(predictions, "_COMMITTED", {})
    monkeypatch.delenv(SESSION_VARIABLE, raising=False)
    monkeypatch.delenv(SKIP_VARIABLE, raising=False)


def record(prediction: str, form: str, cell=7) -> dict:
    return {"prediction": prediction, "form": form, "shown": repr(form), "cell": cell, "at": "2026-12-06 14:02"}


def notebook_with(*outputs) -> dict:
    return {"cells": [{"cell_type": "code", "source": "", "outputs": list(outputs)}]}


def display_of(data) -> dict:
    return {"output_type": "display_data", "data": {"text/plain": "x", RECORD_MIME: data}, "metadata": {}}


def test_the_answer_does_not_show_before_the_guess_is_written_and_checked(capsys):
    with pytest.raises(CheckFailed, match="the answer shows once your guess is committed"):
        reveal(PREDICTION, "")
    with pytest.raises(CheckFailed, match="run that cell and its check"):
        reveal(PREDICTION, "no")  # written, but its check has not passed
    check_guess(PREDICTION, "no", choices=["yes", "no"])
    capsys.readouterr()
    reveal(PREDICTION, "no")
    assert "your guess 'no' is committed" in capsys.readouterr().out


def test_the_first_committed_guess_stays_and_a_change_is_shown(capsys):
    check_guess(PREDICTION, "yes", choices=["yes", "no"])
    reveal(PREDICTION, "yes")
    first = capsys.readouterr().out
    check_guess(PREDICTION, "no", choices=["yes", "no"])
    reveal(PREDICTION, "no")
    changed = capsys.readouterr().out
    assert "'yes' is committed" in first
    assert "now 'no', but it was 'yes' when the answer was first shown" in changed and "earns nothing" in changed
    reveal(PREDICTION, " Yes.")  # the committed guess, however it is typed
    assert "committed" in capsys.readouterr().out


def test_after_a_restart_the_record_is_read_from_the_saved_notebook(tmp_path, monkeypatch, capsys):
    saved = tmp_path / "lesson.ipynb"
    saved.write_text(json.dumps(notebook_with(display_of(record(PREDICTION, "yes", cell=12)))))
    monkeypatch.setenv(SESSION_VARIABLE, str(saved))
    check_guess(PREDICTION, "no", choices=["yes", "no"])
    reveal(PREDICTION, "no")
    shown = capsys.readouterr().out
    assert "it was 'yes' when the answer was first shown (In [12]" in shown


def test_a_grading_kernel_reveals_without_a_word():
    """`grader grade` runs the tests outside the kernel, so no check passes there; the handed-in records count."""
    import os

    os.environ[SKIP_VARIABLE] = "1"
    try:
        reveal(PREDICTION, "")
    finally:
        del os.environ[SKIP_VARIABLE]


@pytest.mark.parametrize(
    "outputs",
    [
        [display_of("not a record")],
        [display_of(record("not_a_prediction", "no"))],
        [display_of(record(PREDICTION, ""))],
        [display_of(record(PREDICTION, "x" * 10_000))],
        [display_of({**record(PREDICTION, "no"), "prediction": ["predict_float_sum"]})],
        [{"output_type": "display_data", "data": ["not", "a", "bundle"]}],
        ["not an output"],
    ],
)
def test_what_is_not_a_record_is_left_alone(outputs):
    assert commitments_in(notebook_with(*outputs)) == {}


def test_the_first_record_of_a_prediction_in_cell_order_counts_and_odd_fields_are_tamed():
    nb = {
        "cells": [
            "not a cell",
            {"cell_type": "code", "outputs": [display_of({**record(PREDICTION, "yes"), "cell": True, "at": 3})]},
            {"cell_type": "code", "outputs": [display_of(record(PREDICTION, "no"))]},
        ]
    }
    [(prediction, first)] = commitments_in(nb).items()
    assert prediction == PREDICTION and first.form == "yes" and first.cell is None and first.at == ""
    assert commitments_in("not a notebook") == commitments_in({"cells": "none"}) == {}


def test_a_changed_guess_earns_nothing_and_a_kept_one_is_graded_as_ever():
    stored = digest(PREDICTION, "no")
    with recorded_commitments({PREDICTION: Commitment(PREDICTION, "yes", "'yes'", 9, "")}):
        with pytest.raises(CheckFailed, match="it was 'yes' when the answer was first shown \\(In \\[9\\]\\)"):
            check_prediction(PREDICTION, "no", stored)  # right, but not the committed guess
        with pytest.raises(CheckFailed, match="was not right"):
            check_prediction(PREDICTION, "yes", stored)
    with recorded_commitments({PREDICTION: Commitment(PREDICTION, "no", "'no'", 9, "")}):
        check_prediction(PREDICTION, "no", stored)
    check_prediction(PREDICTION, "no", stored)  # no record (a notebook never run in a lab): the guess as handed in


def run_in_kernel(nb, path, monkeypatch):
    monkeypatch.setenv(SESSION_VARIABLE, str(path))  # the kernel inherits it, as from Jupyter's session manager
    NotebookClient(nb, timeout=120, allow_errors=True, resources={"metadata": {"path": str(path.parent)}}).execute()
    nbformat.write(nb, path)
    return nb


def guessed(nb, guesses: dict[str, str]):
    for cell in nb.cells:
        variable = cell.metadata.get("nbgrader", {}).get("grade_id")
        if variable in guesses:
            cell.source = f'{variable} = "{guesses[variable]}"'
    return nb


def reveal_outputs(nb, prediction: str) -> str:
    [cell] = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith(f'reveal("{prediction}"')]
    return "".join(o.get("data", {}).get("text/plain", "") + o.get("text", "") for o in cell.outputs)


def test_changing_a_guess_after_reading_the_answer_loses_its_point_when_checked(tmp_path, monkeypatch):
    """The way the lesson was gamed: commit "yes", read the answer, change the guess to "no", `make check`."""
    path = tmp_path / f"{LESSON}.ipynb"
    nb = run_in_kernel(
        guessed(nbformat.read(COURSE.source_notebook(LESSON), as_version=4), {VARIABLE: "yes"}), path, monkeypatch
    )
    assert "your guess 'yes' is committed" in reveal_outputs(nb, PREDICTION)
    assert commitments_in(nbformat.read(path, as_version=4))[PREDICTION].form == "yes"

    # the learner changes the guess and runs the lesson again in a restarted kernel: the record stays the first
    nb = run_in_kernel(guessed(nb, {VARIABLE: "no"}), path, monkeypatch)
    assert "now 'no', but it was 'yes' when the answer was first shown" in reveal_outputs(nb, PREDICTION)

    scores = {
        t.grade_id: t for t in autograde_sandboxed(COURSE, LESSON, nbformat.read(path, as_version=4)).report.tests
    }
    assert scores[PREDICTION].points == 0 and "changed after the answer earns nothing" in scores[PREDICTION].message
    others = [t for grade_id, t in scores.items() if grade_id != PREDICTION]
    assert all(t.points == t.max_points for t in others), [t for t in others if t.points != t.max_points]

    checked = run_cli_here("check", path)
    assert checked.returncode == 0 and "changed after the answer" in checked.stdout, checked


def test_a_guess_kept_since_its_commitment_gets_its_point(tmp_path, monkeypatch):
    path = tmp_path / f"{LESSON}.ipynb"
    run_in_kernel(nbformat.read(COURSE.source_notebook(LESSON), as_version=4), path, monkeypatch)
    handed_in = nbformat.read(path, as_version=4)
    assert set(commitments_in(handed_in)) == set(COURSE.predictions(LESSON))
    report = autograde_sandboxed(COURSE, LESSON, handed_in).report
    assert all(t.points == t.max_points for t in report.tests), [t for t in report.tests if t.points != t.max_points]


def test_a_cell_needing_what_a_held_back_answer_makes_says_to_commit_the_guess():
    from grader.learner.stubs import pointer

    assert pointer([PREDICTION], ["total"]) == (
        f"Commit your guess for `{PREDICTION}` above to run this cell, then run the cells below it again: "
        "`total` could not be made without it."
    )
    assert pointer(["softmax", PREDICTION], ["total"], plot=True).startswith(
        f"Finish `softmax` and commit your guess for `{PREDICTION}` above to see this plot"
    )
