"""Checks used by the lessons' test cells.

Each check calls the learner's function itself, so that a failure can say exactly
what was called, what was expected, what came back, how far off it was and where,
and which known mistake the answer looks like. A failure raises `CheckFailed`
(an AssertionError, so nbgrader scores the cell 0); a pass prints one line to
stdout. Nothing here ever writes to stderr: nbgrader zeroes a test cell that does.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import functools
import hashlib
import json
import math
import numbers
import textwrap
import traceback
import types
import typing
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from grader.learner import contracts, crashes, properties
from grader.learner.streams import Formula, OnePass
from grader.learner.streams import random_states as _random_states

# What a test cell gets by name: the checks it calls. Everything else here (Mistake, tolerance,
# the modules imported above) a cell imports itself, and a learner may use those names freely.
__all__ = [
    "CheckFailed",
    "Formula",
    "OnePass",
    "check_answer",
    "check_call",
    "check_values",
    "check_frequencies",
    "check_generated",
    "check_own_generator",
    "check_quiet",
    "check_raises",
    "compare",
    "describe_call",
    "failure",
    "passed",
]

# How many units in the last place a correct float answer may be off by.
ULPS = 64
# How many more ulps it may be off by per unit of the inputs' magnitude (see input_scale).
SCALE_ULPS = 16
# Magnitudes past this widen the tolerance no further. Log-sum-exp forms lose about an ulp of
# the row's max; past about 1e6 that would make the tolerance meaningless (at 1e300 it would
# accept any finite answer), so tests at such magnitudes use rows whose answer every correct
# algorithm computes almost exactly (one score far above the rest, say).
SCALE_CAP = 2.0**20

# The grader's own code: its frames say nothing to a learner, so a failed check shows none of them.
GRADER_FOLDER = Path(__file__).resolve().parent.parent
# The colour IPython gives an exception's name (nbgrader's Validate dialog shows it too; its command line strips it).
ERROR_NAME_COLOUR = "\x1b[31m{}\x1b[39m"
# Lines of a shown message are wrapped to this many characters: `nbgrader validate` cuts every line of an error
# past 83 (its 90 columns, less its indent and "...").
SHOWN_WIDTH = 80


def learner_frames(tb: types.TracebackType | None) -> types.TracebackType | None:
    """The traceback `tb` without the grader's frames (the check that called the learner's code, say)."""
    frames = []
    while tb is not None:
        if not Path(tb.tb_frame.f_code.co_filename).resolve().is_relative_to(GRADER_FOLDER):
            frames.append(tb)
        tb = tb.tb_next
    kept = None
    for frame in reversed(frames):
        kept = types.TracebackType(kept, frame.tb_frame, frame.tb_lasti, frame.tb_lineno)
    return kept


def shown_to_learner(error: BaseException) -> list[str]:
    """What the notebook (and nbgrader's Validate dialog, which shows a cell's error output) shows of an error a
    check raised: its name and message; then, when the learner's own code raised the error behind it (its
    `__cause__`), that error's traceback through the learner's code. Never the grader's frames: they pushed the
    message off the screen and showed the grader's source to the learner."""
    name = type(error).__name__
    first, *rest = wrapped(f"{name}: {error}")
    lines = [ERROR_NAME_COLOUR.format(name) + first[len(name) :], *rest]
    cause = error.__cause__
    frames = learner_frames(cause.__traceback__) if cause is not None else None
    if cause is None or frames is None:
        return lines
    try:
        from IPython import get_ipython  # the learner's kernel; plain Python formats it below

        shell = get_ipython()
    except ImportError:
        shell = None
    if shell is not None:
        where = shell.InteractiveTB.structured_traceback(type(cause), cause, frames, tb_offset=0)
    else:
        where = traceback.format_exception(type(cause), cause, frames)
    return [*lines, "", f"Where your code raised the {type(cause).__name__}:", *where]


def wrapped(message: str, width: int = SHOWN_WIDTH) -> list[str]:
    """The lines of `message`, each longer than `width` wrapped at spaces, its later parts indented under it."""
    lines = []
    for line in message.splitlines() or [""]:
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        pieces = textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
        lines += pieces if len(line) > width and pieces else [line]
    return lines


class CheckFailed(AssertionError):
    """A visible or hidden check found a wrong answer.

    `mistakes` holds the descriptions of the catalogued mistakes the message names, as data:
    the class report counts these, never lines read back out of the message, which quotes
    what the learner's code returned and raised. When the learner's code raised, that error
    is the failure's `__cause__`.
    """

    not_written: bool = False  # set on the failure for a stub, which a check made of other checks passes on

    def __init__(self, message: str = "", mistakes=()):
        super().__init__(message)
        self.mistakes = tuple(mistakes)

    def _render_traceback_(self) -> list[str]:
        """IPython shows this instead of a traceback: see shown_to_learner."""
        return shown_to_learner(self)


class CheckMisused(TypeError):
    """A check was given arguments it cannot work with: a mistake of the test cell, which the message names."""

    def _render_traceback_(self) -> list[str]:
        """IPython shows this instead of a traceback: the grader's frames would say nothing the message does not."""
        return shown_to_learner(self)


def failure(lines, named=(), otherwise=()) -> CheckFailed:
    """A CheckFailed of `lines`, then a 'likely mistake' and a 'hint' line per (description, hint) in `named`
    (`otherwise` where none is named); its `mistakes` are the descriptions."""
    named = list(dict.fromkeys(named))
    text = list(lines)
    for description, hint in named:
        text += [f"  likely mistake: {description}", f"  hint: {hint}"]
    return CheckFailed("\n".join(text + ([] if named else list(otherwise))), [d for d, _ in named])


@dataclass(frozen=True)
class Mistake:
    """A known wrong answer: what the learner probably did, and how to fix it."""

    description: str
    hint: str
    output: object


def tolerance(dtype, scale=1.0) -> float:
    """Relative and absolute tolerance for answers of this dtype (floats only).

    `scale` is the largest input magnitude: each unit of it adds a few ulps, because a
    correct answer computed from inputs of that size carries that much rounding.
    """
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        dtype = np.dtype(np.float64)
    scale = min(scale, SCALE_CAP)
    return float((ULPS + SCALE_ULPS * max(scale - 1.0, 0.0)) * np.finfo(dtype).eps)


