"""Plain `nbgrader autograde` against `python -m grader grade`: the same submissions, identical scores, what each costs.

At each class size, a class in thirds (grader/proof/simulate.py: reference answers, stubs, one
catalogued misconception) is handed in to a released course, and each run both tools grade a
copy of it: plain nbgrader with one command per lesson, as usual, and `grader grade` with one
command. The order alternates between runs, so that a busy spell of this shared machine falls on
each tool in turn. Every cell of every submission must get the same score in both gradebooks,
or the benchmark fails. Reported per tool and class size: wall time, per submission; CPU seconds
per submission over every process the command starts, kernels included; peak memory; the spread
over runs (median, min-max); and whether the cost per submission stays flat as the class grows.
How the processes are counted, and why that way: benchmarks/treeusage.py. Both tools skip the
lessons' ungraded PyTorch cells alike (grader.learner.pytorch: nbgrader's NBGRADER_EXECUTION in
plain nbgrader's kernels, SOFTMAX_SKIP_TORCH in ours), so torch is imported by neither.

    .venv/bin/python benchmarks/autograde.py [--sizes 48 240 480] [--runs 3] [--lessons 01_naive_division 06_masking]
                                             [--jobs N] [--json PATH] [--page [PATH]]
    .venv/bin/python benchmarks/autograde.py --from-json PATH --page   # the page's speed block from a saved run

--page writes the figures, with the date and the machine, into the speed block of docs/reference/performance.md.

The defaults take about two hours on 2 cores (plain nbgrader grades about one submission in 3 s);
`--sizes 6 --runs 1 --lessons 01_naive_division` takes a minute or two.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # run as a script: the repository's package and benchmarks/
from benchmarks import treeusage  # noqa: E402
from benchmarks.figures import REFERENCE, add_figures_options  # noqa: E402
from benchmarks.treeusage import Usage  # noqa: E402
from grader.course import Course  # noqa: E402
from grader.engine import warmkernel  # noqa: E402
from grader.proof import pages  # noqa: E402
from grader.proof.simulate import cell_scores, class_in_thirds, course_with_class  # noqa: E402

COURSE = Course(REPOSITORY)  # this repository's course
PAGE = REFERENCE / "performance.md"
BEGIN, END = pages.markers("benchmark", "make benchmark")
DEFAULT_LESSONS = ["01_naive_division", "06_masking"]
DEFAULT_SIZES = [48, 240, 480]
TOOLS = {"plain": "plain nbgrader autograde", "grader": "python -m grader grade"}
MARKDOWN_TOOLS = {"plain": "plain `nbgrader autograde`", "grader": "`python -m grader grade`"}
TARGET_SPEEDUP, AIM_SPEEDUP = 7, 10  # what `grader grade` should reach against plain nbgrader (wall time, median)
MEMORY_TARGET_SIZE, MEMORY_TARGET_MIB = 48, 400  # the most peak memory `grader grade` may take at that class size
FIGURES = ("wall_s", "wall_per_submission_s", "cpu_per_submission_s", "peak_memory_bytes", "largest_process_bytes")


class ScoresDiffer(AssertionError):
    """The two gradebooks do not hold the same score for every cell of every submission."""


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def progress_clock():
    """A function that prints a progress line with the time elapsed since the clock was made."""
    start = time.monotonic()

    def say(message: str) -> None:
        print(f"[{time.monotonic() - start:7.1f} s] {message}", file=sys.stderr, flush=True)

    return say


def tools_env() -> dict[str, str]:
    """This environment with the venv's tools first on PATH (nbgrader shells out to alembic) and this checkout's
    package first on Python's path (a command runs in its class's folder, where `python -m grader` would import
    the copy the venv was installed from: another worktree's, when worktrees share a venv), less the socket of a
    kernel zygote this process may have started: a measured command starts its own, inside the measured control
    groups, and pays for it."""
    env = {k: v for k, v in os.environ.items() if k != warmkernel.ADDRESS}
    path = os.pathsep.join(filter(None, [str(REPOSITORY), os.environ.get("PYTHONPATH")]))
    return {**env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}", "PYTHONPATH": path}


# ----------------------------------------------------------------- grading, measured


def grade_plain(root: Path, lessons: list[str], logs: Path, say) -> Usage:
    """Plain `nbgrader autograde`, one command per lesson (as an instructor runs it), added up."""
    total: Usage | None = None
    for lesson in lessons:
        command = [sys.executable, "-m", "nbgrader", "autograde", lesson]
        usage = treeusage.run(command, root, tools_env(), logs / f"plain-{lesson}.log")
        say(f"    {TOOLS['plain']} {lesson}: {usage.wall_s:.1f} s, {usage.cpu_s:.1f} s CPU")
        total = usage if total is None else total + usage
    assert total is not None, "at least one lesson"
    return total


def grade_ours(root: Path, lessons: list[str], jobs: int | None, logs: Path, say) -> Usage:
    """`python -m grader grade` of the lessons, one command."""
    command = [sys.executable, "-m", "grader", "--course", str(root), "grade", *lessons]
    command += ["--jobs", str(jobs)] if jobs else []
    usage = treeusage.run(command, root, tools_env(), logs / "grader.log")
    say(f"    {TOOLS['grader']}: {usage.wall_s:.1f} s, {usage.cpu_s:.1f} s CPU")
    return usage


def same_scores(plain: Path, ours: Path, lessons: list[str], handed_in) -> int:
    """How many cells were graded, once both gradebooks are known to hold the same score for every cell of every
    submission handed in; ScoresDiffer if not."""
    expected, got = cell_scores(Course(plain), lessons), cell_scores(Course(ours), lessons)
    graded = {(student, lesson) for student, lesson, _ in expected}
    if expected != got or graded != set(handed_in):
        differ = sorted(key for key in expected.keys() | got.keys() if expected.get(key) != got.get(key))
        missing = sorted(set(handed_in) - graded)
        raise ScoresDiffer(
            f"scores differ on {len(differ)} cells, e.g. {differ[:5]}; not graded by plain nbgrader: {missing[:5]}"
        )
    return len(expected)


def spread(values: list[float]) -> dict[str, float]:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def summary(runs: list[dict], submissions: int) -> dict:
    """The spread over runs of each tool's figures, and of the speed-up (wall time) and the CPU ratio."""
    result: dict = {}
    for tool in TOOLS:
        usages = [run[tool] for run in runs]
        result[tool] = {
            "wall_s": spread([u["wall_s"] for u in usages]),
            "wall_per_submission_s": spread([u["wall_s"] / submissions for u in usages]),
            "cpu_per_submission_s": spread([u["cpu_s"] / submissions for u in usages]),
            "peak_memory_bytes": spread([u["peak_memory_bytes"] for u in usages]),
            "largest_process_bytes": spread([u["largest_process_bytes"] for u in usages]),
        }
    result["speedup"] = spread([run["speedup"] for run in runs])
    result["cpu_ratio"] = spread([run["cpu_ratio"] for run in runs])
    return result


