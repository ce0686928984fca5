"""Lesson 08_log_softmax: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception

LESSON = "08_log_softmax"

MISCONCEPTIONS = [
    # logsumexp
    Misconception(
        "logsumexp_no_shift",
        "logsumexp",
        "took log(sum(exp(x))) with no shift: exp(1000) overflows to inf and exp(-1000) underflows to 0",
        "take each row's largest score out of the sum first, so no exp can overflow; it is still part of the answer",
        breaks=("extremes", "quiet", "shift"),
    ),
    Misconception(
        "logsumexp_forgets_max",
        "logsumexp",
        "shifted by the max but forgot to add it back: that is the LSE of x - m, not of x",
        "the shift does not cancel here as it does in a softmax: the max you took out belongs in the result",
        breaks=("value", "shift"),
    ),
    Misconception(
        "logsumexp_global_max",
        "logsumexp",
        "shifted every row's LSE by the global max of the whole array instead of the row's own max",
        "each row is its own problem: shift it by its own largest score, not the largest of the whole array",
        breaks=("value", "extremes"),
    ),
    Misconception(
        "logsumexp_nan_for_masked_rows",
        "logsumexp",
        "returned nan for a row whose scores are all -inf: -inf - (-inf) is nan, but the LSE of such a row is -inf",
        "a row of -inf scores has no evidence: -inf is no use as a shift, and any finite one leaves its sum at 0",
        breaks=("neg_inf", "quiet"),
    ),
    Misconception(
        "logsumexp_keeps_axis",
        "logsumexp",
        "kept the summed axis (keepdims=True) in the result: one number per row is expected, shape scores.shape[:-1]",
        "one number per row: the axis you summed over should not survive into the result",
        breaks=("shapes",),
    ),
    Misconception(
        "logsumexp_sums_axis0",
        "logsumexp",
        "summed down the first axis (axis 0) instead of along each row",
        "a row is the last axis, whatever the number of axes: take its max and its sum there",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "logsumexp_float32_becomes_float64",
        "logsumexp",
        "turned float32 scores into float64 LSEs (np.asarray(scores, dtype=float) converts every input)",
        "convert only what is not already a float: a float32 row should give a float32 answer",
        breaks=("dtype",),
    ),
    Misconception(
        "logsumexp_in_place",
        "logsumexp",
        "shifted the caller's array in place (x -= m on the input itself), so the scores it was given changed",
        "the scores belong to the caller: shift a new array, never the one you were given",
        breaks=("unchanged",),
    ),
    Misconception(
        "logsumexp_log_zero_warns",
        "logsumexp",
        "took np.log of the zero sum of a row of -inf scores: -inf is the right answer, but NumPy warns "
        "(divide by zero encountered in log)",
        "-inf is the right answer for a zero sum, but NumPy warns when you ask log for it: decide those rows yourself",
        breaks=("quiet",),
    ),
    Misconception(
        "logsumexp_neg_inf_as_large_finite",
        "logsumexp",
        "replaced -inf scores by a large negative number (-1e9) to keep the shift finite: a row of -inf scores "
        "then gives about -1e9 instead of -inf, and scores below -1e9 lose to the stand-ins",
        "-inf is a fine score (its exp is exactly 0); only the shift of a row with no finite score needs care",
        breaks=("neg_inf", "extremes"),
    ),
    Misconception(
        "logsumexp_shift_by_first",
        "logsumexp",
        "shifted each row by its first score instead of its max: any constant works on paper, but exp overflows "
        "when a later score is far above the first",
        "shift by the row's largest score, so the largest term is exp(0) = 1 and no term can overflow",
        breaks=("permutation", "extremes"),
    ),
    Misconception(
        "logsumexp_clips_scores",
        "logsumexp",
        "clipped the scores to [-700, 700] so that exp cannot overflow: every score beyond that is silently "
        "changed, so large or very negative rows give wrong LSEs",
        "no score needs changing: a shift by each row's max keeps every exp in range and changes nothing else",
        breaks=("extremes",),
    ),
    Misconception(
        "logsumexp_squeezes",
        "logsumexp",
        "dropped the summed axis with np.squeeze, which drops every other axis of length 1 too: a batch of one "
        "row, shape (1, n), gives a bare number instead of shape (1,)",
        "remove only the axis you summed over: a batch with rows of length 1 or one row still keeps its other axes",
        breaks=("shapes",),
    ),
    Misconception(
        "logsumexp_flat_rows",
        "logsumexp",
        "looped over the rows of a 2-D view (reshape(-1, n)) and never gave the results back the leading shape: "
        "scores of shape (2, 3, n) give 6 numbers in a row instead of shape (2, 3)",
        "one answer per row, laid out as the rows were: the shape of the scores without their last axis",
        breaks=("shapes",),
    ),
    Misconception(
        "logsumexp_returns_list",
        "logsumexp",
        "returned the LSEs of a batch as a Python list (math.log row by row) instead of a NumPy array",
        "the caller expects a NumPy array of one LSE per row, in the scores' float dtype",
        breaks=("returns_array",),
    ),
    Misconception(
        "logsumexp_no_cast",
        "logsumexp",
        "left integer scores as integers: shifting small integer types (int8, uint8, int16) wraps around, and "
        "np.exp of them gives float16 or float32 instead of float64",
        "integer scores are numbers too: make them float64 before the arithmetic",
        breaks=("dtype",),
    ),
    Misconception(
        "logsumexp_out_buffer_float64",
        "logsumexp",
        "made the -inf buffer for np.log's out= with np.full, which is float64, so float32 scores gave float64 LSEs",
        "anything you make to hold results should have the dtype of the sum it holds",
        breaks=("dtype",),
    ),
    # log_softmax
    Misconception(
        "log_softmax_log_of_softmax",
        "log_softmax",
        "took the log of the softmax weights: a weight that underflows to 0 gives -inf, though its log-weight "
        "is an ordinary number",
        "never form the weights (one that underflows has lost its log-weight): subtract the row's LSE from its scores",
        breaks=("far_apart", "extremes", "quiet"),
    ),
    Misconception(
        "log_softmax_no_shift",
        "log_softmax",
        "subtracted log(sum(exp(x))) with no shift: exp(1000) overflows to inf and exp(-1000) underflows to 0",
        "every exp must stay in range: shift each row by its own max before any exp",
        breaks=("extremes", "quiet", "shift"),
    ),
    Misconception(
        "log_softmax_only_max",
        "log_softmax",
        "subtracted only the max and left out the log of the shifted sum: the weights no longer sum to 1",
        "the max is only part of the LSE: after the shift, a log of the shifted sum is still to be subtracted",
        breaks=("value",),
    ),
    Misconception(
        "log_softmax_global_max",
        "log_softmax",
        "shifted the log-weights by the global max of the whole array instead of each row's own max",
        "each row is its own problem: shift it by its own largest score, not the largest of the whole array",
        breaks=("value", "extremes"),
    ),
    Misconception(
        "log_softmax_lse_without_keepdims",
        "log_softmax",
        "subtracted each row's LSE without keeping its axis, so it lined up with the columns instead of the rows",
        "each row must lose its own LSE: line the one number per row up with the row it belongs to",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "log_softmax_sums_whole_array",
        "log_softmax",
        "took one LSE of the whole array instead of one per row, so unrelated rows competed",
        "a row is the last axis: its max and its sum are taken along it, not over the whole array",
        breaks=("value",),
    ),
    Misconception(
        "log_softmax_float32_becomes_float64",
        "log_softmax",
        "turned float32 scores into float64 log-weights (np.asarray(scores, dtype=float) converts every input)",
        "convert only what is not already a float: float32 scores should give float32 log-weights",
        breaks=("dtype",),
    ),
    Misconception(
        "log_softmax_in_place",
        "log_softmax",
        "shifted and normalised the caller's array in place (x -= ... on the input itself) and returned it",
        "the scores belong to the caller: compute into a new array, never the one you were given",
        breaks=("unchanged",),
    ),
    Misconception(
        "log_softmax_shift_by_first",
        "log_softmax",
        "subtracted each row's first score rather than its largest: exp then overflows to inf as soon as another "
        "score is more than about 709 above the first",
        "shift by each row's largest score, so every shifted score is at most 0 and no exp can overflow",
        breaks=("permutation", "extremes"),
    ),
    Misconception(
        "log_softmax_axis_one",
        "log_softmax",
        "normalised over axis 1, which is the last axis only for 2-D scores: a (k, 1, n) or (2, 3, n) batch is "
        "normalised down the wrong axis",
        "the last axis, whatever the number of axes, is the one a row runs along",
        breaks=("shapes",),
    ),
    Misconception(
        "log_softmax_neg_inf_as_large_finite",
        "log_softmax",
        "replaced -inf scores by -1e9 to keep the arithmetic finite: a forbidden choice then gets a log-weight "
        "near -1e9 instead of -inf, and scores below -1e9 go wrong",
        "-inf is a fine score: its exp is 0, and -inf minus the row's LSE is -inf, as a forbidden choice should be",
        breaks=("neg_inf", "extremes"),
    ),
    Misconception(
        "log_softmax_log_eps",
        "log_softmax",
        "took the log of the weights plus a small epsilon, log(p + 1e-12), to dodge log(0): every log-weight is "
        "nudged, and a score far below the others gives about -27.6 instead of its true log-weight",
        "an epsilon only hides the lost weight: never form the weights, subtract the row's LSE from its scores",
        breaks=("far_apart", "value"),
    ),
    Misconception(
        "log_softmax_no_cast",
        "log_softmax",
        "left integer scores as integers: shifting int8 or uint8 scores wraps around, and np.exp of small integer "
        "types gives float16 or float32 log-weights instead of float64",
        "integer scores are numbers too: make them float64 before the arithmetic",
        breaks=("dtype",),
    ),
    Misconception(
        "log_softmax_returns_list",
        "log_softmax",
        "returned the log-weights as nested Python lists (math.log row by row) instead of a NumPy array",
        "the caller expects a NumPy array shaped like the scores, in their float dtype",
        breaks=("returns_array",),
    ),
    # cross_entropy
    Misconception(
        "cross_entropy_via_log_of_softmax",
        "cross_entropy",
        "computed the loss as -log(softmax(logits))[target]: a weight that underflows to 0 makes the loss inf",
        "compute from the logits: the loss needs the target's log-weight, which never has to pass through a weight",
        breaks=("from_logits", "extremes", "quiet"),
    ),
    Misconception(
        "cross_entropy_forgets_minus",
        "cross_entropy",
        "returned the log-weight of the target instead of its negative: the loss must be -log p, which is >= 0",
        "the loss is the negative log-weight of the target: it grows as the target's weight shrinks",
        breaks=("value",),
    ),
    Misconception(
        "cross_entropy_adds_target_logit",
        "cross_entropy",
        "added the target's logit to the LSE instead of subtracting it",
        "a higher logit for the target should mean a smaller loss: check the sign of the target's term",
        breaks=("value",),
    ),
    Misconception(
        "cross_entropy_no_shift",
        "cross_entropy",
        "took log(sum(exp(logits))) with no shift: exp(1000) overflows to inf",
        "the row's LSE is in the loss, and it needs the max shift like any log-sum-exp",
        breaks=("extremes", "quiet", "shift"),
    ),
    Misconception(
        "cross_entropy_mean_over_batch",
        "cross_entropy",
        "averaged the losses over the batch: one loss per row is expected (take the mean afterwards)",
        "one loss per row: averaging them is the caller's step, not this function's",
        breaks=("per_row", "shapes"),
    ),
    Misconception(
        "cross_entropy_target_column",
        "cross_entropy",
        "indexed the columns with the whole target array (x[..., target]), which pairs every row with every target",
        "each row has its own target: row i's loss reads entry target[i] of row i, not a whole column",
        breaks=("per_row", "value"),
    ),
    Misconception(
        "cross_entropy_float32_becomes_float64",
        "cross_entropy",
        "turned float32 logits into float64 losses (np.asarray(logits, dtype=float) converts every input)",
        "convert only what is not already a float: float32 logits should give float32 losses",
        breaks=("dtype",),
    ),
    Misconception(
        "cross_entropy_in_place",
        "cross_entropy",
        "shifted the caller's logits in place (x -= m on the input itself), so the logits it was given changed",
        "the logits belong to the caller: shift a new array, never the one you were given",
        breaks=("unchanged",),
    ),
    Misconception(
        "cross_entropy_one_hot_product",
        "cross_entropy",
        "multiplied a one-hot row by the log-weights and summed: a logit of -inf gives 0 * -inf = nan, although "
        "that class plays no part in the loss",
        "a loss needs the target's log-weight alone: a one-hot product meets -inf times 0 for a ruled-out class",
        breaks=("extremes", "quiet"),
    ),
    Misconception(
        "cross_entropy_two_axes_only",
        "cross_entropy",
        "picked the target logits with x[np.arange(x.shape[0]), target], which works for a 2-D batch only: a "
        "single row or a batch with more axes fails or picks the wrong entries",
        "rows can have any number of leading axes: pick each row's target in a way that does not count them",
        breaks=("shapes",),
    ),
    Misconception(
        "cross_entropy_squeezes",
        "cross_entropy",
        "dropped the picked axis with np.squeeze, which drops every axis of length 1: a batch of one row, shape "
        "(1, n), gives a bare number instead of one loss in shape (1,)",
        "remove only the axis of the classes: a batch of one row, or of rows of one class, keeps its other axes",
        breaks=("shapes",),
    ),
    Misconception(
        "cross_entropy_target_not_array",
        "cross_entropy",
        "used the target as an array without converting it (target[..., None]): a target given as a Python int "
        "or a list fails",
        "a target may come as a list or a plain int: make it an array before you index with it",
        breaks=("targets",),
    ),
    Misconception(
        "cross_entropy_no_cast",
        "cross_entropy",
        "left integer logits as integers: shifting int8 or uint8 logits wraps around, and np.exp of small integer "
        "types gives float16 or float32 losses instead of float64",
        "integer logits are numbers too: make them float64 before the arithmetic",
        breaks=("dtype",),
    ),
    Misconception(
        "cross_entropy_returns_list",
        "cross_entropy",
        "returned the losses of a batch as a Python list (a loop with math.log) instead of a NumPy array",
        "the caller expects a NumPy array of one loss per row, shaped like the logits without their last axis",
        breaks=("returns_array", "shapes"),
    ),
    Misconception(
        "cross_entropy_log_eps",
        "cross_entropy",
        "took -log(p[target] + 1e-12) to dodge log(0): every loss is nudged, and a confident mistake costs at "
        "most about 27.6 instead of its true loss",
        "an epsilon only hides the lost weight: compute from the logits, where no weight and no log(0) appear",
        breaks=("from_logits", "value"),
    ),
    Misconception(
        "cross_entropy_shift_by_target",
        "cross_entropy",
        "shifted each row by the target's logit instead of the row's max, log(sum(exp(x - x[target]))): exact on "
        "paper, but exp overflows when another class's logit is far above the target's",
        "shift by the row's max, so no exp can overflow, whatever the target's own logit",
        breaks=("extremes", "quiet"),
    ),
]

# Small inputs on which the misconceptions above differ from the reference and from each other: what each
# misconception does on them is its fingerprint (fingerprints/), which a failed check compares with the learner's.
PROBES: dict[str, list[tuple[tuple, dict]]] = {  # function -> [(args, kwargs), ...]
    "logsumexp": [
        ((np.array([[1.0, 2.0, 0.5], [-1000.0, -999.0, -1001.0]]),), {}),
        ((np.array([[1000.0, 0.0, 1001.0], [-np.inf, -np.inf, -np.inf]]),), {}),
        ((np.array([[2.0, 1.0]], dtype=np.float32),), {}),
        ((np.array([[-100, 100], [3, 4]], dtype=np.int8),), {}),
        ((np.array([[[0.0, 1.0]], [[2.0, 2.0]], [[1e12, -1e12]]]),), {}),
        (([[-np.inf, -np.inf], [-1e12, -np.inf]],), {}),
    ],
    "log_softmax": [
        ((np.array([[1.0, 2.0, 0.5], [-1000.0, -999.0, -1001.0]]),), {}),
        ((np.array([[0.0, 1000.0, -2000.0]]),), {}),
        ((np.array([[2.0, 1.0], [0.0, -300.0]], dtype=np.float32),), {}),
        ((np.array([[-100, 100], [3, 4]], dtype=np.int8),), {}),
        ((np.array([[[0.0, 1.0]], [[2.0, 2.0]], [[-np.inf, 5.0]]]),), {}),
        (([[-1e12, -np.inf, 0.5]],), {}),
    ],
    "cross_entropy": [
        ((np.array([[1.0, 2.0, 0.5], [-1000.0, -999.0, -1001.0]]), np.array([0, 2])), {}),
        ((np.array([[0.0, 1000.0, -np.inf]]), np.array([0])), {}),
        ((np.array([[2.0, 1.0], [0.0, -300.0]], dtype=np.float32), [1, 1]), {}),
        ((np.array([[-100, 100], [3, 4]], dtype=np.int8), np.array([0, 1], dtype=np.uint8)), {}),
        ((np.array([[[0.0, 1.0]], [[2.0, 2.0]], [[-np.inf, 5.0]]]), np.array([[1], [0], [1]])), {}),
        (([2.0, 0.0, -1.0], 2), {}),
    ],
}
