"""The misconception catalogue and the correct alternatives, checked without grading.

How each entry fares under the real tests is proven in test_prove.py; here: the
catalogue is complete (the misconception list of docs/COURSE.md, enough entries per function),
every entry is well formed, every source defines its function as the contract says, and the
code of each misconception is on the proof's side (the learner's side holds its record alone).
"""

from __future__ import annotations

import ast
import dataclasses
import inspect

import pytest

from grader.learner import hints
from grader.proof import alternatives, catalogue
from tests.support import COURSE, COURSE_MISCONCEPTIONS

pytestmark = pytest.mark.fast  # make test-fast: starts no kernel and runs no nbgrader

FUNCTIONS = [(lesson, function) for lesson in COURSE.lesson_ids() for function in COURSE.graded_functions(lesson)]
ENTRIES = [
    (kind, entry)
    for kind, entries in (("misconception", catalogue.misconceptions()), ("alternative", alternatives.alternatives()))
    for entry in entries
]


def test_every_course_misconception_is_catalogued():
    ids = {m.id for m in hints.misconceptions()}
    missing = {bullet: [i for i in wanted if i not in ids] for bullet, wanted in COURSE_MISCONCEPTIONS.items()}
    assert not {bullet: gone for bullet, gone in missing.items() if gone}


def test_the_catalogue_is_large_enough():
    assert len(hints.misconceptions()) >= 30
    assert len(FUNCTIONS) >= 12


@pytest.mark.parametrize("lesson, function", FUNCTIONS, ids=[f for _, f in FUNCTIONS])
def test_each_graded_function_has_several_misconceptions_and_alternatives(lesson, function):
    assert len(hints.misconceptions(function, lesson)) >= 3
    assert len(alternatives.alternatives(function, lesson)) >= 2


def test_entry_ids_are_unique_and_every_entry_targets_a_graded_function_of_its_lesson():
    ids = [entry.id for _, entry in ENTRIES]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    for _, entry in ENTRIES:
        assert entry.function in COURSE.reference_answers(alternatives.lesson_of(entry)), entry.id


@pytest.mark.parametrize("kind, entry", ENTRIES, ids=[e.id for _, e in ENTRIES])
def test_entry_is_well_formed(kind, entry):
    assert entry.id.isidentifier()
    lines = [entry.description] + ([entry.hint] if kind == "misconception" else [])
    for text in lines:
        assert text.strip() and "\n" not in text and not text.endswith("."), text
    # the source defines the function with the contract's parameters, using only np and math
    tree = ast.parse(entry.source)
    defined = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert entry.function in defined
    reference_ns = {}
    exec(
        COURSE.reference_answers(alternatives.lesson_of(entry))[entry.function],
        {"np": __import__("numpy"), "math": __import__("math")},
        reference_ns,
    )
    assert list(inspect.signature(catalogue.implementation(entry)).parameters) == list(
        inspect.signature(reference_ns[entry.function]).parameters
    )
    imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert all(isinstance(node, ast.Import) and [a.name for a in node.names] == ["math"] for node in imports), (
        "catalogue sources use only np (imported by every lesson) and math (which they import themselves)"
    )


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_each_misconception_has_its_code_on_the_proof_side_and_no_code_is_left_over(lesson):
    recorded = [m.id for m in hints.misconceptions(lesson=lesson)]
    assert sorted(catalogue.lessons()[lesson].SOURCES) == sorted(recorded)
    assert [m.id for m in catalogue.misconceptions(lesson=lesson)] == recorded  # in the learner room's order


def test_the_learner_rooms_record_carries_no_code():
    assert "source" not in {f.name for f in dataclasses.fields(hints.Misconception)}
    with pytest.raises(TypeError):  # an old entries file's positional source is refused, not taken for `breaks`
        hints.Misconception("a", "f", "did a", "do b", "def f(): pass")