def describe_call(fn, args, kwargs) -> str:
    """`name(arg, ..., key=value)` as the learner would have typed it; for a test cell's helper around the
    learner's function, the learner's own call its `shown_as` gives."""
    shown = ", ".join([_short_repr(a) for a in args] + [f"{k}={_short_repr(v)}" for k, v in kwargs.items()])
    template = getattr(fn, SHOWN_AS, None)
    if isinstance(template, str):
        return template.format(shown)
    return f"{getattr(fn, '__name__', 'function')}({shown})"


class WordedCall:
    """describe_call's text of a call, worded only when a failure shows it: most checks pass, and wording the
    arguments (arrays above all) was a tenth of a passing check's time. `inputs`, (args, kwargs), is a copy taken
    before the call that nothing changes, so a call that changes its own inputs is shown as it was made."""

    def __init__(self, fn, inputs: tuple):
        self.fn, self.inputs = fn, inputs

    @functools.cached_property
    def text(self) -> str:
        return describe_call(self.fn, *self.inputs)

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)


# The attribute of a test cell's helper that says how its call is shown (see shown_as).
SHOWN_AS = "shown_as"


def shown_as(template: str):
    """A decorator for a test cell's helper that calls the learner's function: a failure shows the learner's own
    call, `template` with the arguments in place of `{}` (`"np.log(softmax({}))"`), never the helper's name,
    which the learner never wrote."""

    def mark(helper):
        setattr(helper, SHOWN_AS, template)
        return helper

    return mark


def _short_repr(value) -> str:
    if isinstance(value, np.random.Generator):
        return "rng"  # its repr holds a memory address, which means nothing to a learner
    if isinstance(value, Formula):
        return repr(value)  # its formula in full: the learner's function was handed that function
    if isinstance(value, OnePass):
        chunks = ", ".join(_short_repr(c) for c in value.chunks[:4]) + (", ..." if len(value.chunks) > 4 else "")
        reused = ", reuse_buffer=True" if value.reuse_buffer else ""
        return f"OnePass([{chunks}]{reused}) ({len(value.chunks)} chunks)"
    if isinstance(value, np.ndarray):
        text = " ".join(np.array2string(value, separator=", ", threshold=12, precision=6).split())
        return f"np.array({text}, dtype={value.dtype})" if value.dtype != np.float64 else f"np.array({text})"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _show(value) -> str:
    if isinstance(value, np.ndarray):
        return np.array2string(value, separator=", ", threshold=24, precision=6).replace("\n", "\n            ")
    return repr(value)


def compare(got, expected, dtype=None, scale=1.0, within=None) -> str | None:
    """Why `got` is not `expected` (None when it is), judged with a dtype-aware tolerance.

    `expected` is array-like; `got` must be a NumPy array of the same shape, with the
    same dtype when `dtype` is given (else any float dtype for float answers). `within`, when
    given, replaces the tolerance: an answer that is itself an approximation (a finite
    difference) is judged to its own accuracy, relative and absolute.
    """
    expected = np.asarray(expected)
    if type(got) is not np.ndarray:  # not isinstance: a subclass may redefine ==, - and astype
        if isinstance(got, np.ndarray):
            return f"expected a plain NumPy array, got a {type(got).__name__} (a subclass of it)"
        kind = "a Python list" if isinstance(got, list) else f"a {type(got).__name__}"
        return f"expected a NumPy array, got {kind}: {_show(got)}"
    if got.shape != expected.shape:
        return f"expected shape {expected.shape}, got shape {got.shape}"
    if dtype is not None and got.dtype != np.dtype(dtype):
        return f"expected dtype {np.dtype(dtype)}, got dtype {got.dtype}"
    if expected.dtype.kind == "b":
        if got.dtype.kind != "b":
            return f"expected a boolean array, got dtype {got.dtype}"
        wrong = got != expected
        if wrong.any():
            where = tuple(int(i) for i in np.argwhere(wrong)[0])
            return f"{int(wrong.sum())} of {wrong.size} entries differ, first at index {where}"
        return None
    if expected.dtype.kind == "f" and got.dtype.kind != "f":
        return f"expected a float array, got dtype {got.dtype}"
    tol = max(tolerance(got.dtype, scale), tolerance(expected.dtype, scale) if expected.dtype.kind == "f" else 0.0)
    if within is not None:
        tol = float(within)
    return _value_difference(got.astype(np.float64), expected.astype(np.float64), tol)


def _value_difference(got, expected, tol) -> str | None:
    same_special = (got == expected) | (np.isnan(got) & np.isnan(expected))
    finite = np.isfinite(got) & np.isfinite(expected)
    with np.errstate(invalid="ignore", over="ignore"):
        error = np.where(finite, np.abs(got - expected), np.inf)
    error = np.where(same_special, 0.0, error)
    bad = error > tol * (1 + np.where(finite, np.abs(expected), 0.0))
    if not bad.any():
        return None
    flat = int(np.argmax(np.where(bad, error, -1.0)))
    where = tuple(int(i) for i in np.unravel_index(flat, got.shape)) if got.ndim else ()
    at = f" at index {where}" if got.ndim else ""
    if not np.isfinite(error.flat[flat]):
        return f"got {got.flat[flat]}{at} where {expected.flat[flat]} was expected"
    return (
        f"largest error {error.flat[flat]:.3g}{at} (tolerance {tol:.1g}); {int(bad.sum())} of {bad.size} entries differ"
    )


def changed_in_place(old, new) -> bool:
    """Whether a data argument (array, nested list, number) differs from its copy taken before the call."""
    if isinstance(old, np.ndarray):
        return (
            not isinstance(new, np.ndarray)
            or old.shape != new.shape
            or not np.array_equal(old, new, equal_nan=old.dtype.kind in "fc")
        )
    if isinstance(old, (list, tuple)):
        return len(old) != len(new) or any(changed_in_place(a, b) for a, b in zip(old, new, strict=False))
    if isinstance(old, (numbers.Number, str, bytes)):
        return old != new and not (old != old and new != new)  # nan stays nan
    return False  # other objects (a random Generator, say) are the function's to use


