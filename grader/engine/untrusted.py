"""What the grader takes from a file that a learner or an LMS handed in, and how it names one.

Such a file is read as hostile: its JSON may nest thousands of levels deep or hold text
that cannot be written back as UTF-8, nbgrader's metadata may be of any type, and its name
may carry newlines or terminal escapes. These checks let the readers refuse it with a
reason instead of failing in whatever reads it next.
"""

from __future__ import annotations

# Larger notebooks are never read; nbgrader's own submit allows files of up to 100 MB.
MAX_NOTEBOOK_BYTES = 100 * 2**20
# Containers inside containers; a real notebook stays below 20, Python's recursion limit is 1000.
MAX_DEPTH = 100
# The most of a name or a reason one log line shows.
SHOWN_CHARACTERS = 400


def shape_problem(value) -> str | None:
    """Why parsed JSON cannot be handled as a notebook (nested too deep, a string that is not
    valid Unicode), or None. Iterative, so no depth makes it recurse."""
    pending = [(value, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_DEPTH:
            return f"nested more than {MAX_DEPTH} levels deep"
        if isinstance(value, dict):
            pending += [(key, depth) for key in value]
            pending += [(item, depth + 1) for item in value.values() if isinstance(item, (dict, list, str))]
        elif isinstance(value, list):
            pending += [(item, depth + 1) for item in value if isinstance(item, (dict, list, str))]
        elif isinstance(value, str) and not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return "a string that is not valid Unicode (an unpaired surrogate)"
    return None


def grade_id_of(cell) -> str | None:
    """The cell's nbgrader grade id; a cell whose metadata is not shaped as nbgrader writes it has none."""
    metadata = cell.get("metadata") if isinstance(cell, dict) else None
    nbgrader = metadata.get("nbgrader") if isinstance(metadata, dict) else None
    grade_id = nbgrader.get("grade_id") if isinstance(nbgrader, dict) else None
    return grade_id if isinstance(grade_id, str) else None


def shown(text, limit: int = SHOWN_CHARACTERS) -> str:
    """`text` as one line of a log: every character that is not printable (newlines, terminal
    escapes, direction marks, unpaired surrogates) written as its Python escape; clipped to `limit`."""
    text = str(text)
    line = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text[:limit])
    return line if len(text) <= limit else f"{line}... ({len(text)} characters)"
