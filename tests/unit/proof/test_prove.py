"""The autograder proven on its own catalogue and on mechanical mutants, through `python -m grader prove`
and real nbgrader.

One run of `prove --mutate` grades every catalogue entry and every mutant (in parallel), once
per test run whatever the number of xdist workers; the tests then read its JSON.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import datetime, timezone

import pytest

from grader import cli
from grader.engine import scores
from grader.engine.scores import Report
from grader.learner import hints
from grader.proof import alternatives, catalogue, mutate, pages, prove
from grader.proof.outside import diagnosis as outside_diagnosis
from tests.support import COURSE, by_id

MISCONCEPTIONS = catalogue.misconceptions()
ALTERNATIVES = alternatives.alternatives()
FUNCTIONS = [(lesson, function) for lesson in COURSE.lesson_ids() for function in COURSE.graded_functions(lesson)]


def test_every_entry_was_graded_once(proofs):
    ids = [p["entry"] for p in proofs["entries"]]
    assert sorted(ids) == sorted(e.id for e in MISCONCEPTIONS + ALTERNATIVES)
    assert all(p["max_score"] > 0 for p in proofs["entries"])


@pytest.mark.parametrize("entry", MISCONCEPTIONS, ids=[m.id for m in MISCONCEPTIONS])
def test_misconception_loses_points_on_its_own_function(entry, proofs):
    proof = by_id(proofs)[entry.id]
    assert proof["kind"] == "misconception" and proof["function"] == entry.function
    assert proof["lost"] > 0 and proof["score"] < proof["max_score"], proof


@pytest.mark.parametrize("entry", ALTERNATIVES, ids=[a.id for a in ALTERNATIVES])
def test_correct_alternative_gets_full_marks(entry, proofs):
    proof = by_id(proofs)[entry.id]
    assert proof["kind"] == "alternative"
    assert proof["score"] == proof["max_score"] and not proof["failed_tests"], proof


def test_rates_meet_the_bar(proofs):
    assert proofs["mutation_score"] == 1.0
    assert proofs["named_rate"] >= 0.9, [
        p["entry"] for p in proofs["entries"] if p["kind"] == "misconception" and not p["named"]
    ]
    assert proofs["alternatives_pass_rate"] == 1.0


def test_exit_status_says_whether_all_is_well(proofs):
    assert proofs["returncode"] == (0 if proofs["ok"] else 1)


@pytest.mark.parametrize("entry", MISCONCEPTIONS, ids=[m.id for m in MISCONCEPTIONS])
def test_misconception_is_named_with_at_most_one_other(entry, proofs):
    """The feedback points at the mistake: it names this misconception and at most one other."""
    proof = by_id(proofs)[entry.id]
    assert proof["named"] and len(proof["named_others"]) <= 1, proof["named_others"]


def test_every_mutant_was_graded_once(proofs):
    ids = [m["mutant"] for m in proofs["mutants"]]
    assert ids == [m.id for lesson in COURSE.lesson_ids() for m in mutate.lesson_mutants(COURSE, lesson)]
    assert all(m["max_score"] > 0 for m in proofs["mutants"]), [
        m["mutant"] for m in proofs["mutants"] if m["max_score"] == 0
    ]


@pytest.mark.parametrize("lesson, function", FUNCTIONS, ids=[f for _, f in FUNCTIONS])
def test_tests_kill_the_mechanical_mutants(lesson, function, proofs):
    """At least 95% of each function's non-equivalent mutants lose points; the survivors are listed."""
    [score] = [f for f in proofs["functions"] if (f["lesson"], f["function"]) == (lesson, function)]
    described = {m["mutant"]: m["description"] for m in proofs["mutants"]}
    assert score["mutation_score"] >= prove.TARGET, "survivors:\n" + "\n".join(
        f"{i}  {described[i]}" for i in score["survivors"]
    )


def test_no_stale_or_killed_equivalent_records(proofs):
    assert proofs["stale_equivalents"] == [] and proofs["problems"] == []


