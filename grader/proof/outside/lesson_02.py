"""Lesson 02_exp_evidence: public implementations of normalize_evidence."""

from grader.proof.outside import NO_LICENCE, OutsideEntry, github

LESSON = "02_exp_evidence"

OUTSIDE = [
    OutsideEntry(
        "catgo_normalize_evidence",
        "normalize_evidence",
        """
def normalize_evidence(array, axis=1):
    denoms = np.sum(array, axis=axis)
    if axis == 1:
        return array / denoms[:,np.newaxis]
    if axis == 0:
        return array / denoms[np.newaxis, :]
""",
        github("zhewei-sun/CatGO", "util.py"),
        "wrong",
        "divides by the plain total, which overflows to inf for the largest evidence, over axis 1: a single row "
        "raises an AxisError and a 3-D batch is summed down its middle axis",
        names=("normalize_plain_total", "normalize_int_sum_wraps"),
        breaks=("scale", "shapes", "value", "dtype"),
        note="the normalize(array, axis=1) of lesson 01's catgo_normalize_axis1, graded as normalize_evidence",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "cb_ai_nlp_normalize_evidence",
        "normalize_evidence",
        """
def normalize_evidence(dist):
    return dist / np.sum(dist)
""",
        github("yunhui21/CB_Ai_NLP", "Lecture_example/Day_15_01_TemperatureSampling.py"),
        "wrong",
        "divides by the plain total of the whole array: rows share one total, and the total of the largest "
        "evidence overflows to inf",
        names=("normalize_whole_array", "normalize_plain_total", "normalize_int_sum_wraps"),
        breaks=("value", "shapes", "scale", "dtype"),
        note="the softmax_1(dist) of lesson 01's cb_ai_nlp_softmax_1, graded as normalize_evidence",
        licence=NO_LICENCE,
    ),
]
