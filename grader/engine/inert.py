"""An autograded notebook made inert: nothing a submission carries runs as a script in a page that shows it.

nbgrader's formgrader (and its generate_feedback) shows the autograded notebook through nbconvert's
classic template, in the instructor's Jupyter origin. That template writes a display's HTML, Markdown
and JavaScript as they are, a Markdown cell's HTML, links (`javascript:` ones included) and Mermaid
blocks as mistune renders them, an HTML display marked "isolated" into an iframe, an image's
`filenames` metadata as its address and its width unquoted. nbconvert's SanitizeHTML cleans HTML and
Markdown displays and Markdown source with bleach and drops JavaScript, but leaves Markdown's own links
and output metadata as they are (so scripts still run), and escapes the `<` of every Markdown code span.

So here, before the notebook is written where formgrader reads it:
- a Markdown cell (or display) is rendered as nbconvert renders it, its attachments embedded and
  harmful links refused, then cleaned by bleach with a short list of harmless tags and attributes
  (any other tag is escaped: the instructor reads it as text); it is stored as one line of HTML,
  which a Markdown renderer passes through as it is;
- an HTML display is cleaned the same way;
- of a display, only text, cleaned HTML and Markdown, and PNG or JPEG images whose data is base64
  are kept, with an image's whole-number width and height as its only metadata; JavaScript, SVG,
  LaTeX, widget views and every other kind are left out (a display left with no text says so);
- the notebook keeps only its kernel's and language's metadata (no widget state), a cell's tags
  only when each is one word, and no cell its attachments (a Markdown cell's are embedded above).
What grading reads and shows stays as it was: test cells' errors and printed text, nbgrader's and
the grader's cell metadata. Cleaning HTML takes time that grows faster than its length where tags
nest, so a piece over ITEM_LIMIT characters, or past NOTEBOOK_LIMIT in one notebook, is shown as
escaped text instead (an attachment's data, which costs in proportion to its length, is not counted).

A flagged submission's status, which grading writes as a grade's comment and nbgrader's feedback
renders as Markdown, may quote the file: markdown_text makes it Markdown that shows it as written.
"""

from __future__ import annotations

import base64
import binascii
import copy
import functools
import json
import re
from html import escape

import bleach
import nbformat
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

TAGS = frozenset(bleach.ALLOWED_TAGS) | {
    *("p", "div", "span", "br", "hr", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "img"),
    *("table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td"),
    *("sub", "sup", "del", "s", "ins", "u", "small", "mark", "kbd", "samp", "var", "q", "cite"),
    *("details", "summary", "dl", "dt", "dd"),
}
ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title"},
    "abbr": {"title"},
    "acronym": {"title"},
    "th": {"colspan", "rowspan", "scope"},
    "td": {"colspan", "rowspan"},
    "ol": {"start"},
    "details": {"open"},
}
# what an address may be: bleach checks its scheme again, after undoing entities and dropping control characters
LINK = re.compile(r"(?:https?://|mailto:|#)[^\s\x00-\x1f\x7f]*", re.IGNORECASE)
IMAGE_SOURCE = re.compile(r"data:image/(?:png|jpeg|gif);base64,[A-Za-z0-9+/]*={0,2}")  # an embedded attachment
PROTOCOLS = ("http", "https", "mailto", "data")  # data: only as IMAGE_SOURCE allows it
IMAGES = ("image/png", "image/jpeg")  # displays kept when their data is base64
ATTACHED = ("image/png", "image/jpeg", "image/gif")  # attachments embedded, the same
HTML, MARKDOWN, PLAIN = "text/html", "text/markdown", "text/plain"
NOTEBOOK_METADATA = ("kernelspec", "language_info")
MARKDOWN_MARKUP = re.compile(r"([\\<\[\]&`])")  # what markdown_text escapes
TAG = re.compile(r"[A-Za-z0-9_-]{1,100}")  # a cell tag the template may write as one class name
ITEM_LIMIT = 10_000  # characters of one Markdown cell or display rendered and cleaned
NOTEBOOK_LIMIT = 100_000  # characters of a notebook's Markdown and HTML rendered and cleaned, in all


