"""Lesson 05_stable_softmax: the source of each catalogued misconception, by id (its description, hint and probes
are in grader/learner/hints/)."""

LESSON = "05_stable_softmax"

SOURCES = {
    "stable_global_max": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z.max())
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_no_shift": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    evidence = np.exp(x / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_divides_after_exp": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    evidence = np.exp(x / temperature)
    evidence = evidence / evidence.max(axis=-1, keepdims=True)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_min_shift": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z.min(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_no_exp": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    z = z - z.max(axis=-1, keepdims=True)
    return z / z.sum(axis=-1, keepdims=True)
""",
    "stable_sums_axis0": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=0)
""",
    "stable_sums_whole_array": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z.max(axis=-1, keepdims=True))
    return evidence / evidence.sum()
""",
    "stable_max_without_keepdims": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z.max(axis=-1))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_shift_in_place": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    x -= x.max(axis=-1, keepdims=True)
    evidence = np.exp(x / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_fails_on_ints": """
def stable_softmax(scores, temperature=1.0):
    x = np.array(scores)
    x /= temperature
    evidence = np.exp(x - x.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_fails_on_lists": """
def stable_softmax(scores, temperature=1.0):
    z = scores / temperature
    evidence = np.exp(z - z.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_returns_list": """
import math

def stable_softmax(scores, temperature=1.0):
    z = [s / temperature for s in scores]
    top = max(z)
    evidence = [math.exp(v - top) for v in z]
    total = sum(evidence)
    return [e / total for e in evidence]
""",
    "stable_float32_becomes_float64": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    evidence = np.exp(x - x.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_python_floats_lose_float32": """
import math

def stable_softmax(scores, temperature=1.0):
    def one_row(row):
        z = [s / temperature for s in row]
        top = max(z)
        evidence = [math.exp(v - top) for v in z]
        total = sum(evidence)
        return [e / total for e in evidence]

    return np.apply_along_axis(one_row, -1, np.asarray(scores))
""",
    "stable_always_float32": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores, dtype=np.float32) / temperature
    evidence = np.exp(x - x.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_multiplies_temperature": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x * temperature
    evidence = np.exp(z - z.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_ignores_temperature": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    evidence = np.exp(x - x.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_squeezes": """
def stable_softmax(scores, temperature=1.0):
    x = np.squeeze(np.asarray(scores))
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_axis_one": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = np.atleast_2d(x / temperature)
    evidence = np.exp(z - z.max(axis=1, keepdims=True))
    weights = evidence / evidence.sum(axis=1, keepdims=True)
    return weights[0] if x.ndim == 1 else weights
""",
    "stable_sorted_scores": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = np.sort(x / temperature, axis=-1)
    evidence = np.exp(z - z[..., -1:])
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_shift_by_first_score": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z[..., :1])
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_shift_by_mean": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z.mean(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "stable_fixes_nan_rows": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z)
    weights = evidence / evidence.sum(axis=-1, keepdims=True)
    broken = np.isnan(weights).any(axis=-1, keepdims=True)
    shifted = np.exp(z - z.max(axis=-1, keepdims=True))
    return np.where(broken, shifted / shifted.sum(axis=-1, keepdims=True), weights)
""",
    "stable_divides_in_place": """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    x /= temperature
    evidence = np.exp(x - x.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
}
