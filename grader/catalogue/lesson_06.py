"""Lesson 06_masking: misconceptions and correct alternatives."""
from grader.catalogue import Alternative, Misconception

LESSON = "06_masking"

MISCONCEPTIONS = [
    # masked_softmax
    Misconception(
        "masked_with_zero", "masked_softmax",
        "gave forbidden choices a score of 0: exp(0) = 1, so they still take weight",
        "put -np.inf where the mask is False, so their evidence is exactly 0", '''
def masked_softmax(scores, mask, temperature=1.0):
    x = np.where(mask, np.asarray(scores, dtype=float) / temperature, 0.0)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "masked_multiplies_scores_by_mask", "masked_softmax",
        "multiplied the scores by the mask: False counts as a score of 0, and exp(0) = 1 still takes weight",
        "put -np.inf where the mask is False instead of multiplying", '''
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) * mask / temperature
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "masked_large_negative_fill", "masked_softmax",
        "filled forbidden scores with a large finite negative number (like -1e9), so a row with every "
        "choice forbidden silently comes back uniform",
        "fill with -np.inf, and raise ValueError for a row with no allowed choice", '''
def masked_softmax(scores, mask, temperature=1.0):
    x = np.where(mask, np.asarray(scores, dtype=float) / temperature, -1e9)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "masked_inverted_polarity", "masked_softmax",
        "inverted the mask (treated True as forbidden); here True means allowed",
        "keep the scores where the mask is True", '''
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    if np.all(mask, axis=-1).any():
        raise ValueError("a row has no allowed choice")
    x = np.where(mask, -np.inf, x)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "masked_nan_for_empty_row", "masked_softmax",
        "returned nan for a row with no allowed choice: -inf - (-inf) is nan, not an answer",
        "check every row with .any(axis=-1) and raise ValueError naming the row", '''
def masked_softmax(scores, mask, temperature=1.0):
    x = np.where(mask, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
'''),
    Misconception(
        "masked_checks_whole_mask_only", "masked_softmax",
        "checked only whether the whole mask allows something, not every row",
        "check each row: np.broadcast_to(mask, x.shape).any(axis=-1) must be True everywhere", '''
def masked_softmax(scores, mask, temperature=1.0):
    if not np.any(mask):
        raise ValueError("nothing is allowed")
    x = np.where(mask, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
'''),
    Misconception(
        "masked_asserts_instead_of_value_error", "masked_softmax",
        "used assert for a row with no allowed choice: that raises AssertionError (and vanishes under "
        "python -O), not ValueError",
        "raise ValueError(...) explicitly", '''
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    assert allowed.any(axis=-1).all(), "a row has no allowed choice"
    x = np.where(allowed, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
'''),
    Misconception(
        "masked_global_max", "masked_softmax",
        "subtracted the global max of the whole array instead of each row's own max",
        "take the max over the last axis: x.max(axis=-1, keepdims=True)", '''
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - x.max())
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "masked_no_shift", "masked_softmax",
        "did not shift the scores before exp: exp(1000) overflows to inf and exp(-1000) underflows to 0",
        "subtract each row's max over the allowed scores before exp", '''
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    e = np.exp(np.asarray(scores, dtype=float) / temperature) * allowed
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "masked_zeroes_after_softmax", "masked_softmax",
        "zeroed the forbidden weights after the softmax without renormalising, so the row no longer sums to 1",
        "remove forbidden choices before exp, so the allowed ones share all of the weight", '''
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.asarray(scores, dtype=float) / temperature
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) * allowed
'''),
    Misconception(
        "masked_whole_array_sum", "masked_softmax",
        "normalised over the whole array instead of each row",
        "sum over the last axis only (axis=-1, keepdims=True)", '''
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum()
'''),
    Misconception(
        "masked_in_place", "masked_softmax",
        "wrote -inf into the caller's scores array (x[~mask] = -inf on the input itself)",
        "copy first (np.array(scores, dtype=float) makes a new array) or use np.where, which returns a new one", '''
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float)
    allowed = np.broadcast_to(mask, x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x[~allowed] = -np.inf
    x = x / temperature
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "masked_ignores_temperature", "masked_softmax",
        "ignored the temperature",
        "divide the scores by temperature before the softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, np.asarray(scores, dtype=float), -np.inf)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "masked_multiplies_by_temperature", "masked_softmax",
        "multiplied the scores by the temperature instead of dividing",
        "divide the scores by temperature: T < 1 sharpens, T > 1 flattens", '''
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, np.asarray(scores, dtype=float) * temperature, -np.inf)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    # causal_mask
    Misconception(
        "causal_triu", "causal_mask",
        "used np.triu: that is the transpose, where each token sees itself and the future",
        "a token may see columns j <= i: the lower triangle, np.tril", '''
def causal_mask(n):
    return np.triu(np.ones((n, n), dtype=bool))
'''),
    Misconception(
        "causal_no_diagonal", "causal_mask",
        "left out the diagonal: a token must be allowed to attend to itself",
        "keep the diagonal: column <= row, not column < row", '''
def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool), k=-1)
'''),
    Misconception(
        "causal_inverted", "causal_mask",
        "inverted the causal mask (True = forbidden); here True means allowed",
        "True where column <= row", '''
def causal_mask(n):
    rows, cols = np.indices((n, n))
    return cols > rows
'''),
    Misconception(
        "causal_floats", "causal_mask",
        "returned 0/1 numbers instead of booleans",
        "build it with dtype=bool (or from comparisons, which give booleans)", '''
def causal_mask(n):
    return np.tril(np.ones((n, n)))
'''),
    # padding_mask
    Misconception(
        "padding_less_or_equal", "padding_mask",
        "used <= instead of <: a sequence of length L has positions 0 to L - 1",
        "True where position < length", '''
def padding_mask(lengths, n):
    return np.arange(n) <= np.asarray(lengths)[:, None]
'''),
    Misconception(
        "padding_inverted", "padding_mask",
        "inverted the padding mask (True = padding); here True means allowed",
        "True where position < length", '''
def padding_mask(lengths, n):
    return np.array([[position >= length for position in range(n)] for length in lengths])
'''),
    Misconception(
        "padding_transposed", "padding_mask",
        "transposed the result: the shape must be (len(lengths), n), one row per sequence",
        "put the sequences on the rows and the positions on the columns", '''
def padding_mask(lengths, n):
    return np.arange(n)[:, None] < np.asarray(lengths)
'''),
    Misconception(
        "padding_ints", "padding_mask",
        "returned 0/1 numbers instead of booleans",
        "compare positions with lengths: comparisons give booleans", '''
def padding_mask(lengths, n):
    mask = np.zeros((len(lengths), n), dtype=int)
    for row, length in enumerate(lengths):
        mask[row, :length] = 1
    return mask
'''),
]

