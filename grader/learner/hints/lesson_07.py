"""Lesson 07_attention: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception

LESSON = "07_attention"

MISCONCEPTIONS = [
    # attention_weights
    Misconception(
        "aw_no_scaling",
        "attention_weights",
        "never divided the scores by sqrt(d_k), so scale=True gives the unscaled (too sharp) weights",
        "with scale True the scores are divided by the square root of the key width (section 5)",
        breaks=("scaling",),
    ),
    Misconception(
        "aw_scales_by_d_k",
        "attention_weights",
        "divided the scores by d_k instead of by its square root",
        "the spread of dot products grows like the square root of d_k, not like d_k itself",
        breaks=("scaling",),
    ),
    Misconception(
        "aw_scales_by_num_keys",
        "attention_weights",
        "divided by the square root of the number of keys instead of sqrt(d_k), the width of each key",
        "d_k is the width of one key vector, not the number of keys",
        breaks=("scaling",),
    ),
    Misconception(
        "aw_always_scales",
        "attention_weights",
        "divided by sqrt(d_k) even when scale=False",
        "scale only when the scale argument is True",
        breaks=("scaling",),
    ),
    Misconception(
        "aw_scales_weights_after_softmax",
        "attention_weights",
        "divided the weights by sqrt(d_k) after the softmax instead of the scores before it, so the rows "
        "no longer sum to 1",
        "the scaling belongs to the scores, before the softmax; scaled weights no longer sum to 1",
        breaks=("scaling", "value"),
    ),
    Misconception(
        "aw_softmax_over_queries",
        "attention_weights",
        "took the softmax down each column (over the queries, axis 0) instead of along each row (over the keys)",
        "each query spreads its attention over the keys: its own row of weights sums to 1",
        breaks=("value",),
    ),
    Misconception(
        "aw_keys_not_transposed",
        "attention_weights",
        "multiplied queries @ keys without transposing the keys, so the scores are not query-key dot products",
        "each score is one query row times one key row: the keys' rows have to become columns",
        breaks=("value",),
    ),
    Misconception(
        "aw_mask_with_zero",
        "attention_weights",
        "gave forbidden keys a score of 0 (or multiplied the scores by the mask): exp(0) = 1, so they still "
        "take weight",
        "a score of 0 still has evidence exp(0) = 1; masked_softmax knows how to forbid a key",
        breaks=("forbidden",),
    ),
    Misconception(
        "aw_inverted_mask",
        "attention_weights",
        "inverted the mask (treated True as a forbidden key); here True means the query may attend to that key",
        "in this course True means the query may attend to that key",
        breaks=("forbidden",),
    ),
    Misconception(
        "aw_ignores_mask",
        "attention_weights",
        "never used the mask, so forbidden keys still take weight",
        "the mask says which keys a query may read: the softmax has to be told",
        breaks=("forbidden",),
    ),
    Misconception(
        "aw_zeroes_after_softmax",
        "attention_weights",
        "zeroed the forbidden weights after the softmax without renormalising, so the rows no longer sum to 1",
        "a forbidden key must drop out of the shared denominator too: masked_softmax does that",
        breaks=("forbidden", "value"),
    ),
    Misconception(
        "aw_large_negative_fill",
        "attention_weights",
        "filled forbidden scores with a large finite negative number (like -1e9), so a query with no allowed "
        "key silently gets uniform weights instead of an error",
        "no finite fill is low enough, and a query with no allowed key deserves an error: masked_softmax does both",
        breaks=("forbidden", "all_forbidden"),
    ),
    Misconception(
        "aw_nan_for_empty_row",
        "attention_weights",
        "did not check for a query with no allowed key: its row of -inf scores comes back as nan instead of "
        "raising ValueError",
        "a query with no allowed key has no distribution: refuse it with a ValueError (masked_softmax does)",
        breaks=("all_forbidden",),
    ),
    Misconception(
        "aw_no_max_shift",
        "attention_weights",
        "took exp of the scores without subtracting each row's max: large scores overflow to inf and the "
        "weights become nan",
        "lesson 05: shift each row by its largest score before exp, or let masked_softmax do the softmax",
        breaks=("extremes", "quiet"),
    ),
    Misconception(
        "aw_scales_queries_in_place",
        "attention_weights",
        "divided the caller's queries by sqrt(d_k) in place (queries /= ...), which changed the caller's array",
        "the caller's queries are not yours to change: scale a new array, such as the scores",
        breaks=("unchanged",),
    ),
    Misconception(
        "aw_fails_on_lists",
        "attention_weights",
        "used keys.T and keys.shape without making the inputs arrays first, which fails for Python lists",
        "queries and keys may come as lists: make them arrays before you use array operations on them",
        breaks=("dtype",),
    ),
    Misconception(
        "aw_global_max",
        "attention_weights",
        "shifted by the largest score of the whole array instead of each query's own max, so a query whose "
        "scores lie far below another query's comes out as 0/0 = nan",
        "each query's row is its own softmax: shift it by its own largest score",
        breaks=("extremes",),
    ),
    Misconception(
        "aw_clips_scores",
        "attention_weights",
        "clipped the scores to [-500, 500] to keep exp from overflowing: scores beyond the clip all look alike, "
        "so a row of huge (or hugely negative) scores comes out uniform",
        "clipping makes large scores look alike; the shift of lesson 05 prevents overflow without losing any "
        "difference",
        breaks=("extremes",),
    ),
    Misconception(
        "aw_mask_after_exp",
        "attention_weights",
        "shifted by the row's max over every key, forbidden ones included, then zeroed the forbidden evidence: "
        "a forbidden key with a huge score makes every allowed evidence 0, so the row is 0/0 = nan",
        "a forbidden key should not even set the row's shift: forbid it before the shift and exp",
        breaks=("forbidden", "quiet"),
    ),
    Misconception(
        "aw_additive_mask",
        "attention_weights",
        "added -1e9 to the forbidden scores instead of replacing them: a forbidden score of 1e300 stays huge and "
        "takes all the weight, and a query with no allowed key gets weights instead of an error",
        "a penalty leaves a forbidden score in the race, however large; replace the score, and refuse a query with no "
        "allowed key",
        breaks=("forbidden", "all_forbidden"),
    ),
    Misconception(
        "aw_exp_before_where",
        "attention_weights",
        "took exp of every score, forbidden ones included, and dropped the forbidden ones afterwards: exp of a "
        "huge forbidden score overflows and warns, even though the weights come out right",
        "exp should never see a forbidden score: forbid the scores before exp, not the evidence after",
        breaks=("quiet",),
    ),
    Misconception(
        "aw_log_mask",
        "attention_weights",
        "added np.log(mask) to the scores: log(0) = -inf does mask the key, but it warns 'divide by zero' on "
        "every call with a forbidden key",
        "log(0) does give -inf, but with a warning; choose the forbidden entries instead of computing a log",
        breaks=("quiet",),
    ),
    Misconception(
        "aw_checks_whole_mask",
        "attention_weights",
        "checked only that the mask allows some key somewhere (mask.any()), not that every query has one: a "
        "query whose row is all False comes back as nan",
        "an empty row can hide in a mask that allows keys elsewhere: ask the question for every query",
        breaks=("all_forbidden",),
    ),
    Misconception(
        "aw_squeezes_result",
        "attention_weights",
        "squeezed the result (np.squeeze), so one query gives a 1-D row instead of shape (1, n_keys)",
        "keep both axes: the weights have shape (n_queries, n_keys) even when there is one query or one key",
        breaks=("shapes",),
    ),
    Misconception(
        "aw_mask_by_boolean_index",
        "attention_weights",
        "set the forbidden scores with scores[~mask] = -np.inf, which needs a mask of exactly the scores' shape: "
        "a mask row shared by every query picks whole queries instead of keys, or fails",
        "a mask may broadcast to the scores (one row shared by every query); indexing with it needs the full shape",
        breaks=("shapes",),
    ),
    Misconception(
        "aw_mask_row_per_query",
        "attention_weights",
        "took row i of the mask for query i without broadcasting it: a 1-D mask (one row shared by every query) "
        "is read as one flag per query",
        "a mask may broadcast: a 1-D mask is one row of keys shared by every query, not one flag per query",
        breaks=("shapes",),
    ),
    Misconception(
        "aw_default_mask_square",
        "attention_weights",
        "built the default mask as (n_queries, n_queries), as if there were as many keys as queries: it does not "
        "fit when the numbers differ",
        "the scores have one row per query and one column per key: with no mask, allow every entry of that shape",
        breaks=("shapes",),
    ),
    Misconception(
        "aw_float32_everywhere",
        "attention_weights",
        "turned every input into float32 (as GPUs do), so float64 queries and keys come back as float32, with "
        "half their digits lost",
        "float64 in, float64 out: convert to the default float, not to float32",
        breaks=("dtype", "extremes"),
    ),
    Misconception(
        "aw_returns_list",
        "attention_weights",
        "built the rows of weights in a Python list and returned the list, not a NumPy array",
        "the caller expects a NumPy array of shape (n_queries, n_keys), not a list",
        breaks=("returns_array",),
    ),
    Misconception(
        "aw_power_of_weights",
        "attention_weights",
        "took the softmax of the unscaled scores and then raised the weights to the power 1/sqrt(d_k), "
        "renormalised: equal on paper, but with wide keys the unscaled weights underflow to 0 and stay 0",
        "scale the scores before the softmax: weights of unscaled wide-key scores have already underflowed",
        breaks=("wide_keys",),
    ),
    Misconception(
        "aw_passes_none_mask",
        "attention_weights",
        "passed mask=None straight on to masked_softmax, which reads None as False: nothing is allowed, so every "
        "call without a mask raises ValueError",
        "no mask means every key is allowed, and masked_softmax needs to be told that in its own terms",
        breaks=("value",),
    ),
    Misconception(
        "aw_max_with_zero_fill",
        "attention_weights",
        "took each row's max over np.where(mask, scores, 0): when every allowed score is far below zero the "
        "shift is 0 instead of their max, so their evidence underflows to 0 and the row is 0/0 = nan",
        "the shift must be the largest allowed score; forbidden entries must not take part in finding it",
        breaks=("forbidden",),
    ),
    # attend
    Misconception(
        "attend_weights_times_keys",
        "attend",
        "multiplied the weights by the keys instead of the values",
        "the keys only decide the weights; what gets mixed is the values",
        breaks=("value",),
    ),
    Misconception(
        "attend_returns_weights",
        "attend",
        "returned the attention weights without multiplying them by the values",
        "the weights say how much of each value to take; the answer is the mixture, one row of width d_v per query",
        breaks=("value",),
    ),
    Misconception(
        "attend_transposed_weights",
        "attend",
        "multiplied weights.T @ values, which mixes the values with a key's weights across queries instead "
        "of each query's own row of weights",
        "each output row mixes the values with its own query's row of weights",
        breaks=("value",),
    ),
    Misconception(
        "attend_scores_against_values",
        "attend",
        "compared the queries with the values instead of the keys: the keys decide the weights, the values are "
        "what gets mixed",
        "queries are compared with the keys; the values are only what gets mixed",
        breaks=("value",),
    ),
    Misconception(
        "attend_ignores_mask",
        "attend",
        "did not pass the mask on, so the output mixes in values of forbidden keys",
        "the mask must reach the weights: attention_weights takes it",
        breaks=("forbidden",),
    ),
    Misconception(
        "attend_ignores_scale",
        "attend",
        "did not pass scale on, so scale=False still divides the scores by sqrt(d_k)",
        "the scale argument must reach the weights: attention_weights takes it",
        breaks=("scaling",),
    ),
    Misconception(
        "attend_never_scales",
        "attend",
        "never divided the scores by sqrt(d_k), so the default scale=True gives unscaled context vectors",
        "with scale True the scores are divided by the square root of the key width before the softmax",
        breaks=("scaling",),
    ),
    Misconception(
        "attend_global_max",
        "attend",
        "shifted by the largest score of the whole array instead of each query's own max, so a query whose "
        "scores lie far below another query's gets nan",
        "each query's row is its own softmax: shift it by its own largest score",
        breaks=("extremes",),
    ),
    Misconception(
        "attend_no_max_shift",
        "attend",
        "took exp of the scores without subtracting each row's max: large scores overflow to inf and the "
        "context vectors become nan",
        "lesson 05: shift each row of scores by its largest score before exp",
        breaks=("extremes", "quiet"),
    ),
    Misconception(
        "attend_mask_after_exp",
        "attend",
        "shifted by the row's max over every key, forbidden ones included, then zeroed the forbidden evidence: "
        "a forbidden key with a huge score makes the query's context vector 0/0 = nan",
        "a forbidden key should not even set the row's shift: forbid it before the shift and exp",
        breaks=("forbidden", "quiet"),
    ),
    Misconception(
        "attend_large_negative_fill",
        "attend",
        "filled forbidden scores with -1e9: allowed scores below -1e9 then lose to the forbidden keys, and a "
        "query with no allowed key gets an average instead of an error",
        "no finite fill is low enough, and a query with no allowed key deserves an error",
        breaks=("forbidden", "all_forbidden"),
    ),
    Misconception(
        "attend_nan_for_empty_row",
        "attend",
        "did not check for a query with no allowed key: its context vector comes back as nan instead of raising "
        "ValueError",
        "a query with no allowed key has no context vector: refuse it with a ValueError",
        breaks=("all_forbidden",),
    ),
    Misconception(
        "attend_exp_before_where",
        "attend",
        "took exp of every score, forbidden ones included, and dropped the forbidden ones afterwards: exp of a "
        "huge forbidden score overflows and warns, even though the context vectors come out right",
        "exp should never see a forbidden score: forbid the scores before exp, not the evidence after",
        breaks=("quiet",),
    ),
    Misconception(
        "attend_squeezes_result",
        "attend",
        "squeezed the result (np.squeeze), so one query gives a 1-D vector instead of shape (1, d_v)",
        "keep both axes: the output has shape (n_queries, d_v) even when there is one query or d_v is 1",
        breaks=("shapes",),
    ),
    Misconception(
        "attend_mask_by_boolean_index",
        "attend",
        "set the forbidden scores with scores[~mask] = -np.inf (in attend or in the attention_weights it calls), "
        "which needs a mask of exactly the scores' shape: a shared mask row picks whole queries, or fails",
        "a mask may broadcast to the scores (one row shared by every query); indexing with it needs the full shape",
        breaks=("shapes",),
    ),
    Misconception(
        "attend_float32_everywhere",
        "attend",
        "turned every input into float32 (as GPUs do), so float64 inputs come back as float32, with half their "
        "digits lost",
        "float64 in, float64 out: convert to the default float, not to float32",
        breaks=("dtype", "extremes"),
    ),
    Misconception(
        "attend_scales_queries_in_place",
        "attend",
        "divided the caller's queries by sqrt(d_k) in place (queries /= ..., in attend or in the attention_weights "
        "it calls), which changed the caller's array",
        "the caller's queries are not yours to change: scale a new array, such as the scores",
        breaks=("unchanged",),
    ),
    Misconception(
        "attend_returns_list",
        "attend",
        "built the context vectors in a Python list and returned the list, not a NumPy array",
        "the caller expects a NumPy array of shape (n_queries, d_v), not a list",
        breaks=("returns_array",),
    ),
    Misconception(
        "attend_keys_not_transposed",
        "attend",
        "took the scores as queries @ keys without transposing the keys (in attend or in the "
        "attention_weights it calls), so they are not query-key dot products",
        "each score is one query row times one key row: the keys' rows have to become columns",
        breaks=("value",),
    ),
    Misconception(
        "attend_mask_with_zero",
        "attend",
        "gave forbidden keys a score of 0 (in attend or in the attention_weights it calls): exp(0) = 1, so "
        "their values still get mixed in",
        "a score of 0 still has evidence exp(0) = 1, so the value of a forbidden key gets mixed in",
        breaks=("forbidden",),
    ),
    Misconception(
        "attend_additive_mask",
        "attend",
        "added -1e9 to the forbidden scores instead of replacing them (in attend or in the "
        "attention_weights it calls): a forbidden score of 1e300 stays huge, and a query with no allowed "
        "key gets an output instead of an error",
        "a penalty leaves a forbidden score in the race, however large; replace the score, and refuse a query with no "
        "allowed key",
        breaks=("forbidden", "all_forbidden"),
    ),
    Misconception(
        "attend_mask_row_per_query",
        "attend",
        "took row i of the mask for query i without broadcasting it (in attend or in the attention_weights "
        "it calls): a 1-D mask shared by every query is read as one flag per query",
        "a mask may broadcast: a 1-D mask is one row of keys shared by every query, not one flag per query",
        breaks=("shapes",),
    ),
    Misconception(
        "attend_default_mask_square",
        "attend",
        "built the default mask as (n_queries, n_queries) (in attend or in the attention_weights it "
        "calls), as if there were as many keys as queries: it does not fit when the numbers differ",
        "the scores have one row per query and one column per key: with no mask, allow every entry of that shape",
        breaks=("shapes",),
    ),
    Misconception(
        "attend_passes_none_mask",
        "attend",
        "passed mask=None straight on to masked_softmax (in attend or in the attention_weights it calls), "
        "which reads None as False: every call without a mask raises ValueError",
        "no mask means every key is allowed, and masked_softmax needs to be told that in its own terms",
        breaks=("value",),
    ),
    Misconception(
        "attend_max_with_zero_fill",
        "attend",
        "took each row's max over np.where(mask, scores, 0) (in attend or in the attention_weights it "
        "calls): when every allowed score is far below zero the row comes out 0/0 = nan",
        "the shift must be the largest allowed score; forbidden entries must not take part in finding it",
        breaks=("forbidden",),
    ),
    Misconception(
        "attend_inverted_mask",
        "attend",
        "inverted the mask (in attend or in the attention_weights it calls), treating True as a forbidden "
        "key; here True means the query may attend to that key",
        "in this course True means the query may attend to that key",
        breaks=("forbidden",),
    ),
    Misconception(
        "attend_checks_whole_mask",
        "attend",
        "checked only that the mask allows some key somewhere (in attend or in the attention_weights it "
        "calls), not that every query has one: a query whose row is all False gets a nan context vector",
        "an empty row can hide in a mask that allows keys elsewhere: ask the question for every query",
        breaks=("all_forbidden",),
    ),
]

# Small inputs on which the misconceptions above differ from the reference and from each other: what each
# misconception does on them is its fingerprint (fingerprints/), which a failed check compares with the learner's.
_EYE2, _EYE3 = np.eye(2), np.eye(3)
_Q = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
_K = np.array([[1.0, 0.0, -1.0], [0.5, 2.0, 0.0], [-1.0, 1.0, 1.5]])
_SQUARE = np.array([[1.0, -0.5], [0.25, 2.0], [-1.5, 0.5]])
_V = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, -1.0], [-0.5, 4.0, 2.0]])
_K2 = np.array([[0.5, 1.0, -0.5], [-1.0, 0.5, 1.0], [2.0, -0.5, 0.0]])
_FULL_MASK = np.array([[True, False, True], [False, True, True]])

PROBES: dict[str, list[tuple[tuple, dict]]] = {  # function -> [(args, kwargs), ...]
    "attention_weights": [
        ((_Q, _K), {}),  # scaled, no mask, 2 queries, 3 keys
        ((_Q, _K), {"mask": _FULL_MASK, "scale": False}),  # a full mask, unscaled
        ((_EYE2 * 3.0, _EYE2), {"mask": np.array([[True, False], [False, False]])}),  # one query allows nothing
        ((_EYE2, _EYE2), {"mask": np.zeros((2, 2), dtype=bool)}),  # nothing allowed at all
        ((np.array([[1000.0, 0.0], [-1000.0, -1001.0]]), _EYE2), {"scale": False}),  # rows far apart
        (
            (np.array([[1e300, 1.0, 2.0], [-1e12, 0.0, -1e12 - 1.0]]), _EYE3),
            # huge forbidden, allowed < -1e9
            {"mask": np.array([[False, True, True], [True, False, True]]), "scale": False},
        ),
        (
            (np.array([[-1e12, -2e12, -1e12 - 1.0]]), _EYE3),
            {"mask": np.array([[True, False, True]]), "scale": False},
        ),  # every allowed score far below zero
        ((_SQUARE, _SQUARE), {"mask": np.array([True, False, True])}),  # a 1-D mask, as many queries as keys
        (([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]]), {}),  # Python lists
        # d_k = 1024: the scores 768 apart underflow exp unscaled, not once divided by sqrt(d_k) = 32
        ((np.full((1, 1024), 0.75), np.vstack([np.ones(1024), np.zeros(1024)])), {}),
    ],
    "attend": [
        ((_K, _V, _K2), {}),  # 3 queries, 3 keys, d_v = d_k = 3
        (
            (_K, _V, np.ascontiguousarray(_K.T)),
            {"mask": np.array([[True, False, True], [False, True, True], [True, True, False]]), "scale": False},
        ),
        ((_EYE2 * 3.0, _EYE2, _SQUARE[:2]), {"mask": np.zeros((2, 2), dtype=bool)}),  # nothing allowed at all
        ((np.array([[1000.0, 0.0], [-1000.0, -1001.0]]), _EYE2, _SQUARE[:2]), {"scale": False}),
        (
            (np.array([[1e300, 1.0, 2.0], [-1e12, 0.0, -1e12 - 1.0]]), _EYE3, _V),
            {"mask": np.array([[False, True, True], [True, False, True]]), "scale": False},
        ),
        (
            (np.array([[-1e12, -2e12, -1e12 - 1.0]]), _EYE3, _V),
            {"mask": np.array([[True, False, True]]), "scale": False},
        ),
        ((_SQUARE, _SQUARE, np.ascontiguousarray(_V[:, :2])), {"mask": np.array([True, False, True])}),
        ((_SQUARE[:1], _SQUARE, _V), {"mask": np.array([True, True, False]), "scale": False}),
        ((_Q, _K, _V), {}),  # 2 queries, 3 keys, no mask
        ((_EYE2 * 3.0, _EYE2, _SQUARE[:2]), {"mask": np.array([[True, False], [False, False]])}),  # one query: none
    ],
}
