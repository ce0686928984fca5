"""Lesson 04_temperature: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception

LESSON = "04_temperature"

MISCONCEPTIONS = [
    # softmax_with_temperature
    Misconception(
        "swt_multiplies_by_t",
        "softmax_with_temperature",
        "multiplied the scores by T instead of dividing them by T",
        "a small T should sharpen the weights, so the scores must grow as T shrinks: which operation does that?",
        breaks=("value", "scale", "limits"),
    ),
    Misconception(
        "swt_ignores_temperature",
        "softmax_with_temperature",
        "checked the temperature but never used it: the scores went into exp unchanged",
        "the temperature has to reach the scores before they become evidence, or it changes nothing",
        breaks=("value", "scale", "limits"),
    ),
    Misconception(
        "swt_no_checks",
        "softmax_with_temperature",
        "never checked the temperature, so T <= 0 is accepted: T = 0 gives nan and a negative T reverses the ranking",
        "decide which temperatures have a meaning, and refuse every other one with a ValueError before anything else",
        breaks=("rejects_nonpositive", "rejects_nonfinite"),
    ),
    Misconception(
        "swt_nan_for_zero",
        "softmax_with_temperature",
        "rejected only negative temperatures, so T = 0 divides by zero and returns nan instead of raising",
        "T = 0 is not a temperature either: it divides by zero, so refuse it as you refuse the negative ones",
        breaks=("rejects_nonpositive", "rejects_nonfinite"),
    ),
    Misconception(
        "swt_negative_reverses",
        "softmax_with_temperature",
        "rejected only T = 0, so a negative T is accepted and silently reverses the ranking",
        "zero is not the only bad temperature: a negative one flips the ranking, so refuse all that are not above 0",
        breaks=("rejects_nonpositive", "rejects_nonfinite"),
    ),
    Misconception(
        "swt_accepts_inf_and_nan",
        "softmax_with_temperature",
        "checked only temperature <= 0, so T = inf (uniform weights) and T = nan (nan weights) get through",
        "infinity and not-a-number are not temperatures either: a valid T is finite as well as positive",
        breaks=("rejects_nonfinite",),
    ),
    Misconception(
        "swt_asserts",
        "softmax_with_temperature",
        "used assert to check the temperature: that raises AssertionError (and vanishes under python -O), "
        "not ValueError",
        "an assert can be switched off and raises the wrong kind of error: the contract asks for a ValueError",
        breaks=("rejects_nonpositive", "rejects_nonfinite"),
    ),
    Misconception(
        "swt_in_place",
        "softmax_with_temperature",
        "divided the caller's array by T in place (x /= T on the input itself)",
        "the caller's scores are not yours to change: let the division make a new array",
        breaks=("unchanged",),
    ),
    Misconception(
        "swt_sums_whole_array",
        "softmax_with_temperature",
        "divided by the total of the whole array instead of each row's own total",
        "each row is a distribution of its own, so each row needs its own total",
        breaks=("value", "shapes", "rows"),
    ),
    Misconception(
        "swt_fails_on_lists",
        "softmax_with_temperature",
        "divided the scores by T without making them an array first, which fails for a Python list",
        "a list cannot be divided by a number: turn the input into a float array first",
        breaks=("dtype",),
    ),
    Misconception(
        "swt_fails_on_ints",
        "softmax_with_temperature",
        "made an array without asking for floats, then divided it in place: an integer array cannot hold the quotient",
        "a quotient of integers is fractional, so it needs a new float array to live in",
        breaks=("dtype",),
    ),
    Misconception(
        "swt_squeezes",
        "softmax_with_temperature",
        "squeezed the result, which drops every axis of length 1: a batch of one row (1, n) comes back as (n,)",
        "the weights must have exactly the shape of the scores, axes of length 1 included",
        breaks=("shapes",),
    ),
    Misconception(
        "swt_axis_one",
        "softmax_with_temperature",
        "summed over axis=1, which is the last axis only of a 2-D batch: a single row fails and a 3-D batch is summed "
        "over the wrong axis",
        "the choices always sit on the last axis, however many axes come before it: count the axis from the end",
        breaks=("shapes",),
    ),
    Misconception(
        "swt_global_max_shift",
        "softmax_with_temperature",
        "subtracted the largest score of the whole array instead of each row's own, so a row far below the others "
        "underflows to 0 and comes back wrong or nan",
        "a shift is safe only when every row gets its own (or leave overflow to lesson 05)",
        breaks=("rows",),
    ),
    Misconception(
        "swt_subtracts_min",
        "softmax_with_temperature",
        "shifted each row by its smallest score instead of its largest: a score of -inf turns the row into nan, and a "
        "wide row overflows",
        "if you shift, shift so that the largest score of each row becomes 0, never the smallest",
        breaks=("minus_inf",),
    ),
    Misconception(
        "swt_clips_scores",
        "softmax_with_temperature",
        "clipped scores / T to a fixed range (here -50 to 50) to keep exp from overflowing, which changes the weights "
        "of large scores: a row shifted up by 100 comes back uniform",
        "do not clip: only the differences within a row matter (lesson 05 avoids overflow by subtracting each row's "
        "max, which changes no weight)",
        breaks=("shift",),
    ),
    Misconception(
        "swt_shift_in_place",
        "softmax_with_temperature",
        "subtracted each row's max in place (x -= ...), which changes the caller's array",
        "shifting is fine, but into a new array: the caller's scores must come back unchanged",
        breaks=("unchanged",),
    ),
    Misconception(
        "swt_zeros_like",
        "softmax_with_temperature",
        "filled the weights into np.zeros_like(scores), which keeps the scores' dtype: for integer scores every "
        "weight is cut down to a whole number",
        "an array shaped and typed like integer scores can hold only integers: the weights need a float array",
        breaks=("dtype",),
    ),
    Misconception(
        "swt_float32",
        "softmax_with_temperature",
        "converted the scores to float32, so float64 scores lose half their digits and the weights come back as "
        "float32",
        "keep the precision you were given: float64 scores deserve float64 weights",
        breaks=("dtype", "value"),
    ),
    Misconception(
        "swt_keeps_dtype",
        "softmax_with_temperature",
        "made an array with np.asarray(scores) and no dtype, so float16 scores stay float16, whose exp overflows "
        "above 11: their weights come back nan",
        "half-precision scores overflow exp early: compute in float64 whatever the input's precision",
        breaks=("dtype",),
    ),
    Misconception(
        "swt_returns_list",
        "softmax_with_temperature",
        "returned the weights as a Python list (.tolist()) instead of a NumPy array",
        "the contract promises a NumPy array: leave the result as one",
        breaks=("returns_array",),
    ),
    Misconception(
        "swt_accepts_nan",
        "softmax_with_temperature",
        "rejected T <= 0 and T = inf, but every comparison with nan is False, so T = nan got through and gave nan "
        "weights",
        "test what T must be, not what it must not be: nan fails every comparison, so a test for bad values passes it",
        breaks=("rejects_nonfinite",),
    ),
    Misconception(
        "swt_isinstance_check",
        "softmax_with_temperature",
        "checked isinstance(temperature, (int, float)), which NumPy numbers such as np.float32(0.5) and np.int64(3) "
        "are not, so valid temperatures are refused",
        "check the value, not its type: NumPy numbers are temperatures too",
        breaks=("accepts",),
    ),
    # sample_next_token
    Misconception(
        "snt_always_argmax",
        "sample_next_token",
        "always took the largest logit, even for T > 0, instead of sampling",
        "only T = 0 skips the dice: for T > 0 draw an index at random, as often as its weight says",
        breaks=("value", "own_generator"),
    ),
    Misconception(
        "snt_greedy_samples",
        "sample_next_token",
        "sampled at T = 0 (replaced it by T = 1) instead of taking the largest logit",
        "at T = 0 there is nothing to draw: greedy decoding takes the position of the largest logit",
        breaks=("greedy",),
    ),
    Misconception(
        "snt_rejects_zero",
        "sample_next_token",
        "raised an error at T = 0 instead of greedy decoding (taking the largest logit)",
        "T = 0 is a case of its own, greedy decoding, and must be decided before anything is divided by T",
        breaks=("greedy",),
    ),
    Misconception(
        "snt_ignores_temperature",
        "sample_next_token",
        "sampled from softmax(logits) and ignored the temperature",
        "the weights you draw from must be those of the logits divided by T",
        breaks=("value",),
    ),
    Misconception(
        "snt_multiplies_by_t",
        "sample_next_token",
        "multiplied the logits by T instead of dividing them by T",
        "a small T should make the draws more predictable, so the logits must grow as T shrinks: divide them by T",
        breaks=("value",),
    ),
    Misconception(
        "snt_negative_is_greedy",
        "sample_next_token",
        "treated a negative T like T = 0 (greedy) instead of raising ValueError",
        "only T = 0 means greedy; a negative T has no meaning and must raise a ValueError",
        breaks=("rejects_negative",),
    ),
    Misconception(
        "snt_no_negative_check",
        "sample_next_token",
        "accepted a negative T and sampled with the ranking reversed instead of raising ValueError",
        "a negative temperature is nothing to sample with: refuse it with a ValueError first",
        breaks=("rejects_negative",),
    ),
    Misconception(
        "snt_in_place",
        "sample_next_token",
        "divided the caller's logits by T in place (logits /= T on the input itself)",
        "the caller's logits are not yours to change: let the division make a new array",
        breaks=("unchanged",),
    ),
    Misconception(
        "snt_fails_on_lists",
        "sample_next_token",
        "divided the logits by T without making them an array first, which fails for a Python list",
        "a list cannot be divided by a number: make a float array of the logits first",
        breaks=("dtype",),
    ),
    Misconception(
        "snt_global_random",
        "sample_next_token",
        "drew with np.random.choice (NumPy's global random state) instead of the generator rng it was given, so a "
        "seed does not repeat the draws",
        "every random number must come from the generator you are given, so that its seed makes the draws repeatable",
        breaks=("own_generator",),
    ),
    Misconception(
        "snt_new_generator",
        "sample_next_token",
        "made a new generator with np.random.default_rng() inside the function instead of using rng, so the draws "
        "cannot be repeated",
        "a generator made inside the function ignores the caller's seed: draw from the one passed in",
        breaks=("own_generator",),
    ),
    Misconception(
        "snt_fixed_seed",
        "sample_next_token",
        "made a new generator with a fixed seed on every call, so every call draws the same index whatever rng holds",
        "draw with the generator you are given, and seed nothing inside the function",
        breaks=("own_generator", "value"),
    ),
    Misconception(
        "snt_returns_numpy_int",
        "sample_next_token",
        "returned np.argmax(...) as it is at T = 0, a NumPy integer, where the exercise asks for the index as a "
        "Python int",
        "the position NumPy finds is a NumPy integer: the contract asks for a plain Python int",
        breaks=("returns_int",),
    ),
    Misconception(
        "snt_greedy_returns_max",
        "sample_next_token",
        "at T = 0 returned the largest logit itself instead of its index",
        "greedy decoding returns where the largest logit is, not how large it is",
        breaks=("greedy",),
    ),
    Misconception(
        "snt_draws_a_logit",
        "sample_next_token",
        "passed the logits themselves to rng.choice, which then returns one of the logits, not its index",
        "the draw must pick a position in the vocabulary, not one of the logits themselves",
        breaks=("value",),
    ),
    Misconception(
        "snt_size_one",
        "sample_next_token",
        "drew with size=1, which returns an array holding one index instead of the index itself",
        "one draw is one index: asking for a sample of size one hands back an array instead",
        breaks=("shapes",),
    ),
    Misconception(
        "snt_fails_on_ints",
        "sample_next_token",
        "made an array without asking for floats, then divided it in place: an integer array of logits cannot hold "
        "the quotient",
        "integer logits divided by T give fractions: they need a new float array",
        breaks=("dtype",),
    ),
    Misconception(
        "snt_asserts",
        "sample_next_token",
        "used assert to reject a negative T: that raises AssertionError (and vanishes under python -O), not ValueError",
        "an assert can be switched off and raises the wrong kind of error: a negative T must raise a ValueError",
        breaks=("rejects_negative",),
    ),
    Misconception(
        "snt_draws_first",
        "sample_next_token",
        "drew a random number before checking for T = 0, so greedy decoding still uses up the generator (and changes "
        "every later draw)",
        "decide the greedy case before touching the generator: at T = 0 it must be left as it was",
        breaks=("no_draw_at_zero",),
    ),
    Misconception(
        "swt_power_renormalised",
        "softmax_with_temperature",
        "raised the weights at T = 1 (exp of the raw scores) to the power 1 / T: equal in algebra, but exp of a "
        "large score overflows (or underflows) where exp(score / T) does not",
        "divide the scores by T before exp: exp(800) is inf, exp(800 / 10) is an ordinary number",
        breaks=("scale",),
    ),
]

# Small inputs on which the misconceptions above differ from the reference and from each other: what each
# misconception does on them is its fingerprint (fingerprints/), which a failed check compares with the learner's.
PROBES: dict[str, list[tuple[tuple, dict]]] = {  # function -> [(args, kwargs), ...]
    "softmax_with_temperature": [
        (([2.0, 0.0, -1.0], 0), {}),
        (([2.0, 0.0, -1.0], -1.0), {}),
        (([2.0, 0.0, -1.0], float("inf")), {}),
        (([2.0, 0.0, -1.0], float("nan")), {}),
        ((np.array([[0.0, -1.0, -2.0], [0.0, 0.5, -0.5]]), 0.5), {}),
        ((np.array([1.0, 2.0, 3.0]), 1.0), {}),
        ((np.array([[3, 1, 2]]), 2), {}),
        (([[1.5, -0.25, 3.0], [300.0, 0.0, -300.0]], np.float32(0.5)), {}),
        ((np.array([[-700.0, -699.5], [40.0, 41.0]]), 1.0), {}),
        ((np.array([12.0, 10.0, 0.0], dtype=np.float16), 1.0), {}),
        (([[0.5, 2.0], [1.0, -1.0]], 0.5), {}),
        (([[1.0, -np.inf, 0.5]], 1.0), {}),
        (([[800.0, 790.0]], 10.0), {}),  # exp(800) overflows, exp(800 / 10) does not
    ],
    "sample_next_token": [
        (([0.5, 2.0, -1.0], -1.0, np.random.default_rng(3)), {}),
        (([0.5, 2.0, -1.0], -0.01, np.random.default_rng(5)), {}),
        (([0.5, 2.0, -1.0], 0, np.random.default_rng(3)), {}),
        ((np.array([0.5, 2.0, -1.0]), 0.5, np.random.default_rng(3)), {}),
        (([3, 1, 2], 2, np.random.default_rng(4)), {}),
        ((np.array([3, 1, 2]), 2, np.random.default_rng(4)), {}),
    ],
}
