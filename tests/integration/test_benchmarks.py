"""`make benchmark` works and says what it promises: both tools on the same tiny class with identical scores,
their times, CPU per submission and peak memory, JSON figures and the speed block of docs/reference/performance.md;
and its CPU count takes in processes that no one waits for, in control groups of their own, as grading kernels are.
Each script runs as a person runs it, in a process of its own: no test imports the benchmarks.

The tiny class is one lesson, 06_masking (one of `make benchmark`'s; it takes reference code from an earlier
lesson, which the simulated course must bring along, as it once did not), three students (one of each third).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys

import nbformat

from grader.engine import warmkernel
from testbed.hostile.kinds import KINDS
from tests.support import COURSE, graded_cells_of, tools_env

LESSON, STUDENTS = "06_masking", 3
DEFAULT_LESSONS = ["01_naive_division", "06_masking"]  # what `make benchmark` grades (its --lessons default)
PERFORMANCE = COURSE.root / "docs" / "reference" / "performance.md"
BEGIN, END = re.search(
    r"(<!-- benchmark: begin .*?-->).*?(<!-- benchmark: end -->)", PERFORMANCE.read_text(), re.S
).groups()

# Makes a kernel's control group inside its own (isolation's Group, as `grade` does for each kernel) when asked,
# and leaves in it a grandchild that no one waits for: the grandchild burns CPU, then closes the pipe its
# grandparent waits on.
ORPHAN = """
import os, sys, time
from grader.engine.isolation import Group
group = Group("like-a-kernel", memory=2**30) if sys.argv[1] == "group" else None
read_end, write_end = os.pipe()
if os.fork() == 0:
    if os.fork() == 0:
        os.close(read_end)
        if group:
            group.join()
        while time.process_time() < float(sys.argv[2]):
            pass
        os._exit(0)
    os._exit(0)
os.wait()
os.close(write_end)
os.read(read_end, 1)
while group and open(os.path.join(group.memory_folder, "cgroup.procs")).read().strip():
    time.sleep(0.01)
if group:
    group.kill()
"""
BURN_S = 0.5


def script(name: str, *args: str, **run) -> subprocess.CompletedProcess:
    """`python benchmarks/NAME ARGS` from the repository, as a person runs it."""
    return subprocess.run(
        [sys.executable, f"benchmarks/{name}", *args], cwd=COURSE.root, capture_output=True, text=True, **run
    )


def measure_here() -> str:
    """How the benchmarks count a command's processes on this machine: "cgroup" or "rusage"."""
    return script("treeusage.py", "--measure", env=tools_env()).stdout.strip()


