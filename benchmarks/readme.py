"""README.md's generated passages: the text between a benchmark's two markers, replaced whole, so that the
figures a person reads are the ones a script measured."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path


def replace_passage(readme: Path, begin: str, end: str, text: str, what: str) -> None:
    """Put `text` between the markers `begin` and `end` of `readme`; SystemExit naming `what` if either is missing."""
    old = readme.read_text()
    if begin not in old or end not in old:
        raise SystemExit(f"error: {readme} has no {what} ({begin} ... {end})")
    start, stop = old.index(begin) + len(begin), old.index(end)
    readme.write_text(old[:start] + "\n" + text + "\n" + old[stop:])


def add_figures_options(parser: argparse.ArgumentParser, readme: Path) -> None:
    """--json, --readme and --from-json, as each benchmark that writes a README passage takes them."""
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures here, as JSON")
    parser.add_argument(
        "--readme", type=Path, nargs="?", const=readme, metavar="PATH", help="write the figures into README.md"
    )
    parser.add_argument("--from-json", type=Path, metavar="PATH", help="measure nothing: show (and --readme) these")


def figures_of(args: argparse.Namespace, measure: Callable[[], dict]) -> dict:
    """The saved figures (--from-json), or new ones from `measure`, kept as JSON when --json names a file."""
    if args.from_json:
        return json.loads(args.from_json.read_text())
    figures = measure()
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return figures
