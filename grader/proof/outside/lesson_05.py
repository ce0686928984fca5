"""Lesson 05_stable_softmax: public implementations of stable_softmax (a softmax with a temperature)."""

from grader.proof.outside import NO_LICENCE, OutsideEntry, github

LESSON = "05_stable_softmax"

OUTSIDE = [
    OutsideEntry(
        "ci2025_stable_softmax",
        "stable_softmax",
        """
def stable_softmax(x, temperature=1.0):
    temp = temperature  # adapter: the original's parameter is temp
    e_x = np.exp((x - np.max(x)) / temp)
    return e_x / e_x.sum()
""",
        github("alberto467/CI2025_project", "src/utils.py"),
        "wrong",
        "shifts by the max of the whole array and divides by the total of the whole array: rows of a batch "
        "compete, and a row far below another underflows to 0 / 0",
        names=("stable_global_max", "stable_sums_whole_array"),
        breaks=("value", "rows", "extremes", "shift", "quiet"),
        note="lesson 04's ci2025_softmax_temp, graded as stable_softmax",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "tsn_stable_times_t",
        "stable_softmax",
        """
def stable_softmax(raw_score, temperature=1.0):
    T = temperature  # adapter: the original's parameter is T
    exp_s = np.exp((raw_score - raw_score.max(axis=-1)[..., None])*T)
    sum_s = exp_s.sum(axis=-1)
    return exp_s / sum_s[..., None]
""",
        github("rg4sun/tsn-dig", "tsn-mindspore-gpu/src/metrics.py"),
        "wrong",
        "multiplies the shifted scores by the temperature instead of dividing them, and calls raw_score.max(), "
        "which a list does not have",
        names=("stable_multiplies_temperature", "stable_fails_on_lists"),
        breaks=("temperature", "value", "dtype"),
        note="lesson 04's tsn_softmax_times_t, graded as stable_softmax",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "mcmc_stable_max_as_temperature",
        "stable_softmax",
        """
def stable_softmax(xs,temperature=1e3):
    norm_fact = np.max(xs)
    temperature = norm_fact   #I'm not sure if this is the best way?
    return np.exp(xs/temperature)/(np.sum(np.exp(xs/temperature),axis=1).reshape(-1,1))
""",
        github("spencermyoung513/neural-net-mcmc-optimization", "functions.py"),
        "wrong",
        "divides the scores by the largest score of the whole array instead of the temperature and never shifts "
        "them; sums over axis 1 (a single row raises an AxisError)",
        names=("stable_ignores_temperature", "stable_axis_one"),
        breaks=("temperature", "value", "shapes", "extremes", "shift"),
        note="lesson 04's mcmc_softmax_max_as_temperature, graded as stable_softmax",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "distillation_stable_fixed_t",
        "stable_softmax",
        """
def stable_softmax(x, temperature=1.0):
    T = 2.0
    e_x = np.exp((x - x.max(axis=1, keepdims=True))/T)
    out = e_x / e_x.sum(axis=1, keepdims=True)
    return out
""",
        github("tejasgodambe/knowledge-distillation", "softmax_with_temp.py"),
        "wrong",
        "uses a fixed T = 2.0 whatever temperature it is given, over axis 1 (a single row raises an AxisError), "
        "and calls x.max(), which a list does not have",
        names=("stable_ignores_temperature", "stable_axis_one", "stable_fails_on_lists"),
        breaks=("temperature", "value", "shapes", "dtype"),
        note="lesson 04's distillation_fixed_temperature, graded as stable_softmax",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "mlhelper_stable_no_shift",
        "stable_softmax",
        """
def stable_softmax(logits, temperature=1): #default temperature is 1
  return np.exp(logits/temperature) / np.sum(np.exp(logits/temperature), axis=0)
""",
        github("pluu2/MLhelper", "attention.py"),
        "wrong",
        "never shifts the scores (exp overflows to inf, giving nan) and sums down axis 0, so a batch is "
        "normalised down its columns; divides a list by the temperature, which fails",
        names=("stable_no_shift", "stable_sums_axis0", "stable_fails_on_lists"),
        breaks=("extremes", "quiet", "shift", "value", "rows", "dtype"),
        note="lesson 04's mlhelper_softmax_t, graded as stable_softmax",
        licence=NO_LICENCE,
    ),
]
