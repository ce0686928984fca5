"""Lesson 05_stable_softmax: correct alternatives, and the mutants equivalent to the reference."""

from grader.proof.alternatives import Alternative

LESSON = "05_stable_softmax"

ALTERNATIVES = [
    Alternative(
        "stable_loop_over_rows",
        "stable_softmax",
        "loops over the rows of a 2-D view, keeping the dtype",
        """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    rows = x.reshape(-1, x.shape[-1])
    out = np.empty_like(rows)
    for i, row in enumerate(rows):
        z = row / temperature
        evidence = np.exp(z - z.max())
        out[i] = evidence / evidence.sum()
    return out.reshape(x.shape)
""",
    ),
    Alternative(
        "stable_apply_along_axis",
        "stable_softmax",
        "np.apply_along_axis with a one-row stable softmax",
        """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)

    def one_row(row):
        z = row / temperature
        evidence = np.exp(z - np.max(z))
        return evidence / np.sum(evidence)

    return np.apply_along_axis(one_row, -1, x)
""",
    ),
    Alternative(
        "stable_log_sum_exp",
        "stable_softmax",
        "exp(z - logsumexp(z)), the log-sum-exp form",
        """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    z = x / temperature
    top = np.max(z, axis=-1, keepdims=True)
    log_total = top + np.log(np.sum(np.exp(z - top), axis=-1, keepdims=True))
    return np.exp(z - log_total)
""",
    ),
    Alternative(
        "stable_math_exp_lists",
        "stable_softmax",
        "math.exp on nested Python lists, turned into an array of the input's float dtype at the end",
        """
import math

def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    dtype = x.dtype if np.issubdtype(x.dtype, np.floating) else np.float64

    def normalise(rows):
        if isinstance(rows[0], list):
            return [normalise(row) for row in rows]
        z = [s / temperature for s in rows]
        top = max(z)
        evidence = [math.exp(v - top) for v in z]
        total = sum(evidence)
        return [e / total for e in evidence]

    return np.array(normalise(x.tolist()), dtype=dtype)
""",
    ),
    Alternative(
        "stable_shift_then_temperature",
        "stable_softmax",
        "shifts the raw scores by the row max first, then divides by the temperature",
        """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if x.dtype.kind in "iub":
        x = x.astype(float)
    z = (x - x.max(axis=-1, keepdims=True)) / temperature
    evidence = np.exp(z)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "stable_power_of_evidence",
        "stable_softmax",
        "shifted evidence at T = 1 (largest exactly 1), raised to the power 1 / T and renormalised",
        """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    evidence = np.exp(x - x.max(axis=-1, keepdims=True))
    sharpened = evidence ** (1 / temperature)
    return sharpened / sharpened.sum(axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "stable_logaddexp_reduce",
        "stable_softmax",
        "exp(z - log-sum-exp) with the log-sum-exp taken by np.logaddexp.reduce",
        """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    z = x / temperature
    return np.exp(z - np.logaddexp.reduce(z, axis=-1, keepdims=True))
""",
    ),
    Alternative(
        "stable_exp_of_log_softmax",
        "stable_softmax",
        "exp of the log-softmax (z - max) - log(sum(exp(z - max)))",
        """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    shifted = x / temperature - np.max(x / temperature, axis=-1, keepdims=True)
    return np.exp(shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True)))
""",
    ),
    Alternative(
        "stable_in_place_on_a_copy",
        "stable_softmax",
        "works in place, but on its own copy (np.array copies), multiplying by 1 / T",
        """
def stable_softmax(scores, temperature=1.0):
    x = np.array(scores)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    x *= 1 / temperature
    x -= x.max(axis=-1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x
""",
    ),
    Alternative(
        "stable_einsum_total",
        "stable_softmax",
        "row totals with np.einsum, the row max with np.amax",
        """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    z = x / temperature
    evidence = np.exp(z - np.amax(z, axis=-1)[..., None])
    return evidence / np.einsum("...i->...", evidence)[..., None]
""",
    ),
]

# Mechanical mutants of the reference that compute the same thing for every valid input (see grader.proof.mutate).
EQUIVALENT_MUTANTS = {
    "stable_softmax:no-cast:1": "without the cast, integer scores stay integers only until `x / temperature`, which "
    "is true division and gives the same float64 array the cast would have given",
}
