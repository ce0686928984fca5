"""Graded predictions: the guess is normalised and hashed, the release shows no answer, the explanation is folded,
and our grader and plain nbgrader give a right guess its points, and a wrong or unwritten one none."""

from __future__ import annotations

import re
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from grader.learner import predictions
from grader.learner.checks import CheckFailed
from grader.learner.predictions import check_guess, check_prediction, digest, normalised
from grader.proof.guesses import choices_of, stored_digest
from tests.plain_class import KINDS, PREDICTION_LESSONS, graded_class, plain_scores
from tests.support import COURSE, graded_lessons, tools_env

pytestmark = pytest.mark.xdist_group("predictions-graded")  # its tests read one graded class (tests.plain_class)

LESSONS = PREDICTION_LESSONS  # each with its hand-ins KINDS, graded by plain nbgrader (tests.plain_class) and ours


def test_every_lesson_with_predictions_is_tested_and_lesson_01_has_at_least_two():
    assert len(COURSE.predictions("01_naive_division")) >= 2 and "01_naive_division" in LESSONS


@pytest.mark.parametrize(
    ("typed", "form"),
    [
        (" Yes.", "yes"),
        ("YES", "yes"),
        (True, "yes"),
        (np.True_, "yes"),
        ("y", "yes"),
        ("false", "no"),
        (False, "no"),
        ("Row   Two ", "row two"),
        (3, "3"),
        (3.0, "3"),
        (" +3", "3"),
        ("-2", "-2"),
        (np.int64(-2), "-2"),
        ("B", "b"),
    ],
)
def test_a_guess_counts_however_it_is_typed(typed, form):
    assert normalised(typed) == form


@pytest.mark.parametrize("typed", ["", "   ", None, ..., 0.5, [1], {"a": 1}])
def test_no_guess_or_one_no_prediction_takes_has_no_normal_form(typed):
    assert normalised(typed) is None


def test_the_digest_is_salted_with_the_prediction_and_does_not_show_the_guess():
    assert digest("predict_a", "no") == digest("predict_a", " No.") == digest("predict_a", False)
    assert digest("predict_a", "no") != digest("predict_b", "no")
    assert digest("predict_a", "no") != digest("predict_a", "yes")
    assert re.fullmatch(r"[0-9a-f]{16}", digest("predict_a", "no"))
    with pytest.raises(ValueError):
        digest("predict_a", "")


def test_the_visible_check_says_a_guess_is_written_but_not_whether_it_is_right(capsys):
    check_guess("predict_a", "yes", choices=["yes", "no"])
    right = capsys.readouterr().out
    check_guess("predict_a", "no", choices=["yes", "no"])
    wrong = capsys.readouterr().out
    assert right.replace("'yes'", "'no'") == wrong and "right" not in right.replace("is right is", "")
    with pytest.raises(CheckFailed, match="not written yet"):
        check_guess("predict_a", "", choices=["yes", "no"])
    with pytest.raises(CheckFailed, match="not an answer this prediction takes: it takes one of 'yes', 'no'"):
        check_guess("predict_a", "maybe", choices=["yes", "no"])
    with pytest.raises(CheckFailed, match="a whole number from -10 to 10"):
        check_guess("predict_a", 11, choices=range(-10, 11))


def test_the_hidden_check_passes_the_right_guess_only(capsys):
    stored = digest("predict_a", -2)
    check_prediction("predict_a", "-2", stored)
    assert "was right" in capsys.readouterr().out
    with pytest.raises(CheckFailed, match="was not right"):
        check_prediction("predict_a", -3, stored)
    with pytest.raises(CheckFailed, match="no guess was written"):
        check_prediction("predict_a", "", stored)


def test_authors_get_the_digest_from_the_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "grader.learner.predictions", "hash", "predict_a", "No"],
        capture_output=True,
        text=True,
        env=tools_env(),
    )
    assert done.returncode == 0 and done.stdout.strip() == digest("predict_a", "no")
    refused = subprocess.run(
        [sys.executable, "-m", "grader.learner.predictions", "hash", "not_a_prediction", "no"],
        capture_output=True,
        text=True,
        env=tools_env(),
    )
    assert refused.returncode == 2 and "usage" in refused.stderr and not refused.stdout


