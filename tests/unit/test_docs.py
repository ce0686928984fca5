"""The README, the hand-written pages and docs/COURSE.md are true, and complete without anything outside the repository.

docs/COURSE.md states the course contract in words: these tests hold it to the code it describes (the
lessons' order and points, each graded function's signature, properties and catalogued mistakes, the
numbers each lesson prints). The README is short and points into the pages; timings must come from the
scripts that measure them, inside the blocks those scripts write into the reference pages (docs/reference/),
each with its date and machine; the scripts run here as a person runs them, in processes of their own (no test
imports the benchmarks); each user path's commands are on a tutorial or how-to page; and no document or module
may point at a path outside the checkout.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from grader.course.contract import properties
from grader.course.directory import read_cached
from grader.course.points import as_text, splits
from grader.engine import testrunner
from grader.learner import hints
from tests import lessons
from tests.support import COURSE, COURSE_MISCONCEPTIONS, journey_page, journeys_on

ROOT = COURSE.root
CONTRACT = (ROOT / "docs" / "COURSE.md").read_text()
README = (ROOT / "README.md").read_text()
# The pages written by hand (the README's content moved there): tutorials, how-to guides, explanation, and the
# repository's own CONTRIBUTING.md; docs/reference/ and docs/course/ are generated.
HAND_WRITTEN = sorted(
    [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    + [page for section in ("tutorials", "howto", "explanation") for page in (ROOT / "docs" / section).glob("*.md")]
)
PROSE = "\n".join(page.read_text() for page in HAND_WRITTEN)
THREAT_MODEL = (ROOT / "docs" / "explanation" / "threat-model.md").read_text()
README_LINES = 150  # a README a newcomer reads to the end
PERFORMANCE = ROOT / "docs" / "reference" / "performance.md"
REFERENCE_PAGES = sorted((ROOT / "docs" / "reference").glob("*.md"))
GRADED = [(lesson, function) for lesson in COURSE.lesson_ids() for function in properties(COURSE, lesson)]

# A number as the documents write it: 0.2278, 1e-8, 3.72e-44, 100 (never part of a name such as float32).
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:e[-+]?\d+)?(?!\w)")
LESSON_NUMBER = re.compile(r"0[1-9]")  # "lesson 05", "lessons 06, 08 and 09": a lesson, not a figure

# A duration: "2.8 s", "28 minutes", "about two hours", "under a minute".
TIMING = re.compile(
    r"\b\d+(?:\.\d+)?\s?(?:ms|s|secs?|seconds?|mins?|minutes?|hours?)\b"
    r"|\b(?:a few|an?|one|two|three|four|five|ten|several|half an?|under an?|about an?)"
    r"\s(?:seconds?|minutes?|hours?)\b",
    re.IGNORECASE,
)
# Durations outside the generated blocks that are settings or named constants, never measurements.
NOT_MEASURED = {
    "30 s when it sets none": "the --timeout default of grade: a setting",
    "Each cell has 30 s": "the same --timeout setting",
    "within 5 s": "how long an interrupted kernel is given before it is killed: a setting",
    "its timeout plus 5 s": "the bound that follows from the two settings above",
    "300 s by default": "the --notebook-timeout default of grade, ten --timeout's: a setting",
    "its notebook limit plus 5 s": "the bound that follows from it and the grace above",
    "its 300 s limit": "the same setting, in the status it gives",
    "(0.2 s and 0.1 s polls per kernel)": "jupyter_client's own fixed pauses, which the forked kernels avoid",
    "fails after 15 minutes": "the time limit per test in pyproject.toml (timeout = 900): a setting",
    "each within 5 s once set up": "the bound tests/hub/test_journey.py holds the hub's start and stop to: a limit",
    "holds it to 120 s from Submit": "the bound tests/hub/test_autograder.py holds the hub's autograder to: a limit",
}
GENERATED_BLOCK = re.compile(r"<!-- ([\w ]+): begin.*?<!-- \1: end -->", re.DOTALL)


def lesson_section(lesson: str) -> str:
    """The part of docs/COURSE.md under the lesson's heading, up to the next lesson or section."""
    found = re.search(rf"^### `{lesson}`.*?$(.*?)(?=^### |^## |\Z)", CONTRACT, re.MULTILINE | re.DOTALL)
    assert found, f"docs/COURSE.md has no section for {lesson}"
    return found[1]


