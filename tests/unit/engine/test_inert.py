"""An autograded notebook made inert (grader/engine/inert.py): each way a submission can carry a script into
the page formgrader shows, rendered by nbgrader's own exporter and template before and after; what grading
reads and shows kept; the work bounded."""

from __future__ import annotations

import base64
import collections
import copy
import functools
import html
import re
import time
from html.parser import HTMLParser

import nbformat
import pytest
from nbconvert.filters.markdown_mistune import markdown2html_mistune

from grader.engine import inert as inert_module
from grader.engine.inert import ITEM_LIMIT, NOTEBOOK_LIMIT, inert, inert_text, markdown_text
from grader.engine.scores import report_of
from grader.learner.hints import misconceptions
from tests.results_by_hand import executed, not_written, wrong
from tests.support import COURSE, active_markup, formgrader_page

LESSON = "01_naive_division"
RUN = "document.title='ran'"  # what each script does: any of them found in the page fails the test
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(40)).decode()  # base64, as a PNG display holds it
JPEG = base64.b64encode(b"\xff\xd8\xff\xe0" + bytes(40)).decode()


def display(data: dict, metadata: dict | None = None):
    return nbformat.v4.new_output("display_data", data={"text/plain": "a display", **data}, metadata=metadata or {})


def showing(*outputs, source="show()"):
    """A notebook of one code cell that showed `outputs`."""
    cell = nbformat.v4.new_code_cell(source, execution_count=1)
    cell.outputs = list(outputs)
    return notebook_of(cell)


def markdown(source: str, **fields):
    cell = nbformat.v4.new_markdown_cell(source)
    cell.update(fields)
    return notebook_of(cell)


def notebook_of(*cells):
    nb = nbformat.v4.new_notebook(cells=list(cells))
    nb.metadata.kernelspec = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata.language_info = {"name": "python"}
    return nb


# Each runs a script, loads from elsewhere or takes the page elsewhere in formgrader's page as it comes.
ACTIVE = {
    "a script in an HTML display": showing(display({"text/html": f"<b>bold</b><script>{RUN}</script>"})),
    "an event handler in an HTML display": showing(display({"text/html": f'<img src=x onerror="{RUN}">'})),
    "a javascript: link in an HTML display": showing(display({"text/html": f'<a href="javascript:{RUN}">a</a>'})),
    "a JavaScript display": showing(display({"application/javascript": RUN})),
    "HTML in a Markdown display": showing(display({"text/markdown": f'<img src=x onerror="{RUN}">'})),
    "a javascript: link in a Markdown display": showing(display({"text/markdown": f"[a](javascript:{RUN})"})),
    "an HTML display shown isolated": showing(
        display({"text/html": f"<script>{RUN}</script>"}, {"text/html": {"isolated": True}})
    ),
    "an image's width unquoted": showing(display({"image/png": PNG}, {"image/png": {"width": f"1 onerror={RUN}"}})),
    "an image's file name as its address": showing(
        display({"image/png": PNG}, {"filenames": {"image/png": "http://elsewhere.invalid/seen"}})
    ),
    "a script in a Markdown cell": markdown(f"<script>{RUN}</script>"),
    "an event handler in a Markdown cell": markdown(f'<img src=x onerror="{RUN}">'),
    "an SVG's onload in a Markdown cell": markdown(f'<svg onload="{RUN}"></svg>'),
    "an iframe in a Markdown cell": markdown(f'<iframe srcdoc="<script>{RUN}</script>"></iframe>'),
    "a details' ontoggle in a Markdown cell": markdown(
        f'<details open ontoggle="{RUN}"><summary>s</summary></details>'
    ),
    "a Markdown javascript: link": markdown(f"[a link](javascript:{RUN})"),
    "a Markdown link written with an entity": markdown(f"[a link](&#106;avascript:{RUN})"),
    "a Markdown reference link": markdown(f"[a link][x]\n\n[x]: javascript:{RUN}"),
    "an HTML javascript: link in a Markdown cell": markdown(f'<a href="javascript:{RUN}">a link</a>'),
    "a refresh in a Markdown cell": markdown('<meta http-equiv="refresh" content="0; url=http://elsewhere.invalid">'),
    "a base address in a Markdown cell": markdown('<base href="http://elsewhere.invalid/">'),
    "a style sheet in a Markdown cell": markdown('<link rel="stylesheet" href="http://elsewhere.invalid/s.css">'),
    "an object in a Markdown cell": markdown(f'<object data="javascript:{RUN}"></object>'),
    "a form in a Markdown cell": markdown('<form action="http://elsewhere.invalid"><button>go</button></form>'),
    "a Mermaid block in a Markdown cell": markdown(f'```mermaid\n<img src=x onerror="{RUN}">\n```'),
}


