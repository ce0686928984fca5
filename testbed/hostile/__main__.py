"""Grade the hostile corpus as a class (a few minutes) and print the outcome table; with --page, also write it into
docs/reference/hostile.md, dated. As root: the table is of every kind graded in isolated kernels."""

import argparse
import sys
import tempfile
from pathlib import Path

from grader.engine import isolation
from testbed.hostile import page
from testbed.hostile.grading import grade_corpus, outcomes

parser = argparse.ArgumentParser(prog="python -m testbed.hostile", description=__doc__)
parser.add_argument("--page", action="store_true", help="also write the table into docs/reference/hostile.md")
args = parser.parse_args()
if args.page and not isolation.available():
    sys.exit("error: --page writes the table of a grading as root (kernels isolated, every kind graded); run as root")
with tempfile.TemporaryDirectory() as tmp:
    grade_corpus(Path(tmp))
    got = outcomes(Path(tmp) / "course")
print(page.render(got))
if args.page:
    page.write(got)
    print(f"Rewrote the outcome table of {page.PAGE}")