def test_benchmark_of_a_tiny_class_reports_both_tools_and_writes_json_and_page(tmp_path, monkeypatch):
    # A zygote running outside the benchmark, as an earlier test of this worker may leave one published in
    # the environment: the measured commands must start their own, not fork kernels from this one.
    monkeypatch.delenv(warmkernel.ADDRESS, raising=False)
    outside = warmkernel.start_zygote()
    page = tmp_path / "performance.md"
    original = PERFORMANCE.read_text()
    page.write_text(original)
    figures_path = tmp_path / "figures.json"
    run = script(
        "autograde.py",
        *("--sizes", str(STUDENTS), "--runs", "1", "--lessons", LESSON),
        *("--json", str(figures_path), "--page", str(page)),
        env=tools_env(),
        timeout=1800,
    )
    outside.kill()
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    cells = STUDENTS * len(graded_cells_of(nbformat.read(COURSE.source_notebook(LESSON), as_version=4)))

    out = run.stdout
    assert f"Identical scores on every graded cell in every run ({cells} cells of {STUDENTS} submissions)" in out
    header = next(line for line in out.splitlines() if line.startswith("submissions"))
    for column in ("wall time", "per submission", "CPU per submission", "peak memory", "largest process"):
        assert column in header
    figure = r"\d+(\.\d+)? s +\d+(\.\d+)? s +\d+(\.\d+)? s +\d+ MiB +\d+ MiB$"
    assert re.search(rf"^{STUDENTS} +plain nbgrader autograde +{figure}", out, re.MULTILINE), out
    assert re.search(rf"^ +python -m grader grade +{figure}", out, re.MULTILINE), out
    assert re.search(r"^ +speed-up \(wall time\) +\d+\.\d× +CPU \d+\.\d×$", out, re.MULTILINE), out
    progress = [line for line in run.stderr.splitlines() if re.match(r"\[ *\d+\.\d s\] ", line)]
    for step in ("releasing", "run 1/1", f"plain nbgrader autograde {LESSON}:", "python -m grader grade:"):
        assert any(step in line for line in progress), run.stderr

    figures = json.loads(figures_path.read_text())
    assert figures["machine"]["cores"] == os.cpu_count() and figures["lessons"] == [LESSON]
    assert figures["measure"] == measure_here() and figures["runs"] == 1
    (size,) = figures["sizes"]
    assert (size["submissions"], size["graded_cells"], size["identical_scores"]) == (STUDENTS, cells, True)
    (measured,) = size["runs"]
    assert measured["speedup"] > 0 and measured["cpu_ratio"] > 0
    for tool in ("plain", "grader"):
        usage = measured[tool]
        for name in ("wall_s", "cpu_s", "peak_memory_bytes", "largest_process_bytes"):
            assert usage[name] > 0, (tool, name, usage)
        assert usage["uncounted"] == 0 and usage["leftover"] == 0, usage
        assert usage["cpu_s"] >= 0.99 * usage["waited_cpu_s"], usage  # all it waited for, and more
        for name in ("wall_s", "wall_per_submission_s", "cpu_per_submission_s", "peak_memory_bytes"):
            assert set(size["summary"][tool][name]) == {"min", "median", "max"}
        assert size["summary"][tool]["cpu_per_submission_s"]["median"] == usage["cpu_s"] / STUDENTS
    assert measured["plain"]["commands"] == 1 and measured["plain"]["kernel_groups"] == 0
    if figures["measure"] == "cgroup":  # every isolated kernel's group was seen inside grade's own
        assert measured["grader"]["kernel_groups"] >= STUDENTS, measured["grader"]

    rewritten = page.read_text()
    start, end = rewritten.index(BEGIN) + len(BEGIN), rewritten.index(END)
    assert rewritten[:start] == original[: original.index(BEGIN) + len(BEGIN)]  # the rest of the page as it was
    assert rewritten[end:] == original[original.index(END) :]
    block = rewritten[start:end]
    assert f"{os.cpu_count()} cores" in block and f"`{LESSON}`" in block
    assert re.search(rf"^\| {STUDENTS} \| plain `nbgrader autograde` \| \d", block, re.MULTILINE), block
    assert re.search(r"^\|  \| `python -m grader grade` \| \d", block, re.MULTILINE), block


def page_from_saved(sizes: list[dict], tmp_path) -> str:
    """A page of one speed block, as `autograde.py --from-json ... --page` writes it from made-up figures."""
    figures = {
        "date": "2026-01-01T00:00:00+00:00",
        "machine": {"cores": 2, "cpu": "a test CPU", "load_average_at_start": 0.5},
        "measure": "cgroup",
        "measure_description": "every process of each command",
        "lessons": DEFAULT_LESSONS,
        "runs": len(sizes[0]["runs"]),
        "sizes": sizes,
    }
    saved, page = tmp_path / "figures.json", tmp_path / "performance.md"
    saved.write_text(json.dumps(figures))
    page.write_text(f"before\n{BEGIN}\nold figures\n{END}\nafter\n")
    done = script("autograde.py", "--from-json", str(saved), "--page", str(page))
    assert done.returncode == 0, done.stderr
    assert "releasing" not in done.stderr  # nothing graded
    return page.read_text()


def test_the_saved_figures_rewrite_the_page_without_grading(tmp_path):
    """--from-json shows a saved run and rewrites the page's block from it: the block is never typed by hand."""
    text = page_from_saved([made_up_size(submissions, plain_cpu=[2.0, 2.5, 3.0]) for submissions in (4, 8)], tmp_path)
    assert text.startswith(f"before\n{BEGIN}\n") and text.endswith(f"\n{END}\nafter\n")
    assert "old figures" not in text
    assert "2 cores (a test CPU" in text and "the median of 3 runs with the spread (min–max)" in text
    assert "| 4 | plain `nbgrader autograde` | 20.0 s (16.0–24.0) | 5.00 s | 2.50 s (2.00–3.00) |" in text
    assert "| **speed-up** | **8.0× (8.0–8.0)** |  | CPU 4.0× (4.0–4.0) |" in text
    assert "from 4 to 8 submissions" in text and "(×1.00)" in text  # flat: the same per submission at both sizes
    verdict = (
        "Target 7× (aim 10×): 8.0× at 4, 8.0× at 8; meets it at every class size, and reaches the aim at 0 of them."
    )
    assert verdict in text