def test_the_proof_page_shows_the_current_tables(proofs):
    """The page's tables are generated: `make prove` rewrites them, and they must match this run."""
    page = COURSE.root / prove.PAGE
    assert prove.page_tables(page) == prove.render_markdown(prove.Proven.from_json(proofs)), (
        f"{prove.PAGE}'s tables are out of date: run `make prove`"
    )
    graded_on = pages.block(page, prove.BEGIN, prove.END).splitlines()[0]
    assert re.fullmatch(
        r"Graded by `python -m grader prove --mutate` on \d{4}-\d\d-\d\d: \d+ cores \(.+\)\.", graded_on
    )


def test_the_tables_are_written_into_the_page_s_block_alone_dated(tmp_path):
    """`prove --page` replaces the block between the page's markers with the date, the machine and the tables, and
    leaves the rest of the page (its words, the outside corpus's block) as it was."""
    page = tmp_path / "proof.md"
    page.write_text((COURSE.root / prove.PAGE).read_text())
    head, rest = page.read_text().split(prove.BEGIN)
    tail = rest.split(prove.END)[1]
    proven = prove.Proven([], graded={"01_naive_division": ["naive_normalize"]})
    prove.write_page(page, proven)
    text = page.read_text()
    assert text.startswith(head + prove.BEGIN + "\n") and text.endswith(prove.END + tail)
    assert prove.page_tables(page) == prove.render_markdown(proven)
    graded_on = pages.block(page, prove.BEGIN, prove.END).splitlines()[0]
    assert graded_on.startswith(
        f"Graded by `python -m grader prove --mutate` on {datetime.now(timezone.utc):%Y-%m-%d}: "
    )
    assert f"{os.cpu_count()} cores" in graded_on


def test_the_outside_corpus_s_figures_are_written_into_their_block_alone_dated(tmp_path):
    """`prove --entries FILE --page` replaces the outside block with the run's figures of its outside entries, after
    the date and the machine, and leaves the rest of the page (the proof tables among it) as it was."""
    page = tmp_path / "proof.md"
    page.write_text((COURSE.root / prove.PAGE).read_text())
    head, rest = page.read_text().split(prove.OUTSIDE_BEGIN)
    tail = rest.split(prove.OUTSIDE_END)[1]
    wrong = prove.Proof(
        "01_naive_division", "naive_normalize", "a_wrong_one", "misconception", "it", 5.0, 12.0, 7.0, False, ["t"]
    )
    wrong.outside, wrong.diagnosis, wrong.catalogued = True, outside_diagnosis.PROPERTY, False
    prove.write_outside_page(page, prove.Proven([wrong]), "corpus.py")
    text = page.read_text()
    assert text.startswith(head + prove.OUTSIDE_BEGIN + "\n") and text.endswith(prove.OUTSIDE_END + tail)
    block = pages.block(page, prove.OUTSIDE_BEGIN, prove.OUTSIDE_END)
    today = f"{datetime.now(timezone.utc):%Y-%m-%d}"
    assert block.startswith(f"Graded by `python -m grader prove --entries corpus.py` on {today}: ")
    assert f"{os.cpu_count()} cores" in block.splitlines()[0]
    assert prove.corpus_summary(prove.corpus_figures([wrong])) in block
    assert "caught: 1/1 (100%) wrong ones lose points" in block and "names a property it breaks 1" in block


def test_named_misconceptions_are_read_from_failing_tests_only():
    lesson = "06_masking"
    zero, global_max, shift = (
        m
        for m in hints.misconceptions(lesson=lesson)
        if m.id in ("masked_with_zero", "masked_global_max", "masked_no_shift")
    )
    report = Report(
        lesson,
        3.0,
        5.0,
        [
            scores.TestResult(
                "test_masked_softmax_rows",
                0.0,
                2.0,
                False,
                f"likely mistake: {zero.description}\nor: {global_max.description}",
            ),
            scores.TestResult("test_masked_softmax_stable", 1.0, 1.0, True, shift.description),
        ],
    )
    assert prove.named_misconceptions(report, lesson) == ["masked_with_zero", "masked_global_max"]
    proof = prove.judge(COURSE, "misconception", zero, lesson, report)
    assert proof.named and proof.named_others == ["masked_global_max"] and not proof.specific  # named, not alone
    report.tests[0].message = f"likely mistake: {zero.description}"
    assert prove.judge(COURSE, "misconception", zero, lesson, report).specific


