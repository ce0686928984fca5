"""Which promised property a wrong answer breaks, shown on the smallest input found that breaks it.

When a check's answer is wrong and no catalogued mistake behaves like the learner's code, the
failure names a property the function promises (its contract: `grader.learner.contracts`, made
from the lesson's hidden tests) and shows it broken on the smallest input found: small integers
first, then one row of the failing input, fewer of its columns, then the failing input itself.
Every claim is the learner's own function's outputs, compared with each other (a row alone and
beside another, a row and the same row plus 1) or with the expected answer of the failing input;
when nothing is shown broken, nothing is claimed.
"""

from __future__ import annotations

import copy
import typing
import warnings

import numpy as np

from grader.learner import contracts

MAX_CALLS = 200  # calls of the learner's function one search for a broken property may make
CLEARLY = 1e-6  # how far apart two answers must be before a message says they differ (no claim on rounding)
SMALL_ROWS = ([1.0, 2.0], [1.0, 3.0], [0.0, 1.0, 2.0], [2.0, 0.0, -1.0], [1.0, 2.0, 3.0, 4.0])
SMALL_BATCHES = ([[1.0, 2.0], [1.0, 3.0]], [[0.0, 1.0], [2.0, 5.0]], [[1.0, 2.0, 3.0], [3.0, 0.0, -1.0]])


class Broken(typing.NamedTuple):
    """A property the learner's function breaks: its contract id, what it promises, the evidence, and a hint."""

    property: str
    promise: str
    evidence: list[str]
    hint: str

    def lines(self) -> list[str]:
        """The failure's lines for it (its hint last, as `checks.failure` shows a hint)."""
        return [
            f"  broken property ({self.property}): {self.promise}",
            *[f"    {line}" for line in self.evidence],
            f"  hint: {self.hint}",
        ]


class _Raised(typing.NamedTuple):
    error: BaseException


class Call:
    """The learner's function called on other scores, with the check's other arguments; never raises or warns."""

    def __init__(self, fn, args, kwargs, name):
        self.fn, self.rest, self.kwargs, self.name = fn, tuple(args[1:]), dict(kwargs), name
        self.left = MAX_CALLS

    def __call__(self, scores):
        arguments = copy.deepcopy((scores, self.rest, self.kwargs))
        self.left -= 1
        if self.left < 0:  # the search stops here: a failure's message must not take long to write
            return arguments[0], _Raised(TimeoutError("no more calls"))
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                return arguments[0], self.fn(arguments[0], *arguments[1], **arguments[2])
            except Exception as error:  # the learner's function fails here: this input shows nothing
                return arguments[0], _Raised(error)

    def shown(self, scores) -> str:
        """The call as the learner would type it (the same words as the check's own first line)."""
        shown = [_short(scores), *(_short(a) for a in self.rest), *(f"{k}={_short(v)}" for k, v in self.kwargs.items())]
        return f"{self.name}({', '.join(shown)})"


def _short(value) -> str:
    if isinstance(value, np.ndarray):
        text = " ".join(np.array2string(value, separator=", ", threshold=12, precision=4).split())
        return f"np.array({text})" if value.dtype == np.float64 else f"np.array({text}, dtype={value.dtype})"
    if isinstance(value, np.random.Generator):
        return "rng"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _shown(value) -> str:
    if isinstance(value, np.ndarray):
        return " ".join(np.array2string(value, separator=", ", threshold=12, precision=4).split())
    return _short(value)


def _array(value) -> np.ndarray | None:
    """A float array of `value` when it is an array (not a list: a list answer breaks `returns_array`), else None."""
    if type(value) is not np.ndarray or value.dtype.kind not in "iuf":
        return None
    return value.astype(np.float64)