def measure_size(size: int, lessons: list[str], runs: int, jobs: int | None, tmp: Path, say) -> dict:
    """Build a class of about `size` submissions and grade it `runs` times with both tools."""
    students = max(1, math.ceil(size / len(lessons)))
    submissions = students * len(lessons)
    say(
        f"class of {submissions} submissions ({plural(students, 'student')} x {plural(len(lessons), 'lesson')}): "
        "releasing, handing in"
    )
    class_ = class_in_thirds(COURSE, students, lessons)
    pristine = course_with_class(COURSE, tmp / f"class-{submissions}", lessons, class_)
    measured, cells = [], 0
    for number in range(1, runs + 1):
        order = ["plain", "grader"] if number % 2 else ["grader", "plain"]
        say(f"  {submissions} submissions, run {number}/{runs}: {' then '.join(TOOLS[tool] for tool in order)}")
        work = tmp / f"run-{submissions}-{number}"
        roots = {tool: shutil.copytree(pristine, work / tool) for tool in TOOLS}
        logs = work / "logs"
        logs.mkdir()
        usage = {}
        for tool in order:
            if tool == "plain":
                usage[tool] = grade_plain(roots[tool], lessons, logs, say)
            else:
                usage[tool] = grade_ours(roots[tool], lessons, jobs, logs, say)
        cells = same_scores(roots["plain"], roots["grader"], lessons, class_)
        plain, ours = usage["plain"], usage["grader"]
        measured.append(
            {
                "run": number,
                "order": order,
                "plain": plain.as_dict(),
                "grader": ours.as_dict(),
                "speedup": plain.wall_s / ours.wall_s,
                "cpu_ratio": plain.cpu_s / ours.cpu_s,
            }
        )
        say(
            f"  identical scores on {cells} cells; speed-up {plain.wall_s / ours.wall_s:.1f}x, "
            f"CPU per submission {plain.cpu_s / submissions:.2f} s against {ours.cpu_s / submissions:.2f} s"
        )
        shutil.rmtree(work)
    shutil.rmtree(pristine)
    return {
        "submissions": submissions,
        "students": students,
        "graded_cells": cells,
        "identical_scores": True,
        "runs": measured,
        "summary": summary(measured, submissions),
    }