@functools.cache
def formgraders_own() -> collections.Counter[str]:
    """What formgrader's page runs of its own (its scripts, its buttons' handlers), with no notebook content."""
    return active_markup(formgrader_page(notebook_of()))


@pytest.mark.parametrize("vector", ACTIVE, ids=ACTIVE)
def test_what_would_run_in_formgrader_is_inert(vector):
    nb = ACTIVE[vector]
    assert active_markup(formgrader_page(nb)) - formgraders_own(), "it is active in formgrader's page as it comes"
    assert not active_markup(formgrader_page(inert(nb))) - formgraders_own()


def test_what_formgrader_shows_safely_today_is_left_out_all_the_same():
    """SVG (drawn in an <img>), image data that is not base64 (escaped), LaTeX (MathJax's Safe extension),
    widgets (no widget manager in formgrader's page), an attachment and a title (escaped): inert in
    formgrader's template today, and in no other page or template tomorrow."""
    svg = display({"image/svg+xml": f'<svg xmlns="http://www.w3.org/2000/svg" onload="{RUN}"/>'})
    breaks_out = display({"image/png": f'x" onerror="{RUN}" y="'})
    latex = display({"text/latex": f"$\\href{{javascript:{RUN}}}{{x}}$"})
    widget = display({"application/vnd.jupyter.widget-view+json": {"model_id": "m", "version_major": 2}})
    nb = showing(svg, breaks_out, latex, widget)
    cell = nbformat.v4.new_markdown_cell("![a](attachment:a.png)")
    cell.attachments = {"a.png": {"image/png": f'x" onerror="{RUN}" y="', "text/html": f"<script>{RUN}</script>"}}
    cell.metadata = {"tags": [f'"><script>{RUN}</script>', "a score", "ok-tag"]}
    nb.cells.append(cell)
    nb.metadata.title = f"</title><script>{RUN}</script>"
    nb.metadata.widgets = {"application/vnd.jupyter.widget-state+json": {"state": {"m": {"state": {"value": RUN}}}}}
    made = inert(nb)
    assert [output.data for output in made.cells[0].outputs] == [{"text/plain": "a display"}] * 4
    assert "attachments" not in made.cells[1] and made.cells[1].metadata.tags == ["ok-tag"]
    assert set(made.metadata) == {"kernelspec", "language_info"}
    assert RUN not in nbformat.writes(made)
    assert '<img src="data:image/png;base64," alt="a">' in made.cells[1].source  # an empty image in its place


def test_a_display_left_with_no_text_says_what_was_left_out():
    made = inert(showing(nbformat.v4.new_output("display_data", data={"application/javascript": RUN})))
    assert made.cells[0].outputs[0].data == {
        "text/plain": "[application/javascript left out: it could run in the page that shows this notebook]"
    }


def test_the_learners_markup_is_shown_as_text_and_harmless_markup_as_it_was():
    made = inert(
        markdown(f"## Notes\n\n<script>{RUN}</script>\n\nWords *kept*, <sup>2</sup>, [a link](https://example.org)")
    )
    shown = made.cells[0].source
    assert "<h2>Notes</h2>" in shown and "<em>kept</em>" in shown and "<sup>2</sup>" in shown
    assert f"&lt;script&gt;{RUN}&lt;/script&gt;" in shown  # the instructor reads what was tried
    assert '<a href="https://example.org">a link</a>' in shown
    for data in (PNG, "\n".join(PNG[i : i + 20] for i in range(0, len(PNG), 20))):  # base64 in lines, too
        shown = inert(markdown("![a](attachment:a.png)", attachments={"a.png": {"image/png": data}})).cells[0].source
        assert f'src="data:image/png;base64,{PNG}"' in shown  # an attached image stays, embedded


class Text(HTMLParser):
    """A page's words, as a reader sees them (scripts and styles left out)."""

    def __init__(self, page: str):
        super().__init__()
        self.words: list[str] = []
        self.hidden = 0
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.hidden:
            self.words += data.replace("¶", " ").split()


