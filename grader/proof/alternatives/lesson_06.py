"""Lesson 06_masking: correct alternatives, and the mutants equivalent to the reference."""

from grader.proof.alternatives import Alternative

LESSON = "06_masking"

ALTERNATIVES = [
    Alternative(
        "masked_loop_over_rows",
        "masked_softmax",
        "loops over the rows of a 2-D view, one row at a time",
        """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(mask, x.shape).reshape(-1, x.shape[-1])
    rows = x.reshape(-1, x.shape[-1])
    out = np.zeros_like(rows)
    for i in range(len(rows)):
        if not allowed[i].any():
            raise ValueError(f"row {i} has no allowed choice")
        kept = rows[i][allowed[i]]
        e = np.exp(kept - kept.max())
        out[i][allowed[i]] = e / e.sum()
    return out.reshape(x.shape)
""",
    ),
    Alternative(
        "masked_log_sum_exp",
        "masked_softmax",
        "exp(x - logsumexp(x)) over the allowed scores",
        """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(mask, x.shape)
    if not np.all(np.any(allowed, axis=-1)):
        raise ValueError("some row has no allowed choice")
    x = np.where(allowed, x, -np.inf)
    top = np.max(x, axis=-1, keepdims=True)
    log_total = top + np.log(np.sum(np.exp(x - top), axis=-1, keepdims=True))
    return np.exp(x - log_total)
""",
    ),
    Alternative(
        "masked_value_error_subclass",
        "masked_softmax",
        "multiplies exp by the mask and raises its own ValueError subclass",
        """
class EmptyRowError(ValueError):
    pass


def masked_softmax(scores, mask, temperature=1.0):
    x = np.array(scores, dtype=float) / temperature
    allowed = np.broadcast_to(np.asarray(mask, dtype=bool), x.shape)
    empty = ~allowed.any(axis=-1)
    if empty.any():
        raise EmptyRowError(f"rows {np.argwhere(np.atleast_1d(empty)).tolist()} allow nothing")
    x[~allowed] = -np.inf
    e = np.exp(x - x.max(axis=-1, keepdims=True)) * allowed
    return e / e.sum(axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "causal_comparison",
        "causal_mask",
        "compares column and row indices",
        """
def causal_mask(n):
    rows, cols = np.indices((n, n))
    return cols <= rows
""",
    ),
    Alternative(
        "causal_nested_loops",
        "causal_mask",
        "fills a boolean array with two loops",
        """
def causal_mask(n):
    mask = np.zeros((n, n), dtype=bool)
    for i in range(n):
        for j in range(i + 1):
            mask[i, j] = True
    return mask
""",
    ),
    Alternative(
        "padding_loop_over_lengths",
        "padding_mask",
        "builds one row per length with a loop",
        """
def padding_mask(lengths, n):
    return np.array([[position < length for position in range(n)] for length in lengths], dtype=bool).reshape(-1, n)
""",
    ),
    Alternative(
        "padding_outer_compare",
        "padding_mask",
        "np.less.outer of positions and lengths, transposed",
        """
def padding_mask(lengths, n):
    return np.less.outer(np.arange(n), np.asarray(lengths)).T
""",
    ),
    Alternative(
        "masked_additive_minus_inf",
        "masked_softmax",
        "adds 0 to allowed and -inf to forbidden scores, then a stable softmax",
        """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(np.asarray(mask, dtype=bool), x.shape)
    if (~allowed).all(axis=-1).any():
        raise ValueError("a row allows no choice")
    x = x + np.where(allowed, 0.0, -np.inf)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "masked_nan_means_empty_row",
        "masked_softmax",
        "fills with -inf, computes quietly, and raises ValueError for a row that came out nan",
        """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.where(mask, np.asarray(scores, dtype=float) / temperature, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        weights = e / e.sum(axis=-1, keepdims=True)
    if np.isnan(weights).any():
        raise ValueError("a row has no allowed choice")
    return weights
""",
    ),
    Alternative(
        "masked_logaddexp",
        "masked_softmax",
        "exp(x - log-sum-exp) over the allowed scores, the log-sum-exp by np.logaddexp.reduce",
        """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(mask, x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("every row needs an allowed choice")
    x = np.where(allowed, x, -np.inf)
    return np.exp(x - np.logaddexp.reduce(x, axis=-1, keepdims=True))
""",
    ),
    Alternative(
        "masked_math_exp_lists",
        "masked_softmax",
        "math.exp over the allowed scores of each row in Python lists, one array at the end",
        """
import math

def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float)
    allowed = np.broadcast_to(np.asarray(mask, dtype=bool), x.shape)
    rows, out = x.reshape(-1, x.shape[-1]).tolist(), []
    for i, (row, keep) in enumerate(zip(rows, allowed.reshape(-1, x.shape[-1]).tolist())):
        kept = [s / temperature for s, k in zip(row, keep) if k]
        if not kept:
            raise ValueError(f"row {i} has no allowed choice")
        top = max(kept)
        total = sum(math.exp(v - top) for v in kept)
        out.append([math.exp(s / temperature - top) / total if k else 0.0 for s, k in zip(row, keep)])
    return np.array(out, dtype=float).reshape(x.shape)
""",
    ),
    Alternative(
        "masked_copyto_fill",
        "masked_softmax",
        "a -inf array filled with the allowed scores by np.copyto(..., where=mask)",
        """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(np.asarray(mask, dtype=bool), x.shape)
    for index in np.ndindex(x.shape[:-1]):
        if not allowed[index].any():
            raise ValueError(f"row {index} has no allowed choice")
    filled = np.full(x.shape, -np.inf)
    np.copyto(filled, x, where=allowed)
    evidence = np.exp(filled - filled.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "masked_keeps_float32",
        "masked_softmax",
        "keeps float32 scores in float32 (lesson 05's dtype rule) and converts only non-float input",
        """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    x = x / temperature
    allowed = np.broadcast_to(np.asarray(mask, dtype=bool), x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, x, -np.inf)
    evidence = np.exp(x - x.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "causal_tri",
        "causal_mask",
        "np.tri with a boolean dtype",
        """
def causal_mask(n):
    return np.tri(n, dtype=bool)
""",
    ),
    Alternative(
        "causal_outer_comparison",
        "causal_mask",
        "np.greater_equal.outer of row and column indices",
        """
def causal_mask(n):
    positions = np.arange(n)
    return np.greater_equal.outer(positions, positions)
""",
    ),
    Alternative(
        "causal_not_upper",
        "causal_mask",
        "the complement of the strict upper triangle",
        """
def causal_mask(n):
    return ~np.triu(np.ones((n, n), dtype=bool), k=1)
""",
    ),
    Alternative(
        "padding_rows_of_a_triangle",
        "padding_mask",
        "picks, for each length L, row L of a (n + 1, n) table that is True below the diagonal",
        """
def padding_mask(lengths, n):
    return np.tri(n + 1, n, -1, dtype=bool)[np.asarray(lengths)]
""",
    ),
    Alternative(
        "padding_fill_loop",
        "padding_mask",
        "a False array with each row's first L entries set True",
        """
def padding_mask(lengths, n):
    mask = np.zeros((len(lengths), n), dtype=bool)
    for row, length in enumerate(lengths):
        mask[row, :length] = True
    return mask
""",
    ),
]

# Mechanical mutants of the reference that compute the same thing for every valid input (see grader.proof.mutate).
EQUIVALENT_MUTANTS = {
    "masked_softmax:minus-1:2": "empty_rows[-1] instead of empty_rows[0] names the last empty row instead of the "
    "first in the ValueError's message; the tests check the exception's type, never its "
    "text",
    "masked_softmax:no-cast:1": "without dtype=float, float32 scores stay float32, which the contract allows (a float "
    "array), and integer or list scores still become float64 through `/ temperature`",
    "masked_softmax:no-cast:2": "the mask is boolean by the contract, so np.asarray(mask) already has dtype bool",
}
