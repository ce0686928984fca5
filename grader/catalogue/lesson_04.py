"""Lesson 04_temperature: misconceptions and correct alternatives."""
from grader.catalogue import Alternative, Misconception

LESSON = "04_temperature"

MISCONCEPTIONS = [
    # softmax_with_temperature
    Misconception(
        "swt_multiplies_by_t", "softmax_with_temperature",
        "multiplied the scores by T instead of dividing them by T",
        "divide: scores / temperature, so that T < 1 sharpens and T > 1 flattens", '''
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be positive")
    evidence = np.exp(np.asarray(scores, dtype=float) * temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "swt_ignores_temperature", "softmax_with_temperature",
        "checked the temperature but never used it: the scores went into exp unchanged",
        "divide the scores by the temperature before exp", '''
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(scores, dtype=float))
    return evidence / evidence.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "swt_no_checks", "softmax_with_temperature",
        "never checked the temperature, so T <= 0 is accepted: T = 0 gives nan and a negative T reverses "
        "the ranking",
        "start with: if not np.isfinite(temperature) or temperature <= 0: raise ValueError(...)", '''
def softmax_with_temperature(scores, temperature=1.0):
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "swt_nan_for_zero", "softmax_with_temperature",
        "rejected only negative temperatures, so T = 0 divides by zero and returns nan instead of raising",
        "reject T = 0 too: the test is temperature <= 0, not temperature < 0", '''
def softmax_with_temperature(scores, temperature=1.0):
    if temperature < 0:
        raise ValueError("negative temperature")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "swt_negative_reverses", "softmax_with_temperature",
        "rejected only T = 0, so a negative T is accepted and silently reverses the ranking",
        "reject every temperature that is not > 0: temperature <= 0, not temperature == 0", '''
def softmax_with_temperature(scores, temperature=1.0):
    if temperature == 0:
        raise ValueError("cannot divide by a zero temperature")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "swt_accepts_inf_and_nan", "softmax_with_temperature",
        "checked only temperature <= 0, so T = inf (uniform weights) and T = nan (nan weights) get through",
        "also require np.isfinite(temperature): it is False for inf and for nan", '''
def softmax_with_temperature(scores, temperature=1.0):
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "swt_asserts", "softmax_with_temperature",
        "used assert to check the temperature: that raises AssertionError (and vanishes under python -O), "
        "not ValueError",
        "raise ValueError(...) explicitly", '''
def softmax_with_temperature(scores, temperature=1.0):
    assert np.isfinite(temperature) and temperature > 0, "temperature must be a finite number > 0"
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "swt_in_place", "softmax_with_temperature",
        "divided the caller's array by T in place (x /= T on the input itself)",
        "write x = np.asarray(scores, dtype=float) / temperature: the division makes a new array", '''
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    x = np.asarray(scores, dtype=float)
    x /= temperature
    evidence = np.exp(x)
    return evidence / evidence.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "swt_sums_whole_array", "softmax_with_temperature",
        "divided by the total of the whole array instead of each row's own total",
        "sum over the last axis only: evidence.sum(axis=-1, keepdims=True)", '''
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum()
'''),
    Misconception(
        "swt_fails_on_lists", "softmax_with_temperature",
        "divided the scores by T without making them an array first, which fails for a Python list",
        "start with np.asarray(scores, dtype=float): it accepts lists and int arrays", '''
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(scores / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "swt_fails_on_ints", "softmax_with_temperature",
        "made an array without asking for floats, then divided it in place: an integer array cannot hold "
        "the quotient",
        "ask for floats (np.asarray(scores, dtype=float)) and divide into a new array: x = x / temperature", '''
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    x = np.array(scores)
    x /= temperature
    evidence = np.exp(x)
    return evidence / evidence.sum(axis=-1, keepdims=True)
'''),
    # sample_next_token
    Misconception(
        "snt_always_argmax", "sample_next_token",
        "always took the largest logit, even for T > 0, instead of sampling",
        "for T > 0 draw an index with rng, e.g. rng.choice(len(weights), p=weights)", '''
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    return int(np.argmax(logits))
'''),
    Misconception(
        "snt_greedy_samples", "sample_next_token",
        "sampled at T = 0 (replaced it by T = 1) instead of taking the largest logit",
        "at T = 0 skip the dice: return int(np.argmax(logits))", '''
def sample_next_token(logits, temperature, rng):
    temperature = temperature or 1.0  # avoid dividing by zero
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    evidence = np.exp(np.asarray(logits, dtype=float) / temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
'''),
    Misconception(
        "snt_rejects_zero", "sample_next_token",
        "raised an error at T = 0 instead of greedy decoding (taking the largest logit)",
        "handle T == 0 before dividing: return int(np.argmax(logits))", '''
def sample_next_token(logits, temperature, rng):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("the temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(logits, dtype=float) / temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
'''),
    Misconception(
        "snt_ignores_temperature", "sample_next_token",
        "sampled from softmax(logits) and ignored the temperature",
        "draw from softmax(logits / temperature)", '''
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(np.asarray(logits, dtype=float))
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
'''),
    Misconception(
        "snt_multiplies_by_t", "sample_next_token",
        "multiplied the logits by T instead of dividing them by T",
        "draw from softmax(logits / temperature)", '''
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(np.asarray(logits, dtype=float) * temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
'''),
    Misconception(
        "snt_negative_is_greedy", "sample_next_token",
        "treated a negative T like T = 0 (greedy) instead of raising ValueError",
        "only T == 0 means greedy; raise ValueError when temperature < 0", '''
def sample_next_token(logits, temperature, rng):
    if temperature <= 0:
        return int(np.argmax(logits))
    evidence = np.exp(np.asarray(logits, dtype=float) / temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
'''),
    Misconception(
        "snt_no_negative_check", "sample_next_token",
        "accepted a negative T and sampled with the ranking reversed instead of raising ValueError",
        "start with: if temperature < 0: raise ValueError(...)", '''
def sample_next_token(logits, temperature, rng):
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(logits))
    weights = np.exp(logits / temperature)
    weights = weights / weights.sum()
    return int(np.searchsorted(np.cumsum(weights), rng.random()))
'''),
    Misconception(
        "snt_in_place", "sample_next_token",
        "divided the caller's logits by T in place (logits /= T on the input itself)",
        "divide into a new array: x = np.asarray(logits, dtype=float) / temperature", '''
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(logits))
    logits /= temperature
    evidence = np.exp(logits)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
'''),
    Misconception(
        "snt_fails_on_lists", "sample_next_token",
        "divided the logits by T without making them an array first, which fails for a Python list",
        "start with np.asarray(logits, dtype=float): it accepts lists and int arrays", '''
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(logits / temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
'''),
]

ALTERNATIVES = [
    # softmax_with_temperature
    Alternative("swt_power_renormalised", "softmax_with_temperature",
                "softmax at T = 1, each weight raised to the power 1 / T, then renormalised", '''
import math

def softmax_with_temperature(scores, temperature=1.0):
    if not (math.isfinite(temperature) and temperature > 0):
        raise ValueError(f"temperature {temperature!r} is not a positive finite number")
    evidence = np.exp(np.asarray(scores, dtype=float))
    p = evidence / evidence.sum(axis=-1, keepdims=True)
    sharpened = p ** (1 / temperature)
    return sharpened / sharpened.sum(axis=-1, keepdims=True)
'''),
    Alternative("swt_log_sum_exp", "softmax_with_temperature", "exp(x - logsumexp(x)) with x = scores / T", '''
def softmax_with_temperature(scores, temperature=1.0):
    if temperature <= 0 or not np.isfinite(temperature):
        raise ValueError("temperature must be > 0 and finite")
    x = np.asarray(scores, dtype=float) / temperature
    top = np.max(x, axis=-1, keepdims=True)
    log_total = top + np.log(np.sum(np.exp(x - top), axis=-1, keepdims=True))
    return np.exp(x - log_total)
'''),
    Alternative("swt_apply_along_axis_subclass", "softmax_with_temperature",
                "np.apply_along_axis over the rows, raising its own ValueError subclass", '''
class TemperatureError(ValueError):
    pass


def softmax_with_temperature(scores, temperature=1.0):
    if np.isnan(temperature) or np.isinf(temperature) or temperature <= 0:
        raise TemperatureError("a temperature is a finite number greater than zero")

    def one_row(row):
        evidence = np.exp(row / temperature)
        return evidence / evidence.sum()

    return np.apply_along_axis(one_row, -1, np.asarray(scores, dtype=float))
'''),
    Alternative("swt_math_exp_rows", "softmax_with_temperature",
                "math.exp in a loop over the rows of a 2-D view, converted to an array at the end", '''
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
'''),
    # sample_next_token
    Alternative("snt_inverse_cdf", "sample_next_token",
                "inverse-CDF sampling: one rng.random(), cumsum of the weights, np.searchsorted", '''
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
'''),
    Alternative("snt_gumbel_max", "sample_next_token",
                "Gumbel-max trick: argmax of logits / T plus Gumbel noise from rng.gumbel", '''
class NegativeTemperatureError(ValueError):
    pass


def sample_next_token(logits, temperature, rng):
    x = np.asarray(logits, dtype=float)
    if temperature < 0:
        raise NegativeTemperatureError(f"temperature {temperature} < 0")
    if temperature == 0:
        return int(np.argmax(x))
    return int(np.argmax(x / temperature + rng.gumbel(size=x.shape)))
'''),
    Alternative("snt_math_exp_walk", "sample_next_token",
                "math.exp weights in a list, then walks through them subtracting from one uniform draw", '''
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
'''),
]
