"""Every graded function's contract is a list of properties, each checked by a hidden test that
an implementation breaking it fails (shown by the catalogue, graded by `grader prove`)."""

from __future__ import annotations

import shutil

import pytest

from grader.course import Course, authoring, contract, text_source_in
from grader.learner import hints
from tests.support import COURSE, by_id

CONTRACTS = contract.course_properties(COURSE)
FUNCTIONS = sorted(CONTRACTS)

# What every function promises, and what some promise besides (where the property holds).
EVERY_FUNCTION = {"value", "unchanged", "dtype", "shapes"}
STABLE = {
    "stable_softmax",
    "masked_softmax",
    "attention_weights",
    "attend",
    "logsumexp",
    "log_softmax",
    "cross_entropy",
    "online_softmax",
}
MASKED = {"masked_softmax", "attention_weights", "attend"}
SHIFT = {
    "softmax",
    "softmax_with_temperature",
    "stable_softmax",
    "masked_softmax",
    "logsumexp",
    "log_softmax",
    "online_softmax",
}
PERMUTATION = {"softmax", "stable_softmax", "masked_softmax", "log_softmax"}


def required(function: str) -> set[str]:
    """The property ids `function`'s contract must hold."""
    needed = set(EVERY_FUNCTION)
    if function in STABLE:
        needed |= {"extremes", "quiet"}
    if function in MASKED:
        needed |= {"forbidden", "all_forbidden"}
    if function in SHIFT:
        needed.add("shift")
    if function in PERMUTATION:
        needed.add("permutation")
    if function == "sample_next_token":
        needed.add("own_generator")
    return needed


PROPERTIES = [(f, p) for f in FUNCTIONS for p in CONTRACTS[f].values()]


def test_every_graded_function_has_a_contract():
    graded = {f for lesson in COURSE.lesson_ids() for f in COURSE.graded_functions(lesson)}
    assert set(CONTRACTS) == graded


@pytest.mark.parametrize("function", FUNCTIONS)
def test_contract_holds_the_properties_that_apply(function):
    missing = required(function) - set(CONTRACTS[function])
    assert not missing, f"{function}'s hidden tests declare no property {sorted(missing)}"


@pytest.mark.parametrize("function,prop", PROPERTIES, ids=[f"{f}.{p.id}" for f, p in PROPERTIES])
def test_a_misconception_breaking_the_property_fails_its_test(function, prop, proofs):
    breakers = [m for m in hints.misconceptions(function) if prop.id in m.breaks]
    assert breakers, f"no catalogued misconception of {function} says it breaks {prop.id!r}"
    graded = by_id(proofs)
    caught = [m.id for m in breakers if set(graded[m.id]["failed_tests"]) & set(prop.tests)]
    assert caught, (
        f"{function}.{prop.id}: none of {[m.id for m in breakers]} fails a test cell declaring it ({prop.tests})"
    )


def test_breaks_names_only_declared_properties():
    unknown = [(m.id, p) for m in hints.misconceptions() for p in m.breaks if p not in CONTRACTS.get(m.function, {})]
    assert not unknown


def test_property_lines_are_parsed_from_hidden_tests_only(tmp_path, monkeypatch):
    source = "\n".join(
        [
            "check_call(f, 1, expect=1)",
            "# property visible: not hidden, not counted",
            contract.BEGIN,
            "# property value: the answer",
            "check_call(f, 2, expect=2)",
            contract.END,
        ]
    )
    assert [
        contract.PROPERTY.match(line).group(1)
        for line in contract.hidden_lines(source)
        if contract.PROPERTY.match(line)
    ] == ["value"]


def test_a_test_cell_belongs_to_the_function_its_marker_names(tmp_path):
    """The grade_id suggests f_twice; the marker says f, and the marker wins."""
    lesson = "01_named"
    text = text_source_in(tmp_path, lesson)
    text.parent.mkdir(parents=True)
    text.write_text(
        "\n".join(
            [
                '# %% nbgrader="solution" grade_id="f"',
                "def f():",
                "    return 1",
                "",
                '# %% nbgrader="solution" grade_id="f_twice"',
                "def f_twice():",
                "    return 2",
                "",
                '# %% nbgrader="tests" grade_id="test_f_twice_public" points=1 function="f"',
                contract.BEGIN,
                "# property value: the answer is 1",
                "assert f() == 1",
                contract.END,
                "",
            ]
        )
    )
    shutil.copy(COURSE.root / "nbgrader_config.py", tmp_path)
    course = Course(tmp_path)
    authoring.build(course, lesson)
    assert contract.function_of_test(course, "test_f_twice_public", lesson) == "f"
    assert contract.function_of_test(course, "test_nothing", lesson) is None
    found = contract.properties(course, lesson)
    assert found["f"]["value"].tests == ["test_f_twice_public"] and found["f_twice"] == {}


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_every_test_cell_names_one_of_its_lessons_functions(lesson):
    """Each test cell names a graded function, the one its grade_id is named after (so proofs read as before);
    a prediction's names none."""
    functions = set(COURSE.graded_functions(lesson))
    tested = contract.tested_functions(COURSE, lesson)
    assert all(tested.pop(prediction) is None for prediction in COURSE.predictions(lesson))
    assert tested and set(tested.values()) <= functions
    assert all(grade_id.startswith(f"test_{function}_") for grade_id, function in tested.items())
