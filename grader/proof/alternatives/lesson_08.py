"""Lesson 08_log_softmax: correct alternatives, and the mutants equivalent to the reference."""

from grader.proof.alternatives import Alternative

LESSON = "08_log_softmax"

ALTERNATIVES = [
    Alternative(
        "logsumexp_logaddexp_reduce",
        "logsumexp",
        "np.logaddexp.reduce along the last axis",
        """
def logsumexp(scores):
    x = np.asarray(scores)
    if x.dtype.kind != "f":
        x = x.astype(float)
    return np.logaddexp.reduce(x, axis=-1)
""",
    ),
    Alternative(
        "logsumexp_math_loop",
        "logsumexp",
        "math.exp and math.log row by row on a 2-D view, turned into the input's float dtype",
        """
def logsumexp(scores):
    import math
    x = np.asarray(scores)
    dtype = x.dtype if x.dtype.kind == "f" else np.float64
    out = []
    for row in x.reshape(-1, x.shape[-1]).tolist():
        m = max(row)
        if m == -math.inf:
            out.append(-math.inf)
        else:
            out.append(m + math.log(sum(math.exp(v - m) for v in row)))
    return np.array(out, dtype=dtype).reshape(x.shape[:-1])[()]
""",
    ),
    Alternative(
        "logsumexp_log1p_of_the_rest",
        "logsumexp",
        "max + log1p(sum of exp of the other scores), leaving the max's own 1 out of the sum",
        """
def logsumexp(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    top = np.argmax(x, axis=-1)[..., None]
    m = np.take_along_axis(x, top, axis=-1)
    safe = np.where(np.isneginf(m), np.zeros_like(m), m)
    terms = np.exp(x - safe)
    np.put_along_axis(terms, top, 0, axis=-1)
    rest = terms.sum(axis=-1)
    return np.where(np.isneginf(m[..., 0]), m[..., 0], m[..., 0] + np.log1p(rest))
""",
    ),
    Alternative(
        "logsumexp_apply_along_axis",
        "logsumexp",
        "np.apply_along_axis with a one-row function (masked rows handled first), cast to the input's dtype",
        """
def logsumexp(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)

    def one_row(row):
        m = row.max()
        if np.isneginf(m):
            return -np.inf
        return m + np.log(np.exp(row - m).sum())

    return np.apply_along_axis(one_row, -1, x).astype(x.dtype)
""",
    ),
    Alternative(
        "logsumexp_safe_max_errstate",
        "logsumexp",
        "shift by a max made finite, then np.log of the sum under np.errstate(divide='ignore')",
        """
def logsumexp(scores):
    x = np.asarray(scores)
    if x.dtype.kind in "biu":
        x = x.astype(np.float64)
    m = np.max(x, axis=-1)
    m = np.where(np.isneginf(m), np.zeros_like(m), m)
    with np.errstate(divide="ignore"):
        return m + np.log(np.exp(x - m[..., None]).sum(axis=-1))
""",
    ),
    Alternative(
        "log_softmax_minus_logsumexp",
        "log_softmax",
        "x minus each row's LSE (m + log of the shifted sum), given back its axis",
        """
def log_softmax(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    m = np.max(x, axis=-1)
    lse = m + np.log(np.sum(np.exp(x - m[..., np.newaxis]), axis=-1))
    return x - lse[..., np.newaxis]
""",
    ),
    Alternative(
        "log_softmax_logaddexp_reduce",
        "log_softmax",
        "x - np.logaddexp.reduce(x, axis=-1, keepdims=True)",
        """
def log_softmax(scores):
    x = np.asarray(scores)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    return x - np.logaddexp.reduce(x, axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "log_softmax_math_loop",
        "log_softmax",
        "math.exp and math.log on nested lists row by row, turned into the input's float dtype",
        """
def log_softmax(scores):
    import math
    x = np.asarray(scores)
    dtype = x.dtype if x.dtype.kind == "f" else np.float64
    rows = []
    for row in x.reshape(-1, x.shape[-1]).tolist():
        m = max(row)
        log_total = math.log(sum(math.exp(v - m) for v in row))
        rows.append([(v - m) - log_total for v in row])
    return np.array(rows, dtype=dtype).reshape(x.shape)
""",
    ),
    Alternative(
        "log_softmax_log1p",
        "log_softmax",
        "(x - m) - log1p(sum of the others), accurate even for the top log-weight",
        """
def log_softmax(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    top = np.argmax(x, axis=-1)[..., None]
    z = x - np.take_along_axis(x, top, axis=-1)
    terms = np.exp(z)
    np.put_along_axis(terms, top, 0, axis=-1)
    return z - np.log1p(terms.sum(axis=-1, keepdims=True))
""",
    ),
    Alternative(
        "log_softmax_apply_along_axis",
        "log_softmax",
        "np.apply_along_axis with a one-row function that shifts by the row's max",
        """
def log_softmax(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)

    def one_row(row):
        z = row - row.max()
        return z - np.log(np.exp(z).sum())

    return np.apply_along_axis(one_row, -1, x)
""",
    ),
    Alternative(
        "cross_entropy_one_hot_where",
        "cross_entropy",
        "np.where with a one-hot mask picks the target's stable log-weight (no 0 * -inf)",
        """
def cross_entropy(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    z = x - x.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    one_hot = np.arange(x.shape[-1]) == np.asarray(target)[..., np.newaxis]
    return -np.where(one_hot, log_p, 0).sum(axis=-1)
""",
    ),
    Alternative(
        "cross_entropy_math_loop",
        "cross_entropy",
        "a loop over rows with math.exp and math.log, turned into the input's float dtype",
        """
def cross_entropy(logits, target):
    import math
    x = np.asarray(logits)
    dtype = x.dtype if x.dtype.kind == "f" else np.float64
    rows = x.reshape(-1, x.shape[-1]).tolist()
    targets = np.asarray(target).reshape(-1).tolist()
    losses = []
    for row, t in zip(rows, targets):
        m = max(row)
        losses.append(m + math.log(sum(math.exp(v - m) for v in row)) - row[t])
    return np.array(losses, dtype=dtype).reshape(x.shape[:-1])[()]
""",
    ),
    Alternative(
        "cross_entropy_fancy_index",
        "cross_entropy",
        "logaddexp.reduce for the LSE and x[rows, target] on a 2-D view for the target logits",
        """
def cross_entropy(logits, target):
    x = np.asarray(logits)
    if x.dtype.kind != "f":
        x = x.astype(float)
    flat = x.reshape(-1, x.shape[-1])
    t = np.asarray(target).reshape(-1)
    losses = np.logaddexp.reduce(flat, axis=-1) - flat[np.arange(len(flat)), t]
    return losses.reshape(x.shape[:-1])[()]
""",
    ),
    Alternative(
        "cross_entropy_minus_log_softmax",
        "cross_entropy",
        "minus the target's entry of x - logaddexp.reduce(x), the log-softmax in log-sum-exp form",
        """
def cross_entropy(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    log_p = x - np.logaddexp.reduce(x, axis=-1, keepdims=True)
    t = np.asarray(target)
    return -np.take_along_axis(log_p, t[..., np.newaxis], axis=-1)[..., 0]
""",
    ),
]

# Mechanical mutants of the references (grader.proof.mutate) that compute the same thing as the reference on every
# input the contract allows (no +inf and no nan scores), so no test can tell them apart.
EQUIVALENT_MUTANTS = {
    "logsumexp:plus-1:1": "a row's max is non-finite only when every score is -inf; shifting such a row by 1 "
    "instead of 0 still leaves -inf scores, a zero sum and the answer -inf",
    "logsumexp:minus-1:1": "a row's max is non-finite only when every score is -inf; shifting such a row by -1 "
    "instead of 0 still leaves -inf scores, a zero sum and the answer -inf",
    "logsumexp:minus-1:3": "m keeps the summed axis with length 1, so m[..., -1] is the same entry as m[..., 0]",
    "logsumexp:no-cast:2": "m already has x's float dtype: np.where with the Python float 0.0 keeps it "
    "(NumPy 2 promotion), so the cast changes nothing",
    "cross_entropy:minus-1:1": "the picked axis has length 1, so [..., -1] is the same entry as [..., 0]",
}
