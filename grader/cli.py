"""Command line: `python -m grader {release,check} ...`."""
from __future__ import annotations

import argparse
import sys

from . import course


def _release(args) -> int:
    from .release import release
    unknown = set(args.lessons) - set(course.lesson_ids())
    if unknown:
        print(f"error: unknown lesson(s): {', '.join(sorted(unknown))}; "
              f"known: {', '.join(course.lesson_ids())}", file=sys.stderr)
        return 2
    release(args.lessons or None)
    return 0


def _check(args) -> int:
    from .selfgrade import BadInput, GradingFailed, grade_notebook, render_table
    if sys.stderr.isatty() and not args.json:
        print(f"Grading {args.notebook} with every test, hidden ones included (a few seconds)...", file=sys.stderr)
    try:
        report = grade_notebook(args.notebook)
    except BadInput as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except GradingFailed as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(report.to_json() if args.json else render_table(report))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader", description="Softmax course tools.")
    commands = parser.add_subparsers(dest="command", required=True)

    release = commands.add_parser("release", help="regenerate notebooks/ from solutions/ with nbgrader")
    release.add_argument("lessons", nargs="*", metavar="LESSON", help="lesson ids (default: all)")
    release.set_defaults(run=_release)

    check = commands.add_parser("check", help="grade one notebook with the lesson's full tests")
    check.add_argument("notebook", help="path to a lesson notebook (.ipynb)")
    check.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    check.set_defaults(run=_check)

    args = parser.parse_args(argv)
    return args.run(args)
