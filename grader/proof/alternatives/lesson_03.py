"""Lesson 03_shared_denominator: correct alternatives, and the mutants equivalent to the reference."""

from grader.proof.alternatives import Alternative

LESSON = "03_shared_denominator"

ALTERNATIVES = [
    Alternative(
        "softmax_loop_over_rows",
        "softmax",
        "loops over the rows of a 2-D view, one row at a time",
        """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    rows = x.reshape(-1, x.shape[-1])
    out = np.empty_like(rows)
    for i in range(rows.shape[0]):
        evidence = np.exp(rows[i])
        out[i] = evidence / evidence.sum()
    return out.reshape(x.shape)
""",
    ),
    Alternative(
        "softmax_apply_along_axis",
        "softmax",
        "np.apply_along_axis with a one-row softmax",
        """
def softmax(scores):
    def one_row(row):
        evidence = np.exp(row)
        return evidence / np.sum(evidence)

    return np.apply_along_axis(one_row, -1, np.asarray(scores, dtype=float))
""",
    ),
    Alternative(
        "softmax_log_sum_exp",
        "softmax",
        "exp(x - logsumexp(x)), the log-sum-exp form",
        """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    top = x.max(axis=-1, keepdims=True)
    log_total = top + np.log(np.exp(x - top).sum(axis=-1, keepdims=True))
    return np.exp(x - log_total)
""",
    ),
    Alternative(
        "softmax_math_exp_lists",
        "softmax",
        "math.exp on nested Python lists, turned into an array at the end",
        """
import math

def softmax(scores):
    def normalise(rows):
        if isinstance(rows[0], list):
            return [normalise(row) for row in rows]
        evidence = [math.exp(s) for s in rows]
        total = sum(evidence)
        return [e / total for e in evidence]

    return np.array(normalise(np.asarray(scores, dtype=float).tolist()))
""",
    ),
    Alternative(
        "softmax_shift_by_row_max",
        "softmax",
        "subtracts each row's max first (lesson 05's stable form)",
        """
def softmax(scores):
    x = np.array(scores, dtype=np.float64)
    evidence = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return evidence / np.sum(evidence, axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "softmax_global_shift",
        "softmax",
        "subtracts the largest score of the whole array (enough for this lesson's scores, -100 to 100)",
        """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    evidence = np.exp(x - x.max())
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "softmax_logaddexp",
        "softmax",
        "exp(x - np.logaddexp.reduce(x)) over the last axis",
        """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    return np.exp(x - np.logaddexp.reduce(x, axis=-1, keepdims=True))
""",
    ),
    Alternative(
        "softmax_einsum_total",
        "softmax",
        "row totals with np.einsum, their axis added back with None",
        """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    return evidence / np.einsum("...i->...", evidence)[..., None]
""",
    ),
    Alternative(
        "softmax_keeps_float32",
        "softmax",
        "keeps a float input's dtype (float32 stays float32), makes other input float64",
        """
def softmax(scores):
    x = np.asarray(scores)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    evidence = np.exp(x)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    ),
]