def subsections(body: str) -> dict[str, str]:
    """{heading: text} for the `#### ` headings of a lesson's section."""
    return {m[1]: m[2] for m in re.finditer(r"^#### (.+?)$(.*?)(?=^#### |\Z)", body, re.MULTILINE | re.DOTALL)}


def signature(lesson: str, function: str) -> str:
    """`name(args)` exactly as the reference's def line writes it, defaults included."""
    found = re.search(rf"def ({function}\(.*?\)):", COURSE.reference_answers(lesson)[function])
    assert found, f"no def line for {function}"
    return found[1]


def graded_cells(lesson: str) -> list:
    """The lesson's test cells (graded, not a solution), from its source notebook."""
    cells = read_cached(COURSE.source_notebook(lesson)).cells
    return [c for c in cells if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata.nbgrader.get("solution")]


def function_section(lesson: str, function: str) -> tuple[str, str]:
    """(heading, text) of the function's subsection in its lesson's section."""
    for heading, text in subsections(lesson_section(lesson)).items():
        if heading.startswith(f"`{function}("):
            return heading, text
    raise AssertionError(f"docs/COURSE.md's {lesson} section has no heading for {function}")


def numbers(text: str) -> set[str]:
    return {n for n in NUMBER.findall(text) if not LESSON_NUMBER.fullmatch(n)}


def shown_by(haystack: str, number: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(number)}(?![\w]|\.\d)", haystack) is not None


def test_the_contract_takes_the_lessons_in_course_order():
    assert re.findall(r"^### `(\d\d_[a-z_]+)`", CONTRACT, re.MULTILINE) == COURSE.lesson_ids()
    assert re.findall(r"^\| \d+ \| `(\d\d_[a-z_]+)` \|", CONTRACT, re.MULTILINE) == COURSE.lesson_ids()


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_the_lesson_table_names_its_graded_functions_and_points(lesson):
    row = re.search(rf"^\| \d+ \| `{lesson}` \| (.*) \| (.*) \| (\d+) \|$", CONTRACT, re.MULTILINE)
    assert row, f"no row for {lesson} in the lessons table"
    assert re.findall(r"`(\w+)`", row[2]) == list(properties(COURSE, lesson))
    assert int(row[3]) == sum(c.metadata.nbgrader.points for c in graded_cells(lesson))


@pytest.mark.parametrize("lesson, function", GRADED, ids=[f for _, f in GRADED])
def test_each_graded_function_is_stated_with_its_signature_points_and_properties(lesson, function):
    heading, text = function_section(lesson, function)
    cells = [c for c in graded_cells(lesson) if c.metadata.get("function") == function]
    points = sum(c.metadata.nbgrader.points for c in cells)
    detail = as_text(splits(COURSE, lesson)[function].detail)  # the split tests/unit/course/test_points.py holds
    assert heading == f"`{signature(lesson, function)}` — {points} points, {len(cells)} test cells, {detail} on details"
    stated = set(re.findall(r"`(\w+)`", text.split("**Mistakes caught:**")[0]))
    assert set(properties(COURSE, lesson)[function]) <= stated, "every property of the contract, by its id"


@pytest.mark.parametrize("lesson, function", GRADED, ids=[f for _, f in GRADED])
def test_the_mistakes_named_for_a_function_are_its_catalogued_misconceptions(lesson, function):
    _, text = function_section(lesson, function)
    named = re.findall(r"\(`(\w+)`(?:, `(\w+)`)*\)", text.split("**Mistakes caught:**")[1])
    ids = {i for group in named for i in group if i}
    assert len(ids) >= 3
    assert ids <= {m.id for m in hints.misconceptions(function, lesson)}


