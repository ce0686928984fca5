"""Lesson 09_gradient_and_online: the source of each catalogued misconception, by id (its description, hint and probes
are in grader/learner/hints/)."""

LESSON = "09_gradient_and_online"

SOURCES = {
    "jacobian_missing_outer": """
def softmax_jacobian(p):
    return np.diag(np.asarray(p, dtype=float))
""",
    "jacobian_missing_diag": """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return -np.outer(p, p)
""",
    "jacobian_diagonal_only": """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return np.diag(p * (1 - p))
""",
    "jacobian_dot_product": """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return np.diag(p) - p @ p.T
""",
    "jacobian_sign_flipped": """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return np.outer(p, p) - np.diag(p)
""",
    "jacobian_broadcast_wrong_axis": """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return p * (np.eye(len(p)) - p)
""",
    "jacobian_softmax_again": """
def softmax_jacobian(p):
    x = np.asarray(p, dtype=float)
    p = np.exp(x - x.max()) / np.exp(x - x.max()).sum()
    return np.diag(p) - np.outer(p, p)
""",
    "jacobian_keeps_ints": """
def softmax_jacobian(p):
    p = np.asarray(p)
    return np.diag(p) - np.outer(p, p)
""",
    "jacobian_diagonal_in_place": """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    J = -np.outer(p, p)
    p -= p * p
    J[np.diag_indices(len(p))] = p
    return J
""",
    "jacobian_fails_on_lists": """
def softmax_jacobian(p):
    return p[:, None] * (np.eye(p.size) - p[None, :])
""",
    "jacobian_squeezes": """
def softmax_jacobian(p):
    p = np.squeeze(np.asarray(p, dtype=float))
    return np.diag(p) - np.outer(p, p)
""",
    "jacobian_nested_list": """
def softmax_jacobian(p):
    q = [float(v) for v in p]
    return [[q[i] * ((1.0 if i == j else 0.0) - q[j]) for j in range(len(q))] for i in range(len(q))]
""",
    "jacobian_diag_of_column": """
def softmax_jacobian(p):
    col = np.asarray(p, dtype=float).reshape(-1, 1)
    return np.diag(col) - col @ col.T
""",
    "jacobian_identity_diagonal": """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return np.eye(len(p)) - np.outer(p, p)
""",
    "online_no_rescale": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        total = total + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
    "online_rescale_wrong_direction": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        if total > 0:
            total = total * np.exp(m_new - m)
        total = total + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
    "online_stale_pieces": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append(np.zeros_like(x))
            continue
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append(e)
    return np.concatenate(pieces) / total
""",
    "online_each_chunk_normalised": """
def online_softmax(chunks):
    out = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        e = np.exp(x - x.max())
        out.append(e / e.sum())
    return np.concatenate(out)
""",
    "online_first_chunk_max": """
def online_softmax(chunks):
    m = None
    total = 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        if m is None:
            m = x.max()
        e = np.exp(x - m)
        total = total + e.sum()
        pieces.append(e)
    return np.concatenate(pieces) / total
""",
    "online_reads_chunks_twice": """
def online_softmax(chunks):
    m = max(np.max(chunk) for chunk in chunks)
    pieces = [np.exp(np.asarray(chunk, dtype=float) - m) for chunk in chunks]
    total = sum(piece.sum() for piece in pieces)
    return np.concatenate(pieces) / total
""",
    "online_nan_for_masked_first_chunk": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
    "online_returns_pieces": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return [e * np.exp(mc - m) / total for e, mc in pieces]
""",
    "online_max_starts_at_zero": """
def online_softmax(chunks):
    m, total = 0.0, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
    "online_plain_exp": """
def online_softmax(chunks):
    total = 0.0
    pieces = []
    for chunk in chunks:
        e = np.exp(np.asarray(chunk, dtype=float))
        total = total + e.sum()
        pieces.append(e)
    return np.concatenate(pieces) / total
""",
    "online_clips_scores": """
def online_softmax(chunks):
    total = 0.0
    pieces = []
    for chunk in chunks:
        e = np.exp(np.clip(np.asarray(chunk, dtype=float), -700.0, 700.0))
        total = total + e.sum()
        pieces.append(e)
    return np.concatenate(pieces) / total
""",
    "online_minus_inf_as_large_negative": """
def online_softmax(chunks):
    m, total = -1e9, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        x = np.where(np.isneginf(x), -1e9, x)
        m_new = max(m, x.max())
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
    "online_nan_to_num": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        e = np.nan_to_num(np.exp(x - m_new))
        total = np.nan_to_num(total * np.exp(m - m_new)) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([np.nan_to_num(e * np.exp(mc - m)) for e, mc in pieces]) / total
""",
    "online_divides_by_exp": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        total = total / np.exp(m_new - m) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e / np.exp(m - mc) for e, mc in pieces]) / total
""",
    "online_skips_masked_chunks": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        if x.max() == -np.inf:
            continue
        m_new = max(m, x.max())
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
    "online_shift_in_place": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        x -= m_new
        np.exp(x, out=x)
        total = total * np.exp(m - m_new) + x.sum()
        m = m_new
        pieces.append((x, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
    "online_keeps_float32": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
    "online_fails_on_lists": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        m_new = max(m, chunk.max())
        if m_new == -np.inf:
            pieces.append((np.zeros(chunk.shape), m_new))
            continue
        e = np.exp(chunk - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
    "online_stacks_pieces": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.array([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
    "online_concatenates_first": """
def online_softmax(chunks):
    x = np.concatenate(chunks)
    e = np.exp(x - x.max())
    return e / e.sum()
""",
    "online_counts_chunks": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for k in range(len(chunks)):
        x = np.asarray(chunks[k], dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
    "online_keeps_chunks": """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    kept = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        kept.append(x)
        if m_new == -np.inf:
            continue
        total = total * np.exp(m - m_new) + np.exp(x - m_new).sum()
        m = m_new
    return np.exp(np.concatenate(kept) - m) / total
""",
    "online_list_of_views": """
def online_softmax(chunks):
    kept = list(chunks)
    x = np.concatenate([np.asarray(c, dtype=float) for c in kept])
    e = np.exp(x - x.max())
    return e / e.sum()
""",
    "cegrad_sign_flipped": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return (np.arange(x.shape[-1]) == np.asarray(target)[..., None]) - p
""",
    "cegrad_no_shift": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x)
    p = e / e.sum(axis=-1, keepdims=True)
    return p - (np.arange(x.shape[-1]) == np.asarray(target)[..., None])
""",
    "cegrad_global_max": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max())
    p = e / e.sum(axis=-1, keepdims=True)
    return p - (np.arange(x.shape[-1]) == np.asarray(target)[..., None])
""",
    "cegrad_returns_jacobian": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return p[..., :, None] * np.eye(x.shape[-1]) - p[..., :, None] * p[..., None, :]
""",
    "cegrad_weight_not_loss": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    onehot = np.arange(x.shape[-1]) == np.asarray(target)[..., None]
    p_target = np.sum(p * onehot, axis=-1, keepdims=True)
    return p_target * (p - onehot)
""",
    "cegrad_chain_rule_in_floats": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    onehot = np.arange(x.shape[-1]) == np.asarray(target)[..., None]
    p_target = np.sum(p * onehot, axis=-1, keepdims=True)
    return (-1.0 / p_target) * (p_target * (onehot - p))
""",
    "cegrad_mean_over_batch": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    rows = x.size // x.shape[-1]
    return (p - (np.arange(x.shape[-1]) == np.asarray(target)[..., None])) / rows
""",
    "cegrad_one_onehot_for_batch": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    onehot = np.zeros(x.shape[-1], dtype=x.dtype)
    onehot[target] = 1
    return p - onehot
""",
    "cegrad_softmax_axis0": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=0, keepdims=True))
    p = e / e.sum(axis=0, keepdims=True)
    return p - (np.arange(x.shape[-1]) == np.asarray(target)[..., None])
""",
    "cegrad_2d_only": """
def cross_entropy_grad(logits, target):
    x = np.atleast_2d(np.asarray(logits))
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    p[np.arange(len(p)), np.atleast_1d(target)] -= 1
    return p
""",
    "cegrad_eye_upcasts": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return p - np.eye(x.shape[-1])[np.asarray(target)]
""",
    "cegrad_subtracts_target": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return p - np.asarray(target)[..., None]
""",
    "cegrad_minus_one_everywhere": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) - 1
""",
    "cegrad_log_softmax": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    shifted = x - x.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return log_p - (np.arange(x.shape[-1]) == np.asarray(target)[..., None])
""",
    "cegrad_exp_minus_lse": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(x - m).sum(axis=-1, keepdims=True))
    return np.exp(x - lse) - (np.arange(x.shape[-1]) == np.asarray(target)[..., None])
""",
    "cegrad_shift_in_place": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    x -= x.max(axis=-1, keepdims=True)
    e = np.exp(x)
    p = e / e.sum(axis=-1, keepdims=True)
    return p - (np.arange(x.shape[-1]) == np.asarray(target)[..., None])
""",
    "cegrad_fails_on_lists": """
def cross_entropy_grad(logits, target):
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return p - (np.arange(logits.shape[-1]) == np.asarray(target)[..., None])
""",
    "cegrad_integer_shift_wraps": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    shifted = x - x.max(axis=-1, keepdims=True)
    e = np.exp(shifted.astype(np.float64) if shifted.dtype.kind in "iu" else shifted)
    p = e / e.sum(axis=-1, keepdims=True)
    return p - (np.arange(x.shape[-1]) == np.asarray(target)[..., None])
""",
    "cegrad_target_not_array": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return p - (np.arange(x.shape[-1]) == target[..., None])
""",
    "cegrad_rows_as_list": """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits, dtype=float)
    if x.ndim == 1:
        x, target = x[None, :], [target]
    out = []
    for row, k in zip(x.reshape(-1, x.shape[-1]), np.asarray(target).reshape(-1)):
        e = np.exp(row - row.max())
        g = e / e.sum()
        g[k] -= 1
        out.append(g)
    return out
""",
}
