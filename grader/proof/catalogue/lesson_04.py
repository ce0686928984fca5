"""Lesson 04_temperature: the source of each catalogued misconception, by id (its description, hint and probes
are in grader/learner/hints/)."""

LESSON = "04_temperature"

SOURCES = {
    "swt_multiplies_by_t": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be positive")
    evidence = np.exp(np.asarray(scores, dtype=float) * temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_ignores_temperature": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(scores, dtype=float))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_no_checks": """
def softmax_with_temperature(scores, temperature=1.0):
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_nan_for_zero": """
def softmax_with_temperature(scores, temperature=1.0):
    if temperature < 0:
        raise ValueError("negative temperature")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_negative_reverses": """
def softmax_with_temperature(scores, temperature=1.0):
    if temperature == 0:
        raise ValueError("cannot divide by a zero temperature")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_accepts_inf_and_nan": """
def softmax_with_temperature(scores, temperature=1.0):
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_asserts": """
def softmax_with_temperature(scores, temperature=1.0):
    assert np.isfinite(temperature) and temperature > 0, "temperature must be a finite number > 0"
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_in_place": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    x = np.asarray(scores, dtype=float)
    x /= temperature
    evidence = np.exp(x)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_sums_whole_array": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum()
""",
    "swt_fails_on_lists": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(scores / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_fails_on_ints": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    x = np.array(scores)
    x /= temperature
    evidence = np.exp(x)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_squeezes": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return np.squeeze(evidence / evidence.sum(axis=-1, keepdims=True))
""",
    "swt_axis_one": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=1, keepdims=True)
""",
    "swt_global_max_shift": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    x = np.asarray(scores, dtype=float) / temperature
    evidence = np.exp(x - x.max())
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_subtracts_min": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    x = np.asarray(scores, dtype=float) / temperature
    evidence = np.exp(x - x.min(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_clips_scores": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    x = np.clip(np.asarray(scores, dtype=float) / temperature, -50.0, 50.0)
    evidence = np.exp(x)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_shift_in_place": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    x = np.asarray(scores, dtype=float)
    x -= x.max(axis=-1, keepdims=True)
    evidence = np.exp(x / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_zeros_like": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    x = np.asarray(scores)
    weights = np.zeros_like(x)
    rows, out = x.reshape(-1, x.shape[-1]), weights.reshape(-1, x.shape[-1])
    for i, row in enumerate(rows):
        evidence = np.exp(row / temperature)
        out[i] = evidence / evidence.sum()
    return weights
""",
    "swt_float32": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(scores, dtype=np.float32) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_keeps_dtype": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(scores) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_returns_list": """
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return (evidence / evidence.sum(axis=-1, keepdims=True)).tolist()
""",
    "swt_accepts_nan": """
def softmax_with_temperature(scores, temperature=1.0):
    if temperature <= 0 or np.isinf(temperature):
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "swt_isinstance_check": """
import math

def softmax_with_temperature(scores, temperature=1.0):
    if not isinstance(temperature, (int, float)) or not math.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
    "snt_always_argmax": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    return int(np.argmax(logits))
""",
    "snt_greedy_samples": """
def sample_next_token(logits, temperature, rng):
    temperature = temperature or 1.0  # avoid dividing by zero
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    evidence = np.exp(np.asarray(logits, dtype=float) / temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_rejects_zero": """
def sample_next_token(logits, temperature, rng):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("the temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(logits, dtype=float) / temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_ignores_temperature": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(np.asarray(logits, dtype=float))
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_multiplies_by_t": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(np.asarray(logits, dtype=float) * temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_negative_is_greedy": """
def sample_next_token(logits, temperature, rng):
    if temperature <= 0:
        return int(np.argmax(logits))
    evidence = np.exp(np.asarray(logits, dtype=float) / temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_no_negative_check": """
def sample_next_token(logits, temperature, rng):
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(logits))
    weights = np.exp(logits / temperature)
    weights = weights / weights.sum()
    return int(np.searchsorted(np.cumsum(weights), rng.random()))
""",
    "snt_in_place": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(logits))
    logits /= temperature
    evidence = np.exp(logits)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_fails_on_lists": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(logits / temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_global_random": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(logits / temperature)
    return int(np.random.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_new_generator": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(logits / temperature)
    generator = np.random.default_rng()
    return int(generator.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_fixed_seed": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(logits / temperature)
    generator = np.random.default_rng(0)
    return int(generator.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_returns_numpy_int": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return np.argmax(logits)
    evidence = np.exp(logits / temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_greedy_returns_max": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    if temperature == 0:
        return max(logits)
    evidence = np.exp(np.asarray(logits, dtype=float) / temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_draws_a_logit": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(logits / temperature)
    return rng.choice(logits, p=evidence / evidence.sum())
""",
    "snt_size_one": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(logits / temperature)
    return rng.choice(len(evidence), size=1, p=evidence / evidence.sum())
""",
    "snt_fails_on_ints": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    x = np.array(logits)
    if temperature == 0:
        return int(np.argmax(x))
    x /= temperature
    evidence = np.exp(x)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_asserts": """
def sample_next_token(logits, temperature, rng):
    assert temperature >= 0, "temperature must be >= 0"
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(logits / temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
""",
    "snt_draws_first": """
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    x = np.asarray(logits, dtype=float)
    u = rng.random()
    if temperature == 0:
        return int(np.argmax(x))
    weights = np.exp(x / temperature)
    cdf = np.cumsum(weights / weights.sum())
    return int(min(np.searchsorted(cdf, u, side="right"), len(x) - 1))
""",
    "swt_power_renormalised": """
import math

def softmax_with_temperature(scores, temperature=1.0):
    if not (math.isfinite(temperature) and temperature > 0):
        raise ValueError(f"temperature {temperature!r} is not a positive finite number")
    evidence = np.exp(np.asarray(scores, dtype=float))
    p = evidence / evidence.sum(axis=-1, keepdims=True)
    sharpened = p ** (1 / temperature)
    return sharpened / sharpened.sum(axis=-1, keepdims=True)
""",
}
