"""The mechanical mutants, checked without grading: each rule, stable ids, no duplicates, and the
records of equivalent mutants. How the hidden tests treat the mutants is proven in test_prove.py."""

from __future__ import annotations

import ast
import json
import types

import pytest

from grader.proof import mutate, prove
from tests.support import COURSE

pytestmark = pytest.mark.fast  # make test-fast: starts no kernel and runs no nbgrader

LESSONS = COURSE.lesson_ids()


def changed(expression: str, slug: str) -> list[str]:
    """What `return <expression>` becomes in each mutant of one rule, in order."""
    source = f"def f(x, y, rng):\n    return {expression}\n"
    return [
        ast.unparse(ast.parse(m.source).body[0].body[0].value)
        for m in mutate.mutants_of(source, "f")
        if m.id.split(":")[1] == slug
    ]


@pytest.mark.parametrize(
    "slug, expression, mutant",
    [
        ("axis-0", "x.max(axis=-1, keepdims=True)", "x.max(axis=0, keepdims=True)"),
        ("axis-0", "x.max(-1)", "x.max(0)"),
        ("axis-0", "np.sum(x, -1)", "np.sum(x, 0)"),
        ("axis-none", "np.sum(x, axis=-1)", "np.sum(x, axis=None)"),
        ("axis-none", "x.any(-1)", "x.any(None)"),
        ("no-keepdims", "x.sum(axis=-1, keepdims=True)", "x.sum(axis=-1)"),
        ("max-min", "np.max(x)", "np.min(x)"),
        ("max-min", "x.min(axis=-1)", "x.max(axis=-1)"),
        ("max-min", "np.maximum(x, y)", "np.minimum(x, y)"),
        ("max-min", "np.argmax(x)", "np.argmin(x)"),
        ("max-min", "max(x, y)", "min(x, y)"),
        ("global-max", "x.max(axis=-1, keepdims=True)", "x.max()"),
        ("global-max", "np.max(x, axis=-1, keepdims=True)", "np.max(x)"),
        ("inf-finite", "-np.inf", "-1000000000.0"),
        ("inf-finite", "-math.inf", "-1000000000.0"),
        ("inf-finite", "float('-inf')", "-1000000000.0"),
        ("inf-finite", "np.inf", "1000000000.0"),
        ("cmp-flip", "x < y", "x > y"),
        ("cmp-flip", "x >= y", "x <= y"),
        ("cmp-flip", "x == y", "x != y"),
        ("cmp-strict", "x < y", "x <= y"),
        ("cmp-strict", "x >= y", "x > y"),
        ("plus-1", "x[..., 0]", "x[..., 1]"),
        ("minus-1", "x * 2.5", "x * 1.5"),
        ("plus-1", "x[-2]", "x[-1]"),
        ("no-cast", "np.asarray(x, dtype=float)", "np.asarray(x)"),
        ("no-cast", "np.ones(3, dtype=bool)", "np.ones(3)"),
        ("no-cast", "x.astype(np.float64)", "x"),
        ("no-cast", "float(x)", "x"),
        ("no-shift", "x - x.max(axis=-1, keepdims=True)", "x"),
        ("global-rng", "rng.choice(3, p=x)", "np.random.choice(3, p=x)"),
        ("global-rng", "rng.random(2)", "np.random.random(2)"),
        ("add-sub", "x + y", "x - y"),
        ("add-sub", "x - y", "x + y"),
        ("mul-div", "x * y", "x / y"),
        ("mul-div", "x / y", "x * y"),
        ("and-or", "x & y", "x | y"),
        ("and-or", "x or y", "x and y"),
        ("any-all", "np.any(x)", "np.all(x)"),
        ("any-all", "x.all(axis=-1)", "x.any(axis=-1)"),
        ("sum-mean", "x.sum(axis=-1)", "x.mean(axis=-1)"),
        ("sum-mean", "np.sum(x)", "np.mean(x)"),
        ("no-neg", "-x", "x"),
        ("no-invert", "~x", "x"),
        ("no-not", "not x", "x"),
        ("where-swap", "np.where(x, y, 0)", "np.where(x, 0, y)"),
    ],
)
def test_rule_makes_the_expected_mutant(slug, expression, mutant):
    assert mutant in changed(expression, slug)