def inert(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of the notebook with nothing that can run in a page that shows it (see the module's docstring)."""
    return _made_inert(copy.deepcopy(nb))


def inert_text(autograded: str) -> str:
    """An autograded notebook's JSON text (nbformat 4, as grading writes it), made inert; validated once, as it is
    written (nbformat's reads would validate it again: it only logs what it finds, as writes does)."""
    return nbformat.writes(_made_inert(nbformat.v4.reads(autograded)))


def _made_inert(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook made inert in place; returned."""
    budget = Budget(NOTEBOOK_LIMIT)
    nb.metadata = nbformat.from_dict({key: nb.metadata[key] for key in NOTEBOOK_METADATA if key in nb.metadata})
    for cell in nb.cells:
        attachments = cell.pop("attachments", None)
        if "tags" in cell.get("metadata", {}):
            cell.metadata.tags = _one_word_tags(cell.metadata.tags)
        if cell.get("cell_type") == "markdown":
            cell.source = budget.markdown(cell.source, attachments)
        elif cell.get("cell_type") == "raw":
            cell.source = budget.html(cell.source)
        elif cell.get("cell_type") == "code":
            cell.execution_count = _count(cell.get("execution_count"))
            for output in cell.get("outputs", []):
                if output.get("output_type") in ("display_data", "execute_result"):
                    _display(output, budget)
    return nb


class Budget:
    """How many characters a notebook may still have rendered and cleaned; past it, pieces are shown as text."""

    def __init__(self, characters: int):
        self.left = characters

    def allows(self, text: str) -> bool:
        if len(text) > ITEM_LIMIT or len(text) > self.left:
            return False
        self.left -= len(text)
        return True

    def markdown(self, source: str, attachments=None) -> str:
        """Markdown as a one-line HTML block that shows what nbconvert would, without what could run."""
        source, attached = _text(source), _attached(attachments)
        if not self.allows(source):
            return one_line(as_text(source))
        return markdown_html(source, attached) if attached else cached_markdown_html(source)

    def html(self, html: str) -> str:
        html = _text(html)
        return clean(html) if self.allows(html) else as_text(html)


def _display(output, budget: Budget) -> None:
    """A display's or a result's data made inert in place: what is kept is text, cleaned HTML and Markdown, and
    base64 PNG and JPEG images; a display left with no text names each kind left out."""
    data = output.get("data") if isinstance(output.get("data"), dict) else {}
    kept, left_out = {}, []
    for mime, value in data.items():
        if mime == PLAIN:
            kept[mime] = value
        elif mime == HTML:
            kept[mime] = budget.html(value)
        elif mime == MARKDOWN:
            kept[mime] = budget.markdown(value)
        elif mime in IMAGES and _is_base64(value):
            kept[mime] = value
        else:
            left_out.append(str(mime)[:100])
    if left_out and PLAIN not in kept:
        kept[PLAIN] = f"[{', '.join(left_out)} left out: it could run in the page that shows this notebook]"
    metadata = output.get("metadata") if isinstance(output.get("metadata"), dict) else {}
    sizes = {
        mime: {key: size for key, size in metadata[mime].items() if key in ("width", "height") and type(size) is int}
        for mime in IMAGES
        if mime in kept and isinstance(metadata.get(mime), dict)
    }
    output.metadata = nbformat.from_dict({mime: size for mime, size in sizes.items() if size})
    output.data = nbformat.from_dict(kept)
    if "execution_count" in output:
        output.execution_count = _count(output.execution_count)


def markdown_html(source: str, attachments: dict | None = None) -> str:
    """Markdown rendered as nbconvert renders it (math left for MathJax, `attachments` embedded: name ->
    {mime: base64}), harmful links refused, cleaned, on one line."""
    renderer = IPythonRenderer(
        escape=False, allow_harmful_protocols=False, exclude_anchor_links=True, attachments=attachments or {}
    )
    try:
        html = MarkdownWithMath(renderer=renderer).render(source)
    except Exception:  # an attachment it names is not there, or anything mistune cannot render: shown as text
        html = as_text(source)
    return one_line(clean(html))


# Every student's copy of a lesson holds the same Markdown cells; a cell with attachments (large, and rare) is not kept.
cached_markdown_html = functools.lru_cache(maxsize=1024)(markdown_html)


def markdown_text(text: str) -> str:
    """Text that Markdown shows as it is written (emphasis aside): a backslash before each character that could
    begin HTML, a link, an image, an entity or code (nbgrader's feedback renders a grade's comment as Markdown)."""
    return MARKDOWN_MARKUP.sub(r"\\\1", text)


def clean(html: str) -> str:
    """HTML with only TAGS and their ATTRIBUTES (addresses as LINK and IMAGE_SOURCE allow), comments dropped;
    every other tag escaped, so it reads as text."""
    return bleach.clean(html, tags=TAGS, attributes=_allowed, protocols=PROTOCOLS, strip_comments=True)


def _allowed(tag: str, name: str, value: str) -> bool:
    if name not in ATTRIBUTES.get(tag, ()):
        return False
    if name == "src":
        return IMAGE_SOURCE.fullmatch(value) is not None
    if name == "href":
        return LINK.fullmatch(value) is not None
    return True


def as_text(text: str) -> str:
    """Anything shown as escaped text, as written."""
    return f"<pre>{escape(text)}</pre>"


def one_line(html: str) -> str:
    """HTML as one HTML block: a Markdown renderer passes it through as it is, and reads no Markdown inside
    (a blank line would end the block). A character reference is the same line break to the browser."""
    return "<div>" + html.replace("\r", "&#13;").replace("\n", "&#10;") + "</div>"


def _attached(attachments) -> dict:
    """A cell's attachments as nbconvert embeds them: images whose data is base64; any other, an empty image
    (shown as a broken one, and the rest of the cell rendered)."""
    if not isinstance(attachments, dict):
        return {}
    kept = {}
    for name, bundle in attachments.items():
        images = bundle.items() if isinstance(bundle, dict) else ()
        kept[str(name)] = {
            mime: re.sub(r"\s+", "", _text(data)) for mime, data in images if mime in ATTACHED and _is_base64(data)
        }
        kept[str(name)] = kept[str(name)] or {"image/png": ""}
    return kept


def _is_base64(data) -> bool:
    """Whether `data` (a string, or nbformat's list of lines) is base64 and nothing else."""
    text = _text(data)
    try:
        base64.b64decode(re.sub(r"\s+", "", text), validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _text(value) -> str:
    """A notebook's text field: a string or a list of lines (anything else, as JSON)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(value)
    return json.dumps(value, default=str)


def _one_word_tags(tags) -> list[str]:
    """The tags the template may write into a class attribute: each one word, so none adds a class of formgrader's."""
    return [tag for tag in tags if isinstance(tag, str) and TAG.fullmatch(tag)] if isinstance(tags, list) else []


def _count(value):
    return value if type(value) is int else None