@contextlib.contextmanager
def _silenced():
    """No floating-point warnings and no Python warnings: nbgrader zeroes a cell that writes to stderr."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@dataclass
class _Outcome:
    """What one call did: returned a value, raised, changed its inputs or warned."""

    value: object = None
    raised: BaseException | None = None
    changed_input: bool = False
    warning: warnings.WarningMessage | None = None


def _run(fn, args, kwargs, record_warnings=False) -> _Outcome:
    """Call `fn` and record what it did. Warnings are caught (and kept when asked), never printed."""
    inputs = [*args, *kwargs.values()]
    before = copy.deepcopy(inputs)
    outcome = _Outcome()
    # Underflow is no fault: exp(-1000) is 0 in any correct softmax.
    with (
        warnings.catch_warnings(record=True) as caught,
        np.errstate(all="warn" if record_warnings else "ignore", under="ignore"),
    ):
        warnings.simplefilter("always" if record_warnings else "ignore")
        try:
            outcome.value = fn(*args, **kwargs)
        except Exception as error:  # the learner's bug, reported by the check
            outcome.raised = error
    outcome.warning = caught[0] if caught else None
    outcome.changed_input = outcome.raised is None and changed_in_place(before, inputs)
    return outcome


def same_answer(a, b, scale=1.0) -> bool:
    """Whether two answers are the same kind of thing with the same values (used to match mistakes)."""
    if (type(a) is np.ndarray) != (type(b) is np.ndarray):
        return False
    if isinstance(a, (bool, np.bool_)) or isinstance(b, (bool, np.bool_)):
        return isinstance(a, (bool, np.bool_)) and isinstance(b, (bool, np.bool_)) and bool(a) == bool(b)
    if type(a) is np.ndarray:
        return a.shape == b.shape and a.dtype == b.dtype and compare(a, b, scale=scale) is None
    if _as_number(a) is not None and _as_number(b) is not None:
        return compare(np.asarray(_as_number(a)), _as_number(b), scale=scale) is None
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)) and any(isinstance(x, (list, tuple, np.ndarray)) for x in [*a, *b]):
        # ragged pieces too
        return len(a) == len(b) and all(same_answer(x, y, scale) for x, y in zip(a, b, strict=False))
    try:
        return compare(np.asarray(a, dtype=float), np.asarray(b, dtype=float), scale=scale) is None
    except (TypeError, ValueError):
        return a == b


def _kind(cls: type) -> str:
    """A class by its module and name: the learner's exceptions are rebuilt in the grader (grader.engine.bridge)."""
    return f"{cls.__module__}:{cls.__qualname__}"


# --- fingerprints: what a function does on a probe, as plain data ----------------------------------------------
#
# A misconception's fingerprint is its outcome on each of its function's probes (hints.PROBES) where that outcome is
# not the reference's. grader.proof.fingerprints computes them from the catalogue's code, on the instructor's side,
# with the functions below; a failed check runs the learner's function on the same probes with them and compares.

FINGERPRINT_DRAWS = (
    2000  # calls per probe of a function given a random generator: its outcome is how often each value came
)
LARGE_ARRAY = (
    4096  # items past which an array is recorded by a digest of its bytes (compared exactly), not item by item
)
LARGE_OUTCOME = 65536  # characters of JSON past which an outcome is not recorded: it may not cross the grading bridge
GENERATOR_DRAWS = 50  # calls per generator state when watching what a function draws from (see _generator_problem)


def encoded(value) -> dict:
    """A value as plain JSON data that keeps what a check compares: an array's dtype, shape and values (nan and
    inf as text; a NumPy number is a 0-d array), a Python number's kind, the items of a list or tuple."""
    if isinstance(value, np.generic) and value.dtype.kind in "biuf":
        value = np.asarray(value)
    if type(value) is np.ndarray and value.size > LARGE_ARRAY and value.dtype.kind in "biuf":
        digest = hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()
        return {"digest": digest, "dtype": value.dtype.str, "shape": list(value.shape)}
    if type(value) is np.ndarray:
        items = [encoded(v) for v in value.flat] if value.dtype.kind not in "biuf" else [_plain(v) for v in value.flat]
        return {
            "array": items,
            "dtype": value.dtype.str if value.dtype.kind in "biuf" else value.dtype.kind,
            "shape": list(value.shape),
        }
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, numbers.Integral):
        return {"int": int(value)}
    if isinstance(value, numbers.Real):
        return {"float": _plain(value)}
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [encoded(v) for v in value]}
    if value is None or isinstance(value, str):
        return {"text": None if value is None else value[:200]}
    return {"other": type(value).__name__}


def _plain(number):
    """A NumPy or Python number as JSON holds it exactly: nan and infinities as text."""
    number = number.item() if isinstance(number, np.generic) else number
    if isinstance(number, float) and not math.isfinite(number):
        return repr(number)
    return number


def _decoded_array(data: dict) -> np.ndarray:
    return np.array([float(v) if isinstance(v, str) else v for v in data["array"]], dtype=data["dtype"]).reshape(
        data["shape"]
    )


def same_encoded(a: dict, b: dict, scale: float = 1.0) -> bool:
    """Whether two encoded values are the same kind of thing with the same values (floats within `compare`'s
    tolerance for inputs of magnitude `scale`, and of the same signs: exp(-720) is no 0, however small)."""
    if a.keys() != b.keys():
        return False
    if "array" in a:
        if a["dtype"] != b["dtype"] or a["shape"] != b["shape"]:
            return False
        if a["dtype"] in ("O", "V", "U", "S", "c", "m", "M"):
            return len(a["array"]) == len(b["array"]) and all(
                same_encoded(x, y, scale) for x, y in zip(a["array"], b["array"], strict=True)
            )
        x, y = _decoded_array(a), _decoded_array(b)
        return compare(x, y, scale=scale) is None and (
            x.dtype.kind != "f" or np.array_equal(np.sign(x), np.sign(y), equal_nan=True)
        )
    if "float" in a or "int" in a:
        key = "float" if "float" in a else "int"
        got, expected = (float(d[key]) if isinstance(d[key], str) else d[key] for d in (a, b))
        return compare(np.asarray(float(got)), float(expected), scale=scale) is None
    for key in ("list", "tuple"):
        if key in a:
            return len(a[key]) == len(b[key]) and all(
                same_encoded(x, y, scale) for x, y in zip(a[key], b[key], strict=True)
            )
    return a == b


