"""Lesson 06_masking: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception

LESSON = "06_masking"

MISCONCEPTIONS = [
    # masked_softmax
    Misconception(
        "masked_with_zero",
        "masked_softmax",
        "gave forbidden choices a score of 0: exp(0) = 1, so they still take weight",
        "a score of 0 is an ordinary score with evidence exp(0) = 1; which score has no evidence at all?",
        breaks=("value", "forbidden", "shift"),
    ),
    Misconception(
        "masked_multiplies_scores_by_mask",
        "masked_softmax",
        "multiplied the scores by the mask: False counts as a score of 0, and exp(0) = 1 still takes weight",
        "multiplying turns a forbidden score into 0, an ordinary score; a forbidden choice needs a score whose "
        "evidence is exactly 0",
        breaks=("value", "forbidden"),
    ),
    Misconception(
        "masked_large_negative_fill",
        "masked_softmax",
        "filled forbidden scores with a large finite negative number (like -1e9), so a row with every "
        "choice forbidden silently comes back uniform",
        "no finite score is low enough, and a row of only forbidden choices has no distribution: say so with a "
        "ValueError",
        breaks=("all_forbidden", "forbidden"),
    ),
    Misconception(
        "masked_inverted_polarity",
        "masked_softmax",
        "inverted the mask (treated True as forbidden); here True means allowed",
        "in this course True means allowed: the choices the mask marks True are the ones that keep their scores",
        breaks=("value",),
    ),
    Misconception(
        "masked_nan_for_empty_row",
        "masked_softmax",
        "returned nan for a row with no allowed choice: -inf - (-inf) is nan, not an answer",
        "look for rows with nothing allowed before you compute anything, and refuse them with a ValueError that names "
        "the row",
        breaks=("all_forbidden",),
    ),
    Misconception(
        "masked_checks_whole_mask_only",
        "masked_softmax",
        "checked only whether the whole mask allows something, not every row",
        "an empty row can hide in a mask that allows plenty elsewhere: ask the question row by row, after giving the "
        "mask the scores' shape",
        breaks=("all_forbidden",),
    ),
    Misconception(
        "masked_asserts_instead_of_value_error",
        "masked_softmax",
        "used assert for a row with no allowed choice: that raises AssertionError (and vanishes under "
        "python -O), not ValueError",
        "an assert is for the programmer's own mistakes (and python -O removes it); a bad argument deserves a "
        "ValueError",
        breaks=("all_forbidden",),
    ),
    Misconception(
        "masked_global_max",
        "masked_softmax",
        "subtracted the global max of the whole array instead of each row's own max",
        "each row is its own softmax: shift it by its own largest allowed score, not the largest of the whole array",
        breaks=("extremes", "shift"),
    ),
    Misconception(
        "masked_no_shift",
        "masked_softmax",
        "did not shift the scores before exp: exp(1000) overflows to inf and exp(-1000) underflows to 0",
        "lesson 05: shift each row by its largest allowed score before exp, so no exp can overflow",
        breaks=("extremes", "quiet", "shift"),
    ),
    Misconception(
        "masked_zeroes_after_softmax",
        "masked_softmax",
        "zeroed the forbidden weights after the softmax without renormalising, so the row no longer sums to 1",
        "a forbidden choice must drop out of the shared denominator too, so remove it before exp, not after",
        breaks=("value",),
    ),
    Misconception(
        "masked_whole_array_sum",
        "masked_softmax",
        "normalised over the whole array instead of each row",
        "each row is a separate distribution: its total is over its own choices only (the last axis)",
        breaks=("value",),
    ),
    Misconception(
        "masked_in_place",
        "masked_softmax",
        "wrote -inf into the caller's scores array (x[~mask] = -inf on the input itself)",
        "the caller's scores are not yours to change: build a new array instead of writing into theirs",
        breaks=("unchanged",),
    ),
    Misconception(
        "masked_ignores_temperature",
        "masked_softmax",
        "ignored the temperature",
        "the temperature of lesson 04 applies to the scores before the softmax",
        breaks=("temperature",),
    ),
    Misconception(
        "masked_multiplies_by_temperature",
        "masked_softmax",
        "multiplied the scores by the temperature instead of dividing",
        "T < 1 must sharpen and T > 1 flatten: which of dividing and multiplying does that?",
        breaks=("temperature",),
    ),
    Misconception(
        "masked_checked_large_negative_fill",
        "masked_softmax",
        "refused empty rows but filled forbidden scores with -1e9 instead of -inf: allowed scores below "
        "-1e9 lose to the forbidden ones, which take the weight",
        "whatever finite number you pick, some allowed score can be lower; only one value is below every score",
        breaks=("forbidden",),
    ),
    Misconception(
        "masked_adds_large_negative",
        "masked_softmax",
        "added a finite penalty (-1e9) to the forbidden scores instead of replacing them: a forbidden score "
        "more than 1e9 above the allowed ones (1e300, or 7 beside allowed scores of -1e12) still takes the weight",
        "a penalty leaves a forbidden score in the race, however large the penalty; replace the score instead",
        breaks=("forbidden",),
    ),
    Misconception(
        "masked_renormalises_after_softmax",
        "masked_softmax",
        "took the softmax of every score, then zeroed the forbidden weights and renormalised: a huge "
        "forbidden score takes all the evidence, so the allowed evidence underflows to 0 and the row is 0 / 0",
        "a huge forbidden score should not even set the row's shift: take it out before the shift and exp",
        breaks=("forbidden",),
    ),
    Misconception(
        "masked_exp_before_where",
        "masked_softmax",
        "took exp of every shifted score, forbidden ones included, and zeroed the forbidden ones "
        "afterwards: a huge forbidden score overflows exp, and NumPy warns",
        "exp should never see a forbidden score: decide the forbidden scores before taking exp, not the evidence after",
        breaks=("quiet",),
    ),
    Misconception(
        "masked_finfo_min_fill",
        "masked_softmax",
        "filled forbidden scores with the most negative float (np.finfo(float).min) instead of -inf: "
        "subtracting a large row max from it overflows, and NumPy warns",
        "the most negative float still overflows when a large max is subtracted from it; only -inf minus a finite "
        "number stays put",
        breaks=("quiet",),
    ),
    Misconception(
        "masked_shift_by_first_score",
        "masked_softmax",
        "shifted each row by its first score instead of the max of its allowed scores: a forbidden first "
        "choice makes the shift -inf (nan), and a later score far above the first overflows exp",
        "the shift must be a score that is allowed and at least as large as every other allowed score",
        breaks=("permutation", "extremes"),
    ),
    Misconception(
        "masked_boolean_index_needs_full_mask",
        "masked_softmax",
        "wrote -inf through the mask as an index (x[~mask] = -inf): that works only when the mask has the "
        "scores' full shape, not for a mask that broadcasts, such as one row shared by every row",
        "a mask may broadcast to the scores; indexing with it needs the scores' full shape, choosing elementwise does "
        "not",
        breaks=("shapes",),
    ),
    Misconception(
        "masked_squeezes",
        "masked_softmax",
        "squeezed away the size-1 axes of the scores (np.squeeze), so a batch of one row, shape (1, n), "
        "came back with another shape or no longer lined up with its mask",
        "the answer has the scores' own shape, size-1 axes included",
        breaks=("shapes",),
    ),
    Misconception(
        "masked_int_copy_cannot_hold_inf",
        "masked_softmax",
        "copied integer scores as integers and wrote -inf into the copy: an integer array cannot hold -inf, "
        "so NumPy refuses",
        "an integer array cannot hold -inf: make your copy of the scores floats first",
        breaks=("dtype",),
    ),
    Misconception(
        "masked_raises_runtime_error",
        "masked_softmax",
        "raised RuntimeError for a row with no allowed choice; the contract asks for ValueError",
        "a bad argument is a ValueError (a subclass counts); name the row in its message",
        breaks=("all_forbidden",),
    ),
    # causal_mask
    Misconception(
        "causal_triu",
        "causal_mask",
        "used np.triu: that is the transpose, where each token sees itself and the future",
        "a token sees itself and the tokens before it: row i allows the columns up to i, below the diagonal, not "
        "above it",
        breaks=("value",),
    ),
    Misconception(
        "causal_no_diagonal",
        "causal_mask",
        "left out the diagonal: a token must be allowed to attend to itself",
        "a token may attend to itself: its own column is allowed",
        breaks=("value",),
    ),
    Misconception(
        "causal_inverted",
        "causal_mask",
        "inverted the causal mask (True = forbidden); here True means allowed",
        "in this course True means allowed, and a token is allowed to see itself and the tokens before it",
        breaks=("value",),
    ),
    Misconception(
        "causal_floats",
        "causal_mask",
        "returned 0/1 numbers instead of booleans",
        "a mask is booleans, which comparisons give you directly; 0/1 numbers turn into other numbers under ~",
        breaks=("dtype",),
    ),
    Misconception(
        "causal_counts_down_in_place",
        "causal_mask",
        "counted n down with n -= 1, which changes the caller's n in place when it is a NumPy array",
        "n is the caller's: count with a new variable (or none) and leave n as it was given",
        breaks=("unchanged",),
    ),
    Misconception(
        "causal_precomputed_512",
        "causal_mask",
        "sliced a mask precomputed for at most 512 tokens, so a longer sequence gets a mask of the wrong shape",
        "a sequence may be longer than any size you pick in advance: build the mask for the n you are given",
        breaks=("shapes",),
    ),
    Misconception(
        "causal_returns_lists",
        "causal_mask",
        "returned nested Python lists of True/False instead of a NumPy array",
        "the caller expects a NumPy array of booleans, not nested lists",
        breaks=("dtype",),
    ),
    # padding_mask
    Misconception(
        "padding_less_or_equal",
        "padding_mask",
        "used <= instead of <: a sequence of length L has positions 0 to L - 1",
        "positions count from 0, so a sentence of length L has real positions 0 to L - 1",
        breaks=("value",),
    ),
    Misconception(
        "padding_inverted",
        "padding_mask",
        "inverted the padding mask (True = padding); here True means allowed",
        "in this course True means allowed: the real positions, not the padding",
        breaks=("value",),
    ),
    Misconception(
        "padding_transposed",
        "padding_mask",
        "transposed the result: the shape must be (len(lengths), n), one row per sequence",
        "put the sequences on the rows and the positions on the columns",
        breaks=("shapes",),
    ),
    Misconception(
        "padding_ints",
        "padding_mask",
        "returned a 0/1 integer mask instead of a boolean one",
        "a mask is booleans, which comparisons give you directly",
        breaks=("dtype",),
    ),
    Misconception(
        "padding_last_index_in_place",
        "padding_mask",
        "turned the lengths into last positions in place (last -= 1 on np.asarray(lengths), which is the "
        "caller's own array), so the caller's lengths changed",
        "the caller's lengths are not yours to change: compare positions with the lengths as they are",
        breaks=("unchanged",),
    ),
    Misconception(
        "padding_width_from_longest",
        "padding_mask",
        "made the mask as wide as the longest sequence instead of n positions",
        "the width is the n you are given, whatever the lengths are",
        breaks=("shapes",),
    ),
    Misconception(
        "padding_needs_array",
        "padding_mask",
        "indexed the lengths as an array (lengths[:, None]) without converting them, so a list or a tuple fails",
        "lengths may come as a list or a tuple: make them an array before you index them as one",
        breaks=("dtype",),
    ),
]


# Inputs on which the misconceptions differ from each other (see grader.learner.hints.probes).
PROBES: dict[str, list[tuple[tuple, dict]]] = {  # function -> [(args, kwargs), ...]
    "masked_softmax": [
        ((np.array([0.5, 1.0, 2.0]), np.array([True, True, False])), {}),
        (([-3.0, -2.0, -1.0], [True, True, False]), {}),
        (([-np.inf, 1.0, 2.0], [False, True, True]), {}),
        (([[1, 2], [3, 4]], [[True, False], [False, False]]), {}),
        (([1, 2, 3], [False, False, False]), {}),
        (([-1e12, -3e12, 7.0], [True, True, False]), {}),
        (([1e300, 2.0, 3.0], [False, True, True]), {}),
        (([1e300, 5.0, 3.0], [True, True, False]), {}),
        (([[1000.0, 1001.0], [1.0, 2.0]], [True, True]), {}),
        (([[0.5, 1.0, 2.0]], [True, False, True]), {}),
        ((np.array([[1, 2, 3]]), np.array([[True, False, True]])), {}),
        (([0.0, 1.0, 2.0], [True, True, True]), {"temperature": 2.0}),
        (([5.0, 1.0, 2.0], [False, True, True]), {}),
    ],
    "causal_mask": [((1,), {}), ((3,), {}), ((np.array(2),), {}), ((600,), {})],
    "padding_mask": [(([2, 0, 3], 4), {}), ((np.array([1, 2]), 3), {}), (((2,), 2), {})],
}
