"""Lesson 04_temperature: printed numbers and known-wrong implementations."""
from tests.lessons import Wrong

NUMBERS = ["T = 0.5 evidence: [1. 4. 9.]", "T = 0.5 weights x 14: [1. 4. 9.]", "top weight: 0.5 -> 0.643",
           "T = 1  : A 0.8438  B 0.1142  C 0.0420", "T = 0.3: A 0.99868  B 0.00127  C 0.0000453",
           "T = 1000  : [0.3339 0.3332 0.3329]", "T = 0.03  : [1. 0. 0.]",
           "[1, 1, 0] at T = 0.01: [0.5 0.5 0. ]",
           "T = 0  : [nan nan nan]", "T = -1 : A 0.0351  B 0.2595  C 0.7054", "T = inf: [0.3333 0.3333 0.3333]",
           "I: 3.7%", "am: 29.8%", "learning: 13.9%", "to: 16.6%", "Delhi: 35.9%",
           "predicted token at T = 1: Delhi", "greedy decoding (T = 0) picks: A"]

_SWT = "softmax_with_temperature"
_SWT_PUBLIC, _SWT_DIVIDES = "test_softmax_with_temperature_public", "test_softmax_with_temperature_divides"
_SWT_NONPOSITIVE = "test_softmax_with_temperature_rejects_nonpositive"
_SWT_NONFINITE = "test_softmax_with_temperature_rejects_nonfinite"
_SNT = "sample_next_token"
_SNT_PUBLIC, _SNT_GREEDY = "test_sample_next_token_public", "test_sample_next_token_greedy"
_SNT_TEMPERATURE, _SNT_REJECTS = "test_sample_next_token_temperature", "test_sample_next_token_rejects"

WRONG = [
    Wrong("swt_multiplies_by_t", _SWT, '''
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be positive")
    evidence = np.exp(np.asarray(scores, dtype=float) * temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', (_SWT_PUBLIC, _SWT_DIVIDES), "multiplied the scores by T"),
    Wrong("swt_no_checks", _SWT, '''
def softmax_with_temperature(scores, temperature=1.0):
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', (_SWT_PUBLIC, _SWT_NONPOSITIVE, _SWT_NONFINITE), "returned nan for T = 0"),
    Wrong("swt_nan_for_zero", _SWT, '''
def softmax_with_temperature(scores, temperature=1.0):
    if temperature < 0:
        raise ValueError("negative temperature")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', (_SWT_PUBLIC, _SWT_NONPOSITIVE), "returned nan for T = 0"),
    Wrong("swt_negative_reverses", _SWT, '''
def softmax_with_temperature(scores, temperature=1.0):
    if temperature == 0:
        raise ValueError("cannot divide by a zero temperature")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', (_SWT_NONPOSITIVE, _SWT_NONFINITE), "reversed ranking"),
    Wrong("swt_accepts_inf_and_nan", _SWT, '''
def softmax_with_temperature(scores, temperature=1.0):
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', (_SWT_NONFINITE,), "accepted T = inf"),
    Wrong("swt_in_place", _SWT, '''
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    x = np.asarray(scores, dtype=float)
    x /= temperature
    evidence = np.exp(x)
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', (_SWT_PUBLIC, _SWT_DIVIDES), "changed its input in place"),
    Wrong("swt_sums_whole_array", _SWT, '''
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum()
''', (_SWT_PUBLIC, _SWT_DIVIDES), "whole array"),
    Wrong("swt_fails_on_lists", _SWT, '''
def softmax_with_temperature(scores, temperature=1.0):
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    evidence = np.exp(scores / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', (_SWT_PUBLIC, _SWT_DIVIDES), "raised TypeError"),

    Wrong("snt_always_argmax", _SNT, '''
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    return int(np.argmax(logits))
''', (_SNT_PUBLIC, _SNT_TEMPERATURE), "always took the largest logit"),
    Wrong("snt_ignores_temperature", _SNT, '''
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(np.asarray(logits, dtype=float))
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
''', (_SNT_PUBLIC, _SNT_TEMPERATURE), "ignored the temperature"),
    Wrong("snt_multiplies_by_t", _SNT, '''
def sample_next_token(logits, temperature, rng):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    if temperature == 0:
        return int(np.argmax(logits))
    evidence = np.exp(np.asarray(logits, dtype=float) * temperature)
    return int(rng.choice(len(evidence), p=evidence / evidence.sum()))
''', (_SNT_PUBLIC, _SNT_TEMPERATURE), "multiplied the logits by T"),
    Wrong("snt_greedy_samples", _SNT, '''
def sample_next_token(logits, temperature, rng):
    temperature = temperature or 1.0  # avoid dividing by zero
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    probs = softmax_with_temperature(logits, temperature)
    return int(rng.choice(len(probs), p=probs))
''', (_SNT_PUBLIC, _SNT_GREEDY), "sampled even though T = 0"),
    Wrong("snt_rejects_zero", _SNT, '''
def sample_next_token(logits, temperature, rng):
    probs = softmax_with_temperature(logits, temperature)
    return int(rng.choice(len(probs), p=probs))
''', (_SNT_PUBLIC, _SNT_GREEDY), "(T = 0: greedy decoding, no dice) raised ValueError"),
    Wrong("snt_negative_is_greedy", _SNT, '''
def sample_next_token(logits, temperature, rng):
    if temperature <= 0:
        return int(np.argmax(logits))
    probs = softmax_with_temperature(logits, temperature)
    return int(rng.choice(len(probs), p=probs))
''', (_SNT_PUBLIC, _SNT_REJECTS), "T < 0 is not a temperature"),
    Wrong("snt_no_negative_check", _SNT, '''
def sample_next_token(logits, temperature, rng):
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(logits))
    weights = np.exp(logits / temperature)
    weights = weights / weights.sum()
    return int(np.searchsorted(np.cumsum(weights), rng.random()))
''', (_SNT_PUBLIC, _SNT_REJECTS), "T < 0 is not a temperature"),
]
