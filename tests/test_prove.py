"""The autograder proven on its own catalogue, through `python -m grader prove` and real nbgrader.

One run grades every catalogue entry (in parallel), once per test run whatever the
number of xdist workers; the tests then read its JSON.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from grader import catalogue, course, prove
from tests.conftest import once_per_run

MISCONCEPTIONS = catalogue.misconceptions()
ALTERNATIVES = catalogue.alternatives()


def _prove(folder):
    """Run the CLI with a minimal PATH; keep its JSON and exit status."""
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}
    run = subprocess.run([sys.executable, "-m", "grader", "prove", "--json"], cwd=course.REPO, env=env,
                         capture_output=True, text=True, timeout=1500)
    assert run.returncode in (0, 1) and run.stdout.startswith("{"), run.stderr[-3000:]
    result = json.loads(run.stdout)
    result["returncode"] = run.returncode
    (folder / "proofs.json").write_text(json.dumps(result))


@pytest.fixture(scope="session")
def proofs(tmp_path_factory) -> dict:
    """Every entry's proof, from one run of `grader prove` shared by all workers."""
    return json.loads((once_per_run(tmp_path_factory, "prove", _prove) / "proofs.json").read_text())


def by_id(proofs) -> dict[str, dict]:
    return {p["entry"]: p for p in proofs["entries"]}


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
    assert proofs["named_rate"] >= 0.9, [p["entry"] for p in proofs["entries"]
                                         if p["kind"] == "misconception" and not p["named"]]
    assert proofs["alternatives_pass_rate"] == 1.0
    assert proofs["returncode"] == 0


def test_readme_shows_the_current_table(proofs):
    """The README's table is generated: `make prove` rewrites it, and it must match this run."""
    fields = {"lesson", "function", "entry", "kind", "description", "score", "max_score", "lost", "named",
              "failed_tests"}
    current = [prove.Proof(**{k: v for k, v in p.items() if k in fields}) for p in proofs["entries"]]
    assert prove.readme_block(course.REPO / "README.md") == prove.render_markdown(current), \
        "README.md's catalogue table is out of date: run `make prove`"


def test_function_of_test_takes_the_longest_matching_name():
    functions = ["evidence", "evidence_ratio", "normalize_evidence"]
    assert prove.function_of_test("test_evidence_ratio_public", functions) == "evidence_ratio"
    assert prove.function_of_test("test_evidence_inputs", functions) == "evidence"
    assert prove.function_of_test("test_something_else", functions) is None


def test_prove_refuses_an_unknown_lesson():
    run = subprocess.run([sys.executable, "-m", "grader", "prove", "--lesson", "99_nothing"], cwd=course.REPO,
                         capture_output=True, text=True)
    assert run.returncode == 2 and "unknown lesson(s): 99_nothing" in run.stderr