def _generator_slot(args, kwargs) -> int | str | None:
    """Where a random generator is among the arguments (an index or a keyword), or None."""
    for slot, value in [*enumerate(args), *kwargs.items()]:
        if isinstance(value, np.random.Generator):
            return slot
    return None


def probe_outcome(fn, args, kwargs) -> dict:
    """What `fn` does on one probe, as plain data: {"raised": its class}, {"changed_input": True}, or
    {"value": encoded, "warning": its class (when it warned)}. Given a random generator, `fn` is called
    FINGERPRINT_DRAWS times from it instead: {"draws": [{"value": encoded, "share": how often}], "generator": what
    _generator_problem finds (or None), "advanced": whether it drew from the generator at all}."""
    args, kwargs = copy.deepcopy((list(args), dict(kwargs)))
    slot = _generator_slot(args, kwargs)
    if slot is not None:
        return _random_outcome(fn, args, kwargs, slot)
    outcome = _run(fn, args, kwargs, record_warnings=True)
    if outcome.raised is not None:
        return {"raised": _kind(type(outcome.raised))}
    if outcome.changed_input:
        return {"changed_input": True}
    data: dict = {"value": encoded(outcome.value)}
    if outcome.warning is not None:
        data["warning"] = _kind(outcome.warning.category)
    return data


def _random_outcome(fn, args, kwargs, slot) -> dict:
    pristine = copy.deepcopy((args, kwargs))
    inputs = [*args, *kwargs.values()]
    before = copy.deepcopy(inputs)
    given = args[slot] if isinstance(slot, int) else kwargs[slot]
    state = copy.deepcopy(given.bit_generator.state)
    with _silenced():
        values, raised = _draws(fn, args, kwargs, FINGERPRINT_DRAWS)
    if raised is not None:
        return {"raised": _kind(type(raised))}
    if changed_in_place(before, inputs):
        return {"changed_input": True}
    counts: dict[str, int] = {}
    for value in values:
        key = json.dumps(encoded(value), sort_keys=True)
        counts[key] = counts.get(key, 0) + 1
    problem = _generator_problem(fn, *pristine, slot, GENERATOR_DRAWS)
    return {
        "draws": [{"value": json.loads(key), "share": count / len(values)} for key, count in sorted(counts.items())],
        "generator": None if problem is None else problem.kind,
        "advanced": given.bit_generator.state != state,
    }


def same_frequencies(a: list[dict], b: list[dict], draws: int = FINGERPRINT_DRAWS) -> bool:
    """Whether two samples of `draws` values each ([{"value": encoded, "share": its frequency}, ...]) come from
    the same distribution: each value's frequencies within five standard errors of their difference (and two
    draws)."""
    first, second = ({json.dumps(d["value"], sort_keys=True): d["share"] for d in sample} for sample in (a, b))
    for key in first.keys() | second.keys():
        p, q = first.get(key, 0.0), second.get(key, 0.0)
        spread = math.sqrt((p * (1 - p) + q * (1 - q)) / draws)
        if abs(p - q) > 5 * spread + 2 / draws:
            return False
    return True


def same_outcome(a: dict, b: dict, scale: float = 1.0) -> bool:
    """Whether two probe outcomes (see probe_outcome) agree on every part `b` holds: a fingerprint records
    only the parts of a random function's outcome that are not the reference's."""
    if "raised" in b or "changed_input" in b:
        return a == b
    if "value" in b:
        return "value" in a and a.get("warning") == b.get("warning") and same_encoded(a["value"], b["value"], scale)
    if "raised" in a or "changed_input" in a or "value" in a:
        return False
    return all(same_frequencies(a[part], b[part]) if part == "draws" else a.get(part) == b[part] for part in b)


def same_values(a: dict, b: dict, scale: float = 1.0) -> bool:
    """Whether two probe outcomes agree but for their dtypes and warnings: the same numbers within the coarser
    dtype's tolerance, or the same outcome otherwise (an error raised, a random function's draws)."""
    x, y = (_numbers(outcome.get("value")) for outcome in (a, b))
    if x is None or y is None:
        return same_outcome(a, b, scale)
    return compare(x, y, scale=scale) is None


def _numbers(value: dict | None) -> np.ndarray | None:
    """An encoded number or numeric array as an array (None for anything else, or an array kept as a digest)."""
    if value is None:
        return None
    if "array" in value and value["dtype"] not in ("O", "V", "U", "S", "c", "m", "M"):
        return _decoded_array(value)
    for key in ("float", "int", "bool"):
        if key in value:
            number = value[key]
            return np.asarray(float(number) if isinstance(number, str) else number)
    return None


def fingerprint(outcome: dict, reference: dict, scale: float = 1.0) -> dict | None:
    """What of `outcome` a fingerprint records where the reference's outcome on the same probe is `reference`:
    nothing (None) where they agree; UNRECORDED where it is too large to trust (a value that large may not cross
    the grading bridge intact), which any outcome matches; of a random function's draws, only the parts that
    differ."""
    if same_outcome(outcome, reference, scale):
        return None
    if len(json.dumps(outcome)) > LARGE_OUTCOME:
        return dict(UNRECORDED)
    if "draws" not in outcome or "draws" not in reference:
        return outcome
    return {part: value for part, value in outcome.items() if not same_outcome(outcome, {part: reference[part]})}


UNRECORDED = {"unrecorded": True}  # a fingerprint's outcome where the misconception's was too large to record


def catalogued_mistake(fn):
    """The one catalogued misconception of `fn` whose fingerprint the learner's function matches, or None.

    A misconception fits when `fn` does what it does on every probe: its outcome where it differs from the
    reference, and the reference's numbers (dtype and warnings aside) elsewhere: a function wrong in another way on
    a probe the misconception gets right does not make that mistake, or not only it. When several fit, the one
    whose fingerprint covers all the others' probes (and parts of a random function's outcome) is named, the most
    specific; when none does, none is: a failure names one mistake or none, never competing ones.
    """
    from grader.learner import hints  # the catalogue is read only when a check fails

    name = getattr(fn, "__name__", None)
    entries = catalogued(name)
    if not entries or not isinstance(name, str):
        return None
    recorded, probes, reference = hints.fingerprints(name), hints.probes(name), hints.reference_outcomes(name)
    seen: dict[int, dict] = {}

    def agrees(index, outcome, same=same_outcome) -> bool:
        if outcome == UNRECORDED:
            return True
        if index >= len(probes):
            return False  # a fingerprint of other probes: no fit rather than a guess
        args, kwargs = probes[index]
        if index not in seen:
            seen[index] = probe_outcome(fn, args, kwargs)
        return same(seen[index], outcome, input_scale(args, kwargs))

    def fits(prints: dict[int, dict]) -> bool:
        return all(
            agrees(index, expected_outcome(prints[index], reference.get(index))) for index in sorted(prints)
        ) and all(agrees(index, reference[index], same_values) for index in sorted(reference.keys() - prints.keys()))

    fitting = [(entry, _recorded_parts(recorded[entry.id])) for entry in entries if recorded.get(entry.id)]
    fitting = [(entry, where) for entry, where in fitting if fits(recorded[entry.id])]
    widest = [entry for entry, where in fitting if all(other <= where for _, other in fitting)]
    return widest[0] if len(widest) == 1 else None