def _differ(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two answers clearly differ (not by rounding): shapes, or an entry by more than CLEARLY relatively."""
    if a.shape != b.shape:
        return True
    same_special = (a == b) | (np.isnan(a) & np.isnan(b))
    with np.errstate(all="ignore"):
        far = np.abs(a - b) > CLEARLY * (1 + np.abs(b))
    return bool(np.any(far & ~same_special))


# ------------------------------------------------------------------ the inputs tried, smallest first


def candidates(scores, rows_only: bool) -> list:
    """The inputs tried, smallest first, in the form the check gave (a list stays a list, an int array stays int):
    small integer rows, then one row of `scores`, fewer of its columns, two of its rows, then `scores` itself.
    `rows_only` (other arguments are arrays that go with `scores`' shape: a mask, targets) tries `scores` alone."""
    x = np.asarray(scores)
    found = []
    if not rows_only and x.ndim >= 1 and x.shape[-1] >= 1:
        rows = x.reshape(-1, x.shape[-1])
        small = [np.array(r) for r in SMALL_ROWS] + [np.array(b) for b in SMALL_BATCHES]
        found += [s.astype(x.dtype) if x.dtype.kind in "iuf" else s for s in small]
        for row in rows[:2]:
            found += [row[:k] for k in sorted({2, 3} & set(range(2, row.size)))] + [row]
        if len(rows) >= 2:
            found.append(rows[:2])
    found.append(x)
    shaped = []
    for candidate in found:
        shaped.append(candidate.tolist() if isinstance(scores, (list, tuple)) else candidate)
    return shaped


# ------------------------------------------------------------------ the properties, each judged on one input


class Judge(typing.NamedTuple):
    """One property as the learner's side can judge it: the contract ids that promise it, what it promises,
    whether it is the property the failing answer breaks, and its evidence on one input (None: not shown there)."""

    ids: frozenset
    promise: str
    fits: typing.Callable  # (scores array, got, expected array) -> bool
    evidence: typing.Callable  # (call, candidate) -> list[str] | None
    hint: str


def _rows_sum(call, scores, log: bool = False):
    """A row of the answer that does not sum to 1 (of `log`-weights: whose exp does not), shown on `scores`."""
    scores, got = call(scores)
    value = _array(got)
    x = np.asarray(scores, dtype=float)
    if value is None or value.ndim < 1 or not np.all(np.isfinite(value)) or not np.all(np.isfinite(x)):
        return None
    with np.errstate(all="ignore"):
        sums = (np.exp(value) if log else value).sum(axis=-1).reshape(-1)
    off = np.flatnonzero(np.abs(sums - 1) > CLEARLY)
    if not off.size:
        return None
    row = f"row {off[0]}" if value.ndim > 1 else "the row"
    what = f"the exp of {row}" if log else row
    return [f"{call.shown(scores)} returned {_shown(got)}: {what} sums to {float(sums[off[0]]):.6g}, not 1."]


def _log_weights(expected) -> bool:
    """Whether `expected` is log-weights: at most 0, and the exp of each row summing to 1 (so every answer must)."""
    with np.errstate(all="ignore"):
        return bool(
            expected.size > 0
            and expected.dtype.kind == "f"
            and np.all(np.isfinite(expected))
            and np.all(expected <= 0)
            and np.allclose(np.exp(expected).sum(axis=-1), 1.0, rtol=0, atol=1e-9)
        )


def _weights(expected) -> bool:
    """Whether `expected` is weights: finite, at least 0, each row summing to 1 (so every answer must be)."""
    return bool(
        expected.size > 0
        and np.all(np.isfinite(expected))
        and np.all(expected >= 0)
        and np.allclose(expected.sum(axis=-1), 1.0, rtol=0, atol=1e-9)
    )


def _not_finite_where_expected(x, got, expected) -> bool:
    """Whether the answer to finite scores holds nan or inf where the expected answer is finite."""
    value = _array(got)
    return bool(
        value is not None
        and value.shape == expected.shape
        and np.all(np.isfinite(x))
        and np.all(np.isfinite(expected))
        and not np.all(np.isfinite(value))
    )


def _finite(call, scores):
    scores, got = call(scores)
    value = _array(got)
    if value is None or not np.all(np.isfinite(np.asarray(scores, dtype=float))) or np.all(np.isfinite(value)):
        return None
    where = tuple(int(i) for i in np.argwhere(~np.isfinite(value))[0])
    return [
        f"{call.shown(scores)} returned {_shown(got)}: {value[where]} at index {where}, for finite scores "
        "whose answer is finite."
    ]


def _row_alone(call, scores):
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2 or x.shape[0] < 2:
        return None
    scores, got = call(scores)
    value = _array(got)
    if value is None or value.shape[:1] != x.shape[:1]:
        return None
    for i in range(x.shape[0]):
        row = scores[i : i + 1] if isinstance(scores, np.ndarray) else [scores[i]]
        row, alone = call(row)
        alone = _array(alone)
        if alone is not None and alone.shape == value[i : i + 1].shape and _differ(value[i : i + 1], alone):
            return [
                f"{call.shown(row)} returned {_shown(alone)},",
                f"but row {i} of {call.shown(scores)} is {_shown(value[i])}: the other row changed it.",
            ]
    return None


def _shifted(call, scores):
    scores, got = call(scores)
    value = _array(got)
    if value is None or not np.all(np.isfinite(value)):
        return None
    for shift in (1, 10):
        moved = (np.asarray(scores) + shift) if isinstance(scores, np.ndarray) else _plus(scores, shift)
        moved, other = call(moved)
        other = _array(other)
        # a shift either leaves the answer as it was (weights, losses) or adds itself to it (log-sum-exp)
        if other is not None and _differ(other, value) and _differ(other, value + shift):
            return [
                f"{call.shown(scores)} returned {_shown(got)},",
                f"but {call.shown(moved)}, the same scores plus {shift}, returned {_shown(other)}.",
            ]
    return None


def _plus(scores, shift):
    return (np.asarray(scores, dtype=float) + shift).tolist()


def _compete(call, scores):
    x = np.asarray(scores, dtype=float)
    if x.ndim != 1 or x.size < 2:
        return None
    scores, got = call(scores)
    value = _array(got)
    if value is None or value.shape != x.shape or not np.all((value > CLEARLY) & (value < 1 - CLEARLY)):
        return None
    for j in range(x.size):
        raised = x.copy()
        raised[j] += 1
        raised_shown = raised if isinstance(scores, np.ndarray) else raised.tolist()
        raised_shown, other = call(raised_shown)
        other = _array(other)
        if other is None or other.shape != value.shape:
            continue
        others = np.arange(x.size) != j
        if other[j] <= value[j] * (1 + CLEARLY) or np.any(other[others] >= value[others] * (1 - CLEARLY)):
            return [
                f"{call.shown(scores)} returned {_shown(got)},",
                f"and {call.shown(raised_shown)}, score {j} raised by 1, returned {_shown(other)}.",
            ]
    return None


def _permuted(call, scores):
    x = np.asarray(scores)
    if x.ndim < 1 or x.shape[-1] < 2:
        return None
    scores, got = call(scores)
    value = _array(got)
    if value is None:
        return None
    order = np.arange(x.shape[-1])[::-1]
    flipped = x[..., order] if isinstance(scores, np.ndarray) else x[..., order].tolist()
    flipped, other = call(flipped)
    other = _array(other)
    if other is None:
        return None
    # reordering the scores reorders the answer (weights) or leaves it alone (a row's log-sum-exp)
    reordered = value[..., order] if value.shape == x.shape else value
    if _differ(other, reordered) and _differ(other, value):
        return [
            f"{call.shown(scores)} returned {_shown(got)},",
            f"but {call.shown(flipped)}, the same scores reversed, returned {_shown(other)}.",
        ]
    return None


def _shape(call, scores):
    x = np.asarray(scores)
    scores, got = call(scores)
    if type(got) is not np.ndarray or got.shape in (x.shape, x.shape[:-1]):
        return None
    return [f"{call.shown(scores)} returned shape {got.shape} for scores of shape {x.shape}."]


def _kind(call, scores):
    scores, got = call(scores)
    if type(got) is np.ndarray and got.dtype.kind in "fc":
        return None
    if isinstance(got, _Raised) or got is None:
        return None
    what = f"an array of dtype {got.dtype}" if type(got) is np.ndarray else f"a {type(got).__name__}"
    return [f"{call.shown(scores)} returned {what}: {_shown(got)}."]


def _same_shape(x, got, expected) -> bool:
    return expected.shape == x.shape


JUDGES = (
    Judge(
        frozenset({"extremes", "value"}),
        "finite scores give a finite answer, never nan or inf.",
        _not_finite_where_expected,
        _finite,
        "find the step that makes inf or nan (an exp that overflows, 0 / 0) and reorder the computation so that "
        "no step leaves the finite range.",
    ),
    Judge(
        frozenset({"dtype", "returns_array"}),
        "the answer is a NumPy array of floats.",
        lambda x, got, expected: expected.dtype.kind == "f" and (type(got) is not np.ndarray or got.dtype.kind != "f"),
        _kind,
        "return a float NumPy array: make one of the scores before you compute (`np.asarray` and its `dtype` "
        "argument), and do not turn the answer into a list.",
    ),
    Judge(
        frozenset({"shapes"}),
        "the answer has the scores' shape, every row on its own.",
        lambda x, got, expected: _same_shape(x, got, expected) and type(got) is np.ndarray and got.shape != x.shape,
        _shape,
        "reduce along the last axis only, keeping it (the `keepdims` argument), so the answer keeps the scores' shape.",
    ),
    Judge(
        frozenset({"value"}),
        "the weights of each row sum to 1.",
        lambda x, got, expected: np.shape(got) == expected.shape and _weights(expected),
        _rows_sum,
        "divide each row by its own total, computed from the same numbers you divide.",
    ),
    Judge(
        frozenset({"value"}),
        "the exp of each row's log-weights sums to 1.",
        lambda x, got, expected: np.shape(got) == expected.shape and _log_weights(expected),
        lambda call, scores: _rows_sum(call, scores, log=True),
        "subtract from each row its own log-sum-exp, computed from that row alone along the last axis, kept with "
        "length 1.",
    ),
    Judge(
        frozenset({"rows", "per_row", "compete"}),
        "each row is computed from itself alone: the other rows change nothing in it.",
        lambda x, got, expected: x.ndim >= 2,
        _row_alone,
        "compute every total or max per row, along the last axis, never over the whole array.",
    ),
    Judge(
        frozenset({"shift"}),
        "adding one number to every score of a row leaves its weights as they were.",
        lambda x, got, expected: _weights(expected),
        _shifted,
        "only the differences between a row's scores may matter: build each weight from how far its score is "
        "below the row's max (lesson 05), and nothing else of the scores.",
    ),
    Judge(
        frozenset({"shift"}),
        "adding one number to every score of a row leaves its answer as it was (or moves it by that number).",
        lambda x, got, expected: not _weights(expected),
        _shifted,
        "only the differences between a row's scores may matter: subtract the row's own max, never a fixed "
        "number, and scale nothing.",
    ),
    Judge(
        frozenset({"compete"}),
        "raising one score raises its own weight and lowers every other weight of its row.",
        lambda x, got, expected: True,
        _compete,
        "the weights must grow with the scores: exponentiate (or otherwise increase with) each score before "
        "dividing by the row's total.",
    ),
    Judge(
        frozenset({"permutation"}),
        "reordering the scores of a row reorders its answer the same way.",
        lambda x, got, expected: True,
        _permuted,
        "treat every position of a row alike: no special first or last score.",
    ),
)


def _not_a_mask(call, first, got, expected, promised) -> Broken | None:
    """A mask expected (a boolean array) and numbers given: shown on the failing call itself, whatever its input."""
    expected = np.asarray(expected)
    if "dtype" not in promised or expected.dtype.kind != "b" or expected.ndim == 0:
        return None
    if type(got) is np.ndarray and got.dtype.kind == "b":
        return None
    what = f"an array of dtype {got.dtype}" if type(got) is np.ndarray else f"a {type(got).__name__}"
    return Broken(
        "dtype",
        "the answer is a boolean NumPy array, True where a position may be looked at.",
        [f"{call.shown(first)} returned {what}."],
        "build the mask from comparisons (`<=`, `<`, `==`), which give booleans, not from numbers such as 0 and -inf.",
    )


MINUS_INF_PROPERTIES = ("masked", "minus_inf", "neg_inf")  # the contract ids that promise what -inf scores give


def _not_finite_here(call, first, got, expected, promised) -> Broken | None:
    """nan or inf where the expected answer of the failing call itself is finite, whatever its input (chunks of a
    stream too): named as the property about -inf scores when the input holds them beside moderate ones (under 700
    in size, where no exp overflows), else as `extremes`."""
    value, right = _array(got), np.asarray(expected)
    if value is None or right.dtype.kind != "f" or value.shape != right.shape or not np.all(np.isfinite(right)):
        return None
    bad = ~np.isfinite(value)
    if not bad.any():
        return None
    scores = _all_scores(first)
    finite = scores[np.isfinite(scores)] if scores is not None else np.array([np.inf])
    moderate = finite.size == 0 or float(np.abs(finite).max()) < 700
    minus_inf = scores is not None and bool(np.isneginf(scores).any())
    wanted = (*MINUS_INF_PROPERTIES, "extremes") if minus_inf and moderate else ("extremes",)
    pid = next((p for p in wanted if p in promised), None)
    if pid is None:
        return None
    where = tuple(int(i) for i in np.argwhere(bad)[0])
    promise = (
        "a score of -inf gets weight 0 and changes nothing else: the answer stays finite."
        if pid in MINUS_INF_PROPERTIES
        else "scores of any finite size, and -inf beside finite ones, give a finite answer."
    )
    hint = (
        "find the step that makes nan (-inf - -inf, 0 / 0) and let a row or a chunk that holds no finite score "
        "yet add nothing instead."
        if minus_inf and moderate
        else "find the step that leaves the finite range (an exp that overflows, inf - inf, 0 / 0): shift each row "
        "by its own max before exp."
    )
    shown = [f"{call.shown(first)} returned {value[where]} at index {where}, where {right[where]:g} is right."]
    return Broken(pid, promise, shown, hint)


def _all_scores(first) -> np.ndarray | None:
    """Every score of the input as one flat float array: an array's, a list's, or a stream's chunks'."""
    first = getattr(first, "chunks", first)
    try:
        return np.asarray(first, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        pass
    try:
        return np.concatenate([np.asarray(chunk, dtype=float).reshape(-1) for chunk in first])
    except (TypeError, ValueError):
        return None


def broken(fn, args, kwargs, got, expected, promised=None) -> Broken | None:
    """The first property of `fn`'s contract (`promised`: its ids, by default the course's for its name) that
    the wrong answer `got` (`expected` was right) breaks, shown on the smallest input found; or None."""
    name = getattr(fn, "__name__", None)
    promised = set(promised if promised is not None else contracts.PROPERTIES.get(str(name), ()))
    if not promised or not args:
        return None
    not_a_mask = _not_a_mask(Call(fn, args, kwargs, name), args[0], got, expected, promised)
    if not_a_mask is not None:
        return not_a_mask
    found = _searched(fn, args, kwargs, got, expected, promised, name)
    return (
        found if found is not None else _not_finite_here(Call(fn, args, kwargs, name), args[0], got, expected, promised)
    )


def _searched(fn, args, kwargs, got, expected, promised, name) -> Broken | None:
    """The first property JUDGES find broken, on the smallest of the candidate inputs it shows."""
    try:
        x = np.asarray(args[0])
        expected = np.asarray(expected)
    except Exception:  # scores of a kind no property here is judged on (chunks of a stream, say)
        return None
    if x.dtype.kind not in "iuf" or x.ndim < 1 or expected.dtype.kind not in "iufb":
        return None
    call = Call(fn, args, kwargs, name)
    rows_only = any(isinstance(a, (np.ndarray, list, tuple)) for a in [*args[1:], *kwargs.values()])
    tried = candidates(args[0], rows_only)
    for judge in JUDGES:
        try:
            if not judge.ids & promised or not judge.fits(x.astype(float), got, expected):
                continue
        except Exception:  # an answer of an unexpected kind: this property is not the one it breaks
            continue
        for candidate in tried:
            try:
                evidence = judge.evidence(call, candidate)
            except Exception:  # a candidate this property cannot be judged on
                evidence = None
            if evidence:
                ids = sorted(judge.ids & promised)
                return Broken(", ".join(ids), judge.promise, evidence, judge.hint)
    return None
