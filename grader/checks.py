"""Checks used by the lessons' test cells.

Each check calls the learner's function itself, so that a failure can say exactly
what was called, what was expected, what came back, how far off it was and where,
and which known mistake the answer looks like. A failure raises `CheckFailed`
(an AssertionError, so nbgrader scores the cell 0); a pass prints one line to
stdout. Nothing here ever writes to stderr: nbgrader zeroes a test cell that does.
"""
from __future__ import annotations

import contextlib
import copy
import numbers
import warnings
from dataclasses import dataclass

import numpy as np

# How many units in the last place a correct float answer may be off by.
ULPS = 64


class CheckFailed(AssertionError):
    """A visible or hidden check found a wrong answer."""


@dataclass(frozen=True)
class Mistake:
    """A known wrong answer: what the learner probably did, and how to fix it."""

    description: str
    hint: str
    output: object


def tolerance(dtype) -> float:
    """Relative and absolute tolerance for answers of this dtype (floats only)."""
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        dtype = np.dtype(np.float64)
    return float(ULPS * np.finfo(dtype).eps)


def describe_call(fn, args, kwargs) -> str:
    """`name(arg, ..., key=value)` as the learner would have typed it."""
    shown = [_short_repr(a) for a in args] + [f"{k}={_short_repr(v)}" for k, v in kwargs.items()]
    return f"{getattr(fn, '__name__', 'function')}({', '.join(shown)})"


def _short_repr(value) -> str:
    if isinstance(value, np.ndarray):
        text = " ".join(np.array2string(value, separator=", ", threshold=12, precision=6).split())
        return f"np.array({text}, dtype={value.dtype})" if value.dtype != np.float64 else f"np.array({text})"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _show(value) -> str:
    if isinstance(value, np.ndarray):
        return np.array2string(value, separator=", ", threshold=24, precision=6).replace("\n", "\n            ")
    return repr(value)


def compare(got, expected, dtype=None) -> str | None:
    """Why `got` is not `expected` (None when it is), judged with a dtype-aware tolerance.

    `expected` is array-like; `got` must be a NumPy array of the same shape, with the
    same dtype when `dtype` is given (else any float dtype for float answers).
    """
    expected = np.asarray(expected)
    if not isinstance(got, np.ndarray):
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
    tol = max(tolerance(got.dtype), tolerance(expected.dtype) if expected.dtype.kind == "f" else 0.0)
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
    return (f"largest error {error.flat[flat]:.3g}{at} (tolerance {tol:.1g}); "
            f"{int(bad.sum())} of {bad.size} entries differ")


def _changed(old, new) -> bool:
    """Whether a data argument (array, nested list, number) differs from its copy taken before the call."""
    if isinstance(old, np.ndarray):
        return (not isinstance(new, np.ndarray) or old.shape != new.shape
                or not np.array_equal(old, new, equal_nan=old.dtype.kind in "fc"))
    if isinstance(old, (list, tuple)):
        return len(old) != len(new) or any(_changed(a, b) for a, b in zip(old, new))
    if isinstance(old, (numbers.Number, str, bytes)):
        return old != new and not (old != old and new != new)  # nan stays nan
    return False  # other objects (a random Generator, say) are the function's to use


