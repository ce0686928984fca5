"""Lesson 03_shared_denominator: printed numbers and known-wrong implementations."""
from tests.lessons import Wrong

NUMBERS = ["total evidence: 18.745",
           "first weight = e^0.9544 / 18.745 = 2.597 / 18.745 = 0.1385",
           "softmax weights: [0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581]",
           "softmax([0.707, 0, 0.707]) = [0.401, 0.198, 0.401]",
           "every other weight fell: True",
           "all 0: [0.25, 0.25, 0.25, 0.25]", "all 100: [0.25, 0.25, 0.25, 0.25]",
           "all -100: [0.25, 0.25, 0.25, 0.25]"]

WRONG = [
    Wrong("softmax_no_exp", "softmax", '''
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=-1, keepdims=True)
''', ("test_softmax_public", "test_softmax_journey", "test_softmax_uniform", "test_softmax_properties"),
        "without exp"),
    Wrong("softmax_divides_by_raw_total", "softmax", '''
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    return np.exp(x) / x.sum(axis=-1, keepdims=True)
''', ("test_softmax_public", "test_softmax_journey", "test_softmax_uniform"), "sum of the raw scores"),
    Wrong("softmax_whole_array", "softmax", '''
def softmax(scores):
    evidence = np.exp(scores)
    return evidence / evidence.sum()
''', ("test_softmax_public", "test_softmax_rows", "test_softmax_uniform", "test_softmax_properties"),
        "whole array"),
    Wrong("softmax_axis0", "softmax", '''
def softmax(scores):
    evidence = np.exp(scores)
    return evidence / np.sum(evidence, axis=0)
''', ("test_softmax_public", "test_softmax_rows"), "down the columns (axis 0)"),
    Wrong("softmax_axis1", "softmax", '''
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    if evidence.ndim == 1:
        return evidence / evidence.sum()
    return evidence / evidence.sum(axis=1, keepdims=True)
''', ("test_softmax_rows",), "summed over axis 1"),
    Wrong("softmax_no_keepdims", "softmax", '''
def softmax(scores):
    evidence = np.exp(scores)
    return evidence / evidence.sum(axis=-1)
''', ("test_softmax_public", "test_softmax_rows"), "keepdims=True"),
    Wrong("softmax_in_place", "softmax", '''
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    np.exp(x, out=x)                      # saves memory...
    x /= x.sum(axis=-1, keepdims=True)
    return x
''', ("test_softmax_public", "test_softmax_inputs"), "changed its input in place"),
    Wrong("softmax_returns_list", "softmax", '''
import math

def softmax(scores):
    evidence = [math.exp(s) for s in scores]
    total = sum(evidence)
    return [e / total for e in evidence]
''', ("test_softmax_public", "test_softmax_journey", "test_softmax_inputs"), "expected a NumPy array"),
    Wrong("softmax_fails_on_ints", "softmax", '''
def softmax(scores):
    x = np.array(scores)                  # a copy, so the caller's array is safe
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x
''', ("test_softmax_public", "test_softmax_inputs"), "raised"),
    Wrong("softmax_fails_on_lists", "softmax", '''
def softmax(scores):
    evidence = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', ("test_softmax_public", "test_softmax_inputs"), "AttributeError"),
]
