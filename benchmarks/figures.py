"""The options each benchmark that writes a reference page takes: --json keeps the figures of a run, --from-json
shows saved ones without measuring, and --page writes them, with their date and machine, into the block of the page
under docs/reference/ that holds them (grader.proof.pages), so that re-rendering a page never needs a new run."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

from grader.proof import pages

REFERENCE = Path(__file__).resolve().parent.parent / pages.REFERENCE  # this repository's reference pages


def add_figures_options(parser: argparse.ArgumentParser, page: Path) -> None:
    """--json, --page and --from-json; --page alone writes `page`."""
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures here, as JSON")
    parser.add_argument(
        "--page",
        type=Path,
        nargs="?",
        const=page,
        metavar="PATH",
        help=f"write the figures into their block of this page (default: {page.relative_to(REFERENCE.parent.parent)})",
    )
    parser.add_argument("--from-json", type=Path, metavar="PATH", help="measure nothing: show (and --page) these")


def figures_of(args: argparse.Namespace, measure: Callable[[], dict]) -> dict:
    """The saved figures (--from-json), or new ones from `measure`, kept as JSON when --json names a file."""
    if args.from_json:
        return json.loads(args.from_json.read_text())
    figures = measure()
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return figures