@contextlib.contextmanager
def _silenced():
    """No floating-point warnings and no Python warnings: nbgrader zeroes a cell that writes to stderr."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _not_written(call) -> CheckFailed:
    return CheckFailed(f"{call}: not written yet (it still raises NotImplementedError).")


def _call(fn, args, kwargs, call, silence=True):
    """Call the learner's function; any exception or change to its inputs becomes a CheckFailed.

    With `silence`, warnings are swallowed; without, they reach the caller's recorder.
    """
    __tracebackhide__ = True
    inputs = [*args, *kwargs.values()]
    before = copy.deepcopy(inputs)
    try:
        with _silenced() if silence else contextlib.nullcontext():
            got = fn(*args, **kwargs)
    except NotImplementedError:
        raise _not_written(call) from None
    except Exception as error:  # the learner's bug, reported as a failed check
        raise CheckFailed(f"{call} raised {type(error).__name__}: {error}") from None
    if _changed(before, inputs):
        raise CheckFailed(
            f"{call} changed its input in place.\n"
            f"  hint: put results in a new array (`y = x - m`, `np.exp(x)`), not into the caller's "
            f"(`x -= m`, `x /= total`, `out=x`), so the caller's input stays as it was.")
    return got


def _fail(call, reason, got, expected, mistakes, dtype):
    __tracebackhide__ = True
    lines = [f"{call} is not right: {reason}.",
             f"  expected: {_show(np.asarray(expected))}",
             f"  got:      {_show(got)}"]
    lines += _named_mistake(got, mistakes, lambda g, out: compare(g, out, dtype) is None)
    raise CheckFailed("\n".join(lines))


def check_call(fn, *args, expect, mistakes=(), dtype=None, **kwargs) -> None:
    """Call `fn(*args, **kwargs)` and require a NumPy array close to `expect`.

    `mistakes` lists known wrong answers for this input; if the learner's answer
    matches one, the failure names it and gives its hint. The input must come back
    unchanged.
    """
    __tracebackhide__ = True
    call = describe_call(fn, args, kwargs)
    got = _call(fn, args, kwargs, call)
    reason = compare(got, expect, dtype)
    if reason is not None:
        _fail(call, reason, got, expect, mistakes, dtype)


def _as_number(value):
    """A real number (Python or NumPy, 0-d arrays included) as a float, else None."""
    if isinstance(value, (bool, np.bool_, str, bytes)):
        return None
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        return float(value)
    return float(value) if isinstance(value, numbers.Real) else None


def _answer_problem(got, expect) -> str | None:
    """Why `got` is not the plain answer `expect` (a bool or a number), or None."""
    if isinstance(expect, bool):
        if not isinstance(got, (bool, np.bool_)):
            return f"should return True or False, got {type(got).__name__}"
        return None if bool(got) == expect else "wrong answer"
    number = _as_number(got)
    if number is None:
        return f"should return a number, got {type(got).__name__}"
    return compare(np.asarray(number), float(expect))


def check_answer(fn, *args, expect, mistakes=(), **kwargs) -> None:
    """Call `fn` and require a plain answer (a bool or a number) equal to `expect`."""
    __tracebackhide__ = True
    call = describe_call(fn, args, kwargs)
    got = _call(fn, args, kwargs, call)
    problem = _answer_problem(got, expect)
    if problem is not None:
        lines = [f"{call} is not right: {problem}.", f"  expected: {expect!r}", f"  got:      {_show(got)}"]
        lines += _named_mistake(got, mistakes, lambda g, out: _answer_problem(g, out) is None)
        raise CheckFailed("\n".join(lines))


def _named_mistake(got, mistakes, matches) -> list[str]:
    """The 'likely mistake' and 'hint' lines for the first mistake whose output `got` matches."""
    for mistake in mistakes:
        try:
            if matches(got, mistake.output):
                return [f"  likely mistake: {mistake.description}", f"  hint: {mistake.hint}"]
        except Exception:  # an answer of an unexpected kind matches no known mistake
            continue
    return []


def check_raises(fn, *args, error=ValueError, why="", mistakes=(), **kwargs) -> None:
    """Require `fn(*args, **kwargs)` to raise `error` (any subclass counts).

    `mistakes` may name what a wrong function returns instead (a nan row, a uniform row).
    """
    __tracebackhide__ = True
    call = describe_call(fn, args, kwargs)
    try:
        with _silenced():
            got = fn(*args, **kwargs)
    except NotImplementedError:
        raise _not_written(call) from None
    except error:
        return
    except Exception as other:
        raise CheckFailed(f"{call} raised {type(other).__name__}, expected {error.__name__} "
                          f"(its message: {other}). {why}".rstrip()) from None
    lines = [f"{call} returned {_show(got)}, expected it to raise {error.__name__}. {why}".rstrip()]
    lines += _named_mistake(got, mistakes, lambda g, out: compare(np.asarray(g), out) is None)
    raise CheckFailed("\n".join(lines))


def check_quiet(fn, *args, **kwargs) -> None:
    """Require `fn(*args, **kwargs)` to run without any warning (overflow, divide by zero, ...).

    The warning is caught and reported here, never printed: nbgrader zeroes a cell that writes to stderr.
    """
    __tracebackhide__ = True
    call = describe_call(fn, args, kwargs)
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="warn"):
        warnings.simplefilter("always")
        _call(fn, args, kwargs, call, silence=False)
    if caught:
        first = caught[0]
        raise CheckFailed(f"{call} warned: {first.category.__name__}: {first.message}\n"
                          f"  hint: a correct answer never overflows or divides by zero; "
                          f"shift the scores before exp so the largest becomes 0.")


def check_frequencies(draw, expect, *, call, draws=4000, mistakes=()) -> None:
    """Call `draw()` `draws` times and require the frequency of each index to match `expect`.

    Each frequency may differ from its expected probability by five standard errors
    (and one draw), so a correct sampler fails about once in a few million runs.
    """
    __tracebackhide__ = True
    expect = np.asarray(expect, dtype=float)
    counts = np.zeros(len(expect))
    for _ in range(draws):
        index = _call(draw, (), {}, call)
        number = _as_number(index)
        if number is None or number != int(number) or not 0 <= number < len(expect):
            raise CheckFailed(f"{call} returned {_show(index)}; expected an index from 0 to {len(expect) - 1}")
        counts[int(number)] += 1
    observed = counts / draws

    def close(freqs, probs):
        probs = np.asarray(probs, dtype=float)
        return bool(np.all(np.abs(freqs - probs) <= 5 * np.sqrt(probs * (1 - probs) / draws) + 1 / draws))

    if not close(observed, expect):
        lines = [f"{call}, drawn {draws} times, gives the wrong frequencies.",
                 f"  expected: {_show(expect)}", f"  got:      {_show(observed)}"]
        lines += _named_mistake(observed, mistakes, close)
        raise CheckFailed("\n".join(lines))


def passed(name: str) -> None:
    """Say that the public checks of `name` passed, and that more run at grading."""
    print(f"✓ {name}: the public checks passed. Hidden tests run when your work is graded.")
