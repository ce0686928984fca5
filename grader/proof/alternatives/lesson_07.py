"""Lesson 07_attention: correct alternatives, and the mutants equivalent to the reference."""

from grader.proof.alternatives import Alternative

LESSON = "07_attention"

ALTERNATIVES = [
    Alternative(
        "aw_einsum",
        "attention_weights",
        "scores with np.einsum('qd,kd->qk'), then a masked stable softmax",
        """
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
""",
    ),
    Alternative(
        "aw_loop_over_queries",
        "attention_weights",
        "a loop over the queries with math.exp and Python sums, converted to an array at the end",
        """
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
""",
    ),
    Alternative(
        "aw_log_sum_exp",
        "attention_weights",
        "exp(scores - logsumexp(scores)) over the allowed keys",
        """
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
""",
    ),
    Alternative(
        "aw_matmul_swapaxes",
        "attention_weights",
        "np.matmul with np.swapaxes (batches work too), raising its own ValueError subclass",
        """
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
""",
    ),
    Alternative(
        "aw_scale_queries_first",
        "attention_weights",
        "divides the queries by sqrt(d_k) (a new array) before the dot products",
        """
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
""",
    ),
    Alternative(
        "aw_apply_along_axis",
        "attention_weights",
        "np.apply_along_axis with a one-row softmax over the masked scores",
        """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), scores.shape)
    if not np.all(np.any(allowed, axis=-1)):
        raise ValueError("a query has no allowed key")

    def row_softmax(row):
        e = np.exp(row - row.max())
        return e / e.sum()

    return np.apply_along_axis(row_softmax, -1, np.where(allowed, scores, -np.inf))
""",
    ),
    Alternative(
        "aw_keeps_float32",
        "attention_weights",
        "computes in float32 when queries and keys are float32 (float64 otherwise)",
        """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries)
    k = np.asarray(keys)
    dtype = np.float32 if q.dtype == np.float32 and k.dtype == np.float32 else np.float64
    q, k = q.astype(dtype), k.astype(dtype)
    scores = q @ k.T
    if scale:
        scores = scores / dtype(np.sqrt(k.shape[-1]))
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, dtype(-np.inf))
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "aw_temperature_sqrt_dk",
        "attention_weights",
        "lesson 06's masked softmax with temperature sqrt(d_k) (1 when not scaling), an all-True mask for None",
        """
def attention_weights(queries, keys, mask=None, scale=True):
    def masked_softmax(scores, mask, temperature=1.0):
        x = np.asarray(scores, dtype=float) / temperature
        allowed = np.broadcast_to(np.asarray(mask, dtype=bool), x.shape)
        if not allowed.any(axis=-1).all():
            raise ValueError("a row has no allowed choice: its mask is all False")
        x = np.where(allowed, x, -np.inf)
        evidence = np.exp(x - x.max(axis=-1, keepdims=True))
        return evidence / evidence.sum(axis=-1, keepdims=True)

    k = np.asarray(keys, dtype=float)
    scores = np.asarray(queries, dtype=float) @ k.T
    return masked_softmax(scores, True if mask is None else mask, np.sqrt(k.shape[-1]) if scale else 1.0)
""",
    ),
    Alternative(
        "aw_logaddexp_reduce",
        "attention_weights",
        "exp(scores - np.logaddexp.reduce(scores)) over each row of masked scores",
        """
def attention_weights(queries, keys, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is not None:
        allowed = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
        if not allowed.any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(allowed, scores, -np.inf)
    return np.exp(scores - np.logaddexp.reduce(scores, axis=-1, keepdims=True))
""",
    ),
    Alternative(
        "attend_einsum",
        "attend",
        "np.einsum for the scores and for the weighted sum of values",
        """
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
""",
    ),
    Alternative(
        "attend_loop_weighted_sum",
        "attend",
        "a loop over the queries, each context vector a sum of weight times value row",
        """
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
""",
    ),
    Alternative(
        "attend_tensordot",
        "attend",
        "np.tensordot of the weights with the values, over the keys axis",
        """
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
""",
    ),
    Alternative(
        "attend_normalise_after",
        "attend",
        "unnormalised evidence times the values, divided by each row's total evidence afterwards",
        """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query has no allowed key")
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return (e @ np.asarray(values, dtype=float)) / e.sum(axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "attend_log_sum_exp",
        "attend",
        "weights exp(scores - logsumexp(scores)) per row, then weights @ values",
        """
def attend(queries, keys, values, mask=None, scale=True):
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ k.T / (k.shape[-1] ** 0.5 if scale else 1)
    if mask is not None:
        allowed = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
        if (~allowed).all(axis=-1).any():
            raise ValueError("a row of the mask is all False")
        scores = np.where(allowed, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    lse = top + np.log(np.exp(scores - top).sum(axis=-1, keepdims=True))
    return np.exp(scores - lse) @ np.asarray(values, dtype=float)
""",
    ),
    Alternative(
        "attend_keeps_float32",
        "attend",
        "computes in float32 when every input is float32 (float64 otherwise)",
        """
def attend(queries, keys, values, mask=None, scale=True):
    q, k, v = np.asarray(queries), np.asarray(keys), np.asarray(values)
    dtype = np.float32 if q.dtype == k.dtype == v.dtype == np.float32 else np.float64
    q, k, v = q.astype(dtype), k.astype(dtype), v.astype(dtype)
    scores = q @ k.T
    if scale:
        scores = scores / dtype(np.sqrt(k.shape[-1]))
    if mask is not None:
        allowed = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
        if not allowed.any(axis=-1).all():
            raise ValueError("a query has no allowed key")
        scores = np.where(allowed, scores, dtype(-np.inf))
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
""",
    ),
]

# Mechanical mutants of the references (grader.proof.mutate) that compute the same thing for every valid input.
EQUIVALENT_MUTANTS = {
    "attention_weights:no-cast:1": "the keys are float64, so queries @ keys.T converts integer or float32 queries "
    "to float64 exactly as np.asarray(queries, dtype=float) would",
    "attention_weights:no-cast:2": "the queries are float64, so queries @ keys.T converts integer or float32 keys "
    "to float64 exactly as np.asarray(keys, dtype=float) would",
    "attention_weights:no-cast:3": "the all-ones default mask is read by masked_softmax with dtype=bool: 1.0 is True",
    "attend:no-cast:1": "the weights are float64, so weights @ values converts integer or float32 values to "
    "float64 exactly as np.asarray(values, dtype=float) would",
}
