"""Lesson 09_gradient: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception
from grader.learner.streams import Formula

LESSON = "09_gradient"

MISCONCEPTIONS = [
    # numerical_gradient
    Misconception(
        "numgrad_one_sided",
        "numerical_gradient",
        "took the one-sided difference (f(x + h e_j) - f(x)) / h: its error shrinks only like h, about h/2 times "
        "the curvature (some 1e-5 at h = 1e-5), where the central difference's shrinks like h^2",
        "centre the chord on x, one step up and one step down: the curvature's terms then cancel",
        breaks=("value", "central"),
    ),
    Misconception(
        "numgrad_divides_by_h",
        "numerical_gradient",
        "divided the central difference by h instead of 2h: x + h and x - h are 2h apart, so every slope came out "
        "twice too large",
        "a slope is the rise over the distance between the two points where f was measured",
        breaks=("value", "step", "central"),
    ),
    Misconception(
        "numgrad_all_at_once",
        "numerical_gradient",
        "nudged every entry of x at once (x + h and x - h), so every entry got the same number, the slope along "
        "all entries together, not along entry j alone",
        "entry j is the slope when entry j alone moves: every other entry stays where it is in both calls of f",
        breaks=("one_at_a_time", "value"),
    ),
    Misconception(
        "numgrad_in_place_no_restore",
        "numerical_gradient",
        "nudged the caller's x in place and never put the entry back: x came back changed, and each later entry "
        "was measured at a point moved by the earlier nudges",
        "the caller's x must come back as it was: nudge a copy, never x itself",
        breaks=("unchanged",),
    ),
    Misconception(
        "numgrad_restores_by_subtracting",
        "numerical_gradient",
        "nudged x in place and undid it by arithmetic (+h, then -2h, then +h): adding and taking away h does not "
        "always land on the same float (0.1 comes back as 0.09999999999999999), so x came back changed",
        "undo a nudge by putting back the value you saved, not by subtracting, or nudge a copy",
        breaks=("unchanged",),
    ),
    Misconception(
        "numgrad_alias_not_copy",
        "numerical_gradient",
        "wrote x_plus = x and x_minus = x, which name the caller's array three times: both nudges went into one "
        "array, so f saw the same point twice (every slope about 0) and x was changed",
        "assignment names the same array again, it does not copy it: each nudged point needs an array of its own",
        breaks=("value", "unchanged"),
    ),
    Misconception(
        "numgrad_int_nudge_vanishes",
        "numerical_gradient",
        "nudged an integer x in place (the saved value put back, as cs231n's gradient check does): writing "
        "x_j + 1e-5 into an integer array rounds it back to x_j, so f saw no change and every slope came out 0",
        "an integer array cannot hold a nudge of 1e-5: measure at a float copy of x",
        breaks=("dtype",),
    ),
    Misconception(
        "numgrad_result_like_x",
        "numerical_gradient",
        "made the result with np.zeros_like(x): for an integer x it is an integer array, and every slope was cut "
        "to a whole number",
        "an array made like x takes x's dtype: the slopes need a float array, whatever x holds",
        breaks=("dtype",),
    ),
    Misconception(
        "numgrad_first_axis_only",
        "numerical_gradient",
        "looped over range(len(x)) and indexed x[j]: for a matrix that nudges a whole row at once and gives the "
        "row one slope, not one slope per entry",
        "x may have any number of axes: run over every index of x, not over its first axis",
        breaks=("shapes", "one_at_a_time"),
    ),
    Misconception(
        "numgrad_flat_result",
        "numerical_gradient",
        "measured every entry of the flattened x but returned the flat result, of length x.size, not shaped like x",
        "the gradient has one slope per entry of x, arranged as x is: give it x's shape",
        breaks=("shapes",),
    ),
    Misconception(
        "numgrad_ignores_h",
        "numerical_gradient",
        "used a fixed step of 1e-5 instead of the h it was given",
        "h is an argument: the caller chooses the step",
        breaks=("step",),
    ),
    # softmax_vjp
    Misconception(
        "vjp_builds_jacobian",
        "softmax_vjp",
        "built J = diag(p) - p p^T and returned J^T g: right for one row, but np.diag of a batch reads its "
        "diagonal instead of building one, so a batch fails (and one row costs n^2 numbers)",
        "a batch holds one product per row, and the n x n matrix is what the exercise asks you to avoid: "
        "write what J^T g is, entry by entry",
        breaks=("batch", "shapes"),
    ),
    Misconception(
        "vjp_missing_weight",
        "softmax_vjp",
        "returned g - <p, g> without the factor p: each entry of the product is scaled by its own weight, so a "
        "weight of 0 gets nothing back",
        "each entry of diag(p) g and of p (p^T g) carries its own weight p_i",
        breaks=("value",),
    ),
    Misconception(
        "vjp_diagonal_only",
        "softmax_vjp",
        "returned p * g, the diag(p) part alone: the outer product p p^T, the competition between the weights, "
        "is missing, so the product no longer sums to 0",
        "raising one score takes weight from every other choice: the p p^T part of J contributes too",
        breaks=("value", "sums_to_zero", "offset"),
    ),
    Misconception(
        "vjp_sign_flipped",
        "softmax_vjp",
        "returned p * (<p, g> - g), the product with the wrong sign",
        "check one case by hand: a slope on entry i alone must push score i's product the same way",
        breaks=("value",),
    ),
    Misconception(
        "vjp_plain_mean",
        "softmax_vjp",
        "subtracted the plain mean of g instead of <p, g>, the average of the slopes weighted by p",
        "in p^T g each slope counts as much as its weight: the average is weighted by p",
        breaks=("value", "sums_to_zero"),
    ),
    Misconception(
        "vjp_whole_batch_sum",
        "softmax_vjp",
        "summed p * g over the whole batch instead of along each row: every row subtracted the batch's one total",
        "p^T g is one number per row, from that row alone",
        breaks=("batch",),
    ),
    Misconception(
        "vjp_no_keepdims",
        "softmax_vjp",
        "summed p * g along the last axis without keeping it: the row totals then line up with the columns, so a "
        "batch fails, or, with as many rows as weights, each row subtracts another row's total",
        "each row's total must line up with its own row: keep the summed axis",
        breaks=("batch",),
    ),
    Misconception(
        "vjp_matmul_for_dot",
        "softmax_vjp",
        "took <p, g> as p @ g: right for one row, but for a batch that is a matrix product of the two batches, not "
        "one dot product per row",
        "for a batch, a dot product per row is an entry-by-entry product summed along the last axis",
        breaks=("batch",),
    ),
    Misconception(
        "vjp_changes_g",
        "softmax_vjp",
        "computed in place into g (g -= ..., g *= p): np.asarray does not copy a float array, so the caller's g "
        "was changed",
        "g may be the caller's own array: put the result in a new one",
        breaks=("unchanged",),
    ),
    Misconception(
        "vjp_float32_becomes_float64",
        "softmax_vjp",
        "converted p and g with dtype=float, so float32 inputs gave a float64 product",
        "convert only what is not a float already, so float32 inputs keep their dtype",
        breaks=("dtype",),
    ),
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
        "looped over the rows and returned the list of their gradients, not one NumPy array: a single row comes "
        "back as a list of one row, and a batch with several leading axes as one flat list of rows",
        "return one array shaped like the logits",
        breaks=("returns_array", "shapes"),
    ),
]

# Small inputs on which the misconceptions above differ from the reference and from each other: what each
# misconception does on them is its fingerprint (fingerprints/), which a failed check compares with the learner's.
_INF = np.inf
PROBES: dict[str, list[tuple[tuple, dict]]] = {  # function -> [(args, kwargs), ...]
    "numerical_gradient": [
        ((Formula("cubic", (3,), 1.0, 0.0, 0.0), np.array([0.5, -1.0, 2.0])), {}),
        ((Formula("square_of_sum", (3,), np.array([1.0, 2.0, -1.0])), np.array([0.5, -1.0, 2.0])), {"h": 0.125}),
        ((Formula("cubic", (2,), 1.0, 0.0, 0.0), np.array([1.0, -0.5])), {"h": 0.25}),
        ((Formula("cubic", (2, 2), 1.0, 0.5, 0.0), np.array([[0.5, 1.0], [-1.0, 2.0]])), {}),
        ((Formula("cubic", (3,), 1.0, 0.25, 0.0), np.array([1, -2, 3])), {}),
        ((Formula("cubic", (3,), 1.0, 0.0, 0.0), np.array([0.1, 0.7, 1.1])), {}),
    ],
    "softmax_vjp": [
        ((np.array([0.2, 0.3, 0.5]), np.array([1.0, 0.0, 0.0])), {}),
        ((np.array([[0.5, 0.5], [0.9, 0.1]]), np.array([[1.0, 0.0], [2.0, -1.0]])), {}),
        ((np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]]), np.array([[1.0, -1.0, 0.5], [0.0, 2.0, -2.0]])), {}),
        ((np.array([0.25, 0.75], dtype=np.float32), np.array([1.0, 0.0], dtype=np.float32)), {}),
        ((np.array([0.1, 0.2, 0.3, 0.4]), np.array([1.0, 2.0, 3.0, 4.0])), {}),
    ],
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
