"""The documentation site (make docs): built here once, from a copy of docs/, as `make docs` builds it.

What it must hold: every lesson as a learner is handed it, with its outputs, and never a solution, a hidden test or a
prediction's answer; every command of the command line; no page a build with a broken link between pages lets by.
"""

from __future__ import annotations

import html.parser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader import cli
from tests.support import COURSE

pytestmark = pytest.mark.xdist_group("site")  # one build, on one worker, read by every test here

REPO = COURSE.root
DOCS = REPO / "docs"
LESSONS = COURSE.lesson_ids()
FLAGS = ["-q", "-W", "--keep-going", "-b", "html"]  # as the Makefile's docs target gives them
SAYS_SOMETHING = 12  # characters of a line of code that could not be any code's (`else:`, `return x` could)
NOT_COMMITTED = "the answer shows once your guess is committed"  # a reveal cell's line, its guess unwritten


def build(source: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sphinx", *FLAGS, str(source), str(source / "_build" / "html")],
        capture_output=True,
        text=True,
    )


def release_files() -> dict[Path, tuple[int, int]]:
    return {path: (path.stat().st_mtime_ns, path.stat().st_size) for path in (REPO / "notebooks").rglob("*")}


@pytest.fixture(scope="module")
def site_and_release(tmp_path_factory) -> tuple[Path, dict, dict]:
    """The built site (its html folder), from a copy of docs/ without what an earlier `make docs` left there; and
    notebooks/'s files before and after the build."""
    source = tmp_path_factory.mktemp("site") / "docs"
    shutil.copytree(DOCS, source, ignore=shutil.ignore_patterns("_build", "*.ipynb"))
    before = release_files()
    built = build(source)
    assert built.returncode == 0, built.stderr
    return source / "_build" / "html", before, release_files()


@pytest.fixture(scope="module")
def site(site_and_release) -> Path:
    return site_and_release[0]


def test_the_build_writes_nothing_into_the_release(site_and_release):
    _, before, after = site_and_release
    assert len(before) >= len(LESSONS) and after == before


class Text(html.parser.HTMLParser):
    """A page's text as a reader sees it: no tags, entities read, no script's code."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        self.in_script = tag in ("script", "style")

    def handle_endtag(self, tag):
        self.in_script = False

    def handle_data(self, data):
        if not self.in_script:
            self.parts.append(data)


def text_of(page: Path) -> str:
    """The page's text with every run of white space made one space."""
    reader = Text()
    reader.feed(page.read_text())
    return " ".join(" ".join(reader.parts).split())


def blocks(text: str, begin: str, end: str) -> list[str]:
    return re.findall(rf"{begin}\n(.*?)\n\s*{end}", text, flags=re.S)


def sources(path: Path) -> str:
    return "\n".join(cell.source for cell in nbformat.read(path, as_version=4).cells)


def test_make_docs_builds_as_the_test_does():
    assert f"\t$(BIN)/sphinx-build {' '.join(FLAGS)} docs docs/_build/html\n" in (REPO / "Makefile").read_text()


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_lesson_shows_what_its_cells_print_and_draw_and_one_line_where_an_exercise_is_missing(site, lesson):
    executed = nbformat.read(site.parent.parent / "course" / f"{lesson}.ipynb", as_version=4)
    drawn = [o for c in executed.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    page = site / "course" / f"{lesson}.html"
    markup = page.read_text()
    assert len(re.findall(r'<img [^>]*src="data:image/png', markup)) == len(drawn), "every figure drawn"
    printed = re.findall(r'<div class="output stream[^"]*"><div class="highlight"><pre>(.*?)</pre>', markup, re.S)
    assert any(re.search(r"\d\.\d", block) for block in printed), "numbers printed"
    text = text_of(page)
    assert "is not written yet" in text  # the first exercise's check, as the lab shows it
    assert "Traceback" not in text and "Cell In[" not in text, "a failing cell shows a traceback"


def test_the_course_shows_figures(site):
    assert sum((site / "course" / f"{lesson}.html").read_text().count('src="data:image/png') for lesson in LESSONS) >= 5


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_predictions_answer_stays_hidden_until_a_guess_is_committed(site, lesson):
    reveals = [c for c in nbformat.read(COURSE.release_notebook(lesson), 4).cells if c.source.startswith("reveal(")]
    assert reveals
    assert text_of(site / "course" / f"{lesson}.html").count(NOT_COMMITTED) == len(reveals)


def test_no_solution_and_no_hidden_test_appears_anywhere_in_the_site(site):
    """Every line of every solution and hidden-test block (a prediction's answer is a solution block's line), unless a
    release shows it (lesson 06 is given lesson 05's stable_softmax, say) or it is too short to tell, is nowhere in the
    site's pages."""
    releases = "\n".join(sources(COURSE.release_notebook(lesson)) for lesson in LESSONS)
    released = " ".join(releases.split())
    secret = set()
    for lesson in LESSONS:
        solution = sources(COURSE.source_notebook(lesson))
        hidden = blocks(solution, "### BEGIN SOLUTION", "### END SOLUTION")
        hidden += blocks(solution, "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")
        assert hidden, lesson
        lines = {" ".join(line.split()) for block in hidden for line in block.splitlines()}
        # an import says which helper a hidden test calls, never what it checks (the authoring how-to shows one)
        lines = {line for line in lines if not re.match(r"(from \S+ )?import ", line)}
        secret |= {line for line in lines if len(line) >= SAYS_SOMETHING and line not in released}
    assert len(secret) > 500  # what the check below looks for: hundreds of lines, from every lesson
    pages = {page.relative_to(site): text_of(page) for page in site.rglob("*.html")}
    assert len(pages) > len(LESSONS)
    shown = [(str(page), line) for page, text in pages.items() for line in secret if line in text]
    assert not shown


def test_the_site_loads_nothing_from_elsewhere(site):
    for page in site.rglob("*.html"):
        assert not re.findall(r'<(?:script|link|img)[^>]* (?:src|href)="(?:https?:)?//', page.read_text()), page


def test_the_command_line_reference_has_every_command_and_option(site):
    markup = (site / "reference" / "cli.html").read_text()
    text = text_of(site / "reference" / "cli.html")
    commands = next(a for a in cli.parser()._actions if a.dest == "command").choices
    assert len(commands) == 10
    for name, command in commands.items():
        assert f'<section id="python-m-grader-{name}">' in markup
        for action in command._actions:
            assert all(option in text for option in action.option_strings), (name, action.option_strings)
    assert "python -m grader.hub" in text and "--set-up-only" in text


def test_a_broken_link_between_pages_fails_the_build(site, tmp_path):
    source = tmp_path / "docs"
    shutil.copytree(site.parent.parent, source, ignore=shutil.ignore_patterns("_build"))  # lessons executed already
    with (source / "index.md").open("a") as index:
        index.write("\nSee [the missing page](howto/no-such-page.md).\n")
    built = build(source)
    assert built.returncode != 0 and "no-such-page" in built.stderr, built.stderr
