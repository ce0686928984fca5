"""A generated block's short form (the README's): the command, date and machine, then one line per figure; and a
block written between its markers leaves the rest of its page as it was."""

from __future__ import annotations

import pytest

from grader.proof import pages

pytestmark = pytest.mark.fast
MACHINE = {"cores": 2, "cpu": "a test CPU", "load_average_at_start": 0.25}


def test_figure_lines_open_with_what_measured_them_then_one_line_each():
    text = pages.figure_lines("2026-01-01T10:00:00+00:00", MACHINE, "benchmarks/x.py", ["one: 1 s", "two: 2 s"])
    assert text.splitlines() == [
        "Measured by `benchmarks/x.py` on 2026-01-01: 2 cores (a test CPU, load average 0.2 at the start):",
        "",
        "- one: 1 s",
        "- two: 2 s",
    ]


def test_a_block_is_replaced_whole_and_the_page_kept_around_it(tmp_path):
    begin, end = pages.markers("in a classroom", "benchmarks/x.py --page")
    page = tmp_path / "README.md"
    page.write_text(f"# Title\n\n{begin}\nold\n{end}\n\nthe rest\n")
    pages.write_block(page, begin, end, "new")
    assert page.read_text() == f"# Title\n\n{begin}\nnew\n{end}\n\nthe rest\n"
    with pytest.raises(SystemExit):
        pages.write_block(tmp_path / "README.md", begin, "<!-- other: end -->", "x")