def expected_outcome(recorded: dict, reference: dict | None) -> dict:
    """What a misconception does on a probe its fingerprint records: the outcome there, completed by the
    reference's parts for a random function's (which records only the parts that differ)."""
    if reference is None:
        return recorded
    if "draws" in reference and recorded.keys() <= reference.keys():
        return {**reference, **recorded}
    return recorded


def _recorded_parts(prints: dict[int, dict]) -> set[tuple[int, str]]:
    """(probe, part) for each part of an outcome a fingerprint records: a random function's draws, generator use
    and advance are parts of their own, any other outcome is one part."""
    return {
        (index, part if "draws" in outcome or "advanced" in outcome or "generator" in outcome else "outcome")
        for index, outcome in prints.items()
        for part in outcome
    }


def _diagnosis(fn, learner: _Outcome, same_value, mistakes=(), matches=None) -> list[tuple[str, str]]:
    """The (description, hint) of the one known mistake a failure names, or none (see `failure`).

    `mistakes` are wrong answers the check itself knows on its input, compared with the learner's
    answer by `matches` (default `same_value`); when exactly one fits, it is named. Otherwise the
    catalogue's misconception of `fn` whose fingerprint the learner's function matches, if one does.
    """
    fitting = []
    if learner.raised is None and not learner.changed_input and learner.warning is None:
        for mistake in mistakes:
            try:
                if (matches or same_value)(learner.value, mistake.output):
                    fitting.append((mistake.description, mistake.hint))
            except Exception:  # an answer of an unexpected kind matches no known mistake
                continue
    if fitting:
        return fitting[:1] if len(set(fitting)) == 1 else []
    entry = catalogued_mistake(fn)
    return [] if entry is None else [(entry.description, entry.hint)]


def catalogued(name) -> list:
    """The catalogue's misconceptions of the function named `name`; none for what has no name (a value that is no
    function: the notebook bound the graded name to something else), which no catalogued mistake explains."""
    from grader.learner import hints

    return hints.misconceptions(name) if isinstance(name, str) and name else []


def _not_written(call) -> CheckFailed:
    """The failure for a stub: marked, so that a check made of other checks passes it on as it is."""
    stub = CheckFailed(f"{call}: not written yet (it still raises NotImplementedError).")
    stub.not_written = True
    return stub


_IN_PLACE = "changed its input in place."
_IN_PLACE_HINT = (
    "  hint: put results in a new array (arithmetic and NumPy's functions make one), not into the caller's "
    "(`x -= m`, `x /= total`, `out=x`), so the caller's input stays as it was."
)


def _in_place_property(fn) -> list[str]:
    """The contract's property a change to the caller's input breaks, as a failure's line, when `fn` promises it."""
    if "unchanged" not in contracts.PROPERTIES.get(str(getattr(fn, "__name__", "")), ()):
        return []
    return ["  broken property (unchanged): the caller's input is never changed."]


def _crash_lines(fn, pristine, call, error) -> tuple[list[str], list[str]]:
    """The lines of a failure whose call raised `error`: what it raised, what the input had that the code did not
    expect and the learner's line that raised (see crashes.explained); and its hint, shown when no catalogued
    mistake is named."""
    explanation, hint = crashes.explained(fn, pristine[0], pristine[1], error)
    return [f"{call} raised {type(error).__name__}: {error}", *explanation], hint


def _call(fn, args, kwargs, call, same_value, record_warnings=False) -> _Outcome:
    """Call the learner's function; an exception or a change to its inputs becomes a CheckFailed."""
    __tracebackhide__ = True
    pristine = copy.deepcopy((args, kwargs))
    outcome = _run(fn, args, kwargs, record_warnings)
    if isinstance(outcome.raised, NotImplementedError):
        raise _not_written(call)
    if outcome.raised is not None:
        lines, hint = _crash_lines(fn, pristine, call, outcome.raised)
    elif outcome.changed_input:
        lines, hint = [f"{call} {_IN_PLACE}"], [*_in_place_property(fn), _IN_PLACE_HINT]
    else:
        return outcome
    raise failure(lines, _diagnosis(fn, outcome, same_value), otherwise=hint) from outcome.raised


def input_scale(args, kwargs) -> float:
    """The largest finite magnitude among the numeric inputs (at least 1).

    A correct softmax computed in floating point is accurate to about this many units
    in the last place (log-sum-exp forms lose that much when they subtract), so the
    tolerance grows with it. Lists of chunks and streams are looked into.
    """
    scale = 1.0
    for value in [*args, *kwargs.values()]:
        if isinstance(value, OnePass):
            value = value.chunks
        if isinstance(value, (list, tuple)) and any(isinstance(v, (list, tuple, np.ndarray)) for v in value):
            scale = max(scale, input_scale(list(value), {}))
            continue
        try:
            array = np.asarray(value)
        except Exception:
            continue
        if array.dtype.kind in "iuf" and array.size:
            finite = np.abs(array[np.isfinite(array)].astype(np.float64))
            if finite.size:
                scale = max(scale, float(finite.max()))
    return scale


def _fail(fn, pristine, call, reason, got, expected, diagnosis):
    """A wrong answer's failure: expected and got, then the catalogued mistake it makes, or else the property it
    breaks, shown on the smallest input found (see grader.learner.properties)."""
    __tracebackhide__ = True
    lines = [
        f"{call} is not right: {reason}.",
        f"  expected: {_show(np.asarray(expected))}",
        f"  got:      {_show(got)}",
    ]
    broken = None if diagnosis else properties.broken(fn, pristine[0], pristine[1], got, expected)
    raise failure(lines, diagnosis, otherwise=broken.lines() if broken is not None else ())


