"""Lesson 07_attention: misconceptions and correct alternatives."""
from grader.catalogue import Alternative, Misconception

LESSON = "07_attention"

MISCONCEPTIONS = [
    # attention_weights
    Misconception(
        "aw_no_scaling", "attention_weights",
        "never divided the scores by sqrt(d_k), so scale=True gives the unscaled (too sharp) weights",
        "when scale is True, divide queries @ keys.T by np.sqrt(d_k), where d_k = keys.shape[-1]", '''
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
'''),
    Misconception(
        "aw_scales_by_d_k", "attention_weights",
        "divided the scores by d_k instead of by its square root",
        "the spread of dot products grows like sqrt(d_k): divide by np.sqrt(d_k)", '''
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
'''),
    Misconception(
        "aw_scales_by_num_keys", "attention_weights",
        "divided by the square root of the number of keys instead of sqrt(d_k), the width of each key",
        "d_k is the length of one key vector: keys.shape[-1], not len(keys)", '''
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
'''),
    Misconception(
        "aw_always_scales", "attention_weights",
        "divided by sqrt(d_k) even when scale=False",
        "scale only when the scale argument is True", '''
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
'''),
    Misconception(
        "aw_scales_weights_after_softmax", "attention_weights",
        "divided the weights by sqrt(d_k) after the softmax instead of the scores before it, so the rows "
        "no longer sum to 1",
        "scale the scores first, then take the softmax of the scaled scores", '''
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
'''),
    Misconception(
        "aw_softmax_over_queries", "attention_weights",
        "took the softmax down each column (over the queries, axis 0) instead of along each row (over the keys)",
        "normalise over the last axis (axis=-1): each query's weights over the keys sum to 1", '''
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
'''),
    Misconception(
        "aw_keys_not_transposed", "attention_weights",
        "multiplied queries @ keys without transposing the keys, so the scores are not query-key dot products",
        "each score is a query row times a key row: queries @ keys.T", '''
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
'''),
    Misconception(
        "aw_mask_with_zero", "attention_weights",
        "gave forbidden keys a score of 0 (or multiplied the scores by the mask): exp(0) = 1, so they still "
        "take weight",
        "put -np.inf where the mask is False (masked_softmax does that for you)", '''
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
'''),
    Misconception(
        "aw_inverted_mask", "attention_weights",
        "inverted the mask (treated True as a forbidden key); here True means the query may attend to that key",
        "keep the scores where the mask is True and put -np.inf where it is False", '''
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
'''),
    Misconception(
        "aw_ignores_mask", "attention_weights",
        "never used the mask, so forbidden keys still take weight",
        "put -np.inf in the scores where the mask is False before the softmax", '''
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "aw_zeroes_after_softmax", "attention_weights",
        "zeroed the forbidden weights after the softmax without renormalising, so the rows no longer sum to 1",
        "remove forbidden keys before exp (score -inf), so the allowed keys share all of the weight", '''
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
'''),
    Misconception(
        "aw_large_negative_fill", "attention_weights",
        "filled forbidden scores with a large finite negative number (like -1e9), so a query with no allowed "
        "key silently gets uniform weights instead of an error",
        "fill with -np.inf and raise ValueError for a row with no allowed key (masked_softmax does both)", '''
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
'''),
    Misconception(
        "aw_nan_for_empty_row", "attention_weights",
        "did not check for a query with no allowed key: its row of -inf scores comes back as nan instead of "
        "raising ValueError",
        "check every row with np.broadcast_to(mask, scores.shape).any(axis=-1) and raise ValueError", '''
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
'''),
    Misconception(
        "aw_no_max_shift", "attention_weights",
        "took exp of the scores without subtracting each row's max: large scores overflow to inf and the "
        "weights become nan",
        "shift each row by its max before exp (lesson 05), or use masked_softmax", '''
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
'''),
    Misconception(
        "aw_scales_queries_in_place", "attention_weights",
        "divided the caller's queries by sqrt(d_k) in place (queries /= ...), which changed the caller's array",
        "make a new array instead: scores = queries @ keys.T / np.sqrt(d_k)", '''
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
'''),
    Misconception(
        "aw_fails_on_lists", "attention_weights",
        "used keys.T and keys.shape without making the inputs arrays first, which fails for Python lists",
        "start with q = np.asarray(queries, dtype=float), and the same for the keys", '''
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
'''),
    # attend
    Misconception(
        "attend_weights_times_keys", "attend",
        "multiplied the weights by the keys instead of the values",
        "the keys only decide the weights; the output mixes the values: weights @ values", '''
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
'''),
    Misconception(
        "attend_returns_weights", "attend",
        "returned the attention weights without multiplying them by the values",
        "finish with weights @ values: one context vector (a row of width d_v) per query", '''
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
'''),
    Misconception(
        "attend_transposed_weights", "attend",
        "multiplied weights.T @ values, which mixes the values with a key's weights across queries instead "
        "of each query's own row of weights",
        "each output row uses its query's row of weights: weights @ values", '''
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
'''),
    Misconception(
        "attend_scores_against_values", "attend",
        "compared the queries with the values instead of the keys: the keys decide the weights, the values are "
        "what gets mixed",
        "weights come from queries @ keys.T; only then multiply by the values", '''
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
'''),
    Misconception(
        "attend_ignores_mask", "attend",
        "did not pass the mask on, so the output mixes in values of forbidden keys",
        "call attention_weights(queries, keys, mask=mask, scale=scale)", '''
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (np.sqrt(k.shape[-1]) if scale else 1.0)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(values, dtype=float)
'''),
    Misconception(
        "attend_ignores_scale", "attend",
        "did not pass scale on, so scale=False still divides the scores by sqrt(d_k)",
        "call attention_weights(queries, keys, mask=mask, scale=scale)", '''
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
'''),
    Misconception(
        "attend_never_scales", "attend",
        "never divided the scores by sqrt(d_k), so the default scale=True gives unscaled context vectors",
        "when scale is True, divide queries @ keys.T by np.sqrt(keys.shape[-1]) before the softmax", '''
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
'''),
]

ALTERNATIVES = [
    Alternative("aw_einsum", "attention_weights", "scores with np.einsum('qd,kd->qk'), then a masked stable softmax", '''
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = np.einsum("qd,kd->qk", q, k)
    if scale:
        scores = scores / np.sqrt(k.shape[1])
    if mask is not None:
        allowed = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
        if not np.all(np.any(allowed, axis=1)):
            raise ValueError("some query may attend to no key")
        scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)
'''),
    Alternative("aw_loop_over_queries", "attention_weights",
                "a loop over the queries with math.exp and Python sums, converted to an array at the end", '''
def attention_weights(queries, keys, mask=None, scale=True):
    import math
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    d_k = k.shape[-1]
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), (len(q), len(k)))
    rows = []
    for i in range(len(q)):
        scores = [float(q[i] @ k[j]) / (math.sqrt(d_k) if scale else 1.0) for j in range(len(k))]
        kept = [s for s, ok in zip(scores, allowed[i]) if ok]
        if not kept:
            raise ValueError(f"query {i} may attend to no key")
        top = max(kept)
        evidence = [math.exp(s - top) if ok else 0.0 for s, ok in zip(scores, allowed[i])]
        total = sum(evidence)
        rows.append([e / total for e in evidence])
    return np.array(rows)