def flatness(sizes: list[dict]) -> dict[str, float]:
    """Per tool: the median CPU per submission of the largest class over that of the smallest (1.0 = flat)."""
    smallest, largest = sizes[0]["summary"], sizes[-1]["summary"]
    return {
        tool: largest[tool]["cpu_per_submission_s"]["median"] / smallest[tool]["cpu_per_submission_s"]["median"]
        for tool in TOOLS
    }


def fitted(sizes: list[dict]) -> dict[str, dict[str, float]]:
    """Per tool, the least-squares line through the median cost of each class size, cost = fixed + marginal x
    submissions: what one more submission costs, and what a run costs whatever the class (start-up)."""
    result = {}
    for tool in TOOLS:
        line = {}
        for figure in ("cpu", "wall"):
            counts = [size["submissions"] for size in sizes]
            each = [size["summary"][tool][f"{figure}_per_submission_s"]["median"] for size in sizes]
            costs = [per_submission * count for per_submission, count in zip(each, counts, strict=True)]
            slope, intercept = statistics.linear_regression(counts, costs)
            line[f"marginal_{figure}_per_submission_s"], line[f"fixed_{figure}_s"] = slope, intercept
        result[tool] = line
    return result


def benchmark(args, say) -> dict:
    """Every class size measured; the figures as the JSON output holds them."""
    measure = treeusage.measure_name()
    figures = {
        "benchmark": f"{TOOLS['plain']} against {TOOLS['grader']}",
        "date": pages.now(),
        "machine": pages.this_machine(),
        "measure": measure,
        "measure_description": treeusage.describe(measure),
        "lessons": args.lessons,
        "runs": args.runs,
        "jobs": args.jobs,
        "sizes": [],
    }
    say(
        f"{plural(len(args.sizes), 'class size')} x {plural(args.runs, 'run')} on {os.cpu_count()} cores, "
        f"lessons {', '.join(args.lessons)}; counting {treeusage.describe(measure)}"
    )
    with tempfile.TemporaryDirectory(prefix="softmax-bench-") as tmp:
        for size in args.sizes:
            figures["sizes"].append(measure_size(size, args.lessons, args.runs, args.jobs, Path(tmp), say))
    figures["machine"]["load_average_at_end"] = os.getloadavg()[0]
    figures["flatness"] = flatness(figures["sizes"])
    if len({size["submissions"] for size in figures["sizes"]}) > 1:
        figures["fitted"] = fitted(figures["sizes"])
    return figures


# ----------------------------------------------------------------- the figures, for people


def seconds(value: float) -> str:
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def mebibytes(value: float) -> str:
    return f"{value / 2**20:.0f}"


def times(value: float) -> str:
    return f"{value:.1f}"


UNITS = {seconds: " s", mebibytes: " MiB", times: "×"}


def shown(figure: dict[str, float], style, with_spread: bool) -> str:
    """The median with its unit, and the min-max over runs when there was more than one run."""
    median = style(figure["median"]) + UNITS[style]
    return f"{median} ({style(figure['min'])}–{style(figure['max'])})" if with_spread else median


