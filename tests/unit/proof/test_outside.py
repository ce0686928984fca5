"""The outside corpus (grader/proof/outside): public implementations with their origin and verdict, what prove
reports for them, and the hidden tests that catch the extremes public code got wrong.

The corpus's full figures come from `python -m grader prove --entries grader/proof/outside/corpus.py`
(docs/howto/author-a-lesson.md shows them); these tests grade one lesson's entries and a few entries of their own
through the real engine.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys

import pytest

from grader.course.contract import properties
from grader.learner import hints
from grader.proof import outside, prove
from grader.proof.outside import OutsideEntry
from grader.proof.outside.diagnosis import MISTAKE, NEITHER, PROPERTY, WRONG, diagnose, names_property
from tests.support import COURSE

CORPUS = outside.corpus()
GITHUB_FILE = re.compile(r"^https://github\.com/[\w.-]+/[\w.-]+/blob/(HEAD|[0-9a-f]{40})/\S.*$")


def test_the_corpus_holds_at_least_80_entries_of_both_verdicts_across_the_lessons():
    assert len(CORPUS) >= 80
    assert len({e.id for e in CORPUS}) == len(CORPUS), "ids are unique"
    assert {e.verdict for e in CORPUS} == {"correct", "wrong"}
    assert len({lesson for lesson in outside.lessons()}) == len(COURSE.lesson_ids())


@pytest.mark.parametrize("entry", CORPUS, ids=[e.id for e in CORPUS])
def test_every_entry_records_its_source_and_its_verdict(entry: OutsideEntry):
    """Where it comes from (a file of a public repository), under which licence, what was adapted; its verdict,
    and for a wrong one the mistake in words, the catalogued ids and the contract's properties it breaks."""
    lesson = outside.lesson_of(entry)
    assert GITHUB_FILE.match(entry.origin), entry.origin
    assert entry.repository.count("/") == 1 and entry.licence
    assert entry.function in COURSE.graded_functions(lesson)
    defined = {n.name for n in ast.walk(ast.parse(entry.source)) if isinstance(n, ast.FunctionDef)}
    assert entry.function in defined, "the source defines the graded function"
    catalogued = {m.id for m in hints.misconceptions(function=entry.function)}
    contract = properties(COURSE, lesson)[entry.function]
    if entry.verdict == "wrong":
        assert entry.mistake and entry.breaks
        assert set(entry.names) <= catalogued, set(entry.names) - catalogued
        assert set(entry.breaks) <= set(contract), set(entry.breaks) - set(contract)
    else:
        assert entry.verdict == "correct" and not (entry.mistake or entry.names or entry.breaks)


def test_load_entries_reads_the_corpus_file_as_misconceptions_and_alternatives():
    loaded = prove.load_entries(COURSE, outside.__path__[0] + "/corpus.py")
    assert [entry for _, _, entry in loaded] == CORPUS
    assert all(kind == ("misconception" if e.verdict == "wrong" else "alternative") for _, kind, e in loaded)


def test_load_entries_refuses_an_outside_entry_of_a_function_the_lesson_does_not_grade(tmp_path):
    entries = tmp_path / "mine.py"
    entries.write_text(
        "from grader.proof.outside import OutsideEntry\n"
        "LESSON = '06_masking'\n"
        "OUTSIDE = [OutsideEntry('x', 'softmax', 'def softmax(x):\\n    return x', 'https://github.com/a/b/blob/HEAD/c',"
        " 'correct')]\n"
    )
    with pytest.raises(prove.EntriesError, match="x is for 'softmax', which 06_masking does not grade"):
        prove.load_entries(COURSE, entries)


SHIFT = "adding the same number to every score of a row changes none of its weights, at any level from -100 to 100"


@pytest.mark.parametrize(
    "message, expected",
    [
        ("softmax([1, 2]) breaks the property shift: ...", True),
        ("rows differ [shift]", True),
        ("Adding the same number to every score of a row changes none of its weights; here it did", True),
        ("expected [0.5, 0.5], got [0.4, 0.6]", False),
        ("the shift was wrong", False),  # the id as a plain word is not a tag
    ],
)
def test_a_message_names_a_property_by_its_tag_or_the_words_of_its_definition(message, expected):
    assert names_property(message, "shift", SHIFT) is expected


