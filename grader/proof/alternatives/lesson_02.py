"""Lesson 02_exp_evidence: correct alternatives, and the mutants equivalent to the reference."""

from grader.proof.alternatives import Alternative

LESSON = "02_exp_evidence"

ALTERNATIVES = [
    # evidence
    Alternative(
        "evidence_list_then_array",
        "evidence",
        "exp of each score in a flat list, turned back into an array at the end",
        """
def evidence(scores):
    x = np.asarray(scores, dtype=float)
    return np.array([np.exp(s) for s in x.ravel().tolist()]).reshape(x.shape)
""",
    ),
    Alternative(
        "evidence_exp_into_copy",
        "evidence",
        "np.exp(x, out=x) into its own float copy of the scores",
        """
def evidence(scores):
    x = np.array(scores, dtype=float)
    np.exp(x, out=x)
    return x
""",
    ),
    Alternative(
        "evidence_e_power",
        "evidence",
        "raises np.e to the power of the scores",
        """
def evidence(scores):
    return np.power(np.e, np.asarray(scores, dtype=float))
""",
    ),
    Alternative(
        "evidence_math_exp_reshaped",
        "evidence",
        "math.exp of every score in a flat list, reshaped to the scores' shape",
        """
import math

def evidence(scores):
    x = np.asarray(scores, dtype=float)
    return np.array([math.exp(s) for s in x.ravel().tolist()]).reshape(x.shape)
""",
    ),
    # evidence_ratio
    Alternative(
        "ratio_subtract_as_float",
        "evidence_ratio",
        "np.subtract with dtype=float, then np.exp",
        """
def evidence_ratio(a, b):
    return np.exp(np.subtract(a, b, dtype=float))
""",
    ),
    Alternative(
        "ratio_e_power",
        "evidence_ratio",
        "np.e raised to the power a - b",
        """
def evidence_ratio(a, b):
    difference = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    return np.e ** difference
""",
    ),
    Alternative(
        "ratio_shift_by_larger",
        "evidence_ratio",
        "exp(a - m) / exp(b - m) with m the larger of the two scores",
        """
def evidence_ratio(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    m = np.maximum(a, b)
    return np.exp(a - m) / np.exp(b - m)
""",
    ),
    Alternative(
        "ratio_math_exp_entries",
        "evidence_ratio",
        "math.exp of each difference, a number for numbers and an array of the same shape otherwise",
        """
import math

def evidence_ratio(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ratios = [math.exp(x - y) for x, y in zip(a.ravel().tolist(), b.ravel().tolist())]
    return ratios[0] if a.ndim == 0 else np.array(ratios).reshape(a.shape)
""",
    ),
    # normalize_evidence
    Alternative(
        "normalize_python_rows",
        "normalize_evidence",
        "divides one row at a time as Python lists, by the row's largest value and then by the new total",
        """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    rows = []
    for row in x.reshape(-1, x.shape[-1]).tolist():
        scaled = [value / max(row) for value in row]
        rows.append([value / sum(scaled) for value in scaled])
    return np.array(rows).reshape(x.shape)
""",
    ),
    Alternative(
        "normalize_apply_along_axis",
        "normalize_evidence",
        "np.apply_along_axis over the last axis, each row scaled by its largest value first",
        """
def normalize_evidence(ev):
    def one_row(row):
        scaled = row / np.max(row)
        return scaled / np.sum(scaled)

    return np.apply_along_axis(one_row, -1, np.asarray(ev, dtype=float))
""",
    ),
    Alternative(
        "normalize_divide_by_length_first",
        "normalize_evidence",
        "divides every value by the row's length first, so that the total is at most the largest value",
        """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    x = x / x.shape[-1]
    return np.divide(x, x.sum(axis=-1)[..., np.newaxis])
""",
    ),
    Alternative(
        "normalize_power_of_two_scale",
        "normalize_evidence",
        "scales each row exactly by a power of two (np.frexp of its largest value, np.ldexp) before dividing",
        """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    _, exponent = np.frexp(x.max(axis=-1, keepdims=True))
    x = np.ldexp(x, -exponent)
    return x / x.sum(axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "normalize_keeps_float32",
        "normalize_evidence",
        "keeps a float input's dtype (float32 stays float32), makes other input float64",
        """
def normalize_evidence(ev):
    x = np.asarray(ev)
    if x.dtype.kind != "f":
        x = x.astype(float)
    x = x / np.max(x, axis=-1, keepdims=True)
    return x / np.sum(x, axis=-1, keepdims=True)
""",
    ),
]

# Mechanical mutants of the reference that compute what it computes (see grader.proof.mutate).
EQUIVALENT_MUTANTS = {
    "evidence_ratio:no-cast:1": "a - b with b already float64: NumPy converts a of any numeric dtype to float64 "
    "before subtracting, exactly as dtype=float would",
    "evidence_ratio:no-cast:2": "a - b with a already float64: NumPy converts b of any numeric dtype to float64 "
    "before subtracting, exactly as dtype=float would",
}
