"""Lesson 08_log_softmax: public implementations of logsumexp, log_softmax and cross_entropy."""

from grader.proof.outside import NO_LICENCE, OutsideEntry, github

LESSON = "08_log_softmax"

OUTSIDE = [
    OutsideEntry(
        "llamppl_logsumexp",
        "logsumexp",
        """
def logsumexp(nums):
    nums = np.asarray(nums)
    if np.all(nums == -np.inf):
        return -np.inf

    m = np.max(nums)
    return np.log(np.sum(np.exp(nums - m))) + m
""",
        github("genlm/llamppl", "llamppl/util.py"),
        "wrong",
        "one LSE for the whole array instead of one per row (a batch gives a single number); small integer "
        "scores are shifted as integers",
        names=("logsumexp_no_cast",),
        breaks=("value", "shapes", "returns_array", "dtype"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "exp_mixtures_logsumexp_rows",
        "logsumexp",
        """
def logsumexp(x, axis=-1):
    mx = np.max(x, axis)
    xshift = [x[i]-mx[i] for i in range(len(x))]
    return np.log(np.sum(np.exp(xshift), axis)) + mx
""",
        github("sachinruk/exp_mixtures", "python_code/utility.py"),
        "wrong",
        "subtracts each row's max through a loop over the first axis: a single row fails (its max is a number, "
        "not indexable), a 3-D batch lines the maxima up with the wrong axis, and a row of -inf gives nan",
        names=("logsumexp_nan_for_masked_rows",),
        breaks=("shapes", "neg_inf", "quiet", "value"),
        note="the original's axis has no default; the adaptation gives it -1",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "aml_logsumexp_ravel",
        "logsumexp",
        """
def logsumexp(a, axis=None, b=None):
    a = np.asarray(a)
    if axis is None:
        a = a.ravel()
    else:
        a = np.rollaxis(a, axis)
    a_max = a.max(axis=0)
    if b is not None:
        b = np.asarray(b)
        if axis is None:
            b = b.ravel()
        else:
            b = np.rollaxis(b, axis)
        out = np.log(np.sum(b * np.exp(a - a_max), axis=0))
    else:
        out = np.log(np.sum(np.exp(a - a_max), axis=0))
    out += a_max
    return out
""",
        github("mjm522/aml", "aml_rl/rl_algos/src/rl_algos/utils/utils.py"),
        "wrong",
        "with its default axis=None it ravels the array and returns one LSE for the whole of it; a row of -inf "
        "gives nan (with a warning)",
        names=("logsumexp_nan_for_masked_rows",),
        breaks=("value", "shapes", "returns_array", "neg_inf", "quiet"),
        note="the file says it is borrowed from rock-learning/bolero's mathext.py; its unused scipy import left out",
        licence=NO_LICENCE + " (the function is bolero's: BSD-3-Clause)",
    ),
    OutsideEntry(
        "ift6390_logsumexp_trick",
        "logsumexp",
        """
def logsumexp(vector):
  s = 0
  A = -1 * max(vector)
  for i in vector:
     s += math.exp(i + A)
  return math.log(s) - A
""",
        github("ananth17/ift6390_machine_learning_fundamentals", "code/logsumexp.py"),
        "wrong",
        "one row only, in Python floats: a batch fails at max() of its rows, a row of -inf gives nan, and float32 "
        "scores give a Python float",
        names=("logsumexp_nan_for_masked_rows",),
        breaks=("shapes", "neg_inf", "dtype", "returns_array"),
        note="named logsumexp2(vector); uses math, imported for it",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "ift6390_logsumexp_plain",
        "logsumexp",
        """
def logsumexp(vector):
  s = 0
  for i in vector:
    s += math.exp(i)
  return math.log(s)
""",
        github("ananth17/ift6390_machine_learning_fundamentals", "code/logsumexp.py"),
        "wrong",
        "no shift: math.exp of a score above about 709 raises OverflowError, a row of -inf raises ValueError at "
        "math.log(0), and it handles one row only",
        names=("logsumexp_no_shift",),
        breaks=("extremes", "shift", "neg_inf", "shapes", "dtype"),
        note="named logsumexp1(vector); uses math, imported for it",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "starxin_log_sum_exp",
        "logsumexp",
        """
def logsumexp(x):
    mx = np.max(x, axis=1, keepdims=True)
    safe = x - mx
    return mx + np.log(np.sum(np.exp(safe), axis=1, keepdims=True))
""",
        github("arieshx/starXin", "interface_py/nn/utils.py"),
        "wrong",
        "keeps the summed axis (one column per row instead of one number) and works over axis 1: a single row "
        "raises an AxisError; a row of -inf gives nan",
        names=("logsumexp_keeps_axis", "logsumexp_nan_for_masked_rows"),
        breaks=("shapes", "neg_inf", "quiet"),
        note="named log_sum_exp(x)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "llamppl_log_softmax",
        "log_softmax",
        """
def logsumexp(nums):
    nums = np.asarray(nums)
    if np.all(nums == -np.inf):
        return -np.inf

    m = np.max(nums)
    return np.log(np.sum(np.exp(nums - m))) + m


def log_softmax(nums):
    return nums - logsumexp(nums)
""",
        github("genlm/llamppl", "llamppl/util.py"),
        "wrong",
        "subtracts one LSE of the whole array from every score, so the rows of a batch compete; small integer "
        "scores are shifted as integers",
        names=("log_softmax_sums_whole_array", "log_softmax_no_cast"),
        breaks=("value", "shapes", "dtype"),
        note="with the file's logsumexp, which log_softmax calls (in the notebook it replaces the graded "
        "logsumexp for the cells after it, as a learner's copy would)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "mynn_log_softmax",
        "log_softmax",
        """
from numpy import log, exp  # adapter: the original imports Tensor, log, exp, sum from mygrad

def log_softmax(x):
    ''' Returns the log softmax log(exp(x) / Σexp(x)). However, this implementation is faster and
    more numerically-stable than performing the softmax followed by the log.
    '''
    assert 0 < x.ndim < 3, 'Input must be 1- or 2-dimensional.'

    kw = dict(axis=1, keepdims=True) if x.ndim == 2 else dict(axis=None, keepdims=False)

    x = x - x.max(**kw)
    return x - log(exp(x).sum(**kw))
""",
        github("davidmascharka/MyNN", "mynn/activations/log_softmax.py"),
        "wrong",
        "asserts 1-D or 2-D input (a 3-D batch raises AssertionError), reads x.ndim (a list has none), and shifts "
        "small integer scores as integers",
        names=("log_softmax_axis_one", "log_softmax_no_cast"),
        breaks=("shapes", "dtype"),
        note="the original computes on mygrad tensors; its log and exp are pointed at NumPy's (mygrad's own "
        "follow NumPy's); the docstring's parameter list left out",
        licence="MIT",
    ),
    OutsideEntry(
        "murphy_log_softmax",
        "log_softmax",
        """
def works(x):
    x = np.array(x, dtype = float)
    x = x.T - np.max(x, axis = 1) # prevent overflow
    e = np.exp(x)
    return x, e, np.sum(e, axis = 0)

def log_softmax(x):
    x, _, s = works(x)
    return (x - np.log(s)).T
""",
        github("gregclinton/murphy", "softmax.py"),
        "wrong",
        "right for a 2-D batch only: the max over axis 1 fails on a single row and .T reverses a 3-D batch; "
        "float32 scores become float64",
        names=("log_softmax_axis_one", "log_softmax_float32_becomes_float64"),
        breaks=("shapes", "dtype"),
        note="with the file's helper works(x)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "nn_metrics_cross_entropy",
        "cross_entropy",
        """
def cross_entropy(probs, y): # https://deepnotes.io/softmax-crossentropy
    N = y.shape[0]

    log_likelihood = -np.log(probs[range(N), y])

    return np.sum(log_likelihood) / N
""",
        github("jeongnna/nn", "nn/metrics.py"),
        "wrong",
        "reads the logits as probabilities (no softmax: np.log of a negative logit is nan) and averages over the "
        "batch; an integer target has no .shape",
        names=("cross_entropy_mean_over_batch", "cross_entropy_target_not_array"),
        breaks=("value", "per_row", "from_logits", "shapes", "targets", "quiet"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "hm1_cross_entropy_loss",
        "cross_entropy",
        """
def softmax(x):
    max_x = np.max(x,axis=1).reshape(-1,1)
    x = np.exp(x-max_x) / np.sum(np.exp(x-max_x), axis = 1, keepdims = True)
    return x

def cross_entropy(y_hat,y):
    y_hat = softmax(y_hat)
    l = 0
    for i,j in enumerate(y):
        l += -np.log(y_hat[i,j]+1e-05)
    return l/len(y)
""",
        github("vanqaq/hm1", "loss.py"),
        "wrong",
        "takes -log(softmax + 1e-5) of the target's weight and averages over the batch; a single row fails at "
        "axis 1, and an integer target cannot be enumerated",
        names=("cross_entropy_via_log_of_softmax", "cross_entropy_log_eps", "cross_entropy_mean_over_batch"),
        breaks=("value", "per_row", "from_logits", "shapes", "targets"),
        note="named CrossEntropyLoss(y_hat, y), with the file's softmax",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "my_own_nn_crossentropy",
        "cross_entropy",
        """
def cross_entropy(logits,reference_answers):
    \"\"\"Compute crossentropy from logits[batch,n_classes] and ids of correct answers\"\"\"
    logits_for_answers = logits[np.arange(len(logits)),reference_answers]

    xentropy = - logits_for_answers + np.log(np.sum(np.exp(logits),axis=-1))

    return xentropy
""",
        github("salimandre/my-own-neural-network", "loss.py"),
        "wrong",
        "no shift (exp overflows to inf for large logits), and picks the targets with "
        "logits[np.arange(len(logits)), target], which needs a 2-D batch: a single row fails",
        names=("cross_entropy_no_shift", "cross_entropy_two_axes_only"),
        breaks=("extremes", "quiet", "shift", "shapes", "targets", "from_logits", "dtype"),
        note="named softmax_crossentropy_with_logits (the Coursera 'Intro to deep learning' version)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "neural_networks_crossentropy_print",
        "cross_entropy",
        """
def cross_entropy(logits, targets):
    print(np.amax(logits))
    \"\"\"Compute crossentropy from logits[batch,n_classes] and ids of correct answers\"\"\"
    logits_for_answers = logits[np.arange(len(logits)), targets]
    xentropy = - logits_for_answers + np.log(np.sum(np.exp(logits), axis=-1))
    return xentropy
""",
        github("pskrunner14/neural-networks", "loss.py"),
        "wrong",
        "no shift (exp overflows to inf for large logits), picks the targets in a way that needs a 2-D batch, "
        "and prints the largest logit on every call",
        names=("cross_entropy_no_shift", "cross_entropy_two_axes_only"),
        breaks=("extremes", "quiet", "shift", "shapes", "targets", "from_logits", "dtype"),
        note="named softmax_crossentropy_with_logits; the same code as my_own_nn_crossentropy with a print",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "murphy_cross_entropy_one_hot",
        "cross_entropy",
        """
def works(x):
    x = np.array(x, dtype = float)
    x = x.T - np.max(x, axis = 1) # prevent overflow
    e = np.exp(x)
    return x, e, np.sum(e, axis = 0)

def log_softmax(x):
    x, _, s = works(x)
    return (x - np.log(s)).T

def cross_entropy(x, y):
    return np.array([-y[i].dot(lsm) for i, lsm in enumerate(log_softmax(x))])
""",
        github("gregclinton/murphy", "softmax.py"),
        "wrong",
        "expects one-hot target rows (y[i].dot(log-weights)): a class index gives its multiple of the whole row, "
        "or fails for an int target; works on a 2-D batch only",
        names=(),
        breaks=("targets", "value", "shapes"),
        note="named softmax_cross_entropy_with_logits(x, y), with the file's works and log_softmax (in the notebook "
        "its log_softmax replaces the graded one for the cells after it, as a learner's copy would)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "resnet_cross_entropy_loss_forward",
        "cross_entropy",
        """
def cross_entropy(logits, labels):
    # logits: (batch_size, num_classes)
    # labels: (batch_size,)
    m = logits.shape[0]
    # Softmax
    exps = np.exp(logits - np.max(logits, axis=1, keepdims=True))
    probs = exps / np.sum(exps, axis=1, keepdims=True)
    # Cross-entropy loss
    log_likelihood = -np.log(probs[range(m), labels])
    loss = np.sum(log_likelihood) / m
    return loss, probs
""",
        github("Anhuynh2404/Feature_Detection_and_Description", "ResNet/loss.py"),
        "wrong",
        "returns the pair (mean loss, weights): the losses are averaged over the batch, taken as -log of the "
        "softmax (inf when the target's weight underflows), and the max and the targets are taken over axis 1, "
        "so a single row fails",
        names=("cross_entropy_mean_over_batch", "cross_entropy_via_log_of_softmax", "cross_entropy_two_axes_only"),
        breaks=("per_row", "from_logits", "shapes", "returns_array", "value", "targets", "dtype"),
        note="the method CrossEntropyLoss.forward(self, logits, labels) as a function (self dropped)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "cnn_from_scratch_cross_entropy_one_hot",
        "cross_entropy",
        """
def cross_entropy(inputs, labels):

    out_num = labels.shape[0]
    p = np.sum(labels.reshape(1,out_num)*inputs)
    loss = -np.log(p)
    return loss
""",
        github("chih-chun-chang/convolutional-neural-network-from-scratch-python", "model/loss.py"),
        "wrong",
        "expects a one-hot label row and probabilities: with class indices it multiplies them into the logits "
        "and takes the log of the whole sum (one number, often nan), and an int target has no .shape",
        names=(),
        breaks=("value", "targets", "per_row", "shapes", "from_logits"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "digit_recognition_crossentropy",
        "cross_entropy",
        """
def cross_entropy(logits, reference_answers):
    \"\"\"Compute crossentropy from logits[batch,n_classes] and ids of correct answers\"\"\"
    logits_for_answers = logits[np.arange(len(logits)), reference_answers]
    xentropy = - logits_for_answers + np.log(np.sum(np.exp(logits), axis=-1))
    return xentropy
""",
        github("EricJ30/DigitRecognition", "utils/math_utils.py"),
        "wrong",
        "no shift (exp overflows to inf for large logits), and picks the targets in a way that needs a 2-D batch",
        names=("cross_entropy_no_shift", "cross_entropy_two_axes_only"),
        breaks=("extremes", "quiet", "shift", "shapes", "targets", "from_logits", "dtype"),
        note="named softmax_crossentropy_with_logits; another copy of the same course code",
        licence=NO_LICENCE,
    ),
]
