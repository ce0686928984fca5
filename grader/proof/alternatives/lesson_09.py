"""Lesson 09_gradient: correct alternatives, and the mutants equivalent to the reference."""

from grader.proof.alternatives import Alternative

LESSON = "09_gradient"

ALTERNATIVES = [
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
EQUIVALENT_MUTANTS: dict[str, str] = {}
