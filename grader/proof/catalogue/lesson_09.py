"""Lesson 09_gradient: the source of each catalogued misconception, by id (its description, hint and probes
are in grader/learner/hints/)."""

LESSON = "09_gradient"

SOURCES = {
    "numgrad_one_sided": """
def numerical_gradient(f, x, h=1e-5):
    x = np.asarray(x, dtype=float)
    grad = np.zeros(x.shape)
    fx = f(x)
    for j in np.ndindex(x.shape):
        up = x.copy()
        up[j] += h
        grad[j] = (f(up) - fx) / h
    return grad
""",
    "numgrad_divides_by_h": """
def numerical_gradient(f, x, h=1e-5):
    x = np.asarray(x, dtype=float)
    grad = np.zeros(x.shape)
    for j in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[j] += h
        down[j] -= h
        grad[j] = (f(up) - f(down)) / h
    return grad
""",
    "numgrad_all_at_once": """
def numerical_gradient(f, x, h=1e-5):
    x = np.asarray(x, dtype=float)
    return np.full(x.shape, (f(x + h) - f(x - h)) / (2 * h))
""",
    "numgrad_in_place_no_restore": """
def numerical_gradient(f, x, h=1e-5):
    grad = np.zeros(x.shape)
    for j in np.ndindex(x.shape):
        x[j] += h
        up = f(x)
        x[j] -= 2 * h
        down = f(x)
        grad[j] = (up - down) / (2 * h)
    return grad
""",
    "numgrad_restores_by_subtracting": """
def numerical_gradient(f, x, h=1e-5):
    if x.dtype.kind != "f":
        x = x.astype(float)
    grad = np.zeros(x.shape)
    for j in np.ndindex(x.shape):
        x[j] += h
        up = f(x)
        x[j] -= 2 * h
        down = f(x)
        x[j] += h
        grad[j] = (up - down) / (2 * h)
    return grad
""",
    "numgrad_alias_not_copy": """
def numerical_gradient(f, x, h=1e-5):
    x = np.asarray(x, dtype=float)
    grad = np.zeros(x.shape)
    for j in np.ndindex(x.shape):
        x_plus = x
        x_plus[j] += h
        x_minus = x
        x_minus[j] -= h
        grad[j] = (f(x_plus) - f(x_minus)) / (2 * h)
    return grad
""",
    "numgrad_int_nudge_vanishes": """
def numerical_gradient(f, x, h=1e-5):
    grad = np.zeros_like(x)
    for j in np.ndindex(x.shape):
        old = x[j]
        x[j] = old + h
        up = f(x)
        x[j] = old - h
        down = f(x)
        x[j] = old
        grad[j] = (up - down) / (2 * h)
    return grad
""",
    "numgrad_result_like_x": """
def numerical_gradient(f, x, h=1e-5):
    grad = np.zeros_like(x)
    for j in np.ndindex(x.shape):
        e = np.zeros(x.shape)
        e[j] = h
        grad[j] = (f(x + e) - f(x - e)) / (2 * h)
    return grad
""",
    "numgrad_first_axis_only": """
def numerical_gradient(f, x, h=1e-5):
    x = np.asarray(x, dtype=float)
    grad = np.zeros_like(x)
    for j in range(len(x)):
        e = np.zeros_like(x)
        e[j] = h
        grad[j] = (f(x + e) - f(x - e)) / (2 * h)
    return grad
""",
    "numgrad_flat_result": """
def numerical_gradient(f, x, h=1e-5):
    flat = np.asarray(x, dtype=float).ravel()
    grad = np.zeros(flat.size)
    for j in range(flat.size):
        up, down = flat.copy(), flat.copy()
        up[j] += h
        down[j] -= h
        grad[j] = (f(up.reshape(x.shape)) - f(down.reshape(x.shape))) / (2 * h)
    return grad
""",
    "numgrad_ignores_h": """
def numerical_gradient(f, x, h=1e-5):
    x = np.asarray(x, dtype=float)
    step = 1e-5
    grad = np.zeros(x.shape)
    for j in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[j] += step
        down[j] -= step
        grad[j] = (f(up) - f(down)) / (2 * step)
    return grad
""",
    "vjp_builds_jacobian": """
def softmax_vjp(p, g):
    p, g = np.asarray(p, dtype=float), np.asarray(g, dtype=float)
    J = np.diag(p) - np.outer(p, p)
    return J.T @ g
""",
    "vjp_missing_weight": """
def softmax_vjp(p, g):
    p, g = np.asarray(p), np.asarray(g)
    p = p if p.dtype.kind == "f" else p.astype(float)
    g = g if g.dtype.kind == "f" else g.astype(float)
    return g - np.sum(p * g, axis=-1, keepdims=True)
""",
    "vjp_diagonal_only": """
def softmax_vjp(p, g):
    p, g = np.asarray(p), np.asarray(g)
    p = p if p.dtype.kind == "f" else p.astype(float)
    g = g if g.dtype.kind == "f" else g.astype(float)
    return p * g
""",
    "vjp_sign_flipped": """
def softmax_vjp(p, g):
    p, g = np.asarray(p), np.asarray(g)
    p = p if p.dtype.kind == "f" else p.astype(float)
    g = g if g.dtype.kind == "f" else g.astype(float)
    return p * (np.sum(p * g, axis=-1, keepdims=True) - g)
""",
    "vjp_plain_mean": """
def softmax_vjp(p, g):
    p, g = np.asarray(p), np.asarray(g)
    p = p if p.dtype.kind == "f" else p.astype(float)
    g = g if g.dtype.kind == "f" else g.astype(float)
    return p * (g - np.mean(g, axis=-1, keepdims=True))
""",
    "vjp_whole_batch_sum": """
def softmax_vjp(p, g):
    p, g = np.asarray(p), np.asarray(g)
    p = p if p.dtype.kind == "f" else p.astype(float)
    g = g if g.dtype.kind == "f" else g.astype(float)
    return p * (g - np.sum(p * g))
""",
    "vjp_no_keepdims": """
def softmax_vjp(p, g):
    p, g = np.asarray(p), np.asarray(g)
    p = p if p.dtype.kind == "f" else p.astype(float)
    g = g if g.dtype.kind == "f" else g.astype(float)
    return p * (g - np.sum(p * g, axis=-1))
""",
    "vjp_matmul_for_dot": """
def softmax_vjp(p, g):
    p, g = np.asarray(p), np.asarray(g)
    p = p if p.dtype.kind == "f" else p.astype(float)
    g = g if g.dtype.kind == "f" else g.astype(float)
    return p * (g - p @ g)
""",
    "vjp_changes_g": """
def softmax_vjp(p, g):
    p = np.asarray(p)
    g = np.asarray(g)
    if p.dtype.kind != "f":
        p = p.astype(float)
    if g.dtype.kind != "f":
        g = g.astype(float)
    g -= np.sum(p * g, axis=-1, keepdims=True)
    g *= p
    return g
""",
    "vjp_float32_becomes_float64": """
def softmax_vjp(p, g):
    p, g = np.asarray(p, dtype=float), np.asarray(g, dtype=float)
    return p * (g - np.sum(p * g, axis=-1, keepdims=True))
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