def check_call(fn, *args, expect, mistakes=(), dtype=None, within=None, **kwargs) -> None:
    """Call `fn(*args, **kwargs)` and require a NumPy array close to `expect` (within `within`, relative and
    absolute, when given: see `compare`).

    When the answer is wrong, the failure names every known mistake that gives the same
    answer on this input: the catalogued misconceptions of `fn`, and `mistakes` (answers
    given here). The input must come back unchanged.
    """
    __tracebackhide__ = True
    _check_judged(fn, args, kwargs, expect, mistakes, lambda got, out, scale: compare(got, out, dtype, scale, within))


def _check_judged(fn, args, kwargs, expect, mistakes, difference) -> None:
    """Call `fn`, and fail naming the known mistakes when `difference(got, expected, scale)` gives a reason."""
    __tracebackhide__ = True
    pristine = copy.deepcopy((args, kwargs))
    call = WordedCall(fn, pristine)  # pristine is only copied from below
    scale = input_scale(args, kwargs)
    same = lambda a, b: same_answer(a, b, scale)  # noqa: E731
    outcome = _call(fn, args, kwargs, call, same)
    reason = difference(outcome.value, expect, scale)
    if reason is not None:
        given = lambda got, out: difference(got, out, scale) is None  # noqa: E731
        diagnosis = _diagnosis(fn, outcome, same, mistakes, given)
        _fail(fn, copy.deepcopy(pristine), call, reason, outcome.value, expect, diagnosis)


def as_values(got, expected) -> tuple:
    """(got, expected) as `check_values` compares them: a list, tuple or number as the array it holds, and a boolean
    or integer answer or expectation as float64, so that only the values are judged, not the container or dtype."""
    if isinstance(got, (list, tuple, numbers.Number, np.generic)):
        try:
            got = np.asarray(got)
        except Exception:  # a ragged list: compare says what it is
            return got, expected
    expected = np.asarray(expected)
    if type(got) is np.ndarray and got.dtype.kind in "biu" and expected.dtype.kind in "biuf":
        got = got.astype(np.float64)
    if expected.dtype.kind in "biu" and type(got) is np.ndarray and got.dtype.kind == "f":
        expected = expected.astype(np.float64)
    return got, expected


def check_values(fn, *args, expect, mistakes=(), **kwargs) -> None:
    """The contract's meaning: `fn(*args, **kwargs)` gives values close to `expect`, in any dtype and any container
    (a list too). That the answer is a NumPy array of the promised dtype is a detail, which `check_call` checks.

    A failure names the known mistakes as check_call's does; the input must come back unchanged.
    """
    __tracebackhide__ = True

    def difference(got, expected, scale) -> str | None:
        got, expected = as_values(got, expected)
        return compare(got, expected, scale=scale)

    _check_judged(fn, args, kwargs, expect, mistakes, difference)


def _as_number(value):
    """A real number (Python or NumPy, 0-d arrays included) as a float, else None."""
    if isinstance(value, (bool, np.bool_, str, bytes)):
        return None
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        return float(value)
    return float(value) if isinstance(value, numbers.Real) else None


def _answer_problem(got, expect, scale=1.0) -> str | None:
    """Why `got` is not the plain answer `expect` (a bool or a number), or None.

    A number is judged as `compare` judges arrays: in its own float dtype (a float32
    answer to float32 accuracy), with the tolerance widened by the inputs' magnitude `scale`.
    """
    if isinstance(expect, bool):
        if not isinstance(got, (bool, np.bool_)):
            return f"should return True or False, got {type(got).__name__}"
        return None if bool(got) == expect else "wrong answer"
    number = _as_number(got)
    if number is None:
        return f"should return a number, got {type(got).__name__}"
    kept = np.asarray(got) if isinstance(got, (np.floating, np.ndarray)) else np.asarray(number)
    return compare(kept if kept.dtype.kind == "f" else np.asarray(number), float(expect), scale=scale)


def check_answer(fn, *args, expect, mistakes=(), **kwargs) -> None:
    """Call `fn` and require a plain answer (a bool or a number) equal to `expect`."""
    __tracebackhide__ = True
    call = WordedCall(fn, copy.deepcopy((args, kwargs)))
    outcome = _call(fn, args, kwargs, call, same_answer)
    scale = input_scale(args, kwargs)
    problem = _answer_problem(outcome.value, expect, scale)
    if problem is not None:
        lines = [f"{call} is not right: {problem}.", f"  expected: {expect!r}", f"  got:      {_show(outcome.value)}"]
        given = lambda got, out: _answer_problem(got, out, scale) is None  # noqa: E731
        raise failure(lines, _diagnosis(fn, outcome, same_answer, mistakes, given))


def check_raises(fn, *args, error=ValueError, why="", mistakes=(), **kwargs) -> None:
    """Require `fn(*args, **kwargs)` to raise `error` (any subclass counts).

    When it returns or raises something else instead, the failure names the known
    mistakes that do the same (a nan row, a uniform row, an AssertionError).
    """
    __tracebackhide__ = True
    call = describe_call(fn, args, kwargs)
    pristine = copy.deepcopy((args, kwargs))
    same = lambda a, b: same_answer(np.asarray(a), np.asarray(b))  # noqa: E731
    outcome = _run(fn, args, kwargs)
    if isinstance(outcome.raised, NotImplementedError):
        raise _not_written(call)
    if isinstance(outcome.raised, error):
        return
    expected = f"  expected it to raise {error.__name__}. {why}".rstrip()
    if outcome.raised is not None:
        lines, hint = _crash_lines(fn, pristine, call, outcome.raised)
        lines.insert(1, expected)
    else:
        lines, hint = [f"{call} returned {_show(outcome.value)}", expected], []
    given = lambda got, out: compare(np.asarray(got), out) is None  # noqa: E731
    diagnosis = _diagnosis(fn, outcome, same, mistakes, given)
    raise failure(lines, diagnosis, otherwise=hint) from outcome.raised