ALTERNATIVES = [
    Alternative("masked_loop_over_rows", "masked_softmax", "loops over the rows of a 2-D view, one row at a time", '''
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
'''),
    Alternative("masked_log_sum_exp", "masked_softmax", "exp(x - logsumexp(x)) over the allowed scores", '''
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(mask, x.shape)
    if not np.all(np.any(allowed, axis=-1)):
        raise ValueError("some row has no allowed choice")
    x = np.where(allowed, x, -np.inf)
    top = np.max(x, axis=-1, keepdims=True)
    log_total = top + np.log(np.sum(np.exp(x - top), axis=-1, keepdims=True))
    return np.exp(x - log_total)
'''),
    Alternative("masked_value_error_subclass", "masked_softmax",
                "multiplies exp by the mask and raises its own ValueError subclass", '''
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
'''),
    Alternative("causal_comparison", "causal_mask", "compares column and row indices", '''
def causal_mask(n):
    rows, cols = np.indices((n, n))
    return cols <= rows
'''),
    Alternative("causal_nested_loops", "causal_mask", "fills a boolean array with two loops", '''
def causal_mask(n):
    mask = np.zeros((n, n), dtype=bool)
    for i in range(n):
        for j in range(i + 1):
            mask[i, j] = True
    return mask
'''),
    Alternative("padding_loop_over_lengths", "padding_mask", "builds one row per length with a loop", '''
def padding_mask(lengths, n):
    return np.array([[position < length for position in range(n)] for length in lengths], dtype=bool).reshape(-1, n)
'''),
    Alternative("padding_outer_compare", "padding_mask", "np.less.outer of positions and lengths, transposed", '''
def padding_mask(lengths, n):
    return np.less.outer(np.arange(n), np.asarray(lengths)).T
'''),
]
