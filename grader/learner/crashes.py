"""Why the learner's function crashed on a check's input, said from the evidence alone.

When a check's call raises, its first message says what the input had that the code did not
expect (a Python list, one row, an integer dtype, a mask of another shape, an empty row, a zero
temperature, a batch of more than two axes) and shows the line of the learner's code that raised.
An explanation is given only when both the input and the error agree with it (a list input and an
error about a list); otherwise the message says what the input was, plainly, and nothing more.

The failing line comes from the error's traceback in the learner's own kernel; in the grading
process the error was rebuilt from data the kernel sent (grader.engine.bridge), so the kernel side
sends the line too, as text (`raised_at`), and the rebuilt error carries it (`remember_where`).
"""

from __future__ import annotations

import inspect
import re
import sysconfig
import traceback
import typing
from pathlib import Path

import numpy as np

from grader.learner import contracts

# Where a frame is not the learner's: this package, Python's own library and the installed packages (NumPy's).
NOT_THE_LEARNER_S = tuple(
    {Path(__file__).resolve().parent.parent}
    | {Path(sysconfig.get_paths()[key]).resolve() for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    | {Path(np.__file__).resolve().parent}
)
NAMED_POSITIONS = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
LINE_LIMIT = 160  # characters of a learner's line shown (and sent from the kernel)
WHERE_ATTRIBUTE = "learner_line"  # the rebuilt error's attribute holding its Where (see remember_where)


class Where(typing.NamedTuple):
    """The learner's line that raised: the function it is in, its number in its cell or file, and its text."""

    function: str
    line: int
    text: str
    file: str

    def shown(self) -> str:
        """`text   (in function, line N of its cell)`, as a message shows it."""
        place = "its cell" if _is_cell(self.file) else Path(self.file).name
        return f"{self.text}   (in {self.function}, line {self.line} of {place})"


def _is_cell(file: str) -> bool:
    """Whether `file` is where IPython keeps a cell's code (a temporary file, or `<ipython-input-...>`)."""
    return "ipykernel_" in file or file.startswith("<ipython-input")


def raised_at(error: BaseException) -> Where | None:
    """The last line of the learner's own code in `error`'s traceback, or None (no traceback, or no line of
    theirs: the error came from elsewhere)."""
    found = None
    for frame in traceback.extract_tb(error.__traceback__):
        file = frame.filename
        if file.startswith("<") and not file.startswith("<ipython-input"):
            continue  # exec'd code: the grading bridge's own, say
        try:
            if any(Path(file).resolve().is_relative_to(folder) for folder in NOT_THE_LEARNER_S):
                continue
        except (OSError, ValueError, RuntimeError):
            continue
        text = (frame.line or "").strip()
        found = Where(frame.name[:80], int(frame.lineno or 0), text[:LINE_LIMIT], file[:300])
    return found


def remember_where(error: BaseException, where) -> BaseException:
    """`error` (rebuilt from the kernel's data) holding the learner's line the kernel sent, when it is one."""
    try:
        function, line, text, file = (one_line(part) if isinstance(part, str) else part for part in where)
        setattr(error, WHERE_ATTRIBUTE, Where(str(function)[:80], int(line), str(text)[:LINE_LIMIT], str(file)[:300]))
    except (TypeError, ValueError, AttributeError):
        pass  # nothing usable: the message shows no line
    return error


def one_line(text: str) -> str:
    """`text` on one line: what the kernel sent may hold line breaks, and a message's lines are read back
    (a "likely mistake:" line starts one), so none may come from there."""
    return " ".join(text.splitlines())


def where(error: BaseException) -> Where | None:
    """The learner's line that raised `error`: the one the kernel sent, else the one of its own traceback."""
    sent = getattr(error, WHERE_ATTRIBUTE, None)
    return sent if isinstance(sent, Where) else raised_at(error)


# ------------------------------------------------------------------ what the input was


class Argument(typing.NamedTuple):
    """One argument of the call: how a message names it, and its value."""

    name: str
    value: object


def arguments(fn, args, kwargs) -> list[Argument]:
    """The call's arguments, each named by its parameter when `fn` has a signature, else by its position."""
    try:
        names = [p.name for p in inspect.signature(fn).parameters.values() if p.kind in NAMED_POSITIONS]
    except (TypeError, ValueError):
        names = []  # the learner's function seen from the grading process: its parameters are not sent
    ordinal = ["the 1st argument", "the 2nd argument", "the 3rd argument"]
    unnamed = ["the input"] if len(args) == 1 and not kwargs else ordinal + [f"argument {i + 1}" for i in range(3, 99)]
    shown = [Argument(f"`{names[i]}`" if i < len(names) else unnamed[i], value) for i, value in enumerate(args)]
    return shown + [Argument(f"`{key}`", value) for key, value in kwargs.items()]


def what_it_is(value) -> str:
    """A value as a sentence names it: `a float64 array of shape (2, 3)`, `a Python list of 2 rows`, `the number 0`."""
    if isinstance(value, np.ndarray):
        return f"a {value.dtype} array of shape {value.shape}"
    if isinstance(value, (list, tuple)):
        kind = "list" if isinstance(value, list) else "tuple"
        rows = sum(isinstance(v, (list, tuple, np.ndarray)) for v in value)
        return f"a Python {kind} of {len(value)} {'rows' if rows else 'numbers'}"
    if isinstance(value, (bool, np.bool_)):
        return f"the bool {value}"
    if isinstance(value, (int, float, np.number)):
        return f"the number {value!r}"
    return f"a {type(value).__name__}"


def _shape(value) -> tuple | None:
    """The shape NumPy would give `value` (a list's too), or None when it has none (a ragged list, an object)."""
    if isinstance(value, np.ndarray):
        return value.shape
    if isinstance(value, (list, tuple)):
        try:
            array = np.asarray(value)
        except (ValueError, TypeError):
            return None
        return array.shape if array.dtype != object else None
    return None


# ------------------------------------------------------------------ explanations


class Explanation(typing.NamedTuple):
    """What the input had that the code did not expect, and how to write code that expects it; `breaks` are the
    contract's properties such an input belongs to, (id, what it promises of it), in order of preference: the first
    the function promises is named."""

    why: str
    hint: str
    breaks: tuple[tuple[str, str], ...] = ()


def breaks(promise: str, *ids: str) -> tuple[tuple[str, str], ...]:
    """(id, promise) for each property id that promises the same of such an input."""
    return tuple((pid, promise) for pid in ids)


def _a_list(error, given, message) -> Explanation | None:
    lists = [a for a in given if isinstance(a.value, (list, tuple))]
    kind = re.search(
        r"'(list|tuple)' object|\b(list|tuple) indices|(?:to|and|for) (list|tuple)\b|'(list|tuple)'", message
    )
    if not lists or kind is None:
        return None
    what = next(k for k in kind.groups() if k)
    argument = next((a for a in lists if type(a.value).__name__ == what), lists[0])
    missing = re.search(r"has no attribute '(\w+)'", message)
    did = (
        f"a {what} has no `.{missing.group(1)}` (NumPy arrays do)"
        if missing
        else f"a {what} does not do NumPy's indexing or arithmetic"
    )
    return Explanation(
        f"{argument.name} was a Python {what}, and {did}.",
        f"make a float NumPy array of {argument.name} first (`np.asarray` and its `dtype` argument), and work on that.",
        breaks(f"a Python {what} is an input it must take, as an array is.", "dtype", "targets", "shapes"),
    )


def _one_row(error, given, message) -> Explanation | None:
    axis = re.search(r"axis (-?\d+) is out of bounds for array of dimension (\d+)", message)
    indices = re.search(r"too many indices for array: array is (\d+)-dimensional", message)
    dimension = int(axis.group(2)) if axis else int(indices.group(1)) if indices else None
    if dimension is None:
        return None
    matching = [a for a in given if (shape := _shape(a.value)) is not None and len(shape) == dimension]
    if not matching:
        return None
    argument = matching[0]
    if dimension == 0:
        return Explanation(
            f"{argument.name} was a single number ({what_it_is(argument.value)}): it has no axis to work along.",
            "turn it into an array first (`np.asarray`), and count the axes from the end, where a row's axis is last.",
            breaks("a single number is an input it must take.", "shapes"),
        )
    if dimension != 1:
        return None
    return Explanation(
        f"{argument.name} was one row ({what_it_is(argument.value)}), which has axis 0 only, so `axis=1` or "
        "`x[:, j]` fails on it.",
        "work along the last axis, counting axes from the end (an index may start with `...`): it is the row's "
        "axis for one row and for a batch.",
        breaks(ONE_ROW, "shapes"),
    )


ONE_ROW = "one row is an input it must take, as a batch is."


def _reduced_to_a_number(error, given, message) -> Explanation | None:
    if "invalid index to scalar variable" not in message:
        return None
    rows = [a for a in given if (shape := _shape(a.value)) is not None and len(shape) == 1]
    if not rows:
        return None
    argument = rows[0]
    return Explanation(
        f"{argument.name} was one row ({what_it_is(argument.value)}): a max or sum over its last axis is a "
        "single number, and the code indexed it as an array.",
        "keep the reduced axis, with length 1 (the `keepdims` argument): the result then lines up with one row and "
        "with a batch alike.",
        breaks(ONE_ROW, "shapes"),
    )


def _a_number(error, given, message) -> Explanation | None:
    kind = re.search(r"'(int|float)' object (?:has no attribute '(\w+)'|is not subscriptable)", message)
    if kind is None:
        return None
    numbers = [a for a in given if type(a.value).__name__ == kind.group(1)]
    if not numbers:
        return None
    argument = numbers[0]
    lacks = f"has no `.{kind.group(2)}`" if kind.group(2) else "cannot be indexed"
    return Explanation(
        f"{argument.name} was a plain Python {kind.group(1)} ({argument.value!r}), which {lacks} (NumPy arrays do).",
        f"make a NumPy array of {argument.name} first (`np.asarray`): for a single row it may come as one number.",
        breaks("a plain Python number is an input it must take, as an array is.", "targets", "dtype", "shapes"),
    )


def _rows_as_numbers(error, given, message) -> Explanation | None:
    if not re.search(r"must be real number, not (?:list|tuple|numpy\.ndarray)|only (?:length|size)-1 arrays", message):
        return None
    batches = [a for a in given if (shape := _shape(a.value)) is not None and len(shape) >= 2]
    if not batches:
        return None
    argument = batches[0]
    return Explanation(
        f"{argument.name} was a batch ({what_it_is(argument.value)}), and the code took each of its rows for a "
        "single number (the math module's functions and float() take one number).",
        "use NumPy's functions, which work on whole rows and batches (`np.exp`, a max along the last axis), "
        "instead of the math module's.",
        breaks("a batch of rows is an input it must take, as one row is.", "shapes"),
    )


def _overflow(error, given, message) -> Explanation | None:
    if not isinstance(error, OverflowError):
        return None
    sizes = []
    for argument in given:
        try:
            values = np.asarray(argument.value, dtype=float)
        except (TypeError, ValueError):
            continue
        finite = values[np.isfinite(values)]
        if finite.size:
            sizes.append((float(np.abs(finite).max()), argument))
    if not sizes or max(sizes, key=lambda s: s[0])[0] <= 709:
        return None
    largest, argument = max(sizes, key=lambda s: s[0])
    return Explanation(
        f"{argument.name} held a score as large as {largest:g} in size, and e to the power of more than about 709.8 "
        "is past the largest float (about 1.8e308).",
        "shift each row by its own max before exp (lesson 05): exp of a number that is at most 0 never overflows.",
        breaks("scores of any finite size are inputs it must take, with a finite answer.", "extremes"),
    )


def _integer_dtype(error, given, message) -> Explanation | None:
    integers = [a for a in given if _integer_dtype_of(a.value) is not None]
    if not integers or not re.search(r"[Cc]ast|[Ii]ntegers? to", message):
        return None
    argument = next((a for a in integers if str(_integer_dtype_of(a.value)) in message), integers[0])
    dtype = _integer_dtype_of(argument.value)
    what = (
        f"an integer array (dtype {dtype})"
        if isinstance(argument.value, np.ndarray)
        else f"a list of integers (NumPy makes an array of dtype {dtype} of it)"
    )
    return Explanation(
        f"{argument.name} was {what}, and a float result cannot be stored back into it (`x /= total`, `x -= m`, "
        "`out=x`).",
        "compute into a new float array instead of writing into the input: make a float copy first, or let each "
        "step's result be a new array.",
        breaks("integer scores are an input it must take, and the answer is a float array.", "dtype"),
    )


def _integer_dtype_of(value) -> np.dtype | None:
    """The integer dtype NumPy gives `value` (an array, a list of integers), else None."""
    if not isinstance(value, (np.ndarray, list, tuple)):
        return None
    try:
        dtype = np.asarray(value).dtype
    except (ValueError, TypeError):
        return None
    return dtype if dtype.kind in "iu" else None


def _shapes_disagree(error, given, message) -> Explanation | None:
    if not re.search(r"broadcast|boolean index did not match|mismatch|not aligned|shape", message):
        return None
    shaped = [(a, _shape(a.value)) for a in given]
    shaped = [(a, s) for a, s in shaped if s is not None and len(s) > 0]
    masks = [(a, s) for a, s in shaped if np.asarray(a.value).dtype == bool]
    others = [(a, s) for a, s in shaped if np.asarray(a.value).dtype != bool]
    if not masks or not others or all(s == others[0][1] for _, s in masks):
        return None
    (mask, mask_shape), (scores, scores_shape) = masks[0], others[0]
    if mask_shape == scores_shape:
        return None
    return Explanation(
        f"{mask.name} was a mask of shape {mask_shape} for {scores.name} of shape {scores_shape}: the code "
        "expected both to have one shape.",
        "a mask may have any shape that broadcasts to the scores' (one shared row, one entry per row): choose "
        "elementwise with it (`np.where`), which broadcasts, or give it the scores' shape first (`np.broadcast_to`).",
        breaks("a mask of any shape that broadcasts to the scores is an input it must take.", "shapes"),
    )


def _empty(error, given, message) -> Explanation | None:
    if not re.search(r"zero-size array|out of bounds for axis \d+ with size 0|empty", message):
        return None
    empty = [a for a in given if (shape := _shape(a.value)) is not None and 0 in shape]
    if not empty:
        return None
    argument = empty[0]
    shape = _shape(argument.value)
    what = "rows of no score" if shape and shape[-1] == 0 else "no rows at all"
    reduction = re.search(r"reduction operation (\w+)", message)
    none = f"the {reduction.group(1)} of nothing has no value" if reduction else "there is no score to take"
    return Explanation(
        f"{argument.name} had {what} ({what_it_is(argument.value)}): {none}.",
        "decide what an empty input gives before reducing it (NumPy's reductions take an `initial` argument, or "
        "test for an empty array first).",
    )


ZERO = (
    *breaks("a zero temperature is an input it must take: it picks the largest logit, with no draw.", "greedy"),
    *breaks("a zero temperature is an input it must refuse with ValueError.", "rejects_nonpositive"),
)


def _zero(error, given, message) -> Explanation | None:
    divided = isinstance(error, ZeroDivisionError)
    if not divided and not re.search(r"\bnan\b|NaN|divide by zero|invalid value", message):
        return None
    zeros = [a for a in given if isinstance(a.value, (int, float, np.number)) and not isinstance(a.value, bool)]
    zeros = [a for a in zeros if a.value == 0]
    if not zeros:
        return None
    argument = zeros[0]
    did = (
        "your code divided by it" if divided else "dividing by it gives inf and nan (0 / 0), which your code then used"
    )
    return Explanation(
        f"{argument.name} was {argument.value!r}, and {did}.",
        f"look at {argument.name} before you divide by it: the exercise says what a zero must give.",
        ZERO,
    )


def _batch(error, given, message) -> Explanation | None:
    if not re.search(r"dimension|indices|axis|aligned|mismatch|broadcast|shape", message):
        return None
    batches = [a for a in given if (shape := _shape(a.value)) is not None and len(shape) >= 3]
    if not batches:
        return None
    argument = batches[0]
    return Explanation(
        f"{argument.name} was a batch of shape {_shape(argument.value)}, with more than two axes: code written "
        "for a row or a matrix (`.T`, `axis=1`, `x[:, j]`) fails on it.",
        "work along the last axes only: count axes from the end, start an index with `...`, and swap only the last "
        "two axes (`np.swapaxes`) instead of `.T`.",
        breaks("a batch with more than two axes is an input it must take.", "shapes"),
    )


# Tried in this order: the first whose evidence fits explains the crash.
EXPLANATIONS = (
    _a_list,
    _one_row,
    _reduced_to_a_number,
    _a_number,
    _rows_as_numbers,
    _integer_dtype,
    _empty,
    _zero,
    _overflow,
    _shapes_disagree,
    _batch,
)


def explanation(fn, args, kwargs, error: BaseException) -> Explanation | None:
    """What the input had that `fn`'s code did not expect, when both the input and `error` say so; else None."""
    given = arguments(fn, args, kwargs)
    message = f"{type(error).__name__}: {error}"
    for explain in EXPLANATIONS:
        try:
            found = explain(error, given, message)
        except Exception:  # an input of an unexpected kind: this explanation does not fit
            found = None
        if found is not None:
            return found
    return None


def explained(fn, args, kwargs, error: BaseException) -> tuple[list[str], list[str]]:
    """(the lines that follow the crash's first line, the lines shown when no catalogued mistake is named).

    The first say what the input had that the code did not expect, or, when nothing fits the evidence, what the
    input was, and show the learner's line that raised, when it is known; the second name the property of the
    function's contract that such an input belongs to (when it promises one) and give the hint."""
    found = explanation(fn, args, kwargs, error)
    given = arguments(fn, args, kwargs)
    if found is not None:
        lines = [f"  why: {found.why}"]
    else:
        inputs = "; ".join(f"{a.name} was {what_it_is(a.value)}" for a in given) or "no arguments"
        lines = [f"  the input: {inputs}."]
    line = where(error)
    if line is not None and line.text:
        lines.append(f"  your line that raised it: {line.shown()}")
    if found is None:
        return lines, []
    promised = contracts.PROPERTIES.get(str(getattr(fn, "__name__", "")), ())
    named = next(((pid, promise) for pid, promise in found.breaks if pid in promised), None)
    broken = [f"  broken property ({named[0]}): {named[1]}"] if named is not None else []
    return lines, [*broken, f"  hint: {found.hint}"]
