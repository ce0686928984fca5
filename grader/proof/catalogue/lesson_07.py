"""Lesson 07_attention: the source of each catalogued misconception, by id (its description, hint and probes
are in grader/learner/hints/)."""

LESSON = "07_attention"

SOURCES = {
    "aw_no_scaling": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_scales_by_d_k": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / k.shape[-1]
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_scales_by_num_keys": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(len(k))
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_always_scales": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_scales_weights_after_softmax": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights / np.sqrt(k.shape[-1]) if scale else weights
""",
    "aw_softmax_over_queries": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=0))
    return e / e.sum(axis=0)
""",
    "aw_keys_not_transposed": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_mask_with_zero": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        scores = scores * mask
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_inverted_mask": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        forbidden = np.broadcast_to(mask, scores.shape)
        if forbidden.all(axis=-1).any():
            raise ValueError("a query has no allowed key")
        scores = np.where(forbidden, -np.inf, scores)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_ignores_mask": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_zeroes_after_softmax": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) * allowed
""",
    "aw_large_negative_fill": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_nan_for_empty_row": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_no_max_shift": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    e = np.exp(scores) * allowed
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_scales_queries_in_place": """
def attention_weights(queries, keys, mask=None, scale=True):
    import math
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    if scale:
        q /= math.sqrt(k.shape[-1])
    scores = q @ k.T
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_fails_on_lists": """
def attention_weights(queries, keys, mask=None, scale=True):
    scores = queries @ keys.T
    if scale:
        scores = scores / np.sqrt(keys.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_global_max": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max())
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_clips_scores": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    e = np.where(allowed, np.exp(np.clip(scores, -500, 500)), 0.0)
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_mask_after_exp": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    e = np.exp(scores - scores.max(axis=-1, keepdims=True)) * allowed
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_additive_mask": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        scores = scores + np.where(mask, 0.0, -1e9)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_exp_before_where": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    top = np.where(allowed, scores, -np.inf).max(axis=-1, keepdims=True)
    e = np.where(allowed, np.exp(scores - top), 0.0)
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_log_mask": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = scores + np.log(allowed)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_checks_whole_mask": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        if not np.any(mask):
            raise ValueError("the mask allows no key")
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_squeezes_result": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return np.squeeze(e / e.sum(axis=-1, keepdims=True))
""",
    "aw_mask_by_boolean_index": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if not np.broadcast_to(mask, scores.shape).any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores[~mask] = -np.inf
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_mask_row_per_query": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    rows = []
    for i in range(len(scores)):
        row = np.where(allowed[i], scores[i], -np.inf)
        if np.all(row == -np.inf):
            raise ValueError(f"query {i} has no allowed key")
        e = np.exp(row - row.max())
        rows.append(e / e.sum())
    return np.array(rows)
""",
    "aw_default_mask_square": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is None:
        mask = np.ones((len(q), len(q)), dtype=bool)
    allowed = np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_float32_everywhere": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=np.float32)
    k = np.asarray(keys, dtype=np.float32)
    scores = q @ k.T
    if scale:
        scores = scores / np.float32(np.sqrt(k.shape[-1]))
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, np.float32(-np.inf))
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "aw_returns_list": """
def attention_weights(queries, keys, mask=None, scale=True):
    import math
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), (len(q), len(k)))
    rows = []
    for i in range(len(q)):
        scores = [float(q[i] @ k[j]) / (math.sqrt(k.shape[-1]) if scale else 1.0) for j in range(len(k))]
        kept = [s for s, ok in zip(scores, allowed[i]) if ok]
        if not kept:
            raise ValueError(f"query {i} may attend to no key")
        top = max(kept)
        evidence = [math.exp(s - top) if ok else 0.0 for s, ok in zip(scores, allowed[i])]
        rows.append([e / sum(evidence) for e in evidence])
    return rows
""",
    "aw_power_of_weights": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    if scale:
        weights = weights ** (1 / np.sqrt(k.shape[-1]))
        weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights
""",
    "aw_passes_none_mask": """
def attention_weights(queries, keys, mask=None, scale=True):
    def masked_softmax(scores, mask, temperature=1.0):
        x = np.asarray(scores, dtype=float) / temperature
        allowed = np.broadcast_to(np.asarray(mask, dtype=bool), x.shape)
        if not allowed.any(axis=-1).all():
            raise ValueError("a row has no allowed choice: its mask is all False")
        x = np.where(allowed, x, -np.inf)
        evidence = np.exp(x - x.max(axis=-1, keepdims=True))
        return evidence / evidence.sum(axis=-1, keepdims=True)

    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    return masked_softmax(scores, mask)
""",
    "aw_max_with_zero_fill": """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    top = np.where(allowed, scores, 0.0).max(axis=-1, keepdims=True)
    e = np.exp(np.where(allowed, scores - top, -np.inf))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "attend_weights_times_keys": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    if mask is not None:
        if not np.broadcast_to(mask, scores.shape).any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ k
