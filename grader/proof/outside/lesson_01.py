"""Lesson 01_naive_division: public implementations of naive_normalize and is_distribution."""

from grader.proof.outside import NO_LICENCE, OutsideEntry, github

LESSON = "01_naive_division"

OUTSIDE = [
    OutsideEntry(
        "catgo_normalize_axis1",
        "naive_normalize",
        """
def naive_normalize(array, axis=1):
    denoms = np.sum(array, axis=axis)
    if axis == 1:
        return array / denoms[:,np.newaxis]
    if axis == 0:
        return array / denoms[np.newaxis, :]
""",
        github("zhewei-sun/CatGO", "util.py"),
        "wrong",
        "sums over axis 1 and puts the axis back by hand: a single row raises an AxisError, a 3-D batch is divided "
        "by totals down its middle axis, and integer totals are summed as integers",
        names=("naive_int_sum_wraps",),
        breaks=("shapes", "value", "dtype"),
        note="named normalize(array, axis=1); the function alone, without the file's log_likelihood",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "catgo_normalize_epsilon",
        "naive_normalize",
        """
ep = 0.00001

def naive_normalize(array, axis=1):
    denoms = np.sum(array, axis=axis) + ep
    if axis == 1:
        return array / denoms[:,np.newaxis]
    if axis == 0:
        return array / denoms[np.newaxis, :]
""",
        github("zhewei-sun/CatGO", "util.py"),
        "wrong",
        "adds 1e-5 to every row total (so no row sums to 1 and a zero-sum row gives finite numbers) and sums over "
        "axis 1: a single row raises an AxisError",
        names=("naive_guards_zero_sum", "naive_int_sum_wraps"),
        breaks=("shapes", "value", "meant_to_break", "dtype"),
        note="another stored version of the same file; its module constant ep kept",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "cb_ai_nlp_softmax_1",
        "naive_normalize",
        """
def naive_normalize(dist):
    return dist / np.sum(dist)
""",
        github("yunhui21/CB_Ai_NLP", "Lecture_example/Day_15_01_TemperatureSampling.py"),
        "wrong",
        "divides by the total of the whole array, so the rows of a batch share one total (and integers are summed "
        "as integers)",
        names=("naive_sums_whole_array", "naive_int_sum_wraps"),
        breaks=("value", "shapes", "dtype"),
        note="named softmax_1(dist) in the lecture example, where it normalises a row",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "deeplearning_is_probability",
        "is_distribution",
        """
def is_distribution(P, atol=1e-8):
    return sum(P) == 1.0 and all(p >= 0.0 for p in P) and all(p <= 1.0 for p in P)
""",
        github("yohokuno/deeplearning", "probability.py"),
        "wrong",
        "compares the sum with 1 exactly and never uses atol; Python's sum over a 2-D array gives column totals, "
        "whose truth value is ambiguous (an error), and a failed first test comes back as a NumPy bool",
        names=("dist_exact_sum", "dist_ignores_atol", "dist_returns_numpy_bool"),
        breaks=("atol", "every_row", "shapes", "dtype"),
        note="named is_probability(P); the atol parameter added by the adaptation is unused, as the original has none",
        licence="MIT",
    ),
]
