"""Lesson 09_gradient: the source of each catalogued misconception, by id (its description, hint and probes
are in grader/learner/hints/)."""

LESSON = "09_gradient"

SOURCES = {
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