def test_the_verdict_names_each_class_size_that_misses_the_target(tmp_path):
    sizes = [made_up_size(submissions, plain_cpu=[2.0]) for submissions in (4, 8, 16)]
    sizes[0]["summary"]["speedup"]["median"] = 5.9
    sizes[2]["summary"]["speedup"]["median"] = 10.0
    assert (
        "Target 7× (aim 10×): 5.9× at 4, 8.0× at 8, 10.0× at 16; MISSES it at 1 of 3 class sizes, "
        "and reaches the aim at 1 of them."
    ) in page_from_saved(sizes, tmp_path)


def test_the_peak_memory_at_48_submissions_is_held_to_its_target(tmp_path):
    sizes = [made_up_size(submissions, plain_cpu=[2.0]) for submissions in (4, 48)]  # 300 MiB each (made_up_usage)
    assert "at 48 submissions 400 MiB: 300 MiB; meets it." in page_from_saved(sizes, tmp_path)
    sizes[1]["summary"]["grader"]["peak_memory_bytes"]["median"] = 401 * 2**20
    text = page_from_saved(sizes, tmp_path)
    assert "at 48 submissions 400 MiB: 401 MiB; MISSES it." in text and text.count("Peak memory target") == 1


def made_up_size(submissions: int, plain_cpu: list[float]) -> dict:
    """A class size's figures as the benchmark saves them, made up: plain nbgrader's CPU per submission in each
    run, its wall time twice that; grade a quarter of plain's CPU, its wall time as much."""
    runs = []
    for number, plain in enumerate(plain_cpu, 1):
        ours = plain / 4
        usage = {
            "plain": made_up_usage(wall=2 * plain * submissions, cpu=plain * submissions),
            "grader": made_up_usage(wall=ours * submissions, cpu=ours * submissions),
        }
        runs.append({"run": number, **usage, "speedup": 2 * plain / ours, "cpu_ratio": plain / ours})
    return {
        "submissions": submissions,
        "students": submissions // 2,
        "graded_cells": 10 * submissions,
        "identical_scores": True,
        "runs": runs,
        "summary": made_up_summary(runs, submissions),
    }


def spread(values: list[float]) -> dict:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def made_up_summary(runs: list[dict], submissions: int) -> dict:
    """The spread over runs of each tool's figures, as the benchmark saves it with its figures."""
    summary: dict = {
        tool: {
            "wall_s": spread([run[tool]["wall_s"] for run in runs]),
            "wall_per_submission_s": spread([run[tool]["wall_s"] / submissions for run in runs]),
            "cpu_per_submission_s": spread([run[tool]["cpu_s"] / submissions for run in runs]),
            "peak_memory_bytes": spread([run[tool]["peak_memory_bytes"] for run in runs]),
            "largest_process_bytes": spread([run[tool]["largest_process_bytes"] for run in runs]),
        }
        for tool in ("plain", "grader")
    }
    return summary | {
        "speedup": spread([run["speedup"] for run in runs]),
        "cpu_ratio": spread([r["cpu_ratio"] for r in runs]),
    }


def made_up_usage(wall: float, cpu: float) -> dict:
    """One tool's usage in one run, as the benchmark saves it (benchmarks/treeusage.py's Usage)."""
    return {
        "wall_s": wall,
        "cpu_s": cpu,
        "cpu_user_s": cpu,
        "cpu_system_s": 0.0,
        "waited_cpu_s": cpu,
        "peak_memory_bytes": 300 * 2**20,
        "peak_with_cache_bytes": 400 * 2**20,
        "largest_process_bytes": 100 * 2**20,
        "processes": 4,
        "kernel_groups": 0,
        "uncounted": 0,
        "leftover": 0,
        "measure": "cgroup",
        "commands": 1,
    }