@pytest.mark.parametrize(
    "slug, expression",
    [
        ("plus-1", "x.sum(axis=-1)"),  # the axis rules' own -1
        ("minus-1", "np.max(x, -1)"),
        ("plus-1", "x.sum(keepdims=True)"),  # True is no number
        ("global-max", "x.max()"),  # already global
        ("global-rng", "x.max()"),  # np.random has no max
        ("global-rng", "np.random.default_rng(0).choice(3)"),  # not a parameter's generator
        ("no-neg", "-1"),  # a literal: the constant rules change it
        ("no-cast", "float('-inf')"),  # a literal, not a cast
    ],
)
def test_rule_leaves_alone(slug, expression):
    assert changed(expression, slug) == []


def test_a_negative_literal_changes_as_one_number():
    assert changed("x[-1]", "plus-1") == ["x[0]"]
    assert changed("x[-1]", "minus-1") == ["x[-2]"]


GUARDED = '''
def f(x):
    """Half of x."""
    if x < 0:
        raise ValueError("negative")
    return x / 2
'''


def by_slug(source: str) -> dict[str, list[mutate.Mutant]]:
    out: dict[str, list[mutate.Mutant]] = {}
    for m in mutate.mutants_of(source, "f"):
        out.setdefault(m.id.split(":")[1], []).append(m)
    return out


def test_early_exit_removed_and_raise_made_pass():
    mutants = by_slug(GUARDED)
    [removed] = mutants["no-early-exit"]
    assert "if" not in removed.source and removed.description == "line 4: removed `if x < 0: ...`"
    [passed] = mutants["raise-pass"]
    assert "raise" not in passed.source and "pass" in passed.source
    assert passed.description == "line 5: `raise ValueError('negative')` -> `pass`"


def test_removing_the_only_statement_leaves_pass():
    [mutant] = by_slug("def f(x):\n    if x:\n        return 1\n")["no-early-exit"]
    assert mutant.source == "def f(x):\n    pass\n"


def test_a_helper_in_the_cell_is_mutated_too():
    source = "def helper(x):\n    return x + 1\n\n\ndef f(x):\n    return helper(x) * 2\n"
    descriptions = [m.description for m in mutate.mutants_of(source, "f")]
    assert "line 2: `x + 1` -> `x - 1`" in descriptions and "line 6: `helper(x) * 2` -> `helper(x) / 2`" in descriptions


def test_ids_name_function_rule_and_ordinal_in_source_order():
    source = "def f(x, y):\n    return x.sum(axis=-1) + y.max(axis=-1)\n"
    axis = [m for m in mutate.mutants_of(source, "f", "01_lesson") if ":axis-0:" in m.id]
    assert [m.id for m in axis] == ["f:axis-0:1", "f:axis-0:2"]
    assert [m.description for m in axis] == [
        "line 2: `x.sum(axis=-1)` -> `x.sum(axis=0)`",
        "line 2: `y.max(axis=-1)` -> `y.max(axis=0)`",
    ]
    assert all(m.lesson == "01_lesson" and m.function == "f" and m.rule == "axis -1 -> 0" for m in axis)


def test_ids_are_stable_across_runs():
    for lesson in LESSONS:
        assert mutate.lesson_mutants(COURSE, lesson) == mutate.lesson_mutants(COURSE, lesson)


def test_duplicates_and_copies_of_the_reference_are_dropped():
    # (x - y) - y: dropping either subtraction leaves x - y, so the second is the first again
    assert [m.id for m in by_slug("def f(x, y):\n    return x - y - y\n")["no-shift"]] == ["f:no-shift:1"]
    # swapping two equal branches changes nothing
    assert "where-swap" not in by_slug("def f(c, y):\n    return np.where(c, y, y)\n")


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_mutant_compiles_and_differs_from_the_reference(lesson):
    references = COURSE.reference_answers(lesson)
    mutants = mutate.lesson_mutants(COURSE, lesson)
    assert mutants, lesson
    assert len({m.id for m in mutants}) == len({m.source for m in mutants}) == len(mutants)
    for m in mutants:
        compile(m.source, m.id, "exec")
        assert m.id.startswith(f"{m.function}:") and m.function in references and m.lesson == lesson
        assert ast.unparse(ast.parse(m.source)) != ast.unparse(ast.parse(references[m.function])), m.id
        assert m.description.startswith("line ") and "\n" not in m.description


