"""Lesson 02_exp_evidence: misconceptions and correct alternatives."""
from grader.catalogue import Alternative, Misconception

LESSON = "02_exp_evidence"

MISCONCEPTIONS = [
    # evidence
    Misconception(
        "evidence_returns_list", "evidence",
        "returned a Python list (a list comprehension) instead of a NumPy array",
        "use np.exp on the whole array: np.exp(np.asarray(scores, dtype=float))", '''
def evidence(scores):
    return [np.exp(s) for s in scores]
'''),
    Misconception(
        "evidence_in_place", "evidence",
        "wrote the exponentials into the caller's array (np.exp(x, out=x))",
        "let np.exp return a new array: return np.exp(x)", '''
def evidence(scores):
    x = np.asarray(scores, dtype=float)
    np.exp(x, out=x)
    return x
'''),
    Misconception(
        "evidence_keeps_int_dtype", "evidence",
        "converted the result back to the scores' integer dtype, so the evidence was cut down to whole numbers",
        "the result must be floats: convert with dtype=float, not to the input's dtype", '''
def evidence(scores):
    x = np.asarray(scores)
    return np.exp(x).astype(x.dtype)
'''),
    Misconception(
        "evidence_fails_on_ints", "evidence",
        "kept the integer dtype of the input, so writing exp into it fails (an int array cannot hold e = 2.718...)",
        "convert to floats first: np.asarray(scores, dtype=float), and let np.exp return a new array", '''
def evidence(scores):
    x = np.array(scores)
    np.exp(x, out=x)
    return x
'''),
    Misconception(
        "evidence_fails_on_lists", "evidence",
        "used np.e ** scores on the input directly, so a Python list fails (a list cannot be a power)",
        "convert first: np.asarray(scores, dtype=float), or call np.exp, which accepts lists", '''
def evidence(scores):
    return np.e ** scores
'''),
    Misconception(
        "evidence_normalised", "evidence",
        "normalised the evidence; dividing by the total is a later step",
        "evidence is just the exponential of each score, nothing more", '''
def evidence(scores):
    e = np.exp(np.asarray(scores, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "evidence_returns_scalar", "evidence",
        "returned the total evidence (one number) instead of the evidence of each score",
        "return np.exp of every score, an array of the same shape as the scores; do not sum", '''
def evidence(scores):
    return np.exp(np.asarray(scores, dtype=float)).sum()
'''),
    # evidence_ratio
    Misconception(
        "ratio_reversed", "evidence_ratio",
        "swapped the two scores: that is how many times more evidence b has than a",
        "the ratio of a's evidence to b's evidence is exp(a - b)", '''
def evidence_ratio(a, b):
    return np.exp(np.asarray(b, dtype=float) - np.asarray(a, dtype=float))
'''),
    Misconception(
        "ratio_no_exp", "evidence_ratio",
        "returned the difference of the scores, without exp",
        "a score difference becomes an evidence ratio through exp: exp(a - b)", '''
def evidence_ratio(a, b):
    return np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
'''),
    Misconception(
        "ratio_of_raw_scores", "evidence_ratio",
        "divided the raw scores; scores are not evidence",
        "take the exponential of the difference: exp(a - b)", '''
def evidence_ratio(a, b):
    return np.asarray(a, dtype=float) / np.asarray(b, dtype=float)
'''),
    Misconception(
        "ratio_exp_quotient_overflows", "evidence_ratio",
        "computed exp(a) / exp(b): for large scores each exp overflows to inf (or underflows to 0), "
        "and inf / inf or 0 / 0 is nan",
        "exponentiate the difference instead: exp(a - b) never sees the huge numbers", '''
def evidence_ratio(a, b):
    return np.exp(np.asarray(a, dtype=float)) / np.exp(np.asarray(b, dtype=float))
'''),
    Misconception(
        "ratio_fails_on_lists", "evidence_ratio",
        "subtracted the inputs directly, so Python lists fail (a list cannot be subtracted from a list)",
        "convert both first: np.asarray(a, dtype=float) - np.asarray(b, dtype=float)", '''
def evidence_ratio(a, b):
    return np.exp(a - b)
'''),
    Misconception(
        "ratio_converts_to_float", "evidence_ratio",
        "converted the answer with float(), which works only for single numbers, so arrays of scores fail",
        "return np.exp(a - b) as it comes: a number for numbers, an array for arrays", '''
def evidence_ratio(a, b):
    return float(np.exp(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)))
'''),
    Misconception(
        "ratio_in_place", "evidence_ratio",
        "subtracted b from the caller's array a in place (a -= b on the input itself)",
        "compute the difference into a new array: d = a - b", '''
def evidence_ratio(a, b):
    a = np.asarray(a, dtype=float)
    a -= np.asarray(b, dtype=float)
    return np.exp(a)
'''),
    # normalize_evidence
    Misconception(
        "normalize_applies_exp_again", "normalize_evidence",
        "applied exp again: the input is already evidence",
        "only divide by the total; exp was the evidence step", '''
def normalize_evidence(ev):
    e = np.exp(np.asarray(ev, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "normalize_whole_array", "normalize_evidence",
        "divided by the total of the whole array instead of each row's own total",
        "sum over the last axis only: x.sum(axis=-1, keepdims=True)", '''
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return x / x.sum()
'''),
    Misconception(
        "normalize_axis0", "normalize_evidence",
        "summed down the columns (axis 0) instead of along each row",
        "the choices are along the last axis: x.sum(axis=-1, keepdims=True)", '''
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return x / x.sum(axis=0)
'''),
    Misconception(
        "normalize_drops_keepdims", "normalize_evidence",
        "summed each row but dropped the summed axis, so the row totals were lined up with the columns",
        "keep the summed axis so each row is divided by its own total: keepdims=True", '''
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return x / x.sum(axis=-1)
'''),
    Misconception(
        "normalize_in_place", "normalize_evidence",
        "divided the caller's array in place (x /= total on the input itself)",
        "return a new array: x / total, not x /= total", '''
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    x /= x.sum(axis=-1, keepdims=True)
    return x
'''),
    Misconception(
        "normalize_fails_on_lists", "normalize_evidence",
        "called array methods on the input directly, so a Python list fails (a list has no .sum(axis=...))",
        "convert first: x = np.asarray(ev, dtype=float)", '''
def normalize_evidence(ev):
    return ev / ev.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "normalize_fails_on_ints", "normalize_evidence",
        "kept the integer dtype of the input, so dividing in place into it fails (an int array cannot hold fractions)",
        "convert to floats first: np.asarray(ev, dtype=float), then divide into a new array", '''
def normalize_evidence(ev):
    x = np.array(ev)
    x /= x.sum(axis=-1, keepdims=True)
    return x
'''),
    Misconception(
        "normalize_returns_list", "normalize_evidence",
        "returned a Python list (a list comprehension) instead of a NumPy array",
        "convert with np.asarray(ev, dtype=float) and divide the whole array at once", '''
def normalize_evidence(ev):
    total = sum(ev)
    return [e / total for e in ev]
'''),
]

ALTERNATIVES = [
    # evidence
    Alternative("evidence_list_then_array", "evidence", "exp of each score in a flat list, turned back into an array at the end", '''
def evidence(scores):
    x = np.asarray(scores, dtype=float)
    return np.array([np.exp(s) for s in x.ravel().tolist()]).reshape(x.shape)
'''),
    Alternative("evidence_exp_into_copy", "evidence", "np.exp(x, out=x) into its own float copy of the scores", '''
def evidence(scores):
    x = np.array(scores, dtype=float)
    np.exp(x, out=x)
    return x
'''),
    Alternative("evidence_e_power", "evidence", "raises np.e to the power of the scores", '''
def evidence(scores):
    return np.power(np.e, np.asarray(scores, dtype=float))
'''),
    # evidence_ratio
    Alternative("ratio_subtract_as_float", "evidence_ratio", "np.subtract with dtype=float, then np.exp", '''
def evidence_ratio(a, b):
    return np.exp(np.subtract(a, b, dtype=float))
'''),
    Alternative("ratio_e_power", "evidence_ratio", "np.e raised to the power a - b", '''
def evidence_ratio(a, b):
    difference = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    return np.e ** difference
'''),
    Alternative("ratio_shift_by_larger", "evidence_ratio", "exp(a - m) / exp(b - m) with m the larger of the two scores", '''
def evidence_ratio(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    m = np.maximum(a, b)
    return np.exp(a - m) / np.exp(b - m)
'''),
    # normalize_evidence
    Alternative("normalize_python_rows", "normalize_evidence", "divides one row at a time as Python lists, an array at the end", '''
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    rows = [[value / sum(row) for value in row] for row in x.reshape(-1, x.shape[-1]).tolist()]
    return np.array(rows).reshape(x.shape)
'''),
    Alternative("normalize_apply_along_axis", "normalize_evidence", "np.apply_along_axis over the last axis", '''
def normalize_evidence(ev):
    return np.apply_along_axis(lambda row: row / np.sum(row), -1, np.asarray(ev, dtype=float))
'''),
    Alternative("normalize_total_newaxis", "normalize_evidence", "np.divide by the row totals with the axis added back", '''
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return np.divide(x, x.sum(axis=-1)[..., np.newaxis])
'''),
]