def graded_cells_by_id(nb) -> dict[str, nbformat.NotebookNode]:
    return {c.metadata.nbgrader.grade_id: c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")}


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_stored_digest_is_the_reference_guess_and_a_choice_the_check_takes(lesson):
    source = nbformat.read(COURSE.source_notebook(lesson), as_version=4)
    reference = COURSE.reference_answers(lesson)
    for prediction, variable in COURSE.predictions(lesson).items():
        cell = graded_cells_by_id(source)[prediction]
        scope: dict = {}
        exec(reference[variable], scope)  # noqa: S102 - the lesson's own reference guess
        assert digest(prediction, scope[variable]) == stored_digest(cell.source), prediction
        assert normalised(scope[variable]) in {normalised(c) for c in choices_of(cell.source)}, prediction


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_release_shows_no_answer(lesson):
    release = nbformat.read(COURSE.release_notebook(lesson), as_version=4)
    source = nbformat.read(COURSE.source_notebook(lesson), as_version=4)
    code = "\n".join(c.source for c in release.cells if c.cell_type == "code")
    reference = COURSE.reference_answers(lesson)
    for prediction, variable in COURSE.predictions(lesson).items():
        [guess] = [c for c in release.cells if c.metadata.get("nbgrader", {}).get("grade_id") == variable]
        assert re.fullmatch(rf'{variable} = ""  # [^\n]*', guess.source), guess.source
        answer = reference[variable].splitlines()[-1]  # `guess_... = "b"`
        assert answer not in code and stored_digest(graded_cells_by_id(source)[prediction].source) not in code
        assert "check_prediction" not in graded_cells_by_id(release)[prediction].source
    assert not any(c.get("outputs") for c in release.cells if c.cell_type == "code")


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_explanation_after_the_computing_cell_is_folded(lesson):
    """Under each prediction's tests cell: the cell that computes the answer, then Markdown opening with <details>."""
    cells = nbformat.read(COURSE.release_notebook(lesson), as_version=4).cells
    ids = [c.metadata.get("nbgrader", {}).get("grade_id") for c in cells]
    for prediction, variable in COURSE.predictions(lesson).items():
        at = ids.index(prediction)
        assert ids.index(variable) == at - 1  # the guess cell, right above its check
        computing, explanation = cells[at + 1], cells[at + 2]
        assert computing.cell_type == "code" and "nbgrader" not in computing.metadata, prediction
        assert explanation.cell_type == "markdown" and explanation.source.startswith("<details><summary>")
        assert "</details>" in explanation.source, prediction


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """way -> (hand-in kind, lesson, cell) -> score: plain nbgrader's and our engine's, of every lesson's hand-ins.

    Ours are the `lesson_reports` build's gradings of the same notebooks, read from its folder here (the fixture's
    name would move these tests to that build's worker): that build is done long before plain nbgrader's runs, so
    nothing waits. `grader grade`'s gradebook against plain nbgrader's is test_pipeline's."""
    ours = graded_lessons(tmp_path_factory)
    engine = {
        (kind, lesson, t.grade_id): t.points for lesson in LESSONS for kind in KINDS for t in ours[lesson][kind].tests
    }
    return {"plain": plain_scores(graded_class(tmp_path_factory), KINDS, LESSONS), "ours": engine}


def test_our_grader_and_plain_nbgrader_give_the_same_scores(graded):
    assert graded["ours"] == graded["plain"]
    assert {(kind, lesson) for kind, lesson, _ in graded["ours"]} == {(k, lesson) for k in KINDS for lesson in LESSONS}


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_right_guess_gets_its_points_and_a_wrong_or_unwritten_one_none(lesson, graded):
    """The proof of a prediction: the reference guess gets its points, the release's stub 0, a wrong guess 0;
    and a wrong guess costs nothing but the prediction's own points."""
    points = {
        c.metadata.nbgrader.grade_id: c.metadata.nbgrader.points
        for c in graded_cells_by_id(nbformat.read(COURSE.source_notebook(lesson), as_version=4)).values()
    }
    for way, scores in graded.items():
        for prediction in COURSE.predictions(lesson):
            assert scores["reference", lesson, prediction] == points[prediction], (way, prediction)
            assert scores["stub", lesson, prediction] == 0, (way, prediction)
            assert scores["wrong", lesson, prediction] == 0, (way, prediction)
        others = [test for test in points if test not in COURSE.predictions(lesson)]
        assert all(scores["wrong", lesson, test] == points[test] for test in others), way


def test_predictions_are_no_graded_functions():
    for lesson in LESSONS:
        functions = COURSE.graded_functions(lesson)
        assert functions and not set(functions) & set(COURSE.predictions(lesson).values())
        assert set(COURSE.reference_answers(lesson)) == set(functions) | set(COURSE.predictions(lesson).values())


def test_the_module_offers_the_checks_by_name():
    assert predictions.__all__ == ["check_guess", "check_prediction", "reveal"]
