"""Lesson 08_log_softmax: misconceptions and correct alternatives."""
from grader.catalogue import Alternative, Misconception

LESSON = "08_log_softmax"

MISCONCEPTIONS = [
    # logsumexp
    Misconception(
        "logsumexp_no_shift", "logsumexp",
        "took log(sum(exp(x))) with no shift: exp(1000) overflows to inf and exp(-1000) underflows to 0",
        "shift by each row's max m first, and add it back: m + log(sum(exp(x - m)))", '''
def logsumexp(scores):
    return np.log(np.sum(np.exp(scores), axis=-1))
'''),
    Misconception(
        "logsumexp_forgets_max", "logsumexp",
        "shifted by the max but forgot to add it back: that is the LSE of x - m, not of x",
        "the shift does not cancel here: return m + log(sum(exp(x - m)))", '''
def logsumexp(scores):
    x = np.asarray(scores, dtype=float)
    m = np.max(x, axis=-1, keepdims=True)
    return np.log(np.sum(np.exp(x - m), axis=-1))
'''),
    Misconception(
        "logsumexp_global_max", "logsumexp",
        "shifted by the global max of the whole array instead of each row's own max",
        "take the max over the last axis: x.max(axis=-1, keepdims=True)", '''
def logsumexp(scores):
    x = np.asarray(scores, dtype=float)
    m = x.max()
    return m + np.log(np.sum(np.exp(x - m), axis=-1))
'''),
    Misconception(
        "logsumexp_nan_for_masked_rows", "logsumexp",
        "returned nan for a row whose scores are all -inf: -inf - (-inf) is nan, but the LSE of such a row is -inf",
        "where a row's max is -inf, shift by 0 instead, and give a sum of 0 the log -inf", '''
def logsumexp(scores):
    x = np.asarray(scores, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    return (m + np.log(np.sum(np.exp(x - m), axis=-1, keepdims=True)))[..., 0]
'''),
    Misconception(
        "logsumexp_keeps_axis", "logsumexp",
        "kept the summed axis (keepdims=True) in the result: one number per row is expected, shape scores.shape[:-1]",
        "drop the last axis of the result (sum without keepdims, or index [..., 0])", '''
def logsumexp(scores):
    x = np.asarray(scores, dtype=float)
    m = np.max(x, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    total = np.sum(np.exp(x - m), axis=-1, keepdims=True)
    return m + np.log(total, out=np.full_like(total, -np.inf), where=total > 0)
'''),
    Misconception(
        "logsumexp_sums_axis0", "logsumexp",
        "summed down the first axis (axis 0) instead of along each row",
        "take the max and the sum over the last axis: axis=-1", '''
def logsumexp(scores):
    x = np.asarray(scores, dtype=float)
    m = x.max(axis=0)
    return m + np.log(np.sum(np.exp(x - m), axis=0))
'''),
    Misconception(
        "logsumexp_float32_becomes_float64", "logsumexp",
        "turned float32 scores into float64 (np.asarray(scores, dtype=float) converts every input)",
        "convert only non-float input: np.issubdtype(x.dtype, np.floating) tells you", '''
def logsumexp(scores):
    x = np.asarray(scores, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    total = np.sum(np.exp(x - m), axis=-1)
    return m[..., 0] + np.log(total, out=np.full_like(total, -np.inf), where=total > 0)
'''),
    # log_softmax
    Misconception(
        "log_softmax_log_of_softmax", "log_softmax",
        "took the log of the softmax weights: a weight that underflows to 0 gives -inf, though its log-weight "
        "is an ordinary number",
        "never form the weights: return (x - m) - log(sum(exp(x - m))) with m each row's max", '''
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return np.log(e / e.sum(axis=-1, keepdims=True))
'''),
    Misconception(
        "log_softmax_no_shift", "log_softmax",
        "subtracted log(sum(exp(x))) with no shift: exp(1000) overflows to inf and exp(-1000) underflows to 0",
        "shift by each row's max first: (x - m) - log(sum(exp(x - m)))", '''
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    return x - np.log(np.sum(np.exp(x), axis=-1, keepdims=True))
'''),
    Misconception(
        "log_softmax_only_max", "log_softmax",
        "subtracted only the max and left out the log of the shifted sum: the weights no longer sum to 1",
        "subtract the whole LSE: (x - m) - log(sum(exp(x - m)))", '''
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    return x - x.max(axis=-1, keepdims=True)
'''),
    Misconception(
        "log_softmax_global_max", "log_softmax",
        "shifted by the global max of the whole array instead of each row's own max",
        "take the max over the last axis: x.max(axis=-1, keepdims=True)", '''
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    z = x - x.max()
    return z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))
'''),
    Misconception(
        "log_softmax_lse_without_keepdims", "log_softmax",
        "subtracted each row's LSE without keeping its axis, so it lined up with the columns instead of the rows",
        "keep the summed axis (keepdims=True, or lse[..., np.newaxis]) so each row loses its own LSE", '''
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    m = np.max(x, axis=-1)
    lse = m + np.log(np.sum(np.exp(x - np.max(x, axis=-1, keepdims=True)), axis=-1))
    return x - lse
'''),
    Misconception(
        "log_softmax_sums_whole_array", "log_softmax",
        "took one LSE of the whole array instead of one per row, so unrelated rows competed",
        "take the max and the sum over the last axis (axis=-1, keepdims=True)", '''
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    m = x.max()
    return x - (m + np.log(np.sum(np.exp(x - m))))
'''),
    Misconception(
        "log_softmax_float32_becomes_float64", "log_softmax",
        "turned float32 scores into float64 (np.asarray(scores, dtype=float) converts every input)",
        "convert only non-float input: np.issubdtype(x.dtype, np.floating) tells you", '''
def log_softmax(scores):
    x = np.asarray(scores, dtype=float)
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))
'''),
    # cross_entropy
    Misconception(
        "cross_entropy_via_log_of_softmax", "cross_entropy",
        "computed the loss as -log(softmax(logits))[target]: a weight that underflows to 0 makes the loss inf",
        "compute from the logits: LSE(row) - row[target], never through the weights", '''
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    t = np.asarray(target)
    return -np.log(np.take_along_axis(p, t[..., None], axis=-1)[..., 0])
'''),
    Misconception(
        "cross_entropy_forgets_minus", "cross_entropy",
        "returned the log-weight of the target instead of its negative: the loss must be -log p, which is >= 0",
        "loss = LSE(row) - row[target] = -log_softmax(row)[target]", '''
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    log_p = (x - m) - np.log(np.sum(np.exp(x - m), axis=-1, keepdims=True))
    return np.take_along_axis(log_p, np.asarray(target)[..., None], axis=-1)[..., 0]
'''),
    Misconception(
        "cross_entropy_adds_target_logit", "cross_entropy",
        "added the target's logit to the LSE instead of subtracting it",
        "loss = LSE(row) - row[target]: the higher the target's logit, the smaller the loss", '''
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    m = x.max(axis=-1)
    lse = m + np.log(np.sum(np.exp(x - m[..., None]), axis=-1))
    return lse + np.take_along_axis(x, np.asarray(target)[..., None], axis=-1)[..., 0]
'''),
    Misconception(
        "cross_entropy_no_shift", "cross_entropy",
        "took log(sum(exp(logits))) with no shift: exp(1000) overflows to inf",
        "shift by each row's max m: m + log(sum(exp(x - m))) - x[target]", '''
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    picked = np.take_along_axis(x, np.asarray(target)[..., None], axis=-1)[..., 0]
    return np.log(np.sum(np.exp(x), axis=-1)) - picked
'''),
    Misconception(
        "cross_entropy_mean_over_batch", "cross_entropy",
        "averaged the losses over the batch: one loss per row is expected (take the mean afterwards)",
        "return the loss of every row, shape logits.shape[:-1]; do not call .mean()", '''
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    log_p = (x - m) - np.log(np.sum(np.exp(x - m), axis=-1, keepdims=True))
    return -np.mean(np.take_along_axis(log_p, np.asarray(target)[..., None], axis=-1))
'''),
    Misconception(
        "cross_entropy_target_column", "cross_entropy",
        "indexed the columns with the whole target array (x[..., target]), which pairs every row with every target",
        "pick one entry per row: np.take_along_axis(x, target[..., None], axis=-1), or x[np.arange(n), target]", '''
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    log_p = (x - m) - np.log(np.sum(np.exp(x - m), axis=-1, keepdims=True))
    return -log_p[..., target]
'''),
    Misconception(
        "cross_entropy_float32_becomes_float64", "cross_entropy",
        "turned float32 logits into float64 (np.asarray(logits, dtype=float) converts every input)",
        "convert only non-float input: np.issubdtype(x.dtype, np.floating) tells you", '''
def cross_entropy(logits, target):
    x = np.asarray(logits, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    picked = np.take_along_axis(x - m, np.asarray(target)[..., None], axis=-1)[..., 0]
    return np.log(np.sum(np.exp(x - m), axis=-1)) - picked
'''),
]

