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

A guess is committed before its answer shows. The cell that computes the answer starts with
`reveal(prediction, guess)`: until the guess is written and its check has passed, it stops the cell
with one line, so the answer is not printed. The first time it lets the cell run, it commits the guess:
it displays a record of it (the guess, the cell's In [n] and the time) that the notebook keeps among
its outputs. Run again, it shows that first record, and says so when the guess has changed since; after
a kernel restart it finds the record in the notebook's saved file. When the work is graded, the records
are read from the handed-in notebook (`commitments_in`), and `check_prediction` gives nothing to a
guess that differs from its committed one: the point rewards a right guess made before the answer
showed. The record is a learner's own honesty made visible, not a lock: it lives in the learner's file.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime
import hashlib
import json
import numbers
import os
import re
import sys
from dataclasses import dataclass

import numpy as np

from grader.learner.checks import CheckFailed
from grader.learner.pytorch import SKIP_VARIABLE

__all__ = ["check_guess", "check_prediction", "reveal"]

PREFIX = "predict_"  # every prediction's id (its tests cell's grade_id) starts so
GUESS_CHECKED = re.compile(r"check_guess\(\s*['\"][^'\"]*['\"]\s*,\s*([A-Za-z_]\w*)")  # the guess a check reads
GUESS_REVEALED = re.compile(r"reveal\(\s*['\"][^'\"]*['\"]\s*,\s*([A-Za-z_]\w*)")  # the guess a reveal commits
SALT = "softmax-course prediction"  # with the prediction's id, makes equal guesses of two predictions hash apart
DIGEST_LENGTH = 16  # hex digits kept: 64 bits tell a right guess from every wrong one
YES, NO = "yes", "no"
SYNONYMS = {"true": YES, "y": YES, "false": NO, "n": NO}
WHOLE_NUMBER = re.compile(r"^[+-]?\d+$")
LAB_NOTE = "Hidden tests run when your work is graded."  # the feedback pages drop it, as after `passed`
RECORD_MIME = "application/vnd.softmax-course.commitment+json"  # a commitment's record among a cell's outputs
SHOWN_LIMIT = 80  # characters of a guess a record keeps as typed
SESSION_VARIABLE = "JPY_SESSION_NAME"  # Jupyter's: the notebook file a kernel was started for


@dataclass(frozen=True)
class Commitment:
    """A guess as it was when its answer was first shown."""

    prediction: str
    form: str  # the guess normalised, as it is compared
    shown: str  # the guess as typed (its repr, clipped)
    cell: int | None  # In [n] of the cell that showed the answer
    at: str  # when, to the minute

    def as_data(self) -> dict:
        return {"prediction": self.prediction, "form": self.form, "shown": self.shown, "cell": self.cell, "at": self.at}

    @classmethod
    def from_data(cls, data) -> Commitment | None:
        """The record, or None for anything that is not one (a notebook's outputs are the learner's to edit)."""
        if not isinstance(data, dict):
            return None
        prediction, form, shown = data.get("prediction"), data.get("form"), data.get("shown", "")
        cell, at = data.get("cell"), data.get("at", "")
        if not (isinstance(prediction, str) and prediction.startswith(PREFIX) and len(prediction) <= 100):
            return None
        if not (isinstance(form, str) and 0 < len(form) <= 4 * SHOWN_LIMIT):
            return None
        if not isinstance(cell, int) or isinstance(cell, bool):
            cell = None
        return cls(prediction, form, clipped(shown) or repr(form), cell, clipped(at))

    def where(self) -> str:
        return f"In [{self.cell}]" if self.cell is not None else "an earlier run"


def clipped(text) -> str:
    return text[:SHOWN_LIMIT] if isinstance(text, str) else ""


# In the learner's kernel: the predictions whose visible check passed (with the answers each takes), and the
# first commitment of each. While a submission is graded: the commitments its notebook recorded.
_CHECKED: dict[str, frozenset[str]] = {}
_COMMITTED: dict[str, Commitment] = {}
_RECORDED: contextvars.ContextVar[dict[str, Commitment] | None] = contextvars.ContextVar("recorded", default=None)


class NotCommitted(CheckFailed):
    """The cell computing a prediction's answer stopped: the guess is not committed yet (`prediction` names it)."""

    def __init__(self, prediction: str, message: str):
        super().__init__(message)
        self.prediction = prediction


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
    _CHECKED[prediction] = frozenset(answer for answer in accepted if answer is not None)
    print(
        f"✓ {prediction}: your guess {guess!r} is written down. Run the next cell to commit it and see the answer; "
        f"whether it is right is a hidden test. {LAB_NOTE}"
    )


def guess_not_run(error: BaseException, cell: str) -> str | None:
    """The one line a check cell shows when it ran before its guess cell (its guess variable is not set yet),
    instead of a NameError's traceback; None for any other error."""
    name = getattr(error, "name", None) if isinstance(error, NameError) else None
    if name is None or name not in GUESS_CHECKED.findall(cell) + GUESS_REVEALED.findall(cell):
        return None
    return (
        f"NameError: {name} is not set yet: run the guess cell above first (the cell that sets {name}), then this cell."
    )


def check_prediction(prediction: str, guess, expected: str) -> None:
    """The hidden check of a prediction: the guess, normalised and hashed, is the one stored as `expected`, and,
    when the notebook recorded a commitment for it, the committed one."""
    form = normalised(guess)
    if form is None:
        raise CheckFailed(f"{prediction}: no guess was written, so it earns no points.")
    committed = (_RECORDED.get() or {}).get(prediction)
    if committed is not None and committed.form != form:
        raise CheckFailed(
            f"{prediction}: your guess is {guess!r}, but it was {committed.shown} when the answer was first shown "
            f"({committed.where()}): a guess changed after the answer earns nothing."
        )
    if digest(prediction, guess) != expected:
        raise CheckFailed(
            f"{prediction}: your guess {guess!r} was not right. The explanation under the cell that computes "
            "it, in the lesson, says why."
        )
    print(f"✓ {prediction}: your guess {guess!r} was right.")


def reveal(prediction: str, guess) -> None:
    """First line of the cell that computes a prediction's answer: the answer shows once the guess is committed.

    Stops the cell (one line, nothing of the answer printed) while the guess is not written or its check has not
    passed; commits the guess the first time it lets the cell run, and displays the record the notebook keeps."""
    if os.environ.get(SKIP_VARIABLE):  # set in the kernels `grader grade` starts
        return  # a grading kernel: the handed-in notebook's records are what counts (commitments_in)
    form = normalised(guess)
    if form is None or prediction not in _CHECKED:
        raise NotCommitted(
            prediction,
            f"{prediction}: the answer shows once your guess is committed: write it in the guess cell, run that "
            "cell and its check, then this cell.",
        )
    if form not in _CHECKED[prediction]:
        raise NotCommitted(
            prediction, f"{prediction}: {guess!r} is not an answer this prediction takes: run its check to see why."
        )
    first = _COMMITTED.get(prediction) or saved_commitment(prediction)
    if first is None:
        first = Commitment(prediction, form, repr(guess)[:SHOWN_LIMIT], execution_count(), now())
    _COMMITTED[prediction] = first
    if first.form == form:
        line = f"✓ {prediction}: your guess {first.shown} is committed ({first.where()}, {first.at}). The answer:"
    else:
        line = (
            f"{prediction}: your guess is now {guess!r}, but it was {first.shown} when the answer was first shown "
            f"({first.where()}, {first.at}). The committed guess is the one graded: a changed guess earns nothing."
        )
    display_record(line, first)


def committed(prediction: str) -> bool:
    """Whether this kernel has let the prediction's answer show (its guess committed)."""
    return prediction in _COMMITTED


def display_record(line: str, commitment: Commitment) -> None:
    """Show `line` and keep the commitment among the cell's outputs (JupyterLab saves them with the notebook)."""
    shell = current_shell()
    if shell is None:  # outside IPython: the line alone
        print(line)
        return
    shell.display_pub.publish({"text/plain": line, RECORD_MIME: commitment.as_data()})


def current_shell():
    """The running IPython shell, or None."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def execution_count() -> int | None:
    """The running cell's In [n], in IPython: its place in the input history (IPython 9 counts the next cell's
    number in `execution_count` while a cell runs)."""
    history = getattr(getattr(current_shell(), "history_manager", None), "input_hist_parsed", None)
    return len(history) - 1 if isinstance(history, list) and history else None


def now() -> str:
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M")


def saved_commitment(prediction: str) -> Commitment | None:
    """The prediction's record in the notebook's saved file, which outlives a kernel restart; None without one."""
    path = os.environ.get(SESSION_VARIABLE, "")
    if not path.endswith(".ipynb"):
        return None
    try:
        with open(path, encoding="utf-8") as file:
            return commitments_in(json.load(file)).get(prediction)
    except (OSError, ValueError, RecursionError):
        return None


def commitments_in(nb) -> dict[str, Commitment]:
    """The first record of each prediction among a notebook's outputs (a parsed notebook, plain data or nbformat's),
    in cell order; whatever else the outputs hold is left alone."""
    found: dict[str, Commitment] = {}
    cells = nb.get("cells") if isinstance(nb, dict) else None
    for cell in cells if isinstance(cells, list) else []:
        outputs = cell.get("outputs") if isinstance(cell, dict) else None
        for output in outputs if isinstance(outputs, list) else []:
            data = output.get("data") if isinstance(output, dict) else None
            record = Commitment.from_data(data.get(RECORD_MIME)) if isinstance(data, dict) else None
            if record is not None:
                found.setdefault(record.prediction, record)
    return found


@contextlib.contextmanager
def recorded_commitments(records: dict[str, Commitment]):
    """Within it, check_prediction compares each guess with its record: the grading sets the handed-in notebook's."""
    token = _RECORDED.set(dict(records))
    try:
        yield
    finally:
        _RECORDED.reset(token)


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