def check_quiet(fn, *args, **kwargs) -> None:
    """Require `fn(*args, **kwargs)` to run without any warning (overflow, divide by zero, ...).

    The warning is caught and reported here, never printed: nbgrader zeroes a cell that writes to stderr.
    """
    __tracebackhide__ = True
    call = describe_call(fn, args, kwargs)
    outcome = _call(fn, args, kwargs, call, same_answer, record_warnings=True)
    if outcome.warning is not None:
        first = outcome.warning
        lines = [f"{call} warned: {first.category.__name__}: {first.message}"]
        raise failure(
            lines,
            _diagnosis(fn, outcome, same_answer),
            otherwise=[
                "  hint: a correct answer never overflows or divides by zero; "
                "shift the scores before exp so the largest becomes 0."
            ],
        )


class _NotAnIndex(Exception):
    """A draw returned something that is not an index of the choices."""


def _frequencies(fn, args, kwargs, choices, draws) -> _Outcome:
    """Call `fn` `draws` times on the same arguments; the value is how often each index came back.

    Inputs are compared with their copies once, after the last draw (thousands of draws
    would otherwise cost thousands of copies).
    """
    inputs = [*args, *kwargs.values()]
    before = copy.deepcopy(inputs)
    counts = np.zeros(choices)
    with _silenced():
        values, raised = _draws(fn, args, kwargs, draws)
        for value in values:
            number = _as_number(value)
            if number is None or number != int(number) or not 0 <= number < choices:
                expected = f"expected an index from 0 to {choices - 1}"
                return _Outcome(raised=_NotAnIndex(f"returned {_show(value)}; {expected}"))
            counts[int(number)] += 1
    if raised is not None:
        return _Outcome(raised=raised)
    return _Outcome(value=counts / draws, changed_input=changed_in_place(before, inputs))


def _draws(fn, args, kwargs, draws) -> tuple[list, Exception | None]:
    """The values of `draws` calls, up to the first exception (and that exception, or None).

    A learner's function seen from the grading process makes all its calls in one trip
    to the kernel (`repeat`, see grader.engine.bridge)."""
    if called_elsewhere(fn):
        return fn.repeat(args, kwargs, draws)
    values = []
    for _ in range(draws):
        try:
            values.append(fn(*args, **kwargs))
        except Exception as error:  # the learner's bug, reported by the check
            return values, error
    return values, None


# What a learner's function called in its kernel from the grading process offers the checks (the grading
# bridge's KernelFunction does): `repeat(args, kwargs, times)`, the results of `times` calls made in one trip
# and the error that ended them early; `used_global_random`, whether the calls of the last `repeat` drew from NumPy's
# global random state or Python's `random` where they ran. The checks name what they need; they know nothing of the
# bridge.
CALLED_ELSEWHERE = ("repeat", "used_global_random")


def called_elsewhere(fn) -> bool:
    """Whether `fn` is a learner's function called in its kernel from the grading process (see CALLED_ELSEWHERE:
    its class has both, as no function does)."""
    return all(hasattr(type(fn), name) for name in CALLED_ELSEWHERE)


def check_frequencies(fn, *args, expect, draws=4000, why="", mistakes=(), **kwargs) -> None:
    """Call `fn(*args, **kwargs)` `draws` times and require each index's frequency to match `expect`.

    Each frequency may differ from its expected probability by five standard errors
    (and one draw), so a correct sampler fails about once in a few million runs.
    """
    __tracebackhide__ = True
    expect = np.asarray(expect, dtype=float)
    call = describe_call(fn, args, kwargs) + (f" ({why})" if why else "")
    pristine = copy.deepcopy((args, kwargs))

    def close(freqs, probs):
        freqs, probs = np.asarray(freqs, dtype=float), np.asarray(probs, dtype=float)
        spread = np.sqrt(np.clip(probs * (1 - probs), 0, None) / draws)
        return freqs.shape == probs.shape and bool(np.all(np.abs(freqs - probs) <= 5 * spread + 1 / draws))

    outcome = _frequencies(fn, args, kwargs, len(expect), draws)
    if isinstance(outcome.raised, NotImplementedError):
        raise _not_written(call)
    if outcome.raised is not None or outcome.changed_input:
        learners = None if isinstance(outcome.raised, _NotAnIndex) else outcome.raised
        if learners is not None:
            lines, hint = _crash_lines(fn, pristine, call, learners)
        elif outcome.raised is not None:
            lines, hint = [f"{call} {outcome.raised}"], []
        else:
            lines, hint = [f"{call} {_IN_PLACE}"], [_IN_PLACE_HINT]
        diagnosis = _diagnosis(fn, outcome, close, mistakes)
        raise failure(lines, diagnosis, otherwise=hint) from learners
    if not close(outcome.value, expect):
        lines = [
            f"{call}, drawn {draws} times, gives the wrong frequencies.",
            f"  expected: {_show(expect)}",
            f"  got:      {_show(outcome.value)}",
        ]
        raise failure(lines, _diagnosis(fn, outcome, close, mistakes))


class _GeneratorProblem(typing.NamedTuple):
    """How a function fails to draw from its generator alone: a kind, what it did, and what it raised if it did."""

    kind: str
    what: str
    raised: BaseException | None = None


def _generator_problem(fn, args, kwargs, slot, draws, varies=True) -> _GeneratorProblem | None:
    """(kind, what went wrong, what it raised) when `fn` does not draw from the generator at `slot` alone, else None.

    `slot` is the index of the generator among the positional arguments, or its keyword.
    The function is called `draws` times with a generator in one state, again with a new
    generator in the same state, and with one in another state; NumPy's global random state
    and Python's `random` module are watched throughout.
    """
    given = args[slot] if isinstance(slot, int) else kwargs[slot]
    state = copy.deepcopy(given.bit_generator.state)

    def with_generator(bit_state):
        generator = np.random.Generator(type(given.bit_generator)())
        generator.bit_generator.state = bit_state
        new_args, new_kwargs = copy.deepcopy((list(args), dict(kwargs)))
        if isinstance(slot, int):
            new_args[slot] = generator
        else:
            new_kwargs[slot] = generator
        with _silenced():
            before = None if called_elsewhere(fn) else _random_states()
            values, raised = _draws(fn, new_args, new_kwargs, draws)
            used_global = fn.used_global_random if called_elsewhere(fn) else _random_states() != before
        return [_as_number(v) if _as_number(v) is not None else repr(v) for v in values], raised, used_global

    first, raised, used_global = with_generator(state)
    if raised is not None:
        return _GeneratorProblem("raised", f"raised {type(raised).__name__}: {raised}", raised)
    if used_global:
        return _GeneratorProblem(
            "global",
            "drew from NumPy's global random state (np.random.*) or Python's random module: "
            "draw only from the generator you are given",
        )
    again, _, _ = with_generator(copy.deepcopy(state))
    if again != first:
        return _GeneratorProblem(
            "unseeded",
            f"gave other draws from a new generator in the same state ({again[:8]} ... instead of "
            f"{first[:8]} ...): it draws from a random source other than the given generator",
        )
    copied = np.random.Generator(type(given.bit_generator)())
    copied.bit_generator.state = copy.deepcopy(state)
    other = np.random.Generator(type(given.bit_generator)(int(copied.integers(2**62)))).bit_generator.state
    other_draws, _, _ = with_generator(other)
    if varies and other_draws == first:
        return _GeneratorProblem(
            "ignored",
            f"gave the same {draws} draws from generators in different states: "
            "it does not draw from the generator it is given",
        )
    return None


