"""Lesson 09_gradient: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception

LESSON = "09_gradient"

MISCONCEPTIONS = [
    # cross_entropy_grad
    Misconception(
        "cegrad_sign_flipped",
        "cross_entropy_grad",
        "returned onehot(target) - softmax, the negative of the gradient: that is the way downhill, the direction "
        "a training step moves, not the gradient itself",
        "the gradient points uphill: the target's entry is its weight minus 1, which is never positive",
        breaks=("value", "signs", "confidently_wrong", "per_row"),
    ),
    Misconception(
        "cegrad_no_shift",
        "cross_entropy_grad",
        "took the softmax without subtracting each row's max: exp overflows above about 709, and a confidently "
        "wrong row such as [1000, 0] gives nan instead of [1, -1]",
        "the softmax inside the gradient needs lesson 05's shift, like any other",
        breaks=("extremes", "quiet", "confidently_wrong", "shift"),
    ),
    Misconception(
        "cegrad_global_max",
        "cross_entropy_grad",
        "shifted every row by the largest logit of the whole batch: a row far below it underflows to 0 / 0 = nan",
        "each row is its own softmax: shift it by its own max",
        breaks=("extremes", "quiet", "shift"),
    ),
    Misconception(
        "cegrad_returns_jacobian",
        "cross_entropy_grad",
        "returned the Jacobian of softmax, diag(p) - p p^T (an n x n matrix per row), instead of the gradient "
        "of the loss, one number per logit",
        "the loss is one number per row, so its gradient has one entry per logit: the shape of the logits",
        breaks=("shapes", "value"),
    ),
    Misconception(
        "cegrad_weight_not_loss",
        "cross_entropy_grad",
        "differentiated the target's weight p_y instead of its loss -log p_y: p_y (p - onehot) is the gradient "
        "of -p_y, which shrinks with p_y, so a confidently wrong row gets almost no gradient",
        "the loss is -log p_y, not p_y: chain the loss's own slope through the Jacobian's row, and see what cancels",
        breaks=("value", "confidently_wrong"),
    ),
    Misconception(
        "cegrad_chain_rule_in_floats",
        "cross_entropy_grad",
        "multiplied the loss's slope -1 / p_y by the Jacobian's row p_y (onehot - p) numerically: when p_y "
        "underflows to 0 (a confidently wrong row) that is inf times 0, nan, with a divide-by-zero warning",
        "simplify on paper first: a factor cancels, and what is left needs no division, so no 0 meets an infinity",
        breaks=("extremes", "quiet", "confidently_wrong"),
    ),
    Misconception(
        "cegrad_mean_over_batch",
        "cross_entropy_grad",
        "divided by the number of rows: that is the gradient of the batch's mean loss, while each row's gradient "
        "is the gradient of its own loss",
        "leave the averaging to the training step: row i is the gradient of row i's loss alone",
        breaks=("per_row",),
    ),
    Misconception(
        "cegrad_one_onehot_for_batch",
        "cross_entropy_grad",
        "built one onehot vector for the whole batch (onehot[target] = 1): with several targets it holds several "
        "1s, and every row subtracts all of them",
        "each row needs its own onehot with a single 1, in its own target's column",
        breaks=("per_row", "value"),
    ),
    Misconception(
        "cegrad_softmax_axis0",
        "cross_entropy_grad",
        "took the softmax down the columns (axis 0) instead of along each row, so in a batch the rows compete "
        "with each other",
        "the classes are on the last axis: each row's weights sum to 1 on their own",
        breaks=("per_row", "value"),
    ),
    Misconception(
        "cegrad_2d_only",
        "cross_entropy_grad",
        "made every input a 2-D batch (np.atleast_2d) and indexed p[rows, target]: a single row comes back as a "
        "batch of one, (1, n) instead of (n,), and more leading axes fail",
        "work on the last axis for any number of leading axes, and return the logits' own shape",
        breaks=("shapes",),
    ),
    Misconception(
        "cegrad_eye_upcasts",
        "cross_entropy_grad",
        "took the onehot rows from np.eye(n), which is float64, so float32 logits came back as float64",
        "make the onehot in the logits' own dtype, or as booleans, which take the other operand's dtype",
        breaks=("dtype",),
    ),
    Misconception(
        "cegrad_subtracts_target",
        "cross_entropy_grad",
        "subtracted the target's class number itself from the weights (p - target): the target is an index, "
        "and what the gradient subtracts is a 1 in that column",
        "turn the class number into a row of 0s with a single 1 in the target's column first",
        breaks=("value",),
    ),
    Misconception(
        "cegrad_minus_one_everywhere",
        "cross_entropy_grad",
        "subtracted 1 from every weight instead of only the target's: only the target's logit should be pushed up",
        "only the target's column gets the - 1; every other entry is the weight itself",
        breaks=("value", "signs"),
    ),
    Misconception(
        "cegrad_log_softmax",
        "cross_entropy_grad",
        "subtracted the onehot from the log-weights (log_softmax - onehot): the derivative of log-sum-exp is the "
        "softmax itself, not its log",
        "differentiate log-sum-exp on paper: its slope with respect to one logit is a weight, not a log-weight",
        breaks=("value", "extremes"),
    ),
    Misconception(
        "cegrad_exp_minus_lse",
        "cross_entropy_grad",
        "took the weights as exp(x - LSE(x)) with LSE = m + log(sum): rounding LSE to the row's magnitude costs "
        "the digits of every gap, so rows far from zero (near ±1e12) get weights wrong in the fifth digit",
        "keep the shift apart: work with the shifted logits x - m throughout, as lesson 05 does",
        breaks=("extremes",),
    ),
    Misconception(
        "cegrad_shift_in_place",
        "cross_entropy_grad",
        "subtracted the max in place (x -= max): np.asarray does not copy a float array, so the caller's logits "
        "were changed",
        "compute the shifted logits into a new array",
        breaks=("unchanged",),
    ),
    Misconception(
        "cegrad_fails_on_lists",
        "cross_entropy_grad",
        "called array methods on the logits directly (logits.max(...)), so logits given as a Python list fail",
        "make an array of the logits first, as every graded function does",
        breaks=("dtype",),
    ),
    Misconception(
        "cegrad_integer_shift_wraps",
        "cross_entropy_grad",
        "shifted integer logits while still integers: small and unsigned integer types wrap around (uint8 0 - 200 "
        "is 56), so the weights are wrong, with no warning",
        "make integer logits floats before any arithmetic",
        breaks=("dtype",),
    ),
    Misconception(
        "cegrad_target_not_array",
        "cross_entropy_grad",
        "indexed the target as an array (target[..., None]) without making it one: a target given as a Python "
        "int or a list fails",
        "the target may come as a plain int or a list: make it a NumPy array before indexing it",
        breaks=("targets",),
    ),
    Misconception(
        "cegrad_rows_as_list",
        "cross_entropy_grad",
        "looped over the rows and returned the list of their gradients, not one NumPy array",
        "return one array shaped like the logits",
        breaks=("returns_array",),
    ),
]

# Small inputs on which the misconceptions above differ from the reference and from each other: what each
# misconception does on them is its fingerprint (fingerprints/), which a failed check compares with the learner's.
_INF = np.inf
PROBES: dict[str, list[tuple[tuple, dict]]] = {  # function -> [(args, kwargs), ...]
    "cross_entropy_grad": [
        (([2.0, 0.0, -1.0], 0), {}),
        ((np.array([[2.0, 0.0, -1.0], [0.5, 1.5, -0.5]]), np.array([2, 1])), {}),
        ((np.array([[3.0, 1.0], [0.0, 2.0], [1.0, 1.0]]), np.array([1, 1, 0])), {}),
        ((np.array([1000.0, 0.0]), 1), {}),
        ((np.array([20.0, 0.0]), 1), {}),
        ((np.array([[1000.0, 1001.0], [-1000.0, -1001.0]]), np.array([0, 0])), {}),
        ((np.array([[-1e12, -1e12 - 1.0], [3.0, 1e12]]), np.array([1, 0])), {}),
        ((np.array([[2.0, 0.0, -1.0]], dtype=np.float32), np.array([2])), {}),
        ((np.array([[0, 200], [3, 4]], dtype=np.uint8), [0, 1]), {}),
        (([[1.0, 2.0], [3.0, 0.0]], [1, 0]), {}),
        ((np.array([[[1.0, 2.0, 0.0]], [[0.0, 0.0, 3.0]]]), np.array([[0], [2]])), {}),
    ],
}