""",
    "attend_returns_weights": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    if mask is not None:
        if not np.broadcast_to(mask, scores.shape).any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "attend_transposed_weights": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    if mask is not None:
        if not np.broadcast_to(mask, scores.shape).any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights.T @ np.asarray(values, dtype=float)
""",
    "attend_scores_against_values": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    v = np.asarray(values, dtype=float)
    scores = q @ v.T / (np.sqrt(v.shape[-1]) if scale else 1.0)
    if mask is not None:
        if not np.broadcast_to(mask, scores.shape).any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ v
""",
    "attend_ignores_mask": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_ignores_scale": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        if not np.broadcast_to(mask, scores.shape).any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_never_scales": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if mask is not None:
        if not np.broadcast_to(mask, scores.shape).any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_global_max": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    if mask is not None:
        if not np.broadcast_to(mask, scores.shape).any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max())
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_no_max_shift": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    e = np.exp(scores) * allowed
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_mask_after_exp": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    e = np.exp(scores - scores.max(axis=-1, keepdims=True)) * allowed
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_large_negative_fill": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_nan_for_empty_row": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_exp_before_where": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    top = np.where(allowed, scores, -np.inf).max(axis=-1, keepdims=True)
    e = np.where(allowed, np.exp(scores - top), 0.0)
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_squeezes_result": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    if mask is not None:
        if not np.broadcast_to(mask, scores.shape).any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return np.squeeze(e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float))
""",
    "attend_mask_by_boolean_index": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if not np.broadcast_to(mask, scores.shape).any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores[~mask] = -np.inf
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_float32_everywhere": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=np.float32)
    k = np.asarray(keys, dtype=np.float32)
    v = np.asarray(values, dtype=np.float32)
    scores = q @ k.T / np.float32(np.sqrt(k.shape[-1]) if scale else 1.0)
    if mask is not None:
        if not np.broadcast_to(mask, scores.shape).any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(mask, scores, np.float32(-np.inf))
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ v
""",
    "attend_scales_queries_in_place": """
def attend(queries, keys, values, mask=None, scale=True):
    import math
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    if scale:
        q /= math.sqrt(k.shape[-1])
    scores = q @ k.T
    if mask is not None:
        if not np.broadcast_to(mask, scores.shape).any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_returns_list": """
def attend(queries, keys, values, mask=None, scale=True):
    import math
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    v = np.asarray(values, dtype=float)
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), (len(q), len(k)))
    rows = []
    for i in range(len(q)):
        if not allowed[i].any():
            raise ValueError(f"query {i} has no allowed key")
        scores = k[allowed[i]] @ q[i] / (math.sqrt(k.shape[-1]) if scale else 1.0)
        e = np.exp(scores - scores.max())
        rows.append(list(e / e.sum() @ v[allowed[i]]))
    return rows
""",
    "attend_keys_not_transposed": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_mask_with_zero": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        scores = scores * mask
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_additive_mask": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        scores = scores + np.where(mask, 0.0, -1e9)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_mask_row_per_query": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    rows = []
    for i in range(len(scores)):
        row = np.where(allowed[i], scores[i], -np.inf)
        if np.all(row == -np.inf):
            raise ValueError(f"query {i} has no allowed key")
        e = np.exp(row - row.max())
        rows.append(e / e.sum())
    return np.array(rows) @ np.asarray(values, dtype=float)
""",
    "attend_default_mask_square": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is None:
        mask = np.ones((len(q), len(q)), dtype=bool)
    allowed = np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_passes_none_mask": """
def attend(queries, keys, values, mask=None, scale=True):
    def masked_softmax(scores, mask, temperature=1.0):
        x = np.asarray(scores, dtype=float) / temperature
        allowed = np.broadcast_to(np.asarray(mask, dtype=bool), x.shape)
        if not allowed.any(axis=-1).all():
            raise ValueError("a row has no allowed choice: its mask is all False")
        x = np.where(allowed, x, -np.inf)
        evidence = np.exp(x - x.max(axis=-1, keepdims=True))
        return evidence / evidence.sum(axis=-1, keepdims=True)

    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    return masked_softmax(scores, mask) @ np.asarray(values, dtype=float)
""",
    "attend_max_with_zero_fill": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    top = np.where(allowed, scores, 0.0).max(axis=-1, keepdims=True)
    e = np.exp(np.where(allowed, scores - top, -np.inf))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_inverted_mask": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        forbidden = np.broadcast_to(mask, scores.shape)
        if forbidden.all(axis=-1).any():
            raise ValueError("a query has no allowed key")
        scores = np.where(forbidden, -np.inf, scores)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
    "attend_checks_whole_mask": """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        if not np.any(mask):
            raise ValueError("the mask allows no key")
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
""",
}