'''),
    Alternative("aw_log_sum_exp", "attention_weights", "exp(scores - logsumexp(scores)) over the allowed keys", '''
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = np.dot(q, k.T)
    if scale:
        scores = scores / k.shape[-1] ** 0.5
    allowed = np.broadcast_to(True if mask is None else np.asarray(mask, dtype=bool), scores.shape)
    if (~allowed).all(axis=-1).any():
        raise ValueError("a row of the mask is all False")
    scores = np.where(allowed, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    log_total = top + np.log(np.exp(scores - top).sum(axis=-1, keepdims=True))
    return np.exp(scores - log_total)
'''),
    Alternative("aw_matmul_swapaxes", "attention_weights",
                "np.matmul with np.swapaxes (batches work too), raising its own ValueError subclass", '''
class NoKeyAllowed(ValueError):
    pass


def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = np.matmul(q, np.swapaxes(k, -1, -2))
    if scale:
        scores /= np.sqrt(k.shape[-1])
    if mask is not None:
        allowed = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
        if not allowed.any(axis=-1).all():
            raise NoKeyAllowed("every key is masked for some query")
        scores[~allowed] = -np.inf
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Alternative("aw_scale_queries_first", "attention_weights",
                "divides the queries by sqrt(d_k) (a new array) before the dot products", '''
def attention_weights(queries, keys, mask=None, scale=True):
    import math
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    if scale:
        q = q / math.sqrt(k.shape[-1])
    scores = q @ k.T
    if mask is None:
        mask = np.ones(scores.shape, dtype=bool)
    mask = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
    bad = np.flatnonzero(~mask.any(axis=-1))
    if bad.size:
        raise ValueError(f"query {bad[0]} has no key to attend to")
    shifted = np.where(mask, scores - np.where(mask, scores, -np.inf).max(axis=-1, keepdims=True), -np.inf)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Alternative("attend_einsum", "attend", "np.einsum for the scores and for the weighted sum of values", '''
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    v = np.asarray(values, dtype=float)
    scores = np.einsum("qd,kd->qk", q, k) / (np.sqrt(k.shape[-1]) if scale else 1.0)
    if mask is not None:
        allowed = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
        if not allowed.any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return np.einsum("qk,kv->qv", e / e.sum(axis=-1, keepdims=True), v)
'''),
    Alternative("attend_loop_weighted_sum", "attend",
                "a loop over the queries, each context vector a sum of weight times value row", '''
def attend(queries, keys, values, mask=None, scale=True):
    import math
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    v = np.asarray(values, dtype=float)
    allowed = np.broadcast_to(True if mask is None else np.asarray(mask, dtype=bool), (len(q), len(k)))
    out = np.zeros((len(q), v.shape[-1]))
    for i in range(len(q)):
        if not allowed[i].any():
            raise ValueError(f"query {i} has no allowed key")
        scores = k[allowed[i]] @ q[i] / (math.sqrt(k.shape[-1]) if scale else 1.0)
        e = np.exp(scores - scores.max())
        for w, row in zip(e / e.sum(), v[allowed[i]]):
            out[i] += w * row
    return out
'''),
    Alternative("attend_tensordot", "attend", "np.tensordot of the weights with the values, over the keys axis", '''
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = np.matmul(q, k.swapaxes(-1, -2))
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        ok = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
        if not ok.any(axis=-1).all():
            raise ValueError("a query with no allowed key")
        scores = np.where(ok, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return np.tensordot(e / e.sum(axis=-1, keepdims=True), np.asarray(values, dtype=float), axes=1)
'''),
]