@pytest.mark.parametrize("lesson", LESSONS)
def test_recorded_equivalents_name_existing_mutants(lesson):
    """A record is written by hand; one whose mutant no longer exists is stale (prove --mutate reports it too)."""
    assert mutate.stale_equivalents(lesson, mutate.lesson_mutants(COURSE, lesson)) == []
    assert all(isinstance(why, str) and why.strip() for why in mutate.equivalents(lesson).values())


@pytest.fixture
def fake_records(monkeypatch):
    """Lesson 06's catalogue module replaced by one that records two equivalents, one of them stale."""
    records = {
        "masked_softmax:no-cast:2": "a mask of 0/1 numbers selects the same choices as booleans",
        "masked_softmax:no-such-rule:1": "left from an older reference",
    }
    module = types.SimpleNamespace(EQUIVALENT_MUTANTS=records)
    monkeypatch.setattr(mutate.alternatives, "lessons", lambda: {"06_masking": module})
    return records


def test_a_stale_record_is_found(fake_records):
    mutants = mutate.lesson_mutants(COURSE, "06_masking")
    assert mutate.equivalents("06_masking") == fake_records
    assert mutate.stale_equivalents("06_masking", mutants) == ["masked_softmax:no-such-rule:1"]


def _proof(mutant_id, killed, equivalent=None):
    return prove.MutantProof(
        "06_masking",
        "masked_softmax",
        mutant_id,
        "rule",
        "line 1: change",
        "",
        9.0 if killed else 10.0,
        10.0,
        1.0 if killed else 0.0,
        [],
        equivalent,
    )


def test_equivalents_leave_the_score_and_wrong_records_are_problems():
    mutants = [_proof(f"masked_softmax:r:{i}", killed=True) for i in range(18)]
    mutants += [
        _proof("masked_softmax:r:18", killed=False, equivalent="same thing"),
        _proof("masked_softmax:r:19", killed=False),
    ]
    proven = prove.Proven([], mutants)
    [score] = prove.function_scores(proven)
    assert (score.mutants, score.equivalents, score.killed, score.survivors) == (20, 1, 18, ["masked_softmax:r:19"])
    assert score.mutation_score == 18 / 19 and not proven.ok  # below 95%
    assert prove.render_survivors(proven) == "masked_softmax:r:19  line 1: change"
    assert prove.Proven([], mutants[:19]).ok  # the equivalent one is left out: 18/18

    mutants[18] = _proof("masked_softmax:r:18", killed=True, equivalent="same thing")
    wrong = prove.Proven([], mutants[:19], stale=["masked_softmax:gone:1"])
    assert wrong.problems() == [
        "masked_softmax:gone:1: recorded in EQUIVALENT_MUTANTS, but no mutant has this id (the reference changed)",
        "masked_softmax:r:18: recorded in EQUIVALENT_MUTANTS, but the tests kill it",
    ]
    assert not wrong.ok


def test_a_run_survives_its_json():
    mutants = [_proof("masked_softmax:r:1", killed=False, equivalent="same thing")]
    proofs = [
        prove.Proof(
            "06_masking",
            "masked_softmax",
            "masked_with_zero",
            "misconception",
            "gave 0",
            9.0,
            10.0,
            1.0,
            True,
            ["test_masked_softmax_rows"],
            ["masked_global_max"],
        )
    ]
    proven = prove.Proven(proofs, mutants, ["masked_softmax:gone:1"])
    again = prove.Proven.from_json(json.loads(prove.to_json(proven)))
    assert again == proven and prove.render_markdown(again) == prove.render_markdown(proven)
