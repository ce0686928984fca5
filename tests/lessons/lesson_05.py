"""Lesson 05_stable_softmax: printed numbers and known-wrong implementations."""
from tests.lessons import Wrong

NUMBERS = ["naive softmax of [1000, 1001]: [nan nan]",
           "exp of the scores: [0. 0.] | their total: 0.0",
           "naive softmax of [-1000, -1001]: [nan nan]",
           "factor exp(-c) = 3.72e-44, weights [0.09   0.2447 0.6652]",
           "stable softmax of [1000, 1001]: [0.2689 0.7311]",
           "stable softmax of [-1000, -1001]: [0.7311 0.2689]",
           "weights, row 2: [nan nan]",
           "row-wise shift, row 1: [0.2689 0.7311]", "row-wise shift, row 2: [0.2689 0.7311]",
           "whole matrix at once, row 1: [0.2689 0.7311] | row 2: [0. 0.]",
           "whole matrix at once, row sums: [1. 0.]",
           "whole matrix at once: [0.1966 0.5344 0.0723 0.1966]"]

WRONG = [
    Wrong("stable_global_max", "stable_softmax", '''
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z.max())
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', ("test_stable_softmax_public", "test_stable_softmax_rows", "test_stable_softmax_quiet"), "global max"),
    Wrong("stable_no_shift", "stable_softmax", '''
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    evidence = np.exp(x / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', ("test_stable_softmax_public", "test_stable_softmax_extremes", "test_stable_softmax_float32",
      "test_stable_softmax_quiet"), "did not shift"),
    Wrong("stable_min_shift", "stable_softmax", '''
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z.min(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', ("test_stable_softmax_extremes",), "row's minimum"),
    Wrong("stable_shift_in_place", "stable_softmax", '''
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    x -= x.max(axis=-1, keepdims=True)
    evidence = np.exp(x / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', ("test_stable_softmax_public", "test_stable_softmax_rows", "test_stable_softmax_float32",
      "test_stable_softmax_inputs"), "changed its input in place"),
    Wrong("stable_float32_becomes_float64", "stable_softmax", '''
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature
    evidence = np.exp(x - x.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', ("test_stable_softmax_float32",), "came back as another dtype"),
    Wrong("stable_sums_axis0", "stable_softmax", '''
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=0)
''', ("test_stable_softmax_public", "test_stable_softmax_rows"), "summed down"),
    Wrong("stable_sums_whole_array", "stable_softmax", '''
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z.max(axis=-1, keepdims=True))
    return evidence / evidence.sum()
''', ("test_stable_softmax_public", "test_stable_softmax_rows"), "at once"),
    Wrong("stable_max_without_keepdims", "stable_softmax", '''
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x / temperature
    evidence = np.exp(z - z.max(axis=-1))
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', ("test_stable_softmax_public", "test_stable_softmax_rows", "test_stable_softmax_inputs"), "keepdims"),
    Wrong("stable_multiplies_temperature", "stable_softmax", '''
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    z = x * temperature
    evidence = np.exp(z - z.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', ("test_stable_softmax_temperature",), "multiplied the scores by the temperature"),
    Wrong("stable_ignores_temperature", "stable_softmax", '''
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    evidence = np.exp(x - x.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
''', ("test_stable_softmax_temperature",), "ignored the temperature"),
]