ALTERNATIVES = [
    Alternative("logsumexp_logaddexp_reduce", "logsumexp", "np.logaddexp.reduce along the last axis", '''
def logsumexp(scores):
    x = np.asarray(scores)
    if x.dtype.kind != "f":
        x = x.astype(float)
    return np.logaddexp.reduce(x, axis=-1)
'''),
    Alternative("logsumexp_math_loop", "logsumexp",
                "math.exp and math.log row by row on a 2-D view, turned into the input's float dtype", '''
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
'''),
    Alternative("logsumexp_log1p_of_the_rest", "logsumexp",
                "max + log1p(sum of exp of the other scores), leaving the max's own 1 out of the sum", '''
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
'''),
    Alternative("log_softmax_minus_logsumexp", "log_softmax",
                "x minus each row's LSE (m + log of the shifted sum), given back its axis", '''
def log_softmax(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    m = np.max(x, axis=-1)
    lse = m + np.log(np.sum(np.exp(x - m[..., np.newaxis]), axis=-1))
    return x - lse[..., np.newaxis]
'''),
    Alternative("log_softmax_logaddexp_reduce", "log_softmax", "x - np.logaddexp.reduce(x, axis=-1, keepdims=True)", '''
def log_softmax(scores):
    x = np.asarray(scores)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    return x - np.logaddexp.reduce(x, axis=-1, keepdims=True)
'''),
    Alternative("log_softmax_math_loop", "log_softmax",
                "math.exp and math.log on nested lists row by row, turned into the input's float dtype", '''
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
'''),
    Alternative("log_softmax_log1p", "log_softmax",
                "(x - m) - log1p(sum of the others), accurate even for the top log-weight", '''
def log_softmax(scores):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    top = np.argmax(x, axis=-1)[..., None]
    z = x - np.take_along_axis(x, top, axis=-1)
    terms = np.exp(z)
    np.put_along_axis(terms, top, 0, axis=-1)
    return z - np.log1p(terms.sum(axis=-1, keepdims=True))
'''),
    Alternative("cross_entropy_one_hot", "cross_entropy", "sums a one-hot target row times the stable log-softmax", '''
def cross_entropy(logits, target):
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    z = x - x.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    one_hot = np.eye(x.shape[-1], dtype=x.dtype)[np.asarray(target)]
    return -(one_hot * log_p).sum(axis=-1)
'''),
    Alternative("cross_entropy_math_loop", "cross_entropy",
                "a loop over rows with math.exp and math.log, turned into the input's float dtype", '''
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
'''),
    Alternative("cross_entropy_fancy_index", "cross_entropy",
                "logaddexp.reduce for the LSE and x[rows, target] on a 2-D view for the target logits", '''
def cross_entropy(logits, target):
    x = np.asarray(logits)
    if x.dtype.kind != "f":
        x = x.astype(float)
    flat = x.reshape(-1, x.shape[-1])
    t = np.asarray(target).reshape(-1)
    losses = np.logaddexp.reduce(flat, axis=-1) - flat[np.arange(len(flat)), t]
    return losses.reshape(x.shape[:-1])[()]
'''),
]
