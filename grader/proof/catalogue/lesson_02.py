"""Lesson 02_exp_evidence: the source of each catalogued misconception, by id (its description, hint and probes
are in grader/learner/hints/)."""

LESSON = "02_exp_evidence"

SOURCES = {
    "evidence_returns_list": """
def evidence(scores):
    return [np.exp(s) for s in scores]
""",
    "evidence_in_place": """
def evidence(scores):
    x = np.asarray(scores, dtype=float)
    np.exp(x, out=x)
    return x
""",
    "evidence_keeps_int_dtype": """
def evidence(scores):
    x = np.asarray(scores)
    return np.exp(x).astype(x.dtype)
""",
    "evidence_fails_on_ints": """
def evidence(scores):
    x = np.array(scores)
    np.exp(x, out=x)
    return x
""",
    "evidence_fails_on_lists": """
def evidence(scores):
    return np.e ** scores
""",
    "evidence_normalised": """
def evidence(scores):
    e = np.exp(np.asarray(scores, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "evidence_returns_scalar": """
def evidence(scores):
    return np.exp(np.asarray(scores, dtype=float)).sum()
""",
    "evidence_float32": """
def evidence(scores):
    return np.exp(np.asarray(scores, dtype=np.float32))
""",
    "evidence_exp_of_small_ints": """
def evidence(scores):
    return np.exp(np.asarray(scores))
""",
    "evidence_clips": """
def evidence(scores):
    return np.exp(np.clip(np.asarray(scores, dtype=float), -100.0, 100.0))
""",
    "evidence_flat_list": """
import math

def evidence(scores):
    x = np.asarray(scores, dtype=float)
    return np.array([math.exp(s) for s in x.ravel()])
""",
    "evidence_at_least_1d": """
def evidence(scores):
    return np.exp(np.atleast_1d(np.asarray(scores, dtype=float)))
""",
    "evidence_flushes_tiny": """
def evidence(scores):
    x = np.asarray(scores, dtype=float)
    return np.where(x < -700.0, 0.0, np.exp(x))
""",
    "ratio_reversed": """
def evidence_ratio(a, b):
    return np.exp(np.asarray(b, dtype=float) - np.asarray(a, dtype=float))
""",
    "ratio_no_exp": """
def evidence_ratio(a, b):
    return np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
""",
    "ratio_of_raw_scores": """
def evidence_ratio(a, b):
    return np.asarray(a, dtype=float) / np.asarray(b, dtype=float)
""",
    "ratio_exp_quotient_overflows": """
def evidence_ratio(a, b):
    return np.exp(np.asarray(a, dtype=float)) / np.exp(np.asarray(b, dtype=float))
""",
    "ratio_fails_on_lists": """
def evidence_ratio(a, b):
    return np.exp(a - b)
""",
    "ratio_converts_to_float": """
def evidence_ratio(a, b):
    return float(np.exp(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)))
""",
    "ratio_in_place": """
def evidence_ratio(a, b):
    a = np.asarray(a, dtype=float)
    a -= np.asarray(b, dtype=float)
    return np.exp(a)
""",
    "ratio_int_difference": """
def evidence_ratio(a, b):
    return np.exp(np.subtract(a, b))
""",
    "ratio_float32": """
def evidence_ratio(a, b):
    return np.exp(np.asarray(a, dtype=np.float32) - np.asarray(b, dtype=np.float32))
""",
    "ratio_flat_list": """
import math

def evidence_ratio(a, b):
    pairs = zip(np.ravel(a).tolist(), np.ravel(b).tolist())
    return np.array([math.exp(x - y) for x, y in pairs])
""",
    "normalize_plain_total": """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return x / x.sum(axis=-1, keepdims=True)
""",
    "normalize_by_max_only": """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return x / x.max(axis=-1, keepdims=True)
""",
    "normalize_global_max": """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    x = x / x.max()
    return x / x.sum(axis=-1, keepdims=True)
""",
    "normalize_applies_exp_again": """
def normalize_evidence(ev):
    e = np.exp(np.asarray(ev, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "normalize_whole_array": """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    x = x / x.max(axis=-1, keepdims=True)
    return x / x.sum()
""",
    "normalize_axis0": """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    x = x / x.max(axis=-1, keepdims=True)
    return x / x.sum(axis=0)
""",
    "normalize_drops_keepdims": """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    x = x / x.max(axis=-1, keepdims=True)
    return x / x.sum(axis=-1)
""",
    "normalize_in_place": """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    x /= x.max(axis=-1, keepdims=True)
    x /= x.sum(axis=-1, keepdims=True)
    return x
""",
    "normalize_fails_on_lists": """
def normalize_evidence(ev):
    ev = ev / ev.max(axis=-1, keepdims=True)
    return ev / ev.sum(axis=-1, keepdims=True)
""",
    "normalize_fails_on_ints": """
def normalize_evidence(ev):
    x = np.array(ev)
    x /= x.max(axis=-1, keepdims=True)
    x /= x.sum(axis=-1, keepdims=True)
    return x
""",
    "normalize_returns_list": """
def normalize_evidence(ev):
    top = max(ev)
    scaled = [e / top for e in ev]
    total = sum(scaled)
    return [e / total for e in scaled]
""",
    "normalize_adds_epsilon": """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    x = x / x.max(axis=-1, keepdims=True)
    return x / (x.sum(axis=-1, keepdims=True) + 1e-9)
""",
    "normalize_float32": """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=np.float32)
    x = x / x.max(axis=-1, keepdims=True)
    return x / x.sum(axis=-1, keepdims=True)
""",
    "normalize_int_sum_wraps": """
def normalize_evidence(ev):
    x = np.asarray(ev)
    return x / x.sum(axis=-1, keepdims=True)
""",
    "normalize_squeezes": """
def normalize_evidence(ev):
    x = np.squeeze(np.asarray(ev, dtype=float))
    x = x / x.max(axis=-1, keepdims=True)
    return x / x.sum(axis=-1, keepdims=True)
""",
    "normalize_transposes": """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    x = x / x.max(axis=-1, keepdims=True)
    return (x.T / x.sum(axis=-1)).T
""",
    "ratio_clips_difference": """
def evidence_ratio(a, b):
    gap = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    return np.exp(np.clip(gap, -700, 700))
""",
}
