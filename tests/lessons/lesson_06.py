"""Lesson 06_masking: printed numbers and known-wrong implementations."""
from tests.lessons import Wrong

NUMBERS = [
    "forbidden score set to 0:    [0.3072 0.5065 0.1863]",
    "forbidden score set to -inf: [0.3775 0.6225 0.0000]",
    "exp(0) = 1.0 | exp(-inf) = 0.0",
    "the allowed pair on its own: [0.3775 0.6225]",
    "forbidden score set to 0:    [0.0420 0.1142 0.8438]",
    "every score -inf: [nan nan nan]",
    "every score -1e9: [0.3333 0.3333 0.3333]",
    "ValueError: row 1 has no allowed choice",
    "allowed in the causal mask: 21 of 36",
    "allowed in the padding mask: 11 of 18",
    "scores of 'journey' (row 1): [0.9544 1.4950 1.4754 0.8434 0.7070 1.0865]",
    "its weights with no mask (lesson 03): [0.1385 0.2379 0.2333 0.1240 0.1082 0.1581]",
    "[[1.0000 0.0000 0.0000 0.0000 0.0000 0.0000]\n [0.3680 0.6320 0.0000 0.0000 0.0000 0.0000]",
    " [0.1385 0.2184 0.2128 0.1420 0.0988 0.1896]]",
    "row sums: [1.0000 1.0000 1.0000 1.0000 1.0000 1.0000]",
    "ValueError: row 0 has no allowed choice",
]

_MS = "test_masked_softmax_"

WRONG = [
    # masked_softmax
    Wrong("mask_with_zero", "masked_softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    x = np.where(mask, np.asarray(scores, dtype=float) / temperature, 0.0)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''', (_MS + "public", _MS + "rows"), "exp(0) = 1"),
    Wrong("multiplies_scores_by_mask", "masked_softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    return stable_softmax(np.asarray(scores, dtype=float) * mask / temperature)
''', (_MS + "public", _MS + "rows"), "scores multiplied by the mask"),
    Wrong("large_negative_fill", "masked_softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    x = np.where(mask, x, -1e9)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''', (_MS + "no_allowed_choice",), "large finite negative number"),
    Wrong("inverted_polarity", "masked_softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    if np.all(mask, axis=-1).any():
        raise ValueError("a row has no allowed choice")
    return stable_softmax(np.where(mask, -np.inf, x))
''', (_MS + "public", _MS + "rows"), "True = forbidden"),
    Wrong("nan_for_empty_row", "masked_softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    x = np.where(mask, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
''', (_MS + "no_allowed_choice",), "returned nan for a row with no allowed choice"),
    Wrong("checks_whole_mask_only", "masked_softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    if not np.any(mask):
        raise ValueError("nothing is allowed")
    x = np.where(mask, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
''', (_MS + "no_allowed_choice",), "not just the whole mask"),
    Wrong("asserts_instead_of_value_error", "masked_softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    assert allowed.any(axis=-1).all(), "a row has no allowed choice"
    x = np.where(allowed, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
''', (_MS + "no_allowed_choice",), "expected ValueError"),
    Wrong("global_max", "masked_softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - x.max())
    return e / e.sum(axis=-1, keepdims=True)
''', (_MS + "stable",), "global max"),
    Wrong("no_shift", "masked_softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    e = np.exp(np.asarray(scores, dtype=float) / temperature) * allowed
    return e / e.sum(axis=-1, keepdims=True)
''', (_MS + "stable",), "did not shift the scores"),
    Wrong("zeroes_after_softmax", "masked_softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    return stable_softmax(np.asarray(scores, dtype=float) / temperature) * allowed
''', (_MS + "public", _MS + "rows"), "without renormalising"),
    Wrong("masks_in_place", "masked_softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float)
    allowed = np.broadcast_to(mask, x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x[~allowed] = -np.inf
    return stable_softmax(x / temperature)
''', (_MS + "public",), "changed its input in place"),
    Wrong("ignores_temperature", "masked_softmax", '''
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    return stable_softmax(np.where(allowed, scores, -np.inf))
''', (_MS + "temperature_and_inputs",), "ignored the temperature"),
    # causal_mask
    Wrong("causal_triu", "causal_mask", '''
def causal_mask(n):
    return np.triu(np.ones((n, n), dtype=bool))
''', ("test_causal_mask_public", "test_causal_mask_sizes"), "np.triu"),
    Wrong("causal_no_diagonal", "causal_mask", '''
def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool), k=-1)
''', ("test_causal_mask_public", "test_causal_mask_sizes"), "left out the diagonal"),
    Wrong("causal_inverted", "causal_mask", '''
def causal_mask(n):
    rows, cols = np.indices((n, n))
    return cols > rows
''', ("test_causal_mask_public", "test_causal_mask_sizes"), "True = forbidden"),
    Wrong("causal_floats", "causal_mask", '''
def causal_mask(n):
    return np.tril(np.ones((n, n)))
''', ("test_causal_mask_public", "test_causal_mask_sizes"), "0/1 numbers instead of booleans"),
    # padding_mask
    Wrong("padding_less_or_equal", "padding_mask", '''
def padding_mask(lengths, n):
    return np.arange(n) <= np.asarray(lengths)[:, None]
''', ("test_padding_mask_public", "test_padding_mask_batches"), "used <= instead of <"),
    Wrong("padding_inverted", "padding_mask", '''
def padding_mask(lengths, n):
    return np.array([[position >= length for position in range(n)] for length in lengths])
''', ("test_padding_mask_public", "test_padding_mask_batches"), "True = padding"),
    Wrong("padding_transposed", "padding_mask", '''
def padding_mask(lengths, n):
    return np.arange(n)[:, None] < np.asarray(lengths)
''', ("test_padding_mask_public", "test_padding_mask_batches"), "transposed"),
    Wrong("padding_ints", "padding_mask", '''
def padding_mask(lengths, n):
    mask = np.zeros((len(lengths), n), dtype=int)
    for row, length in enumerate(lengths):
        mask[row, :length] = 1
    return mask
''', ("test_padding_mask_public", "test_padding_mask_batches"), "0/1 numbers instead of booleans"),
]
