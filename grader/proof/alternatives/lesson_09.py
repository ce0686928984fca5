"""Lesson 09_gradient: correct alternatives, and the mutants equivalent to the reference."""

from grader.proof.alternatives import Alternative

LESSON = "09_gradient"

ALTERNATIVES = [
    # numerical_gradient
    Alternative(
        "numgrad_flat_loop",
        "numerical_gradient",
        "a loop over the entries of a flat float copy, each nudged point reshaped to x's shape, the result too",
        """
def numerical_gradient(f, x, h=1e-5):
    flat = np.array(x, dtype=float).ravel()
    grad = np.empty(flat.size)
    for j in range(flat.size):
        up, down = flat.copy(), flat.copy()
        up[j] += h
        down[j] -= h
        grad[j] = (f(up.reshape(np.shape(x))) - f(down.reshape(np.shape(x)))) / (2 * h)
    return grad.reshape(np.shape(x))
""",
    ),
    Alternative(
        "numgrad_saved_value",
        "numerical_gradient",
        "a float copy nudged in place with np.nditer's multi_index, the saved entry put back after each pair of calls",
        """
def numerical_gradient(f, x, h=1e-5):
    x = np.array(x, dtype=float)
    grad = np.zeros_like(x)
    it = np.nditer(x, flags=["multi_index"])
    while not it.finished:
        ix = it.multi_index
        old = x[ix]
        x[ix] = old + h
        up = f(x)
        x[ix] = old - h
        down = f(x)
        x[ix] = old
        grad[ix] = (up - down) / (2 * h)
        it.iternext()
    return grad
""",
    ),
    Alternative(
        "numgrad_basis_vectors",
        "numerical_gradient",
        "the nudges as the rows of h times the identity matrix, each reshaped to x's shape",
        """
def numerical_gradient(f, x, h=1e-5):
    x = np.asarray(x).astype(np.float64)
    steps = h * np.eye(x.size)
    slopes = [(f(x + step.reshape(x.shape)) - f(x - step.reshape(x.shape))) / (2 * h) for step in steps]
    return np.array(slopes).reshape(x.shape)
""",
    ),
    Alternative(
        "numgrad_unravel_index",
        "numerical_gradient",
        "one index at a time from np.unravel_index, half the difference divided by h",
        """
def numerical_gradient(f, x, h=1e-5):
    x = np.asarray(x, dtype=np.float64)
    grad = np.empty_like(x)
    for k in range(x.size):
        j = np.unravel_index(k, x.shape)
        e = np.zeros_like(x)
        e[j] = h
        grad[j] = 0.5 * (f(x + e) - f(x - e)) / h
    return grad
""",
    ),
    Alternative(
        "numgrad_ndenumerate_lists",
        "numerical_gradient",
        "np.ndenumerate over x, the slopes gathered in a Python list and made an array of x's shape at the end",
        """
def numerical_gradient(f, x, h=1e-5):
    base = np.asarray(x, dtype=float)
    slopes = []
    for index, value in np.ndenumerate(base):
        up = base.copy()
        down = base.copy()
        up[index] = value + h
        down[index] = value - h
        slopes.append((f(up) - f(down)) / (h + h))
    return np.array(slopes, dtype=float).reshape(base.shape)
""",
    ),
    # softmax_vjp
    Alternative(
        "vjp_einsum",
        "softmax_vjp",
        "the weighted average per row with np.einsum, subtracted from g, times p",
        """
def softmax_vjp(p, g):
    p, g = np.asarray(p), np.asarray(g)
    if p.dtype.kind != "f":
        p = p.astype(np.float64)
    if g.dtype.kind != "f":
        g = g.astype(np.float64)
    average = np.einsum("...i,...i->...", p, g)
    return p * (g - average[..., np.newaxis])
""",
    ),
    Alternative(
        "vjp_expanded",
        "softmax_vjp",
        "the two parts of J^T g apart: p * g minus p times the row's sum of p * g",
        """
def softmax_vjp(p, g):
    p = np.asarray(p)
    g = np.asarray(g)
    if not np.issubdtype(p.dtype, np.floating):
        p = p.astype(float)
    if not np.issubdtype(g.dtype, np.floating):
        g = g.astype(float)
    pg = p * g
    return pg - p * pg.sum(axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "vjp_row_jacobians",
        "softmax_vjp",
        "a loop over the rows of a (rows, n) view, each row's Jacobian built and multiplied by its g (n^2 per row, "
        "but right)",
        """
def softmax_vjp(p, g):
    p, g = np.asarray(p), np.asarray(g)
    kinds = [a.dtype if a.dtype.kind == "f" else np.float64 for a in (p, g)]
    dtype = np.result_type(*kinds)
    rows, slopes = p.reshape(-1, p.shape[-1]).astype(dtype), g.reshape(-1, g.shape[-1]).astype(dtype)
    out = np.empty_like(slopes)
    for i in range(rows.shape[0]):
        J = np.diag(rows[i]) - np.outer(rows[i], rows[i])
        out[i] = J.T @ slopes[i]
    return out.reshape(g.shape)
""",
    ),
    Alternative(
        "vjp_matmul_rows",
        "softmax_vjp",
        "the dot product of each row as a (1, n) @ (n, 1) matrix product over the batch",
        """
def softmax_vjp(p, g):
    p, g = np.asarray(p), np.asarray(g)
    if p.dtype.kind not in "f":
        p = p.astype(np.float64)
    if g.dtype.kind not in "f":
        g = g.astype(np.float64)
    dot = (p[..., np.newaxis, :] @ g[..., :, np.newaxis])[..., 0]
    return p * (g - dot)
""",
    ),
    Alternative(
        "vjp_python_rows",
        "softmax_vjp",
        "each row as Python floats: the weighted average by a loop, then p_i (g_i - average), made an array at the end",
        """
def softmax_vjp(p, g):
    p, g = np.asarray(p), np.asarray(g)
    dtype = np.float32 if p.dtype == np.float32 and g.dtype == np.float32 else np.float64
    out = []
    for prow, grow in zip(p.reshape(-1, p.shape[-1]).tolist(), g.reshape(-1, g.shape[-1]).tolist()):
        average = sum(a * b for a, b in zip(prow, grow))
        out.append([a * (b - average) for a, b in zip(prow, grow)])
    return np.array(out, dtype=dtype).reshape(g.shape)
""",
    ),
    # cross_entropy_grad
    Alternative(
        "cegrad_exp_of_log_softmax",
        "cross_entropy_grad",
        "the weights as exp of lesson 08's log-softmax, (x - m) - log(sum(exp(x - m))) with the shift kept apart, "
        "minus a onehot made in the weights' dtype",
        """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    shifted = x - x.max(axis=-1, keepdims=True)
    log_weights = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    onehot = (np.arange(x.shape[-1]) == np.asarray(target)[..., np.newaxis]).astype(x.dtype)
    return np.exp(log_weights) - onehot
""",
    ),
    Alternative(
        "cegrad_put_along_axis",
        "cross_entropy_grad",
        "the softmax, then 1 taken off each row's target entry with np.take_along_axis and np.put_along_axis",
        """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    g = e / np.sum(e, axis=-1, keepdims=True)
    where = np.expand_dims(np.asarray(target), -1)
    np.put_along_axis(g, where, np.take_along_axis(g, where, axis=-1) - 1, axis=-1)
    return g
""",
    ),
    Alternative(
        "cegrad_row_loop",
        "cross_entropy_grad",
        "a loop over the rows of a (rows, classes) view, each row's softmax with its own max and 1 taken off "
        "its target, reshaped back",
        """
def cross_entropy_grad(logits, target):
    x = np.array(logits)
    if x.dtype.kind not in "f":
        x = x.astype(np.float64)
    rows = x.reshape(-1, x.shape[-1])
    targets = np.asarray(target).reshape(-1)
    out = np.empty_like(rows)
    for i in range(rows.shape[0]):
        e = np.exp(rows[i] - rows[i].max())
        out[i] = e / e.sum()
        out[i, targets[i]] -= 1
    return out.reshape(x.shape)
""",
    ),
    Alternative(
        "cegrad_eye_in_dtype",
        "cross_entropy_grad",
        "the onehot rows picked from np.eye(n) made in the logits' dtype",
        """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) - np.eye(x.shape[-1], dtype=x.dtype)[np.asarray(target)]
""",
    ),
    Alternative(
        "cegrad_math_exp_lists",
        "cross_entropy_grad",
        "each row as a Python list with math.exp, 1 taken off the target, made an array of the logits' dtype "
        "at the end",
        """
import math

def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    rows = x.reshape(-1, x.shape[-1]).astype(np.float64).tolist()
    targets = np.asarray(target).reshape(-1).tolist()
    out = []
    for row, k in zip(rows, targets):
        top = max(row)
        e = [math.exp(v - top) for v in row]
        total = sum(e)
        g = [v / total for v in e]
        g[k] -= 1.0
        out.append(g)
    return np.array(out, dtype=dtype).reshape(x.shape)
""",
    ),
    Alternative(
        "cegrad_indices_subtract",
        "cross_entropy_grad",
        "the softmax, then 1 taken off at the index tuple (np.indices of the targets' shape, the targets) of every row",
        """
def cross_entropy_grad(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - np.amax(x, axis=-1, keepdims=True))
    g = e / np.sum(e, axis=-1, keepdims=True)
    t = np.asarray(target)
    g[(*np.indices(t.shape), t)] -= 1.0
    return g
""",
    ),
]

# Mechanical mutants of the reference that compute the same thing for every valid input.
EQUIVALENT_MUTANTS: dict[str, str] = {
    "softmax_vjp:no-cast:1": "an integer p meets g in the product: an integer g is made float64 by the other cast, a "
    "float64 g makes the result float64 anyway, and only a small integer p beside a float32 g (a mix the contract "
    "leaves open) would come out float32",
    "softmax_vjp:no-cast:2": "the same for g: an integer p is made float64 by the other cast, a float64 p makes the "
    "result float64 anyway, and only a small integer g beside a float32 p (a mix the contract leaves open) would "
    "come out float32",
}