def check_own_generator(fn, *args, draws=200, varies=True, why="", **kwargs) -> None:
    """Require `fn` to draw only from the `numpy.random.Generator` among its arguments.

    Two generators in the same state must give the same draws, and (with `varies`, for an
    input whose draws are random) one in another state other draws; NumPy's global random
    state and Python's `random` module must stay untouched.
    """
    __tracebackhide__ = True
    call = describe_call(fn, args, kwargs) + (f" ({why})" if why else "")
    slots: list[int | str] = [i for i, a in enumerate(args) if isinstance(a, np.random.Generator)]
    slots += [k for k, v in kwargs.items() if isinstance(v, np.random.Generator)]
    if not slots:
        raise CheckMisused("check_own_generator needs a numpy.random.Generator among the arguments")
    problem = _generator_problem(fn, args, kwargs, slots[0], draws, varies)
    if problem is None:
        return
    if problem.kind == "raised" and "NotImplementedError" in problem.what:
        raise _not_written(call)
    learner = _Outcome(raised=problem.raised)
    raise failure([f"{call} {problem.what}."], _diagnosis(fn, learner, same_answer)) from problem.raised


def _reference_answer(reference, args, kwargs):
    """What the test's own reference returns on these arguments, or the exception it raises."""
    with _silenced():
        try:
            return reference(*args, **kwargs), None
        except Exception as error:  # the reference refuses this input: so must the learner's function
            return None, error


# What the grading mixes into check_generated's seeds (salted_draws): one value per submission, so some of its hidden
# inputs are drawn for it alone. A context variable, so that gradings in threads of one process keep their own.
_DRAW_SALT: contextvars.ContextVar[str | None] = contextvars.ContextVar("draw_salt", default=None)


@contextlib.contextmanager
def salted_draws(salt: str | None):
    """Within it, check_generated draws more inputs, from its seed mixed with `salt` (None: none, as in the lab).

    The grading sets a digest of the submission's code: grading it again draws the same inputs,
    and any change of the code draws others, so a table of answers to inputs an earlier feedback
    showed does not pass.
    """
    token = _DRAW_SALT.set(salt)
    try:
        yield
    finally:
        _DRAW_SALT.reset(token)


def drawn_seeds(seed: int) -> list[int]:
    """The seeds check_generated draws from: `seed`, the same inputs for every submission (those the proof
    grades); then, within salted_draws, a 63-bit number made of `seed` and the salt, inputs for this submission
    alone. A failure names the seed of its input: `check_generated(..., seed=it)` outside a grading draws it again."""
    salt = _DRAW_SALT.get()
    if salt is None:
        return [seed]
    return [seed, int.from_bytes(hashlib.sha256(f"{seed}\n{salt}".encode()).digest()[:8], "big") >> 1]


def drawn_inputs(draw, seed: int, examples: int):
    """(seed, size, positional arguments) of each input check_generated calls with: each seed's, smallest first."""
    for drawn in drawn_seeds(seed):
        rng = np.random.default_rng(drawn)
        for size in range(1, examples + 1):
            args = draw(rng, size)
            yield drawn, size, args if isinstance(args, tuple) else (args,)


def check_generated(
    fn, draw, *, reference, seed, examples=25, same_dtype=False, values_only=False, within=None, **kwargs
) -> None:
    """Call `fn` on inputs drawn at random, smallest first, and compare each answer with `reference`'s.

    `draw(rng, size)` returns the positional arguments of one call (a tuple, or one value);
    `size` runs from 1 to `examples`, so the first input that fails is the smallest failing
    input found. The generator is seeded here with `seed`, so every run draws the same inputs;
    while a submission is graded, as many more are drawn for it alone (see salted_draws). Where
    `reference` raises, `fn` must raise the same kind of error; `same_dtype` requires the
    reference's dtype, and `values_only` judges arrays by their values alone, as `check_values` does.
    Answers are judged as `check_call` (arrays, `within` as it takes it) or `check_answer` (a bool or
    a number) judges them.
    """
    __tracebackhide__ = True
    for drawn, size, args in drawn_inputs(draw, seed, examples):
        expected, refused = _reference_answer(reference, copy.deepcopy(args), copy.deepcopy(kwargs))
        try:
            if refused is not None:
                check_raises(fn, *args, error=type(refused), **kwargs)
            elif type(expected) is np.ndarray and values_only:
                check_values(fn, *args, expect=expected, **kwargs)
            elif type(expected) is np.ndarray:
                check_call(
                    fn, *args, expect=expected, dtype=expected.dtype if same_dtype else None, within=within, **kwargs
                )
            else:
                check_answer(fn, *args, expect=expected, **kwargs)
        except CheckFailed as failed:
            if getattr(failed, "not_written", False):
                raise
            raise CheckFailed(
                f"Input {size} of {examples} drawn at random (seed {drawn}) is the smallest that "
                f"fails (the inputs grow with their number):\n{failed}",
                failed.mistakes,
            ) from failed.__cause__


def passed(name: str) -> None:
    """Say that the public checks of `name` passed, and that more run at grading."""
    print(f"✓ {name}: the public checks passed. Hidden tests run when your work is graded.")