def test_cpu_of_a_process_no_one_waits_for_in_a_group_of_its_own_is_counted(tmp_path):
    """As a grading kernel forked from the zygote and moved into its own memory group, the orphan here is
    counted by the cgroup measure, and wait4 alone (RUSAGE_CHILDREN's view) would have missed it."""
    measure = measure_here()
    where = "group" if measure == "cgroup" else "none"
    command = ["--log", str(tmp_path / "orphan.log"), "--", sys.executable, "-c", ORPHAN, where, str(BURN_S)]
    done = script("treeusage.py", *command, env=tools_env(PYTHONPATH=str(COURSE.root)))
    assert done.returncode == 0, done.stderr
    usage = json.loads(done.stdout)
    assert usage["measure"] == measure
    assert usage["waited_cpu_s"] < BURN_S, usage  # the command itself hardly works
    if measure == "cgroup":
        assert usage["cpu_s"] >= BURN_S, usage
        assert (usage["kernel_groups"], usage["uncounted"], usage["leftover"]) == (1, 0, 0), usage
        assert usage["peak_memory_bytes"] > 0 and usage["largest_process_bytes"] > 0, usage
    else:  # the fallback says it counts only what was waited for
        assert usage["cpu_s"] == usage["waited_cpu_s"], usage


def test_the_profile_of_one_grading_names_where_its_time_goes():
    run = subprocess.run(
        [sys.executable, "benchmarks/profile.py", "--lesson", "01_naive_division", "--answers", "mistake", "--runs=1"],
        cwd=COURSE.root,
        env=tools_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    rows = dict(re.findall(r"^(\S.*?)\s+(\d+\.\d+)(?:\s+\d+%)?$", run.stdout, re.MULTILINE))
    for part in (
        "test cells, here (calls into the kernel)",
        "learner's cells, in the kernel",
        "kernel: until ready",
        "kernel: starting (fork, isolation)",
        "nbgrader's sanitizing steps (restoring the tests)",
        "wall time",
        "CPU, this process",
        "CPU, with its kernels",
    ):
        assert part in rows, (part, run.stdout)
    parts = sum(float(seconds) for part, seconds in rows.items() if part not in ("wall time",) and "CPU" not in part)
    assert 0 < float(rows["test cells, here (calls into the kernel)"]) < float(rows["wall time"])
    assert abs(parts - float(rows["wall time"])) < 0.01  # the parts and the rest add up to the wall time
    assert float(rows["CPU, with its kernels"]) > float(rows["CPU, this process"]) > 0  # the kernel's CPU counted
    assert "status graded" in run.stderr


HOSTILE = COURSE.root / "docs" / "reference" / "hostile.md"
PLAIN_BEGIN, PLAIN_END = re.search(
    r"(<!-- against plain nbgrader: begin .*?-->).*?(<!-- against plain nbgrader: end -->)", HOSTILE.read_text(), re.S
).groups()


def test_the_hostile_benchmark_writes_its_table_from_saved_figures_into_its_block_alone(tmp_path):
    """`benchmarks/hostile.py --from-json ... --page` writes the table against plain nbgrader, dated, and leaves the
    rest of the page (the outcome table the tests keep) as it was."""
    rows = [[kind.what, "5 / 12", "12 / 12", "5 / 12 (graded)"] for kind in KINDS]
    figures = {
        "date": "2026-01-01T00:00:00+00:00",
        "machine": {"cores": 2, "cpu": "a test CPU", "load_average_at_start": 0.5},
    }
    saved, page = tmp_path / "hostile.json", tmp_path / "hostile.md"
    saved.write_text(json.dumps({**figures, "rows": rows}))
    page.write_text(HOSTILE.read_text())
    head, rest = page.read_text().split(PLAIN_BEGIN)
    tail = rest.split(PLAIN_END)[1]
    done = script("hostile.py", "--from-json", str(saved), "--page", str(page))
    assert done.returncode == 0, done.stderr
    text = page.read_text()
    assert text.startswith(head + PLAIN_BEGIN + "\n") and text.endswith(PLAIN_END + tail)
    block = text.split(PLAIN_BEGIN)[1].split(PLAIN_END)[0].strip().splitlines()
    assert (
        block[0]
        == "Graded by `benchmarks/hostile.py` on 2026-01-01: 2 cores (a test CPU, load average 0.5 at the start)."
    )
    assert block[2:4] == [
        "| submission | plain nbgrader: its score | plain nbgrader: a classmate's | `grader grade` |",
        "|---|---|---|---|",
    ]
    assert block[4:] == [f"| {kind.what} | 5 / 12 | 12 / 12 | 5 / 12 (graded) |" for kind in KINDS]


def test_the_hostile_page_s_table_against_plain_nbgrader_has_a_row_per_kind_in_order():
    """The table on the page is in the script's format, one row for each kind of the corpus as it is now."""
    block = HOSTILE.read_text().split(PLAIN_BEGIN)[1].split(PLAIN_END)[0].strip().splitlines()
    assert re.fullmatch(r"Graded by `benchmarks/hostile\.py` on \d{4}-\d\d-\d\d: \d+ cores \(.+\)\.", block[0]), block[
        0
    ]
    assert block[2] == "| submission | plain nbgrader: its score | plain nbgrader: a classmate's | `grader grade` |"
    assert [row.split(" | ")[0].removeprefix("| ") for row in block[4:]] == [kind.what for kind in KINDS]
    assert all(row.count(" | ") == 3 for row in block[4:])


ON_SUBMIT = {
    "date": "2026-01-01T00:00:00+00:00",
    "machine": {"cores": 2, "cpu": "a test CPU", "load_average_at_start": 0.5},
    "students": 30,
    "lesson": "01_naive_division",
    "poll_s": None,
    "measure": "cgroup",
    "measure_description": "every process of each command",
    "alone": {"student": "s1", "latencies_s": [2.0, 2.2, 1.9, 2.1, 2.0], "median_s": 2.0, "cpu_per_hand_in_s": 1.1},
    "repeated": {
        "repeater": "s30",
        "repeats": 20,
        "others": ["s1", "s2", "s3"],
        "latencies_s": [3.0, 5.0, 4.0],
        "while_repeating": [True, True, False],
        "one_grading_s": 2.0,
        "max_delay_s": 3.0,
        "repeater_last_latency_s": 6.0,
        "released_to_repeater": 4,
    },
    "burst": {"latencies_s": {}, "p50_s": 10.0, "p95_s": 18.0, "max_s": 19.5, "cpu_per_hand_in_s": 0.9},
    "fetched_feedback": 30,
    "scores": {"identical": True, "students": 30, "cells": 120, "totals_by_kind": {"correct": [15], "stub": [0]}},
    "service": {"cpu_s": 60.0},
    "took_s": 400.0,
}


def test_the_on_submit_figures_rewrite_their_blocks_of_the_page_and_the_readme_without_a_hub(tmp_path):
    """`benchmarks/on_submit.py --from-json ... --page` writes the performance page's table, with each target met or
    missed and its ratio, and the README's lines, one per figure; the rest of both pages stays as it was."""
    saved, page, readme = tmp_path / "figures.json", tmp_path / "performance.md", tmp_path / "README.md"
    saved.write_text(json.dumps(ON_SUBMIT))
    page.write_text(PERFORMANCE.read_text())
    readme.write_text((COURSE.root / "README.md").read_text())
    done = script("on_submit.py", "--from-json", str(saved), "--page", str(page), "--readme", str(readme))
    assert done.returncode == 0, done.stderr
    assert "Target: p95 of 30 at once ≤ 15.0 s: 18.0 s (×1.20), MISSED." in done.stdout
    assert "Target: a student alone (median) ≤ 3.0 s: 2.0 s (×0.67), met." in done.stdout
    said = "Target: another's wait while one hands in 20 times ≤ its grading and one more (2 × 2.0 s): 5.0 s (×1.25)"
    assert said + ", MISSED." in done.stdout
    table = page.read_text().split("<!-- on submit: begin", 1)[1].split("<!-- on submit: end -->")[0]
    assert "Measured by `benchmarks/on_submit.py --students 30` on 2026-01-01: 2 cores (a test CPU" in table
    assert "| 30 students at once | 30 | 10.0 s | 18.0 s | 19.5 s | 0.90 s |" in table
    assert "| one student alone | 5 | 2.0 s |  | 2.2 s | 1.10 s |" in table
    before = PERFORMANCE.read_text().split("<!-- on submit: begin")[0]
    assert page.read_text().split("<!-- on submit: begin")[0] == before
    lines = readme.read_text().split("<!-- in a classroom: begin", 1)[1].split("-->", 1)[1]
    lines = lines.split("<!-- in a classroom: end -->")[0].strip().splitlines()
    assert lines == [
        "Measured by `benchmarks/on_submit.py --students 30` on 2026-01-01: 2 cores (a test CPU, load average 0.5 at "
        "the start):",
        "",
        "- 30 students hand in at once: each sees its feedback after 10.0 s (median), 18.0 s (p95), 19.5 s at most",
        "- a student alone: 2.0 s (median of 5)",
        "- while a student hands in 20 times in a row, another waits 5.0 s at most (one grading: 2.0 s)",
        "- CPU per hand-in: 0.90 s, kernels included",
        "- scores: the same as `grade --force` in all 120 cells",
    ]