def test_the_misconception_list_names_every_entry_the_catalogue_test_requires():
    listed = CONTRACT.split("## The misconceptions the hidden tests must catch")[1].split("\n## ")[0]
    wanted = {i for entries in COURSE_MISCONCEPTIONS.values() for i in entries}
    assert wanted <= set(re.findall(r"`(\w+)`", listed))


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_every_number_a_lesson_shows_is_printed_or_written_by_its_cells(lesson):
    """A number under "What it shows" is printed by the lesson (tests/lessons, checked when the notebook
    runs) or written in one of its code cells (an input); a number of a function's contract is in the source."""
    printed = "\n".join(lessons.load(lesson).NUMBERS)
    nb = read_cached(COURSE.source_notebook(lesson))
    tests = {id(c) for c in graded_cells(lesson)}
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code" and id(c) not in tests)
    source = "\n".join(c.source for c in nb.cells)
    sections = subsections(lesson_section(lesson))
    shows = sections.pop("What it shows")
    assert [n for n in sorted(numbers(shows)) if not shown_by(printed + "\n" + code, n)] == []
    for heading, text in sections.items():
        unknown = [n for n in sorted(numbers(text)) if not shown_by(printed + "\n" + source, n)]
        assert unknown == [], heading


def documents():
    """Every document and module that could point somewhere: the README, CONTRIBUTING, the changelog, docs/, the
    package, tests, testbed and benchmarks."""
    found = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").rglob("*.md")]
    for folder in ("grader", "tests", "testbed", "benchmarks"):
        found += [p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md") and "__pycache__" not in p.parts]
    return found


def test_nothing_points_outside_the_repository():
    # Built from pieces, so that this file does not name them itself.
    outside = [".." + "/shared", "shared/" + "COURSE.md", str(ROOT.resolve()) + "/"]
    offending = [
        f"{path.relative_to(ROOT)}: {text!r}"
        for path in documents()
        for text in outside
        if text in path.read_text(errors="replace")
    ]
    assert offending == []


def test_the_architecture_names_every_folder_and_module_of_the_tree():
    """docs/ARCHITECTURE.md is the map: every top-level folder the repository tracks, and every module of the
    package (the per-lesson modules as one kind), is named in it, so a new one cannot go unmapped."""
    architecture = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    folders = {path.split("/")[0] for path in tracked if "/" in path}
    modules = {
        path.rsplit("/", 1)[-1].removesuffix(".py")
        for path in tracked
        if path.startswith("grader/") and path.endswith(".py") and not re.search(r"__init__|lesson_\d\d", path)
    }
    assert sorted(f for f in folders if f not in architecture) == []
    assert sorted(m for m in modules if not re.search(rf"\b{re.escape(m)}\b", architecture)) == []


def test_every_link_of_the_readme_and_docs_stays_in_the_repository():
    for page in [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").rglob("*.md")]:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if re.match(r"https?://", target) and page.name != "COURSE.md":
                continue  # a web page (nbgrader's documentation, say) is not a path
            resolved = (page.parent / target.split("#")[0]).resolve()
            assert resolved.is_relative_to(ROOT.resolve()) and resolved.exists(), f"{page.name} links to {target}"


def test_every_timing_in_the_hand_written_pages_comes_from_a_script():
    """Outside the generated blocks, the README and the hand-written pages quote no duration but the settings listed
    in NOT_MEASURED: a measurement is written, with its date and machine, by the script that made it."""
    prose = re.sub(r"\s+", " ", GENERATED_BLOCK.sub("", PROSE))
    allowed = [m.span() for phrase in NOT_MEASURED for m in re.finditer(re.escape(phrase), prose)]
    typed = [
        prose[max(0, m.start() - 40) : m.end() + 20]
        for m in TIMING.finditer(prose)
        if not any(start <= m.start() and m.end() <= end for start, end in allowed)
    ]
    assert typed == []
    assert all(phrase in prose for phrase in NOT_MEASURED), "an exception no longer needed: remove it"


def test_every_timing_on_the_reference_pages_comes_from_a_script():
    """The reference pages quote durations inside their generated blocks only; limits.md states settings, held to
    grader/course/limits.py by tests/unit/course/test_limits.py."""
    for page in [page for page in REFERENCE_PAGES if page.name != "limits.md"]:
        prose = re.sub(r"\s+", " ", GENERATED_BLOCK.sub("", page.read_text()))
        assert [prose[max(0, m.start() - 40) : m.end() + 20] for m in TIMING.finditer(prose)] == [], page.name


def test_the_generated_timings_state_the_date_and_machine():
    blocks = {m[1]: m[0] for m in GENERATED_BLOCK.finditer(PERFORMANCE.read_text())}
    made_by = {
        "benchmark": r"`benchmarks/autograde\.py --sizes [\d ]+ --runs \d+` \(`make benchmark` runs its defaults\)",
        "check time": re.escape("`benchmarks/check.py`"),
        "suite time": re.escape("`benchmarks/suite.py`"),
        "on submit": r"`benchmarks/on_submit\.py --students \d+`",
    }
    assert set(blocks) == set(made_by)
    for name, script in made_by.items():
        assert re.search(rf"Measured by {script} on \d{{4}}-\d\d-\d\d: \d+ cores \(", blocks[name]), name
        assert TIMING.search(blocks[name]), name


def test_every_generated_block_of_the_reference_says_what_wrote_it_when_and_where():
    """Each block of a reference page names the command that writes it in its marker, and opens with the date and
    the machine of its measurement (or, for a summary copied from a command's output, says so)."""
    found = 0
    for page in REFERENCE_PAGES:
        for block in GENERATED_BLOCK.finditer(page.read_text()):
            found += 1
            first = block[0].split("-->", 1)[1].strip().splitlines()[0]
            assert re.search(r"\b(generated by `[^`]+`|the summary of that command's output)", block[0]), block[1]
            assert re.search(r"\b(on )?\d{4}-\d\d-\d\d(:| on a)", first) and "core" in first, (page.name, first)
    assert found >= 7  # proof (two), hostile (two), performance (four)


def block_named(text: str, name: str) -> tuple[str, str, str]:
    """(what comes before the block `name`'s text, its text, what comes after), split at its markers."""
    found = re.search(rf"(.*<!-- {name}: begin [^\n]*-->\n)(.*?)(\n<!-- {name}: end -->.*)", text, re.DOTALL)
    assert found, f"no block {name}"
    return found[1], found[2], found[3]


def rewritten_from_saved(script: str, name: str, figures: dict, tmp_path) -> tuple[str, str]:
    """(the text of block `name` after `python benchmarks/SCRIPT --from-json ... --page` on a copy of
    performance.md, its stdout); the rest of the page must stay as it was."""
    saved, page = tmp_path / "figures.json", tmp_path / "performance.md"
    saved.write_text(json.dumps(figures))
    page.write_text(PERFORMANCE.read_text())
    run = subprocess.run(
        [sys.executable, f"benchmarks/{script}", "--from-json", str(saved), "--page", str(page)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    before, _, after = block_named(PERFORMANCE.read_text(), name)
    now_before, text, now_after = block_named(page.read_text(), name)
    assert (now_before, now_after) == (before, after)
    return text, run.stdout


def refused_without_its_block(script: str, figures: dict, tmp_path) -> str:
    """What `python benchmarks/SCRIPT --from-json ... --page` says of a page without the script's block; the page
    must be left as it was."""
    saved, page = tmp_path / "figures.json", tmp_path / "other.md"
    saved.write_text(json.dumps(figures))
    page.write_text("no block here\n")
    run = subprocess.run(
        [sys.executable, f"benchmarks/{script}", "--from-json", str(saved), "--page", str(page)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0 and page.read_text() == "no block here\n"
    return run.stderr


CHECK_FIGURES = {
    "date": "2026-12-02T10:00:00+00:00",
    "machine": {"cores": 2, "cpu": "Some CPU", "load_average_at_start": 0.5},
    "lesson": "01_naive_division",
    "first_s": 6.04,
    "first_cpu_s": 3.1,
    "warm_s": [2.9, 2.5, 3.3],
    "warm_cpu_s": [1.4, 1.2, 1.6],
}


def test_check_time_from_saved_figures_rewrites_only_its_passage(tmp_path):
    text, _ = rewritten_from_saved("check.py", "check time", CHECK_FIGURES, tmp_path)
    assert text == (
        "Measured by `benchmarks/check.py` on 2026-12-02: 2 cores (Some CPU, load average 0.5 at the start). "
        "`grader check` of a finished `01_naive_division` takes 2.9 s (median of 3 runs, 2.5 to 3.3 s; 1.4 s of CPU) "
        "and 6.0 s the first time a lesson version is checked, while it caches the lesson's gradebook."
    )


def test_check_time_refuses_a_page_without_its_block(tmp_path):
    said = refused_without_its_block("check.py", CHECK_FIGURES, tmp_path)
    assert "other.md has no block between <!-- check time: begin" in said


SUITE_FIGURES = {
    "date": "2026-12-04T11:00:00+00:00",
    "machine": {"cores": 2, "cpu": "Some CPU", "load_average_at_start": 0.2},
    "measure": "cgroup",
    "commands": {
        "make test": [
            {"wall_s": 281.4, "cpu_s": 530.2, "passed": 1500},
            {"wall_s": 301.0, "cpu_s": 541.0, "passed": 1500},
            {"wall_s": 290.6, "cpu_s": 535.5, "passed": 1500},
        ],
        "make test-fast": [
            {"wall_s": 11.2, "cpu_s": 14.0, "passed": 835},
            {"wall_s": 10.9, "cpu_s": 13.1, "passed": 835},
            {"wall_s": 12.3, "cpu_s": 15.2, "passed": 835},
        ],
    },
}


def test_suite_time_from_saved_figures_rewrites_only_its_passage(tmp_path):
    text, printed = rewritten_from_saved("suite.py", "suite time", SUITE_FIGURES, tmp_path)
    assert text == (
        "Measured by `benchmarks/suite.py` on 2026-12-04: 2 cores (Some CPU, load average 0.2 at the start). "
        "`make test` takes 4:51 (median of 3 runs, 4:41 to 5:01) for 1500 tests (536 CPU-seconds, every process "
        "counted), against a target of 5:00; `make test-fast` takes 11.2 s (median of 3 runs, 10.9 s to 12.3 s) "
        "for 835 tests (14 CPU-seconds, every process counted), against a target of 1:00."
    )
    assert "make test: 4:51 (meets its 5:00 target, 0.97x of it)" in printed
    assert "make test-fast: 11.2 s (meets its 1:00 target, 0.19x of it)" in printed


def test_the_suite_passage_says_how_fast_the_machine_was_before_and_after(tmp_path):
    """The same code's suite time follows the day's speed of the cores: the passage gives it beside the figures."""
    speed = {"before": 0.781, "after": 0.8049}
    figures = {**SUITE_FIGURES, "machine": {**SUITE_FIGURES["machine"], "reference_workload_s": speed}}
    text, _ = rewritten_from_saved("suite.py", "suite time", figures, tmp_path)
    assert text.startswith(
        "Measured by `benchmarks/suite.py` on 2026-12-04: 2 cores (Some CPU, load average 0.2 at the start; its fixed "
        "Python workload took 0.78 CPU-s before, 0.80 after). `make test` takes 4:51"
    )


def test_the_threat_model_states_the_limits_the_grading_keeps():
    """ "Every size bounded" gives the figures testrunner holds to, not typed ones that have drifted."""
    text = " ".join(THREAT_MODEL.split())
    kb, mb = 2**10, 2**20
    cell, notebook = testrunner.RECEIVE_LIMIT
    for said in (
        f"a cell's text outputs {testrunner.TEXT_LIMIT // kb} KB, its images {testrunner.IMAGE_LIMIT // kb} KB, all "
        f"learner cells' outputs {testrunner.LEARNER_LIMIT // kb} KB together",
        f"keeps at most {cell // mb} MB of its output messages ({notebook // mb} MB for the notebook), drops a message "
        f"over {testrunner.MAX_MESSAGE // mb} MB unread and lets no more than two wait unread",
    ):
        assert said in text
    assert testrunner.RECEIVE_QUEUE == 2


def test_the_suite_verdict_says_when_a_target_is_missed(tmp_path):
    slow = {**SUITE_FIGURES, "commands": {"make test": [{"wall_s": 372.0, "cpu_s": 700.0, "passed": 1493}]}}
    _, printed = rewritten_from_saved("suite.py", "suite time", slow, tmp_path)
    assert "make test: 6:12 (MISSES its 5:00 target, 1.24x of it)" in printed.splitlines()
    said = refused_without_its_block("suite.py", slow, tmp_path)
    assert "other.md has no block between <!-- suite time: begin" in said


def test_the_readme_lists_every_lesson_in_order_with_its_functions_and_points():
    rows = re.findall(
        r"^\| `(\d\d_[a-z_]+)` \| .* \| (.*) \| (\d+) \|$", README.split("## Lessons", 1)[1], re.MULTILINE
    )
    assert [lesson for lesson, _, _ in rows] == COURSE.lesson_ids()
    for lesson, functions, points in rows:
        assert re.findall(r"`(\w+)`", functions) == COURSE.graded_functions(lesson), lesson
        assert int(points) == sum(c.metadata.nbgrader.points for c in graded_cells(lesson)), lesson


def test_the_readme_is_short_generates_one_block_and_its_links_resolve():
    """What this is, the quick start, who it is for, the lessons and a class's wait for feedback; the rest is on the
    pages it links to, every one of the hand-written tutorials, how-to guides and explanations, and one measured
    block alone is written into it: its classroom figures, one line each."""
    assert len(README.splitlines()) <= README_LINES
    assert [block[1] for block in GENERATED_BLOCK.finditer(README)] == ["in a classroom"]
    assert "<!-- journey:" not in README
    assert "`make lab`" in README and "make test" in README and "`make docs`" in README and "docs/_build/html" in README
    links = [target.split("#")[0] for target in re.findall(r"\]\(([^)\s]+)\)", README)]
    relative = [target for target in links if not re.match(r"https?://", target)]
    assert [target for target in relative if not (ROOT / target).is_file()] == []
    assert [target for target in relative if target.startswith("docs/images/")], "one screenshot"
    pages = {str(page.relative_to(ROOT)) for page in HAND_WRITTEN if page.parent.parent == ROOT / "docs"}
    assert sorted(pages - set(relative) - {"docs/tutorials/index.md", "docs/howto/index.md"}) == []


def test_the_readme_s_classroom_block_is_one_line_per_figure_after_its_date_and_machine():
    """benchmarks/on_submit.py's figures, as pages.figure_lines writes them: the command, date and machine, then
    each figure on its own line (the table and how it was measured are on the performance page)."""
    block = README.split("<!-- in a classroom: begin", 1)[1].split("-->", 1)[1].split("<!-- in a classroom: end")[0]
    lines = block.strip().splitlines()
    opening = r"Measured by `benchmarks/on_submit\.py --students \d+` on \d{4}-\d\d-\d\d: \d+ cores \(.+\):"
    assert re.fullmatch(opening, lines[0]), lines[0]
    assert lines[1] == "" and len(lines) == 7 and all(line.startswith("- ") for line in lines[2:]), lines
    assert all(TIMING.search(line) for line in lines[2:5]), lines


def test_each_user_path_reads_its_commands_from_a_tutorial_or_a_how_to():
    """The journey tests type the commands of the page that tells each user path, so a tutorial or how-to page, never
    the README, holds each journey's blocks, and each journey is told on one page."""
    journeys = {name for page in HAND_WRITTEN for name in journeys_on(page)}
    assert {"learner", "instructor", "cluster", "hub", "hub-instructor", "hub-student", "hub-autograder"} <= journeys
    for name in journeys:
        assert journey_page(name).parent.name in ("tutorials", "howto"), name