def test_the_diagnosis_prefers_the_mistake_and_counts_any_other_named_mistake_as_wrong():
    breaks = {"shift": SHIFT}
    assert diagnose("x", ["softmax_axis0"], ("softmax_axis0",), breaks) == MISTAKE
    assert diagnose("the property shift", ["softmax_sigmoid"], ("softmax_axis0",), breaks) == WRONG
    assert diagnose("the property shift", [], ("softmax_axis0",), breaks) == PROPERTY
    assert diagnose("expected 1, got 2", [], ("softmax_axis0",), breaks) == NEITHER


def test_prove_reports_one_lessons_outside_entries_through_the_real_engine():
    """Caught, fair, and what the first failing message of each wrong entry said, in the table and the JSON."""
    entries = outside.__path__[0] + "/lesson_06.py"
    run = subprocess.run(
        [sys.executable, "-m", "grader", "prove", "--entries", entries, "--jobs", "2"],
        cwd=COURSE.root,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    table = run.stdout[run.stdout.index("\nlesson  function") :]
    header = table.strip().splitlines()[0].split("  ")
    assert [h.strip() for h in header if h.strip()] == [
        "lesson",
        "function",
        "entry",
        "verdict",
        "result",
        "first failure",
        "first failing test",
        "it named",
    ]
    for entry in outside.corpus("06_masking"):
        [row] = [line for line in table.splitlines() if f"  {entry.id}  " in line]
        if entry.verdict == "correct":
            assert "full marks" in row
        else:
            assert "loses" in row and re.search(r"\s{2,}(mistake|property|wrong|neither)\s{2,}test_", row), row
    assert "caught: 3/3 (100%)" in table and "fair: 2/2 (100%)" in table
    assert re.search(r"right diagnosis \d+/3 \(\d+%\) \(target >= 80%\)", table)
    assert "every verdict judged by hand (5/5)" in table


TWO_MASKS = """
from grader.proof.outside import OutsideEntry, github

LESSON = "06_masking"
OUTSIDE = [
    OutsideEntry("triu", "causal_mask", "def causal_mask(n):\\n    return np.triu(np.ones((n, n), dtype=bool))",
                 github("a/b", "c.py"), "wrong", "the transpose", names=("causal_triu",), breaks=("value",)),
    OutsideEntry("tril", "causal_mask", "def causal_mask(n):\\n    return np.tril(np.ones((n, n), dtype=bool))",
                 github("a/b", "c.py"), "correct"),
]
"""


def proven(entries) -> dict:
    """What `python -m grader prove --entries ENTRIES --json` prints, read."""
    run = subprocess.run(
        [sys.executable, "-m", "grader", "prove", "--entries", str(entries), "--json"],
        cwd=COURSE.root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_prove_json_carries_each_first_failure_and_the_corpus_figures(tmp_path):
    entries = tmp_path / "two.py"
    entries.write_text(TWO_MASKS)
    result = proven(entries)
    wrong, right = result["entries"]
    assert wrong["outside"] and wrong["first_test"] == "test_causal_mask_public"
    assert wrong["diagnosis"] in ("mistake", "property", "wrong", "neither") and wrong["first_message"]
    assert right["outside"] and right["first_test"] == "" and right["diagnosis"] == ""
    corpus = result["corpus"]
    assert (corpus["wrong"], corpus["caught"], corpus["correct"], corpus["fair"], corpus["by_hand"]) == (1, 1, 1, 1, 2)
    assert sum(corpus["diagnoses"].values()) == 1


def test_hidden_tests_catch_an_online_softmax_whose_row_begins_with_more_minus_inf_than_they_used_to(tmp_path):
    """The corpus's re-chunking online softmax returns nan (with a warning) when a whole block of the row is -inf.
    With blocks of 8 (its own chunk parameter) it passed every hidden test on main, whose rows began with at
    most 3 -inf scores; the hidden tests now draw any number of them."""
    [entry] = [e for e in outside.corpus("10_online_softmax") if e.id == "kernel_handbook_online_softmax"]
    source = entry.source.replace("chunk: int = 3", "chunk: int = 8")
    entries = tmp_path / "rechunked.py"
    entries.write_text(
        "from grader.proof.outside import OutsideEntry\n"
        "LESSON = '10_online_softmax'\n"
        f"OUTSIDE = [OutsideEntry('rechunked_by_8', 'online_softmax', {source!r}, {entry.origin!r}, 'wrong')]\n"
    )
    [proof] = proven(entries)["entries"]
    assert proof["lost"] > 0, proof
    assert {"test_online_softmax_masked", "test_online_softmax_details"} <= set(proof["failed_tests"]), proof