ENTRIES_FILE = '''
from grader.proof.alternatives import Alternative
from grader.proof.catalogue import Misconception

LESSON = "06_masking"
MISCONCEPTIONS = [Misconception("upper_triangle", "causal_mask", "took the upper triangle", "use np.tril", """
def causal_mask(n):
    return np.triu(np.ones((n, n), dtype=bool))
""")]
ALTERNATIVES = [Alternative("compare_indices", "causal_mask", "compares indices", """
def causal_mask(n):
    return np.arange(n)[None, :] <= np.arange(n)[:, None]
""")]
'''


def test_prove_grades_a_file_of_entries(tmp_path):
    """Entries from outside the catalogue: caught and accepted, and which catalogued misconceptions were named."""
    entries = tmp_path / "mine.py"
    entries.write_text(ENTRIES_FILE)
    run = subprocess.run(
        [sys.executable, "-m", "grader", "prove", "--entries", entries, "--json"],
        cwd=COURSE.root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout)
    wrong, right = result["entries"]
    assert (wrong["entry"], wrong["proven"], wrong["catalogued"]) == ("upper_triangle", True, False)
    assert not wrong["named"]
    assert wrong["named_others"] == ["causal_triu"]
    assert (right["entry"], right["proven"]) == ("compare_indices", True) and result["mutants"] is None


@pytest.mark.parametrize(
    "text, error",
    [
        (None, "no such file"),
        ("import nothing_of_that_name", "does not import: ModuleNotFoundError: No module named 'nothing_of_that_name'"),
        ("def broken(:\n", "does not import: SyntaxError"),
        ("X = 1", "defines neither LESSON, MISCONCEPTIONS and ALTERNATIVES nor ENTRIES"),
        ("ENTRIES = {'99_nothing': ([], [])}", "unknown lesson '99_nothing'"),
        (
            ENTRIES_FILE.replace('"upper_triangle", "causal_mask"', '"upper_triangle", "no_such_function"'),
            "upper_triangle is for 'no_such_function', which 06_masking does not grade",
        ),
        (
            ENTRIES_FILE.replace("MISCONCEPTIONS = [", "MISCONCEPTIONS = [1, "),
            "misconceptions hold 1, not a Misconception",
        ),
        (
            ENTRIES_FILE.replace("MISCONCEPTIONS = [", "from grader.learner import hints\nMISCONCEPTIONS = [")
            + "\nMISCONCEPTIONS = [hints.misconceptions('causal_mask')[0]]\n",
            "is the learner room's record, which holds no code: write misconceptions with "
            "grader.proof.catalogue.Misconception",
        ),
    ],
)
def test_prove_refuses_a_bad_file_of_entries_in_one_line(tmp_path, capsys, text, error):
    entries = tmp_path / "entries.py"
    if text is not None:
        entries.write_text(text)
    assert cli.main(["prove", "--entries", str(entries)]) == 2
    err = capsys.readouterr().err
    assert error in err and err.startswith("error: ") and err.count("\n") == 1, err


def test_load_entries_reads_several_lessons(tmp_path):
    entries = tmp_path / "several.py"
    entries.write_text(
        ENTRIES_FILE + "\nENTRIES = {'06_masking': (MISCONCEPTIONS, []), '05_stable_softmax': ([], [])}\n"
    )
    assert [(lesson, kind, e.id) for lesson, kind, e in prove.load_entries(COURSE, entries)] == [
        ("06_masking", "misconception", "upper_triangle")
    ]


def test_prove_refuses_an_unknown_lesson():
    run = subprocess.run(
        [sys.executable, "-m", "grader", "prove", "--lesson", "99_nothing"],
        cwd=COURSE.root,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and "unknown lesson(s): 99_nothing" in run.stderr


def test_an_entry_that_uses_math_unimported_gets_the_import_a_learner_would_write():
    assert prove.as_notebook_code("def f(x):\n    return math.exp(x)").startswith("import math\n")
    kept = "import math\n\ndef f(x):\n    return math.exp(x)\n"
    assert prove.as_notebook_code(kept) == kept
    assert "import math" not in prove.as_notebook_code("def f(x):\n    return np.exp(x)  # mathematics\n")