def test_a_lessons_notebook_reads_the_same_in_formgrader():
    """Every word of the release's Markdown, code and outputs, as formgrader showed it before (its headings'
    anchor links, ¶, aside)."""
    release = nbformat.read(COURSE.release_notebook(LESSON), as_version=4)
    assert Text(formgrader_page(inert(release))).words == Text(formgrader_page(release)).words


def test_what_grading_reads_and_shows_is_kept():
    """Test cells' errors and printed text, nbgrader's and the grader's metadata, results' text, base64 images
    with their sizes: the same report, byte for byte the same cells."""
    entry = next(m for m in misconceptions() if m.id == "naive_sums_whole_array")
    for outcomes in (not_written(COURSE, LESSON), wrong(COURSE, LESSON, entry)):
        nb = executed(COURSE, LESSON, outcomes)
        first = next(cell for cell in nb.cells if cell.cell_type == "code")
        first.outputs = [
            nbformat.v4.new_output("stream", name="stdout", text=f"<script>{RUN}</script>\n"),
            nbformat.v4.new_output("execute_result", data={"text/plain": "1.5"}, execution_count=3),
            display({"image/png": PNG}, {"image/png": {"width": 40, "height": 30}}),
            display({"image/jpeg": JPEG}),
        ]
        made = inert(nb)
        assert report_of(COURSE, made, LESSON) == report_of(COURSE, nb, LESSON)
        code = [(c, m) for c, m in zip(nb.cells, made.cells, strict=True) if c.cell_type == "code"]
        assert code and all(original == kept for original, kept in code)


def test_the_notebook_given_is_left_as_it_was():
    nb = ACTIVE["a script in an HTML display"]
    before = copy.deepcopy(nb)
    inert(nb)
    assert nb == before


def test_the_text_written_is_the_notebook_made_inert():
    nb = ACTIVE["a script in a Markdown cell"]
    assert inert_text(nbformat.writes(nb)) == nbformat.writes(inert(nb))


@pytest.mark.parametrize(
    "text",
    [
        f"<script>{RUN}</script> and <img src=x onerror={RUN}>",
        f"[a](javascript:{RUN}) ![b](javascript:{RUN}) <javascript:{RUN}> [c][r]\n\n[r]: javascript:{RUN}",
        f"[d](&#106;avascript:{RUN}) &lt;script&gt; `code` \\<b>\\[e](javascript:{RUN})",
        "timeout: test_naive_normalize_rows ran past 8 s, 2 * 3 < 7 > 5",
    ],
)
def test_markdown_text_shows_as_written_and_runs_nothing(text):
    shown = markdown2html_mistune(markdown_text(text))  # as nbgrader's feedback renders a comment
    assert not active_markup(shown)
    assert html.unescape(re.sub(r"<[^>]+>", "", shown)).strip() == text.replace("\n\n", "\n")


def test_markup_too_long_to_clean_in_time_is_shown_as_text():
    """Cleaning nested tags takes time that grows with their square: a cell over ITEM_LIMIT, and whatever comes
    past NOTEBOOK_LIMIT in one notebook, is shown as escaped text, at once."""
    nested = "<p><b><i>" * 600_000  # 5.4 MB: bleach would take hours over it
    fits = "<p><b><i>" * (ITEM_LIMIT // 10)  # 90 % of ITEM_LIMIT
    cells = [nbformat.v4.new_markdown_cell(source) for source in [nested] + [fits] * (NOTEBOOK_LIMIT // len(fits) + 1)]
    start = time.process_time()
    made = inert(notebook_of(*cells))
    assert time.process_time() - start < 10
    assert made.cells[0].source.startswith("<div><pre>&lt;p&gt;&lt;b&gt;")
    assert all(cell.source.startswith("<div><p><b><i>") for cell in made.cells[1:-1])  # within the budget: cleaned
    assert made.cells[-1].source.startswith("<div><pre>&lt;p&gt;&lt;b&gt;")  # past it: text
    assert not re.search(r"<(?!/?(div|pre|p|b|i)>)", "".join(cell.source for cell in made.cells))


def test_a_lessons_cells_are_rendered_once_for_the_whole_class():
    inert_module.cached_markdown_html.cache_clear()
    release = nbformat.read(COURSE.release_notebook(LESSON), as_version=4)
    for _ in range(3):
        inert(release)
    sources = {cell.source for cell in release.cells if cell.cell_type == "markdown"}
    assert inert_module.cached_markdown_html.cache_info().misses == len(sources) > 10
