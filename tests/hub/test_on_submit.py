"""benchmarks/on_submit.py on a hub of two students, run as a person runs it (in a process of its own: no test imports
the benchmarks): every figure is there and well formed, each student fetched its feedback, the scores are grade's,
and --page writes the performance page's block and the README's lines."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.hub.conftest import lacking
from tests.support import COURSE, tools_env

pytestmark = [pytest.mark.hub, pytest.mark.xdist_group("hub")]
STUDENTS = 2


def test_the_on_submit_benchmark_times_each_hand_in_and_finds_grade_s_scores(tmp_path):
    lacking()
    figures_path, page, readme = tmp_path / "figures.json", tmp_path / "performance.md", tmp_path / "README.md"
    page.write_text((COURSE.root / "docs" / "reference" / "performance.md").read_text())
    readme.write_text((COURSE.root / "README.md").read_text())
    run = subprocess.run(
        [sys.executable, "benchmarks/on_submit.py", "--students", str(STUDENTS), "--json", str(figures_path)]
        + ["--page", str(page), "--readme", str(readme)],
        cwd=COURSE.root,
        env=tools_env(),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    figures = json.loads(figures_path.read_text())
    assert figures["students"] == STUDENTS and figures["measure"] == "cgroup"
    burst, alone, repeated = figures["burst"], figures["alone"], figures["repeated"]
    assert len(burst["latencies_s"]) == STUDENTS and all(0 < s < 900 for s in burst["latencies_s"].values())
    assert 0 < burst["p50_s"] <= burst["p95_s"] <= burst["max_s"] == max(burst["latencies_s"].values())
    assert len(alone["latencies_s"]) == 5 and alone["median_s"] > 0
    assert repeated["repeats"] == 20 and len(repeated["latencies_s"]) == len(repeated["others"]) == 1
    assert repeated["repeater_last_latency_s"] > 0 and 1 <= repeated["released_to_repeater"] <= 20
    assert burst["cpu_per_hand_in_s"] > 0 and alone["cpu_per_hand_in_s"] > 0
    assert figures["service"]["uncounted"] == 0
    assert figures["fetched_feedback"] == STUDENTS
    scores = figures["scores"]
    assert scores["identical"] and scores["students"] == STUDENTS and scores["cells"] > 0
    assert scores["totals_by_kind"]["correct"] == [15] and scores["totals_by_kind"]["stub"] == [0]
    for target in ("p95 of 2 at once ≤ 15.0 s", "a student alone (median) ≤ 3.0 s", "its grading and one more (2 × "):
        assert target in run.stdout, run.stdout
    assert "| 2 students at once | 2 |" in page.read_text()
    assert "- 2 students hand in at once: each sees its feedback after" in readme.read_text()
