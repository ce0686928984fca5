"""Lesson 03_shared_denominator: the source of each catalogued misconception, by id (its description, hint and probes
are in grader/learner/hints/)."""

LESSON = "03_shared_denominator"

SOURCES = {
    "softmax_no_exp": """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=-1, keepdims=True)
""",
    "softmax_divides_by_raw_total": """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    return np.exp(x) / x.sum(axis=-1, keepdims=True)
""",
    "softmax_whole_array": """
def softmax(scores):
    evidence = np.exp(scores)
    return evidence / evidence.sum()
""",
    "softmax_axis0": """
def softmax(scores):
    evidence = np.exp(scores)
    return evidence / np.sum(evidence, axis=0)
""",
    "softmax_axis1": """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    if evidence.ndim == 1:
        return evidence / evidence.sum()
    return evidence / evidence.sum(axis=1, keepdims=True)
""",
    "softmax_no_keepdims": """
def softmax(scores):
    evidence = np.exp(scores)
    return evidence / evidence.sum(axis=-1)
""",
    "softmax_shift_without_keepdims": """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    evidence = np.exp(x - x.max(axis=-1))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "softmax_loops_first_axis": """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    if x.ndim == 1:
        return np.exp(x) / np.exp(x).sum()
    out = np.empty_like(x)
    for i, row in enumerate(x):
        evidence = np.exp(row)
        out[i] = evidence / evidence.sum()
    return out
""",
    "softmax_in_place": """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x
""",
    "softmax_returns_list": """
import math

def softmax(scores):
    evidence = [math.exp(s) for s in scores]
    total = sum(evidence)
    return [e / total for e in evidence]
""",
    "softmax_fails_on_ints": """
def softmax(scores):
    x = np.array(scores)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x
""",
    "softmax_int_output_array": """
def softmax(scores):
    x = np.asarray(scores)
    out = np.zeros_like(x)
    evidence = np.exp(x)
    out[...] = evidence / evidence.sum(axis=-1, keepdims=True)
    return out
""",
    "softmax_fails_on_lists": """
def softmax(scores):
    evidence = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "softmax_squeezes": """
def softmax(scores):
    evidence = np.exp(np.squeeze(np.asarray(scores, dtype=float)))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "softmax_transposes": """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    return (evidence.T / evidence.sum(axis=-1)).T
""",
    "softmax_flattens_batches": """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    rows = np.exp(x.reshape(-1, x.shape[-1]))
    weights = rows / rows.sum(axis=1, keepdims=True)
    return weights[0] if x.ndim == 1 else weights
""",
    "softmax_float32": """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=np.float32))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "softmax_exp_of_small_ints": """
def softmax(scores):
    evidence = np.exp(np.asarray(scores))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "softmax_clips_scores": """
def softmax(scores):
    evidence = np.exp(np.clip(np.asarray(scores, dtype=float), -50.0, 50.0))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "softmax_sorted": """
def softmax(scores):
    x = np.array(scores, dtype=float)
    x.sort(axis=-1)
    evidence = np.exp(x - x[..., -1:])
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "softmax_total_skips_first": """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    evidence = np.exp(x)
    total = np.zeros(x.shape[:-1] + (1,))
    for j in range(1, x.shape[-1]):
        total[..., 0] += evidence[..., j]
    return evidence / total
""",
    "softmax_cumsum_total": """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    return evidence / np.cumsum(evidence, axis=-1)
""",
    "softmax_shift_in_place": """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    x -= x.max(axis=-1, keepdims=True)
    evidence = np.exp(x)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "softmax_eps_total": """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    return evidence / (evidence.sum(axis=-1, keepdims=True) + 1e-9)
""",
    "softmax_sigmoid": """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    return evidence / (1.0 + evidence)
""",
}