def rows(figures: dict, names: dict[str, str]) -> list[list[str]]:
    """The table's rows: per class size, a row per tool and one for the ratios."""
    with_spread = figures["runs"] > 1
    header = ["submissions", "", "wall time", "per submission", "CPU per submission", "peak memory", "largest process"]
    table = [header]
    for size in figures["sizes"]:
        s = size["summary"]
        for number, tool in enumerate(TOOLS):
            table.append(
                [
                    str(size["submissions"]) if number == 0 else "",
                    names[tool],
                    shown(s[tool]["wall_s"], seconds, with_spread),
                    seconds(s[tool]["wall_per_submission_s"]["median"]) + " s",
                    shown(s[tool]["cpu_per_submission_s"], seconds, with_spread),
                    shown(s[tool]["peak_memory_bytes"], mebibytes, with_spread),
                    mebibytes(s[tool]["largest_process_bytes"]["max"]) + " MiB",
                ]
            )
        speedup = shown(s["speedup"], times, with_spread)
        cpu = shown(s["cpu_ratio"], times, with_spread)
        table.append(["", names["ratio"], speedup, "", f"CPU {cpu}", "", ""])
    return table


def notes(figures: dict, names: dict[str, str]) -> list[str]:
    """What the table does not say: scores, flatness, how it was counted."""
    sizes = figures["sizes"]
    cells = ", ".join(f"{size['graded_cells']} cells of {size['submissions']} submissions" for size in sizes)
    lines = [f"Identical scores on every graded cell in every run ({cells}).", verdict(sizes)]
    lines += [memory_verdict(size, names) for size in sizes if size["submissions"] == MEMORY_TARGET_SIZE]
    if len(sizes) > 1:
        flat = flatness(sizes)
        lines.append(
            f"CPU per submission (median) from {sizes[0]['submissions']} to {sizes[-1]['submissions']} submissions: "
            + "; ".join(
                f"{names[tool]} {seconds(sizes[0]['summary'][tool]['cpu_per_submission_s']['median'])} s → "
                f"{seconds(sizes[-1]['summary'][tool]['cpu_per_submission_s']['median'])} s (×{flat[tool]:.2f})"
                for tool in TOOLS
            )
            + "."
        )
    if len({size["submissions"] for size in sizes}) > 1:
        line = fitted(sizes)
        lines.append(
            "Fitted over the class sizes (CPU = fixed + per submission × submissions): "
            + "; ".join(
                f"{names[tool]} {seconds(line[tool]['marginal_cpu_per_submission_s'])} s per submission "
                f"+ {seconds(line[tool]['fixed_cpu_s'])} s fixed"
                for tool in TOOLS
            )
            + "."
        )
    ours = [run["grader"] for size in sizes for run in size["runs"]]
    lines.append(f"Counted: {figures['measure_description']}.")
    if figures["measure"] == "cgroup":
        lines.append(
            f"{names['grader']} made {sum(u['kernel_groups'] for u in ours)} control groups for its kernels inside "
            f"its own, with {sum(u['uncounted'] for u in ours)} processes outside its CPU count; wait4 "
            f"(RUSAGE_CHILDREN) alone would have counted {sum(u['waited_cpu_s'] for u in ours):.1f} of its "
            f"{sum(u['cpu_s'] for u in ours):.1f} CPU seconds."
        )
    lines.append(
        "Peak memory: all of a command's processes together (anonymous memory and tmpfs; page cache left out); "
        "largest process: the highest peak RSS of one process."
    )
    return lines


def verdict(sizes: list[dict]) -> str:
    """The median speed-up of each class size against the target (and the aim)."""
    speedups = {size["submissions"]: size["summary"]["speedup"]["median"] for size in sizes}
    missed = sum(speedup < TARGET_SPEEDUP for speedup in speedups.values())
    aimed = sum(speedup >= AIM_SPEEDUP for speedup in speedups.values())
    each = ", ".join(f"{times(speedup)}× at {count}" for count, speedup in speedups.items())
    outcome = f"MISSES it at {missed} of {len(sizes)} class sizes" if missed else "meets it at every class size"
    return f"Target {TARGET_SPEEDUP}× (aim {AIM_SPEEDUP}×): {each}; {outcome}, and reaches the aim at {aimed} of them."


