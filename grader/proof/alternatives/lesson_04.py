"""Lesson 04_temperature: correct alternatives, and the mutants equivalent to the reference."""

from grader.proof.alternatives import Alternative

LESSON = "04_temperature"

ALTERNATIVES = [
    # softmax_with_temperature
    Alternative(
        "swt_log_sum_exp",
        "softmax_with_temperature",
        "exp(x - logsumexp(x)) with x = scores / T",
        """
def softmax_with_temperature(scores, temperature=1.0):
    if temperature <= 0 or not np.isfinite(temperature):
        raise ValueError("temperature must be > 0 and finite")
    x = np.asarray(scores, dtype=float) / temperature
    top = np.max(x, axis=-1, keepdims=True)
    log_total = top + np.log(np.sum(np.exp(x - top), axis=-1, keepdims=True))
    return np.exp(x - log_total)
""",
    ),
    Alternative(
        "swt_apply_along_axis_subclass",
        "softmax_with_temperature",
        "np.apply_along_axis over the rows, raising its own ValueError subclass",
        """
class TemperatureError(ValueError):
    pass


def softmax_with_temperature(scores, temperature=1.0):
    if np.isnan(temperature) or np.isinf(temperature) or temperature <= 0:
        raise TemperatureError("a temperature is a finite number greater than zero")

    def one_row(row):
        evidence = np.exp(row / temperature)
        return evidence / evidence.sum()

    return np.apply_along_axis(one_row, -1, np.asarray(scores, dtype=float))
""",
    ),
    Alternative(
        "swt_math_exp_rows",
        "softmax_with_temperature",
        "math.exp in a loop over the rows of a 2-D view, converted to an array at the end",
        """
import math

def softmax_with_temperature(scores, temperature=1.0):
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError("bad temperature")
    x = np.asarray(scores, dtype=float)
    rows = []
    for row in x.reshape(-1, x.shape[-1]).tolist():
        evidence = [math.exp(s / temperature) for s in row]
        total = sum(evidence)
        rows.append([e / total for e in evidence])
    return np.array(rows, dtype=float).reshape(x.shape)
""",
    ),
    # sample_next_token
    Alternative(
        "snt_inverse_cdf",
        "sample_next_token",
        "inverse-CDF sampling: one rng.random(), cumsum of the weights, np.searchsorted",
        """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("negative temperatures are not allowed")
    x = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(x))
    evidence = np.exp((x - x.max()) / temperature)
    cdf = np.cumsum(evidence)
    index = np.searchsorted(cdf, rng.random() * cdf[-1], side="right")
    return int(min(index, len(x) - 1))
""",
    ),
    Alternative(
        "snt_gumbel_max",
        "sample_next_token",
        "Gumbel-max trick: argmax of logits / T plus Gumbel noise from rng.gumbel",
        """
class NegativeTemperatureError(ValueError):
    pass


def sample_next_token(logits, temperature, rng):
    x = np.asarray(logits, dtype=float)
    if temperature < 0:
        raise NegativeTemperatureError(f"temperature {temperature} < 0")
    if temperature == 0:
        return int(np.argmax(x))
    return int(np.argmax(x / temperature + rng.gumbel(size=x.shape)))
""",
    ),
    Alternative(
        "snt_math_exp_walk",
        "sample_next_token",
        "math.exp weights in a list, then walks through them subtracting from one uniform draw",
        """
import math

def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("T must not be negative")
    values = [float(v) for v in logits]
    if temperature == 0:
        return values.index(max(values))
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    u = rng.random() * sum(weights)
    for index, weight in enumerate(weights):
        u -= weight
        if u < 0:
            return index
    return len(weights) - 1
""",
    ),
]

# Mechanical mutants (grader/proof/mutate.py) that compute what the reference computes.
EQUIVALENT_MUTANTS = {
    "sample_next_token:no-cast:1": "softmax_with_temperature converts the logits to floats itself, and np.argmax "
    "finds the same index in the logits as given",
    "sample_next_token:no-cast:3": "the same index for every input, as a NumPy integer: for T > 0 the contract asks "
    "for an index (only T = 0 promises a Python int)",
    "sample_next_token:minus-1:1": "a T between -1 and 0 then reaches softmax_with_temperature, which raises the "
    "same ValueError",
    "sample_next_token:no-early-exit:1": "a negative T then reaches softmax_with_temperature, which raises the same "
    "ValueError",
    "sample_next_token:raise-pass:1": "a negative T then reaches softmax_with_temperature, which raises the same "
    "ValueError",
}
