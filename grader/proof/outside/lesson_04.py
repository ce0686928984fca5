"""Lesson 04_temperature: public implementations of softmax_with_temperature and sample_next_token."""

from grader.proof.outside import NO_LICENCE, OutsideEntry, github

LESSON = "04_temperature"

NO_CHECKS = "; never checks the temperature, so T = 0, negative, inf and nan T raise nothing"

OUTSIDE = [
    OutsideEntry(
        "ci2025_softmax_temp",
        "softmax_with_temperature",
        """
def softmax_with_temperature(x, temperature=1.0):
    temp = temperature  # adapter: the original's parameter is temp
    e_x = np.exp((x - np.max(x)) / temp)
    return e_x / e_x.sum()
""",
        github("alberto467/CI2025_project", "src/utils.py"),
        "wrong",
        "shifts by the max of the whole array and divides by the total of the whole array, so the rows of a batch "
        "compete" + NO_CHECKS,
        names=("swt_sums_whole_array", "swt_global_max_shift", "swt_no_checks"),
        breaks=("rows", "shapes", "value", "rejects_nonpositive", "rejects_nonfinite"),
        note="named softmax(x, temp=1.0); one adapter line maps temperature to temp",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "mlhelper_softmax_t",
        "softmax_with_temperature",
        """
def softmax_with_temperature(logits, temperature=1): #default temperature is 1
  return np.exp(logits/temperature) / np.sum(np.exp(logits/temperature), axis=0)
""",
        github("pluu2/MLhelper", "attention.py"),
        "wrong",
        "sums down axis 0, so a batch is normalised down its columns, with no shift (float16 scores overflow); "
        "divides a list by T, which fails" + NO_CHECKS,
        names=("swt_no_checks", "swt_keeps_dtype", "swt_fails_on_lists"),
        breaks=("rows", "shapes", "value", "dtype", "rejects_nonpositive", "rejects_nonfinite"),
        note="named softmaxT(logits, temperature=1)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "distillation_fixed_temperature",
        "softmax_with_temperature",
        """
def softmax_with_temperature(x, temperature=1.0):
    T = 2.0
    e_x = np.exp((x - x.max(axis=1, keepdims=True))/T)
    out = e_x / e_x.sum(axis=1, keepdims=True)
    return out
""",
        github("tejasgodambe/knowledge-distillation", "softmax_with_temp.py"),
        "wrong",
        "uses a fixed T = 2.0 whatever temperature it is given, over axis 1 (a single row raises an AxisError), "
        "and calls x.max(), which a list does not have" + NO_CHECKS,
        names=("swt_ignores_temperature", "swt_axis_one", "swt_fails_on_lists", "swt_no_checks"),
        breaks=("value", "scale", "limits", "shapes", "dtype", "rejects_nonpositive", "rejects_nonfinite"),
        note="named softmax_with_temp(x); the temperature parameter is the adaptation's, the body never reads it",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "cb_ai_nlp_temperature_pick",
        "softmax_with_temperature",
        """
def softmax_with_temperature(dist, temperature=1.0):
    dist = np.log(dist) / temperature
    dist = np.exp(dist)
    return dist / np.sum(dist)
""",
        github("yunhui21/CB_Ai_NLP", "Lecture_example/Day_15_01_TemperatureSampling.py"),
        "wrong",
        "takes the log of the scores as if they were probabilities (nan for a negative score), divides by the "
        "total of the whole array" + NO_CHECKS,
        names=("swt_sums_whole_array", "swt_no_checks"),
        breaks=("value", "shift", "rows", "shapes", "rejects_nonpositive", "rejects_nonfinite"),
        note="named temperature_pick(dist, temperature); the graded default temperature=1.0 added",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "mcmc_softmax_max_as_temperature",
        "softmax_with_temperature",
        """
def softmax_with_temperature(xs,temperature=1e3):
    norm_fact = np.max(xs)
    temperature = norm_fact   #I'm not sure if this is the best way?
    return np.exp(xs/temperature)/(np.sum(np.exp(xs/temperature),axis=1).reshape(-1,1))
""",
        github("spencermyoung513/neural-net-mcmc-optimization", "functions.py"),
        "wrong",
        "replaces the temperature by the largest score of the whole array, and sums over axis 1 (a single row "
        "raises an AxisError)" + NO_CHECKS,
        names=("swt_ignores_temperature", "swt_axis_one", "swt_no_checks"),
        breaks=("value", "scale", "limits", "shapes", "rejects_nonpositive", "rejects_nonfinite"),
        note="named softmax(xs, temperature=1e3)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "tsn_softmax_times_t",
        "softmax_with_temperature",
        """
def softmax_with_temperature(raw_score, temperature=1.0):
    T = temperature  # adapter: the original's parameter is T
    exp_s = np.exp((raw_score - raw_score.max(axis=-1)[..., None])*T)
    sum_s = exp_s.sum(axis=-1)
    return exp_s / sum_s[..., None]
""",
        github("rg4sun/tsn-dig", "tsn-mindspore-gpu/src/metrics.py"),
        "wrong",
        "multiplies the shifted scores by T instead of dividing them, and calls raw_score.max(), which a list "
        "does not have" + NO_CHECKS,
        names=("swt_multiplies_by_t", "swt_fails_on_lists", "swt_no_checks"),
        breaks=("value", "scale", "limits", "dtype", "rejects_nonpositive", "rejects_nonfinite"),
        note="named softmax(raw_score, T=1); one adapter line maps temperature to T",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "coding_problems_temp_sampling",
        "sample_next_token",
        """
# basically, scale the softmax exponent calculation probability by temperature to scale probability values towards one hot if temperature is low and towards uniform if temperature is high
def sample_next_token(logits, temperature, rng):
  t = temperature  # adapter: the original's parameter is t (default 0.6)

  # convert logits to probs while scaling by temperature
  stable_logits = np.max(logits, axis=-1, keep_dims=True)
  t = 0.1 if t == 0 else t
  temp_scaled = np.exp((logits-stable_logits)/t)/np.sum(np.exp((logits-stable_logits)/t), axis=-1)

  # can call sampling method given the probabilities from here
  # random sampling
  return np.random.choice(len(temp_scaled), p=temp_scaled)
""",
        github("22anushka/DeepLearning-coding-problems", "temperature_sampling.py"),
        "wrong",
        "passes keep_dims= to np.max, which has no such argument, so every call raises TypeError; had it run, T = 0 "
        "would sample at T = 0.1, a negative T would be accepted and the draw would come from NumPy's global "
        "random state",
        names=("snt_greedy_samples", "snt_no_negative_check", "snt_global_random"),
        breaks=(
            "greedy",
            "returns_int",
            "no_draw_at_zero",
            "shapes",
            "dtype",
            "value",
            "own_generator",
            "rejects_negative",
        ),
        note="named temp_sampling(logits, t=0.6); one adapter line maps temperature to t; rng is never used",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "keras_lstm_sample",
        "sample_next_token",
        """
# Function from keras-team/keras/blob/master/examples/lstm_text_generation.py
def sample_next_token(preds, temperature, rng):
    # helper function to sample an index from a probability array
    preds = np.asarray(preds).astype('float64')
    preds = np.log(preds) / temperature
    exp_preds = np.exp(preds)
    preds = exp_preds / np.sum(exp_preds)
    probas = np.random.multinomial(1, preds, 1)
    return np.argmax(probas)
""",
        github("flo12392/trump-generator", "src/utils.py"),
        "wrong",
        "reads the logits as probabilities (np.log of a negative logit is nan), divides by T = 0 instead of "
        "taking the argmax (NumPy then refuses the nan probabilities with ValueError), accepts a negative T, draws from NumPy's global random state and returns a NumPy "
        "integer",
        names=("snt_global_random", "snt_no_negative_check", "snt_returns_numpy_int", "snt_rejects_zero"),
        breaks=("value", "greedy", "returns_int", "no_draw_at_zero", "own_generator", "rejects_negative"),
        note="named sample(preds, temperature=1.0), copied from Keras's LSTM text-generation example; rng is "
        "never used",
        licence=NO_LICENCE + " (the function is Keras's example: Apache-2.0)",
    ),
]
