"""Graded predictions: the learner commits to a guess before the cell that computes the answer.

A prediction has an id starting with `predict_` (the grade_id of its tests cell) and a guess
variable, which the learner sets in the guess cell above the computing cell. Its tests cell
checks twice:

- visibly, `check_guess(prediction, guess, choices)` says the guess is written and is one of
  the answers the question takes, and that it counts when the work is graded. It never says
  whether the guess is right: for a yes/no question that would be the answer.
- in its hidden tests, `check_prediction(prediction, guess, digest)` compares a salted hash of
  the normalised guess with the stored `digest`, as nbgrader's hashed autotests do. So the
  release holds no answer, and the grading's tests cell, restored by nbgrader, only a hash.

The normalisation (so that a guess counts however it is typed):
- case, spaces at either end, runs of inner spaces and a final full stop do not matter:
  " Yes." is "yes", "Row  Two" is "row two";
- True, "true" and "y" are "yes"; False, "false" and "n" are "no";
- whole numbers are compared as numbers: 3, 3.0, "3", " +3" and np.int64(3) are all "3";
- "" (the release's guess cell holds `guess_... = ""`), None and `...` are no guess yet; anything else
  (a list, 0.5) is not a guess this takes.

Authors compute the digest with `python -m grader.learner.predictions hash <prediction> <guess>`.
"""

from __future__ import annotations

import hashlib
import numbers
import re
import sys

import numpy as np

from grader.learner.checks import CheckFailed

__all__ = ["check_guess", "check_prediction"]

PREFIX = "predict_"  # every prediction's id (its tests cell's grade_id) starts so
GUESS_CHECKED = re.compile(r"check_guess\(\s*['\"][^'\"]*['\"]\s*,\s*([A-Za-z_]\w*)")  # the guess a check reads
SALT = "softmax-course prediction"  # with the prediction's id, makes equal guesses of two predictions hash apart
DIGEST_LENGTH = 16  # hex digits kept: 64 bits tell a right guess from every wrong one
YES, NO = "yes", "no"
SYNONYMS = {"true": YES, "y": YES, "false": NO, "n": NO}
WHOLE_NUMBER = re.compile(r"^[+-]?\d+$")
LAB_NOTE = "Hidden tests run when your work is graded."  # the feedback pages drop it, as after `passed`


def is_prediction(grade_id: str) -> bool:
    """Whether a tests cell's grade_id names a prediction rather than a test of a function."""
    return isinstance(grade_id, str) and grade_id.startswith(PREFIX)


def normalised(guess) -> str | None:
    """The guess as it is compared (see the module's docstring); None for no guess or one this cannot take."""
    if guess is None or guess is Ellipsis:
        return None
    if isinstance(guess, (bool, np.bool_)):
        return YES if guess else NO
    if isinstance(guess, numbers.Integral):
        return str(int(guess))
    if isinstance(guess, numbers.Real):
        value = float(guess)
        return str(int(value)) if value.is_integer() else None
    if not isinstance(guess, str):
        return None
    text = " ".join(guess.split()).casefold().removesuffix(".").strip()
    if WHOLE_NUMBER.match(text):
        return str(int(text))
    return SYNONYMS.get(text, text) or None


def digest(prediction: str, guess) -> str:
    """The salted hash a prediction's hidden test stores for `guess` (normalised first)."""
    form = normalised(guess)
    if form is None:
        raise ValueError(f"{guess!r} is not a guess a prediction can take")
    return hashlib.sha256(f"{SALT}\n{prediction}\n{form}".encode()).hexdigest()[:DIGEST_LENGTH]


def shown_choices(choices) -> str:
    """The answers a prediction takes, as its messages list them."""
    if isinstance(choices, range) and choices.step == 1 and len(choices) > 6:
        return f"a whole number from {choices.start} to {choices.stop - 1}"
    return "one of " + ", ".join(repr(c) for c in choices)


def check_guess(prediction: str, guess, choices) -> None:
    """The visible check of a prediction: the guess is written and is one of `choices`; never whether it is right."""
    form = normalised(guess)
    accepted = {normalised(choice) for choice in choices}
    if form is None and (guess is None or guess is Ellipsis or (isinstance(guess, str) and not guess.strip())):
        raise CheckFailed(
            f"{prediction}: your guess is not written yet: in the cell above, write "
            f"{shown_choices(choices)} between the quotes and run it, then this cell, before the cell that "
            "computes the answer."
        )
    if form is None or form not in accepted:
        raise CheckFailed(
            f"{prediction}: {guess!r} is not an answer this prediction takes: it takes {shown_choices(choices)}."
        )
    print(f"✓ {prediction}: your guess {guess!r} is written down. Whether it is right is a hidden test. {LAB_NOTE}")


def guess_not_run(error: BaseException, cell: str) -> str | None:
    """The one line a check cell shows when it ran before its guess cell (its guess variable is not set yet),
    instead of a NameError's traceback; None for any other error."""
    name = getattr(error, "name", None) if isinstance(error, NameError) else None
    if name is None or name not in GUESS_CHECKED.findall(cell):
        return None
    return (
        f"NameError: {name} is not set yet: run the guess cell above first (the cell that sets {name}), then this cell."
    )


def check_prediction(prediction: str, guess, expected: str) -> None:
    """The hidden check of a prediction: the guess, normalised and hashed, is the one stored as `expected`."""
    form = normalised(guess)
    if form is None:
        raise CheckFailed(f"{prediction}: no guess was written, so it earns no points.")
    if digest(prediction, guess) != expected:
        raise CheckFailed(
            f"{prediction}: your guess {guess!r} was not right. The explanation under the cell that computes "
            "it, in the lesson, says why."
        )
    print(f"✓ {prediction}: your guess {guess!r} was right.")


def main(argv: list[str]) -> int:
    """`hash <prediction> <guess>`: print the digest an author stores in the prediction's hidden test."""
    if len(argv) != 3 or argv[0] != "hash" or not is_prediction(argv[1]):
        print(
            "usage: python -m grader.learner.predictions hash predict_<name> <guess>   (e.g. ... hash predict_sum no)",
            file=sys.stderr,
        )
        return 2
    try:
        print(digest(argv[1], argv[2]))
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
