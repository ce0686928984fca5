"""Lesson 03_shared_denominator: misconceptions and correct alternatives."""
from grader.catalogue import Alternative, Misconception

LESSON = "03_shared_denominator"

MISCONCEPTIONS = [
    Misconception(
        "softmax_no_exp", "softmax",
        "divided the raw scores by their sum, without exp",
        "turn every score into evidence with np.exp before you divide", '''
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "softmax_divides_by_raw_total", "softmax",
        "took exp of the scores but divided by the sum of the raw scores",
        "divide by the total evidence: the sum of the exp values", '''
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    return np.exp(x) / x.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "softmax_whole_array", "softmax",
        "divided by the total evidence of the whole array instead of each row's own total",
        "sum over the last axis only: .sum(axis=-1, keepdims=True)", '''
def softmax(scores):
    evidence = np.exp(scores)
    return evidence / evidence.sum()
'''),
    Misconception(
        "softmax_axis0", "softmax",
        "summed down the first axis (axis 0) instead of along each row",
        "the choices are along the last axis: .sum(axis=-1, keepdims=True)", '''
def softmax(scores):
    evidence = np.exp(scores)
    return evidence / np.sum(evidence, axis=0)
'''),
    Misconception(
        "softmax_axis1", "softmax",
        "summed over axis 1, which is the last axis only for 2-D input",
        "use axis=-1, the last axis, whatever the number of dimensions", '''
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    if evidence.ndim == 1:
        return evidence / evidence.sum()
    return evidence / evidence.sum(axis=1, keepdims=True)
'''),
    Misconception(
        "softmax_no_keepdims", "softmax",
        "summed each row but dropped keepdims=True, so the row totals were spread across the columns",
        "keep the summed axis: .sum(axis=-1, keepdims=True)", '''
def softmax(scores):
    evidence = np.exp(scores)
    return evidence / evidence.sum(axis=-1)
'''),
    Misconception(
        "softmax_shift_without_keepdims", "softmax",
        "subtracted each row's max without keepdims=True, so the row maxima were spread across the columns",
        "keep the reduced axis: x.max(axis=-1, keepdims=True) has shape (rows, 1)", '''
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    evidence = np.exp(x - x.max(axis=-1))
    return evidence / evidence.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "softmax_loops_first_axis", "softmax",
        "looped over the first axis only, so in a 3-D batch each whole 2-D block shared one total",
        "normalise every row along the last axis: .sum(axis=-1, keepdims=True) works for any number of dimensions", '''
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    if x.ndim == 1:
        return np.exp(x) / np.exp(x).sum()
    out = np.empty_like(x)
    for i, row in enumerate(x):
        evidence = np.exp(row)
        out[i] = evidence / evidence.sum()
    return out
'''),
    Misconception(
        "softmax_in_place", "softmax",
        "wrote the evidence and the weights into the caller's array (np.exp(x, out=x), x /= total)",
        "compute into a new array: evidence = np.exp(x), then return evidence / total", '''
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x
'''),
    Misconception(
        "softmax_returns_list", "softmax",
        "returned a Python list (built with math.exp) instead of a NumPy array",
        "work with NumPy arrays (np.exp, .sum), or wrap the finished list in np.array(...)", '''
import math

def softmax(scores):
    evidence = [math.exp(s) for s in scores]
    total = sum(evidence)
    return [e / total for e in evidence]
'''),
    Misconception(
        "softmax_fails_on_ints", "softmax",
        "kept integer scores as integers and wrote float results into them, which NumPy refuses",
        "convert first: np.asarray(scores, dtype=float), then compute into new arrays", '''
def softmax(scores):
    x = np.array(scores)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x
'''),
    Misconception(
        "softmax_int_output_array", "softmax",
        "filled an output made with np.zeros_like(scores): for integer scores it is an integer array, "
        "so every weight was cut down to a whole number",
        "make the output a float array: np.asarray(scores, dtype=float) first, then np.zeros_like of that", '''
def softmax(scores):
    x = np.asarray(scores)
    out = np.zeros_like(x)
    evidence = np.exp(x)
    out[...] = evidence / evidence.sum(axis=-1, keepdims=True)
    return out
'''),
    Misconception(
        "softmax_fails_on_lists", "softmax",
        "called array methods such as .max() on the input, which fails for a Python list",
        "convert the input first: x = np.asarray(scores, dtype=float)", '''
def softmax(scores):
    evidence = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
'''),
]

ALTERNATIVES = [
    Alternative("softmax_loop_over_rows", "softmax", "loops over the rows of a 2-D view, one row at a time", '''
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    rows = x.reshape(-1, x.shape[-1])
    out = np.empty_like(rows)
    for i in range(rows.shape[0]):
        evidence = np.exp(rows[i])
        out[i] = evidence / evidence.sum()
    return out.reshape(x.shape)
'''),
    Alternative("softmax_apply_along_axis", "softmax", "np.apply_along_axis with a one-row softmax", '''
def softmax(scores):
    def one_row(row):
        evidence = np.exp(row)
        return evidence / np.sum(evidence)

    return np.apply_along_axis(one_row, -1, np.asarray(scores, dtype=float))
'''),
    Alternative("softmax_log_sum_exp", "softmax", "exp(x - logsumexp(x)), the log-sum-exp form", '''
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    top = x.max(axis=-1, keepdims=True)
    log_total = top + np.log(np.exp(x - top).sum(axis=-1, keepdims=True))
    return np.exp(x - log_total)
'''),
    Alternative("softmax_math_exp_lists", "softmax", "math.exp on nested Python lists, turned into an array at the end", '''
import math

def softmax(scores):
    def normalise(rows):
        if isinstance(rows[0], list):
            return [normalise(row) for row in rows]
        evidence = [math.exp(s) for s in rows]
        total = sum(evidence)
        return [e / total for e in evidence]

    return np.array(normalise(np.asarray(scores, dtype=float).tolist()))
'''),
    Alternative("softmax_shift_by_row_max", "softmax", "subtracts each row's max first (lesson 05's stable form)", '''
def softmax(scores):
    x = np.array(scores, dtype=np.float64)
    evidence = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return evidence / np.sum(evidence, axis=-1, keepdims=True)
'''),
]
