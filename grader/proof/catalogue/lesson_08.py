"""Lesson 08_log_softmax: the source of each catalogued misconception, by id (its description, hint and probes
are in grader/learner/hints/)."""

LESSON = "08_log_softmax"

SOURCES = {
    "logsumexp_no_shift": """
def logsumexp(scores):
    return np.log(np.sum(np.exp(scores), axis=-1))
""",
    "logsumexp_forgets_max": """
def logsumexp(scores):
    x = np.asarray(scores, dtype=float)
    m = np.max(x, axis=-1, keepdims=True)
    return np.log(np.sum(np.exp(x - m), axis=-1))
""",
    "logsumexp_global_max": """
def logsumexp(scores):
    x = np.asarray(scores, dtype=float)
    m = x.max()
    return m + np.log(np.sum(np.exp(x - m), axis=-1))
""",
    "logsumexp_nan_for_masked_rows": """
def logsumexp(scores):
    x = np.asarray(scores, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    return (m + np.log(np.sum(np.exp(x - m), axis=-1, keepdims=True)))[..., 0]
""",
    "logsumexp_keeps_axis": """
def logsumexp(scores):
    x = np.asarray(scores, dtype=float)
    m = np.max(x, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    total = np.sum(np.exp(x - m), axis=-1, keepdims=True)
    return m + np.log(total, out=np.full_like(total, -np.inf), where=total > 0)
""",
    "logsumexp_sums_axis0": """
def logsumexp(scores):
    x = np.asarray(scores, dtype=float)
    m = x.max(axis=0)
    return m + np.log(np.sum(np.exp(x - m), axis=0))
""",
    "logsumexp_float32_becomes_float64": """
def logsumexp(scores):
    x = np.asarray(scores, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    total = np.sum(np.exp(x - m), axis=-1)
    return m[..., 0] + np.log(total, out=np.full_like(total, -np.inf), where=total > 0)
""",
    "logsumexp_in_place": """
def logsumexp(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0).astype(x.dtype)
    x -= m
    total = np.sum(np.exp(x), axis=-1)
    return m[..., 0] + np.log(total, out=np.full_like(total, -np.inf), where=total > 0)
""",
    "logsumexp_log_zero_warns": """
def logsumexp(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0).astype(x.dtype)
    return m[..., 0] + np.log(np.sum(np.exp(x - m), axis=-1))
""",
    "logsumexp_neg_inf_as_large_finite": """
def logsumexp(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    x = np.where(np.isneginf(x), -1e9, x)
    m = x.max(axis=-1, keepdims=True)
    return m[..., 0] + np.log(np.sum(np.exp(x - m), axis=-1))
""",
    "logsumexp_shift_by_first": """
def logsumexp(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    c = x[..., :1]
    return c[..., 0] + np.log(np.sum(np.exp(x - c), axis=-1))
""",
    "logsumexp_clips_scores": """
def logsumexp(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    total = np.sum(np.exp(np.clip(x, -700.0, 700.0)), axis=-1)
    return np.log(total, out=np.full_like(total, -np.inf), where=total > 0)
""",
    "logsumexp_squeezes": """
def logsumexp(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    total = np.sum(np.exp(x - m), axis=-1, keepdims=True)
    return np.squeeze(m + np.log(total, out=np.full_like(total, -np.inf), where=total > 0))
""",
    "logsumexp_flat_rows": """
def logsumexp(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    rows = x.reshape(-1, x.shape[-1])
    out = np.empty(len(rows), dtype=x.dtype)
    for i, row in enumerate(rows):
        m = row.max()
        if m == -np.inf:
            out[i] = -np.inf
        else:
            out[i] = m + np.log(np.sum(np.exp(row - m)))
    return out
""",
    "logsumexp_returns_list": """
def logsumexp(scores):
    import math

    def lse(row):
        if isinstance(row[0], list):
            return [lse(r) for r in row]
        m = max(row)
        if m == -math.inf:
            return -math.inf
        return m + math.log(sum(math.exp(v - m) for v in row))

    return lse(np.asarray(scores, dtype=float).tolist())
""",
    "logsumexp_no_cast": """
def logsumexp(scores):
    x = np.asarray(scores)
    m = x.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    total = np.sum(np.exp(x - m), axis=-1)
    return m[..., 0] + np.log(total, out=np.full_like(total, -np.inf), where=total > 0)
""",
    "logsumexp_out_buffer_float64": """
def logsumexp(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    total = np.sum(np.exp(x - m), axis=-1)
    return m[..., 0] + np.log(total, out=np.full(np.shape(total), -np.inf), where=total > 0)
""",
    "log_softmax_log_of_softmax": """
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return np.log(e / e.sum(axis=-1, keepdims=True))
""",
    "log_softmax_no_shift": """
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    return x - np.log(np.sum(np.exp(x), axis=-1, keepdims=True))
""",
    "log_softmax_only_max": """
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    return x - x.max(axis=-1, keepdims=True)
""",
    "log_softmax_global_max": """
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    z = x - x.max()
    return z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))
""",
    "log_softmax_lse_without_keepdims": """
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    m = np.max(x, axis=-1)
    lse = m + np.log(np.sum(np.exp(x - np.max(x, axis=-1, keepdims=True)), axis=-1))
    return x - lse
""",
    "log_softmax_sums_whole_array": """
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    m = x.max()
    return x - (m + np.log(np.sum(np.exp(x - m))))
""",
    "log_softmax_float32_becomes_float64": """
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))
""",
    "log_softmax_in_place": """
def log_softmax(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    x -= x.max(axis=-1, keepdims=True)
    x -= np.log(np.sum(np.exp(x), axis=-1, keepdims=True))
    return x
""",
    "log_softmax_shift_by_first": """
def log_softmax(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    z = x - x[..., :1]
    return z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))
""",
    "log_softmax_axis_one": """
def log_softmax(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    axis = 0 if x.ndim == 1 else 1
    z = x - x.max(axis=axis, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=axis, keepdims=True))
""",
    "log_softmax_neg_inf_as_large_finite": """
def log_softmax(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    x = np.where(np.isneginf(x), -1e9, x)
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))
""",
    "log_softmax_log_eps": """
def log_softmax(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return np.log(e / e.sum(axis=-1, keepdims=True) + 1e-12)
""",
    "log_softmax_no_cast": """
def log_softmax(scores):
    x = np.asarray(scores)
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))
""",
    "log_softmax_returns_list": """
def log_softmax(scores):
    import math

    def rows(x):
        if isinstance(x[0], list):
            return [rows(r) for r in x]
        m = max(x)
        log_total = math.log(sum(math.exp(v - m) for v in x))
        return [(v - m) - log_total for v in x]

    return rows(np.asarray(scores, dtype=float).tolist())
""",
    "cross_entropy_via_log_of_softmax": """
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    t = np.asarray(target)
    return -np.log(np.take_along_axis(p, t[..., None], axis=-1)[..., 0])
""",
    "cross_entropy_forgets_minus": """
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    log_p = (x - m) - np.log(np.sum(np.exp(x - m), axis=-1, keepdims=True))
    return np.take_along_axis(log_p, np.asarray(target)[..., None], axis=-1)[..., 0]
""",
    "cross_entropy_adds_target_logit": """
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    m = x.max(axis=-1)
    lse = m + np.log(np.sum(np.exp(x - m[..., None]), axis=-1))
    return lse + np.take_along_axis(x, np.asarray(target)[..., None], axis=-1)[..., 0]
""",
    "cross_entropy_no_shift": """
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    picked = np.take_along_axis(x, np.asarray(target)[..., None], axis=-1)[..., 0]
    return np.log(np.sum(np.exp(x), axis=-1)) - picked
""",
    "cross_entropy_mean_over_batch": """
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    log_p = (x - m) - np.log(np.sum(np.exp(x - m), axis=-1, keepdims=True))
    return -np.mean(np.take_along_axis(log_p, np.asarray(target)[..., None], axis=-1))
""",
    "cross_entropy_target_column": """
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    log_p = (x - m) - np.log(np.sum(np.exp(x - m), axis=-1, keepdims=True))
    return -log_p[..., target]
""",
    "cross_entropy_float32_becomes_float64": """
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    picked = np.take_along_axis(x - m, np.asarray(target)[..., None], axis=-1)[..., 0]
    return np.log(np.sum(np.exp(x - m), axis=-1)) - picked
""",
    "cross_entropy_in_place": """
def cross_entropy(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    x -= x.max(axis=-1, keepdims=True)
    picked = np.take_along_axis(x, np.asarray(target)[..., np.newaxis], axis=-1)[..., 0]
    return np.log(np.sum(np.exp(x), axis=-1)) - picked
""",
    "cross_entropy_one_hot_product": """
def cross_entropy(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    z = x - x.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    one_hot = np.eye(x.shape[-1], dtype=x.dtype)[np.asarray(target)]
    return -(one_hot * log_p).sum(axis=-1)
""",
    "cross_entropy_two_axes_only": """
def cross_entropy(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    lse = m[..., 0] + np.log(np.sum(np.exp(x - m), axis=-1))
    return lse - x[np.arange(x.shape[0]), np.asarray(target)]
""",
    "cross_entropy_squeezes": """
def cross_entropy(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    log_p = (x - m) - np.log(np.sum(np.exp(x - m), axis=-1, keepdims=True))
    return -np.squeeze(np.take_along_axis(log_p, np.asarray(target)[..., np.newaxis], axis=-1))
""",
    "cross_entropy_target_not_array": """
def cross_entropy(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    picked = np.take_along_axis(x - m, target[..., np.newaxis], axis=-1)[..., 0]
    return np.log(np.sum(np.exp(x - m), axis=-1)) - picked
""",
    "cross_entropy_no_cast": """
def cross_entropy(logits, target):
    x = np.asarray(logits)
    t = np.asarray(target)
    m = x.max(axis=-1, keepdims=True)
    picked = np.take_along_axis(x - m, t[..., np.newaxis], axis=-1)[..., 0]
    return np.log(np.sum(np.exp(x - m), axis=-1)) - picked
""",
    "cross_entropy_returns_list": """
def cross_entropy(logits, target):
    import math
    x = np.asarray(logits, dtype=float)
    if x.ndim == 1:
        rows, targets = [x.tolist()], [int(target)]
    else:
        rows, targets = x.reshape(-1, x.shape[-1]).tolist(), np.asarray(target).reshape(-1).tolist()
    losses = []
    for row, t in zip(rows, targets):
        m = max(row)
        losses.append(m + math.log(sum(math.exp(v - m) for v in row)) - row[t])
    return losses[0] if x.ndim == 1 else losses
""",
    "cross_entropy_log_eps": """
def cross_entropy(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    picked = np.take_along_axis(p, np.asarray(target)[..., np.newaxis], axis=-1)[..., 0]
    return -np.log(picked + 1e-12)
""",
    "cross_entropy_shift_by_target": """
def cross_entropy(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    picked = np.take_along_axis(x, np.asarray(target)[..., np.newaxis], axis=-1)
    return np.log(np.sum(np.exp(x - picked), axis=-1))
""",
}
