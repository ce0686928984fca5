"""Lesson 03_shared_denominator: public implementations of softmax."""

from grader.proof.outside import NO_LICENCE, OutsideEntry, github

LESSON = "03_shared_denominator"

SMALL_INTS = "; np.exp of small integer scores gives float16 (or float32) weights, not float64"

OUTSIDE = [
    OutsideEntry(
        "epai_softmax_whole_array",
        "softmax",
        """
def softmax(X):
    expo = np.exp(X)
    expo_sum = np.sum(np.exp(X))
    return expo/expo_sum
""",
        github("gokulrameshd/epai_session12", "calculator/SoftMax.py"),
        "wrong",
        "divides by the total evidence of the whole array, so the rows of a batch compete" + SMALL_INTS,
        names=("softmax_whole_array", "softmax_exp_of_small_ints"),
        breaks=("value", "shapes", "compete", "dtype"),
        note="named softmax(X); the original imports numpy as `numpy` but calls `np`, which the notebook defines",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "dlfs_study_softmax",
        "softmax",
        """
def softmax(x):
    exp_x = np.exp(x)
    sum_exp_x = np.sum(exp_x)
    return exp_x / sum_exp_x
""",
        github("koyahi/study", "2016/11a_deep_learning_from_scratch/03/softmax.py"),
        "wrong",
        "divides by the total evidence of the whole array, so the rows of a batch compete" + SMALL_INTS,
        names=("softmax_whole_array", "softmax_exp_of_small_ints"),
        breaks=("value", "shapes", "compete", "dtype"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "pytorch_tutorial_softmax_axis0",
        "softmax",
        """
def softmax(x):
    return np.exp(x) / np.sum(np.exp(x), axis=0)
""",
        github("oguzhangencer/pytorch_tutorial", "softmax_and_crossentorpy.py"),
        "wrong",
        "sums down axis 0: right for one row, but a batch is normalised down its columns" + SMALL_INTS,
        names=("softmax_axis0", "softmax_exp_of_small_ints"),
        breaks=("value", "shapes", "dtype"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "self_attention_softmax_axis1",
        "softmax",
        """
def softmax(x):
    return np.exp(x) / np.sum(np.exp(x), axis=1, keepdims=True)
""",
        github("Furvos/self_attention", "test_attention.py"),
        "wrong",
        "sums over axis 1: a single row raises an AxisError and a 3-D batch is normalised down its middle axis"
        + SMALL_INTS,
        names=("softmax_axis1", "softmax_exp_of_small_ints"),
        breaks=("shapes", "dtype"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "self_attention_stable_axis1",
        "softmax",
        """
def softmax(x):
    x = x - np.max(x, axis=1, keepdims=True)
    exp_x = np.exp(x)
    return exp_x / np.sum(exp_x, axis=1, keepdims=True)
""",
        github("Furvos/self_attention", "test_attention.py"),
        "wrong",
        "shifts and sums over axis 1: a single row raises an AxisError and a 3-D batch is normalised down its "
        "middle axis; small integer scores are shifted as integers (wrapping around)" + SMALL_INTS,
        names=("softmax_axis1", "softmax_exp_of_small_ints"),
        breaks=("shapes", "dtype", "value"),
        note="a later stored version of the same file",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "learn_ai_soft_max",
        "softmax",
        """
def softmax(z):
    t = np.exp(z)
    a = np.exp(z) / np.expand_dims(np.sum(t, axis=1), 1)
    return a
""",
        github("Fangzhou-Code/Learn_AI", "第四阶段：大模型/self_attention.py"),
        "wrong",
        "sums over axis 1 and puts the axis back with expand_dims: a single row raises an AxisError and a 3-D "
        "batch is normalised down its middle axis" + SMALL_INTS,
        names=("softmax_axis1", "softmax_exp_of_small_ints"),
        breaks=("shapes", "dtype"),
        note="named soft_max(z)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "npbench_softmax_cupy",
        "softmax",
        """
# Numerically-stable version of softmax
def softmax(x):
    tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_out = np.exp(x - tmp_max)
    tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    return tmp_out / tmp_sum
""",
        github(
            "spcl/npbench",
            "npbench/benchmarks/deep_learning/softmax/softmax_cupy.py",
            "ff390283fd4e97f8834abb7bba7a66f2597ac6a2",
        ),
        "wrong",
        "right over the last axis for float input, but small integer scores are shifted as integers (int8 "
        "differences wrap around) and np.exp gives them float16 weights",
        names=("softmax_exp_of_small_ints",),
        breaks=("dtype", "value"),
        note="the original imports cupy as np; here np is NumPy",
        licence="BSD-3-Clause",
    ),
    OutsideEntry(
        "npbench_softmax_pythran",
        "softmax",
        """
# Numerically-stable version of softmax
# pythran export softmax(float32[:,:,:,:])
def softmax(x):
    # tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_max = np.max(x, axis=-1)[:, :, :, np.newaxis]
    tmp_out = np.exp(x - tmp_max)
    # tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    tmp_sum = np.sum(tmp_out, axis=-1)[:, :, :, np.newaxis]
    return tmp_out / tmp_sum
""",
        github(
            "spcl/npbench",
            "npbench/benchmarks/deep_learning/softmax/softmax_pythran.py",
            "ff390283fd4e97f8834abb7bba7a66f2597ac6a2",
        ),
        "wrong",
        "puts the summed axis back with [:, :, :, np.newaxis], which works for 4-D input only: a row, a 2-D or a "
        "3-D batch raises IndexError",
        names=(),
        breaks=("shapes", "value", "dtype"),
        licence="BSD-3-Clause",
    ),
    OutsideEntry(
        "utill_stable_softmax",
        "softmax",
        """
def softmax(x):
    z = x - np.max(x, axis=-1, keepdims=True)
    numerator = np.exp(z)
    denominator = np.sum(numerator, axis=-1, keepdims=True)
    softmax = numerator / denominator
    return softmax
""",
        github("hongseong0314/-git", "src/utill.py"),
        "wrong",
        "right over the last axis for float input, but small integer scores are shifted as integers and np.exp "
        "gives them float16 weights",
        names=("softmax_exp_of_small_ints",),
        breaks=("dtype", "value"),
        note="named stable_softmax(x); graded as lesson 03's softmax, whose signature it has",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "coursera_attention_softmax",
        "softmax",
        """
def softmax(x):
    e_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e_x / np.sum(e_x, axis=-1, keepdims=True)
""",
        github("cpsource/coursera", "course9/attention-mechanism-example.py"),
        "wrong",
        "right over the last axis for float input, but small integer scores are shifted as integers and np.exp "
        "gives them float16 weights",
        names=("softmax_exp_of_small_ints",),
        breaks=("dtype", "value"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "m2cgen_softmax",
        "softmax",
        """
def softmax(x):
    m = max(x)
    exps = [math.exp(i - m) for i in x]
    s = sum(exps)
    for idx, _ in enumerate(exps):
        exps[idx] /= s
    return exps
""",
        github("BayesWitnesses/m2cgen", "m2cgen/interpreters/python/softmax.py"),
        "wrong",
        "returns a Python list built with math.exp, for one row only: a batch fails at max() of its rows",
        names=("softmax_returns_list",),
        breaks=("dtype", "shapes"),
        note="the helper m2cgen writes into generated Python code; it uses math, imported for it",
        licence="MIT",
    ),
    OutsideEntry(
        "seq2seq_softmax_in_place",
        "softmax",
        """
def softmax(z):
    z -= np.max(z)
    sm = (np.exp(z).T / np.sum(np.exp(z), axis=0)).T
    return sm
""",
        github("LiZhenping/seq2seq_attention", "softmax.py"),
        "wrong",
        "subtracts the max from the caller's array in place, and divides the transpose by the column totals: a "
        "batch is normalised down its columns (or fails to broadcast)" + SMALL_INTS,
        names=("softmax_shift_in_place", "softmax_axis0", "softmax_transposes"),
        breaks=("unchanged", "shapes", "value", "dtype"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "nn_from_scratch_softmax_axis0",
        "softmax",
        """
def softmax(x):
    return np.exp(x) / np.sum(np.exp(x), axis=0)
""",
        github("knarfamlap/neural_nets_from_scratch", "examples/softmax_example.py"),
        "wrong",
        "sums down axis 0: right for one row, but a batch is normalised down its columns" + SMALL_INTS,
        names=("softmax_axis0", "softmax_exp_of_small_ints"),
        breaks=("value", "shapes", "dtype"),
        licence="MIT",
    ),
    OutsideEntry(
        "pvcd_softmax_array_methods",
        "softmax",
        """
def softmax(scores):
    es = np.exp(scores - scores.max(axis=-1)[..., None])
    return es / es.sum(axis=-1)[..., None]
""",
        github("vanhao-le/PVCD-Pytorch", "chip/utils.py"),
        "wrong",
        "calls scores.max(), which a Python list does not have" + SMALL_INTS,
        names=("softmax_fails_on_lists", "softmax_exp_of_small_ints"),
        breaks=("dtype", "value"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "program_synthesis_softmax",
        "softmax",
        """
def softmax(x):
    e_x = np.exp(x - np.max(x))
    return e_x / e_x.sum(axis=0)
""",
        github("Priyanshu-pg/Program-Synthesis-using-PG", "venv/utils.py"),
        "wrong",
        "shifts by the global max and sums down axis 0: a batch is normalised down its columns" + SMALL_INTS,
        names=("softmax_axis0", "softmax_exp_of_small_ints"),
        breaks=("value", "shapes", "dtype"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "llamppl_softmax",
        "softmax",
        """
def logsumexp(nums):
    nums = np.asarray(nums)
    if np.all(nums == -np.inf):
        return -np.inf

    m = np.max(nums)
    return np.log(np.sum(np.exp(nums - m))) + m


def log_softmax(nums):
    return nums - logsumexp(nums)


def softmax(nums):
    return np.exp(log_softmax(nums))
""",
        github("genlm/llamppl", "llamppl/util.py"),
        "wrong",
        "takes one log-sum-exp of the whole array, so the rows of a batch compete; small integer scores are "
        "shifted as integers",
        names=("softmax_whole_array", "softmax_exp_of_small_ints"),
        breaks=("value", "shapes", "compete", "dtype"),
        note="with the file's logsumexp and log_softmax, which softmax calls",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "distill_softmax_unshifted_total",
        "softmax",
        """
def softmax(x):

    y = np.exp(x - np.max(x))
    f_x = y / np.sum(np.exp(x))
    return f_x
""",
        github("abc1035/aiyubin-task1", "test/distill.py"),
        "wrong",
        "shifts the numerator by the max but divides by the total of the unshifted evidence, so the weights sum to "
        "exp(-max) instead of 1 (and the whole array shares that total)",
        names=(),
        breaks=("value", "shift", "shapes", "compete"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "murphy_softmax_transposed",
        "softmax",
        """
def works(x):
    x = np.array(x, dtype = float)
    x = x.T - np.max(x, axis = 1) # prevent overflow
    e = np.exp(x)
    return x, e, np.sum(e, axis = 0)

def softmax(x):
    _, e, s = works(x)
    return (e / s).T
""",
        github("gregclinton/murphy", "softmax.py"),
        "wrong",
        "right for a 2-D batch only: it takes the max over axis 1 and works on the transpose, so a single row "
        "raises an AxisError and a 3-D batch is reversed by .T",
        names=("softmax_axis1", "softmax_transposes"),
        breaks=("shapes",),
        note="with the file's helper works(x)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "cb_ai_nlp_softmax_2",
        "softmax",
        """
def softmax(dist):
    dist = np.exp(dist)
    return dist / np.sum(dist)
""",
        github("yunhui21/CB_Ai_NLP", "Lecture_example/Day_15_01_TemperatureSampling.py"),
        "wrong",
        "divides by the total evidence of the whole array, so the rows of a batch compete" + SMALL_INTS,
        names=("softmax_whole_array", "softmax_exp_of_small_ints"),
        breaks=("value", "shapes", "compete", "dtype"),
        note="named softmax_2(dist)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "numpy_neural_net_softmax",
        "softmax",
        """
def softmax(in_):
    \"\"\"
    The softmax function.

    Args:
        in_: The input vector or matrix
    Returns:
        The row wise probability vector of the given input.
    \"\"\"
    exp = np.exp(in_ - np.max(in_, axis=-1, keepdims=True))
    return exp / exp.sum(axis=-1, keepdims=True)
""",
        github("Keith-Dao/Numpy-Nerual-Net", "neural_net/utils.py"),
        "wrong",
        "right over the last axis for float input, but small integer scores are shifted as integers and np.exp "
        "gives them float16 weights",
        names=("softmax_exp_of_small_ints",),
        breaks=("dtype", "value"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "crossentropy_softmax_axis1",
        "softmax",
        """
def softmax(x):
    exp_x = np.exp(x - np.max(x, axis=1, keepdims=True))
    out= exp_x / np.sum(exp_x, axis=1, keepdims=True)
    return out
""",
        github("DEVLOKER/neural-network", "2/CrossEntropy.py"),
        "wrong",
        "shifts and sums over axis 1: a single row raises an AxisError and a 3-D batch is normalised down its "
        "middle axis" + SMALL_INTS,
        names=("softmax_axis1", "softmax_exp_of_small_ints"),
        breaks=("shapes", "dtype"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "hm1_softmax_axis1",
        "softmax",
        """
def softmax(x):
    max_x = np.max(x,axis=1).reshape(-1,1)
    x = np.exp(x-max_x) / np.sum(np.exp(x-max_x), axis = 1, keepdims = True)
    return x
""",
        github("vanqaq/hm1", "loss.py"),
        "wrong",
        "takes the max over axis 1 and reshapes it to a column: a single row raises an AxisError and a 3-D batch "
        "fails to broadcast or is normalised down its middle axis" + SMALL_INTS,
        names=("softmax_axis1", "softmax_exp_of_small_ints"),
        breaks=("shapes", "dtype"),
        note="the file is a pasted interpreter session; the function alone",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "oscar_softmax_whole_array",
        "softmax",
        """
def softmax(x):
    \"\"\"Compute the softmax of vector x.\"\"\"
    exps = np.exp(x)
    return exps / np.sum(exps)
""",
        github("OscarLigthart/Deep-Learning", "code/test.py"),
        "wrong",
        "divides by the total evidence of the whole array, so the rows of a batch compete" + SMALL_INTS,
        names=("softmax_whole_array", "softmax_exp_of_small_ints"),
        breaks=("value", "shapes", "compete", "dtype"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "self_attention_softmax_transposed",
        "softmax",
        """
def softmax(x):
    return (np.exp(x).T / np.sum(np.exp(x), axis=-1)).T
""",
        github("andyluken/transformers", "SelfAttention.py"),
        "wrong",
        "divides the transposed evidence by the row totals and transposes back: right for one row and a 2-D "
        "batch, but .T reverses every axis of a 3-D batch" + SMALL_INTS,
        names=("softmax_transposes", "softmax_exp_of_small_ints"),
        breaks=("shapes", "dtype"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "starxin_softmax_func",
        "softmax",
        """
def softmax(x):
    stable_values = x - np.max(x, axis=1, keepdims=True)
    return np.exp(stable_values) / np.sum(np.exp(stable_values), axis=1, keepdims=True)
""",
        github("arieshx/starXin", "interface_py/nn/utils.py"),
        "wrong",
        "shifts and sums over axis 1: a single row raises an AxisError and a 3-D batch is normalised down its "
        "middle axis" + SMALL_INTS,
        names=("softmax_axis1", "softmax_exp_of_small_ints"),
        breaks=("shapes", "dtype"),
        note="named softmax_func(x)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "da6401_softmax_forward",
        "softmax",
        """
def softmax(x):
    x = np.array(x)
    shifted_out = x - np.max(x, axis = 1, keepdims=True)
    exp_out = np.exp(shifted_out)
    exp_out /= np.sum(exp_out, axis=1, keepdims=True)
    return exp_out
""",
        github("DivyanshuTirkey/da6401_assignment1", "nn/Activations/_softmax.py"),
        "wrong",
        "shifts and sums over axis 1: a single row raises an AxisError and a 3-D batch is normalised down its "
        "middle axis" + SMALL_INTS,
        names=("softmax_axis1", "softmax_exp_of_small_ints"),
        breaks=("shapes", "dtype"),
        note="the method Softmax.forward(self, x) as a function (self dropped)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "npbench_softmax_dpnp",
        "softmax",
        """
# Numerically-stable version of softmax using DPNP
def softmax(x):
    tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_out = np.exp(x - tmp_max)
    tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    return tmp_out / tmp_sum
""",
        github(
            "spcl/npbench",
            "npbench/benchmarks/deep_learning/softmax/softmax_dpnp.py",
            "8918ee3f4fa38b94f90be3d377867d3e1be9e89b",
        ),
        "wrong",
        "right over the last axis for float input, but small integer scores are shifted as integers (int8 "
        "differences wrap around) and np.exp gives them float16 weights",
        names=("softmax_exp_of_small_ints",),
        breaks=("dtype", "value"),
        note="the original imports dpnp as np; here np is NumPy",
        licence="BSD-3-Clause",
    ),
    OutsideEntry(
        "npbench_softmax_numba_loop_max",
        "softmax",
        """
# Numerically-stable version of softmax
def softmax(x):
    new_shape = (x.shape[0], x.shape[1], x.shape[2], 1)
    # tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_max = np.empty(new_shape, dtype=x.dtype)
    for i in range(x.shape[3]):
        tmp_max[:, :, :, 0] = np.max(x[:, :, :, i])
    tmp_out = np.exp(x - tmp_max)
    # tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    tmp_sum = np.reshape(np.sum(tmp_out, axis=-1), new_shape)
    return tmp_out / tmp_sum
""",
        github(
            "spcl/npbench",
            "npbench/benchmarks/deep_learning/softmax/softmax_numba_n.py",
            "ff390283fd4e97f8834abb7bba7a66f2597ac6a2",
        ),
        "wrong",
        "works on 4-D input only (x.shape[3]): a row or a 2-D or 3-D batch raises IndexError; its loop leaves "
        "the max of the last column of the whole array as every row's shift",
        names=(),
        breaks=("shapes", "value", "dtype"),
        note="the @nb.jit(nopython=True, parallel=False, fastmath=True) decorator removed (numba is not installed "
        "where learners run)",
        licence="BSD-3-Clause",
    ),
    OutsideEntry(
        "simple_implementation_softmax",
        "softmax",
        """
def softmax(x):
    e_x = np.exp(x - np.max(x)) # Same result as np.exp(x) while avoiding overflow
    return e_x / e_x.sum(axis=0)
""",
        github("orris27/deeplearning-simple-implementation", "utils.py"),
        "wrong",
        "shifts by the global max and sums down axis 0: a batch is normalised down its columns" + SMALL_INTS,
        names=("softmax_axis0", "softmax_exp_of_small_ints"),
        breaks=("value", "shapes", "dtype"),
        note="the same code as program_synthesis_softmax, with its comment",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "ml_from_scratch_self_attention_softmax",
        "softmax",
        """
def softmax(x):
    e_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e_x / e_x.sum(axis=-1, keepdims=True)
""",
        github("jtappen1/Machine-Learning-From-Scratch", "models/self-attention/self_attention.py"),
        "wrong",
        "right over the last axis for float input, but small integer scores are shifted as integers and np.exp "
        "gives them float16 weights",
        names=("softmax_exp_of_small_ints",),
        breaks=("dtype", "value"),
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "ai_mastery_bootcamp_softmax",
        "softmax",
        """
def softmax(x):
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / exp_x.sum(axis=-1, keepdims=True)
""",
        github("yunakam/AI_mastery_bootcamp_Udemy", "Week12/Day1/day1_numpy.py"),
        "wrong",
        "right over the last axis for float input, but small integer scores are shifted as integers and np.exp "
        "gives them float16 weights",
        names=("softmax_exp_of_small_ints",),
        breaks=("dtype", "value"),
        licence=NO_LICENCE,
    ),
]
