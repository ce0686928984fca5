"""Lesson 02_exp_evidence: printed numbers and known-wrong implementations."""
from tests.lessons import Wrong

NUMBERS = ["exp(-100) = 3.720075976020836e-44", "positive? True",
           "scores [0, log 2, log 3] ≈ [0.     0.6931 1.0986]", "evidence: [1. 2. 3.]", "exp(log 2) = 2.0",
           "evidence(scores + 1.5) / evidence(scores): [4.4817 4.4817 4.4817]", "exp(1.5) = 4.4817",
           "weights: [0.1667 0.3333 0.5   ]", "weights × 6: [1. 2. 3.] | total: 1.0",
           "[-2, 0, 3] -> [0.0064 0.0471 0.9465] | all positive? True | total: 1.0000",
           "[1, -1] -> [0.8808 0.1192] | all positive? True | total: 1.0000",
           "exp(710) = inf", "exp(1000) / exp(999) = nan", "evidence_ratio(1000, 999) = 2.7183"]

_EVIDENCE = ("test_evidence_public", "test_evidence_inputs", "test_evidence_extremes")
_RATIO = ("test_evidence_ratio_public", "test_evidence_ratio_arrays", "test_evidence_ratio_large")

WRONG = [
    # evidence
    Wrong("evidence_returns_list", "evidence", '''
import math

def evidence(scores):
    return [math.exp(s) for s in scores]
''', _EVIDENCE, "expected a NumPy array"),
    Wrong("evidence_in_place", "evidence", '''
def evidence(scores):
    x = np.asarray(scores, dtype=float)
    np.exp(x, out=x)
    return x
''', _EVIDENCE, "changed its input in place"),
    Wrong("evidence_keeps_int_dtype", "evidence", '''
def evidence(scores):
    x = np.asarray(scores)
    return np.exp(x).astype(x.dtype)  # keep the caller's dtype
''', ("test_evidence_public", "test_evidence_inputs"), "integer dtype"),
    Wrong("evidence_fails_on_lists", "evidence", '''
def evidence(scores):
    return np.e ** scores
''', _EVIDENCE, "raised TypeError"),
    Wrong("evidence_normalised", "evidence", '''
def evidence(scores):
    e = np.exp(np.asarray(scores, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)
''', ("test_evidence_public", "test_evidence_extremes"), "normalised the evidence"),
    # evidence_ratio
    Wrong("ratio_reversed", "evidence_ratio", '''
def evidence_ratio(a, b):
    return np.exp(np.asarray(b, dtype=float) - np.asarray(a, dtype=float))
''', _RATIO, "swapped the two scores"),
    Wrong("ratio_no_exp", "evidence_ratio", '''
def evidence_ratio(a, b):
    return np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
''', _RATIO, "difference of the scores, without exp"),
    Wrong("ratio_of_raw_scores", "evidence_ratio", '''
def evidence_ratio(a, b):
    return np.asarray(a, dtype=float) / np.asarray(b, dtype=float)
''', _RATIO, "divided the raw scores"),
    Wrong("ratio_exp_quotient_overflows", "evidence_ratio", '''
def evidence_ratio(a, b):
    return np.exp(np.asarray(a, dtype=float)) / np.exp(np.asarray(b, dtype=float))
''', ("test_evidence_ratio_large",), "computed exp(a) / exp(b)"),
    Wrong("ratio_fails_on_lists", "evidence_ratio", '''
def evidence_ratio(a, b):
    return np.exp(a - b)
''', ("test_evidence_ratio_public", "test_evidence_ratio_arrays"), "raised TypeError"),
    # normalize_evidence
    Wrong("normalize_applies_exp_again", "normalize_evidence", '''
def normalize_evidence(ev):
    e = np.exp(np.asarray(ev, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)
''', ("test_normalize_evidence_public", "test_normalize_evidence_rows", "test_normalize_evidence_inputs"),
        "applied exp again"),
    Wrong("normalize_whole_array", "normalize_evidence", '''
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return x / x.sum()
''', ("test_normalize_evidence_public", "test_normalize_evidence_rows"), "total of the whole array"),
    Wrong("normalize_axis0", "normalize_evidence", '''
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return x / x.sum(axis=0)
''', ("test_normalize_evidence_public", "test_normalize_evidence_rows"), "down the columns"),
    Wrong("normalize_drops_keepdims", "normalize_evidence", '''
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return x / x.sum(axis=-1)
''', ("test_normalize_evidence_public", "test_normalize_evidence_rows", "test_normalize_evidence_inputs"),
        "dropped the summed axis"),
    Wrong("normalize_in_place", "normalize_evidence", '''
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    x /= x.sum(axis=-1, keepdims=True)
    return x
''', ("test_normalize_evidence_public", "test_normalize_evidence_rows", "test_normalize_evidence_inputs"),
        "changed its input in place"),
    Wrong("normalize_fails_on_lists", "normalize_evidence", '''
def normalize_evidence(ev):
    return ev / ev.sum(axis=-1, keepdims=True)
''', ("test_normalize_evidence_public", "test_normalize_evidence_inputs"), "AttributeError"),
]