def memory_verdict(size: dict, names: dict[str, str]) -> str:
    """The median peak memory of `grader grade` at the memory target's class size against that target."""
    peak = size["summary"]["grader"]["peak_memory_bytes"]["median"]
    outcome = "meets it" if peak <= MEMORY_TARGET_MIB * 2**20 else "MISSES it"
    return (
        f"Peak memory target of {names['grader']} at {MEMORY_TARGET_SIZE} submissions {MEMORY_TARGET_MIB} MiB: "
        f"{mebibytes(peak)} MiB; {outcome}."
    )


def text_table(figures: dict) -> str:
    table = rows(figures, {**TOOLS, "ratio": "speed-up (wall time)"})
    widths = [max(len(row[column]) for row in table) for column in range(len(table[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in table]
    lines.insert(1, "  ".join("-" * width for width in widths))
    runs = figures["runs"]
    title = (
        f"{TOOLS['plain']} against {TOOLS['grader']}: lessons {', '.join(figures['lessons'])}; "
        f"{figures['machine']['cores']} cores; {plural(runs, 'run')}" + (" (median, min–max)" if runs > 1 else "")
    )
    wrapped = [textwrap.fill(note, 120, subsequent_indent="  ") for note in notes(figures, TOOLS)]
    return "\n".join([title, "", *lines, "", *wrapped])


def markdown(figures: dict) -> str:
    """The page's speed block."""
    runs = figures["runs"]
    lessons = " and ".join(f"`{lesson}`" for lesson in figures["lessons"])
    sizes = " ".join(str(size["submissions"]) for size in figures["sizes"])
    command = f"benchmarks/autograde.py --sizes {sizes} --runs {runs}"
    intro = (
        f"Measured by `{command}` (`make benchmark` runs its defaults) on "
        f"{pages.measured_on(figures['date'], figures['machine'])}, lessons {lessons}, "
        + (f"the median of {runs} runs with the spread (min–max) in brackets." if runs > 1 else "one run.")
    )
    table = rows(figures, {**MARKDOWN_TOOLS, "ratio": "**speed-up**"})
    lines = ["| " + " | ".join(table[0]) + " |", "|---:|---|---:|---:|---:|---:|---:|"]
    for row in table[1:]:
        if row[1] == "**speed-up**":
            row[2] = f"**{row[2]}**"
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join([intro, "", *lines, "", " ".join(notes(figures, MARKDOWN_TOOLS))])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=DEFAULT_SIZES, metavar="N", help="class sizes")
    parser.add_argument("--runs", type=int, default=3, help="runs per class size (default 3)")
    parser.add_argument("--lessons", nargs="+", default=DEFAULT_LESSONS, metavar="LESSON")
    parser.add_argument("--jobs", type=int, help="grader grade --jobs (default: its own)")
    add_figures_options(parser, PAGE)
    args = parser.parse_args(argv)
    args.sizes = sorted(args.sizes)  # smallest first: how the cost per submission changes as the class grows
    unknown = sorted(set(args.lessons) - set(COURSE.lesson_ids()))
    if unknown or args.runs < 1 or min(args.sizes) < 1:
        parser.error(f"unknown lessons {unknown}" if unknown else "--runs and --sizes must be at least 1")
    if args.from_json:
        figures = json.loads(args.from_json.read_text())
    else:
        try:
            figures = benchmark(args, progress_clock())
        except (ScoresDiffer, treeusage.CommandFailed) as error:
            print(f"FAILED: {error}", file=sys.stderr)
            return 1
    if args.json and not args.from_json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    print(text_table(figures))
    uncounted = sum(run[tool]["uncounted"] for size in figures["sizes"] for run in size["runs"] for tool in TOOLS)
    if uncounted:
        print(f"FAILED: {uncounted} processes ran outside their command's CPU count", file=sys.stderr)
        return 1
    if args.page:
        pages.write_block(args.page, BEGIN, END, markdown(figures))
        print(f"Rewrote the speed block of {args.page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
