"""Lesson 06_masking: the source of each catalogued misconception, by id (its description, hint and probes
are in grader/learner/hints/)."""

LESSON = "06_masking"

SOURCES = {
    "masked_with_zero": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.where(mask, np.asarray(scores, dtype=float) / temperature, 0.0)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_multiplies_scores_by_mask": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) * mask / temperature
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_large_negative_fill": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.where(mask, np.asarray(scores, dtype=float) / temperature, -1e9)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_inverted_polarity": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    if np.all(mask, axis=-1).any():
        raise ValueError("a row has no allowed choice")
    x = np.where(mask, -np.inf, x)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_nan_for_empty_row": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.where(mask, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
""",
    "masked_checks_whole_mask_only": """
def masked_softmax(scores, mask, temperature=1.0):
    if not np.any(mask):
        raise ValueError("nothing is allowed")
    x = np.where(mask, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
""",
    "masked_asserts_instead_of_value_error": """
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    assert allowed.any(axis=-1).all(), "a row has no allowed choice"
    x = np.where(allowed, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
""",
    "masked_global_max": """
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - x.max())
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_no_shift": """
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    e = np.exp(np.asarray(scores, dtype=float) / temperature) * allowed
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_zeroes_after_softmax": """
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.asarray(scores, dtype=float) / temperature
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) * allowed
""",
    "masked_whole_array_sum": """
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, np.asarray(scores, dtype=float) / temperature, -np.inf)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum()
""",
    "masked_in_place": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float)
    allowed = np.broadcast_to(mask, x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x[~allowed] = -np.inf
    x = x / temperature
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_ignores_temperature": """
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, np.asarray(scores, dtype=float), -np.inf)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_multiplies_by_temperature": """
def masked_softmax(scores, mask, temperature=1.0):
    allowed = np.broadcast_to(mask, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, np.asarray(scores, dtype=float) * temperature, -np.inf)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_checked_large_negative_fill": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(mask, x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, x, -1e9)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_adds_large_negative": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(mask, x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = x + np.where(allowed, 0.0, -1e9)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_renormalises_after_softmax": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(mask, x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    kept = e * allowed
    return kept / kept.sum(axis=-1, keepdims=True)
""",
    "masked_exp_before_where": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(mask, x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    top = np.where(allowed, x, -np.inf).max(axis=-1, keepdims=True)
    e = np.where(allowed, np.exp(x - top), 0.0)
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_finfo_min_fill": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(mask, x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, x, np.finfo(float).min)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_shift_by_first_score": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(mask, x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, x, -np.inf)
    e = np.exp(x - x[..., :1])
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_boolean_index_needs_full_mask": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.array(scores, dtype=float) / temperature
    mask = np.asarray(mask, dtype=bool)
    if not np.broadcast_to(mask, x.shape).any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x[~mask] = -np.inf
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_squeezes": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.squeeze(np.asarray(scores, dtype=float)) / temperature
    allowed = np.broadcast_to(np.squeeze(np.asarray(mask, dtype=bool)), x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x = np.where(allowed, x, -np.inf)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_int_copy_cannot_hold_inf": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.array(scores)
    allowed = np.broadcast_to(mask, x.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed choice")
    x[~allowed] = -np.inf
    x = x / temperature
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "masked_raises_runtime_error": """
def masked_softmax(scores, mask, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(mask, x.shape)
    if not allowed.any(axis=-1).all():
        raise RuntimeError("a row has no allowed choice")
    x = np.where(allowed, x, -np.inf)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "causal_triu": """
def causal_mask(n):
    return np.triu(np.ones((n, n), dtype=bool))
""",
    "causal_no_diagonal": """
def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool), k=-1)
""",
    "causal_inverted": """
def causal_mask(n):
    rows, cols = np.indices((n, n))
    return cols > rows
""",
    "causal_floats": """
def causal_mask(n):
    return np.tril(np.ones((n, n)))
""",
    "causal_counts_down_in_place": """
def causal_mask(n):
    mask = np.zeros((n, n), dtype=bool)
    while n > 0:
        n -= 1
        mask[n, :n + 1] = True
    return mask
""",
    "causal_precomputed_512": """
_CAUSAL_512 = np.tril(np.ones((512, 512), dtype=bool))


def causal_mask(n):
    return _CAUSAL_512[:n, :n].copy()
""",
    "causal_returns_lists": """
def causal_mask(n):
    return [[column <= row for column in range(n)] for row in range(n)]
""",
    "padding_less_or_equal": """
def padding_mask(lengths, n):
    return np.arange(n) <= np.asarray(lengths)[:, None]
""",
    "padding_inverted": """
def padding_mask(lengths, n):
    return np.array([[position >= length for position in range(n)] for length in lengths])
""",
    "padding_transposed": """
def padding_mask(lengths, n):
    return np.arange(n)[:, None] < np.asarray(lengths)
""",
    "padding_ints": """
def padding_mask(lengths, n):
    mask = np.zeros((len(lengths), n), dtype=int)
    for row, length in enumerate(lengths):
        mask[row, :length] = 1
    return mask
""",
    "padding_last_index_in_place": """
def padding_mask(lengths, n):
    last = np.asarray(lengths)
    last -= 1
    return np.arange(n) <= last[:, None]
""",
    "padding_width_from_longest": """
def padding_mask(lengths, n):
    lengths = np.asarray(lengths)
    return np.arange(lengths.max()) < lengths[:, None]
""",
    "padding_needs_array": """
def padding_mask(lengths, n):
    return np.arange(n) < lengths[:, None]
""",
}
