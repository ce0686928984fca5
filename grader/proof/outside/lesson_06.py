"""Lesson 06_masking: public implementations of causal_mask, padding_mask and masked_softmax."""

from grader.proof.outside import NO_LICENCE, OutsideEntry, github

LESSON = "06_masking"

OUTSIDE = [
    OutsideEntry(
        "aiprojects_causal_tril",
        "causal_mask",
        """
def causal_mask(sequence_len):
    # Upper triangle of -inf so softmax will not let k_i attend to q_j for i > j (dimension is j*i).
    causal_mask = np.tril(np.ones((sequence_len, sequence_len), dtype=np.bool_))
    return causal_mask
""",
        github("gaminghusky1/AIProjects", "base_model/masks.py"),
        "correct",
        note="named causal(sequence_len)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "aiprojects_causal_additive",
        "causal_mask",
        """
def causal_mask(sequence_len):
    # Upper triangle of -inf so softmax will not let k_i attend to q_j for i > j (dimension is j*i).
    causal_mask = np.triu(np.ones((sequence_len, sequence_len)), k=1) * -1e9
    return causal_mask
""",
        github("gaminghusky1/AIProjects", "base_model/masks.py"),
        "wrong",
        "returns an additive float mask, 0 where a token may look and -1e9 where it may not: not booleans, and "
        "read as a mask it is True exactly on the forbidden entries",
        names=("causal_floats", "causal_inverted"),
        breaks=("value", "dtype"),
        note="another stored version of the same file; named causal(sequence_len)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "transformers_lab_causal_minus_inf",
        "causal_mask",
        """
def causal_mask(seq_len: int) -> np.ndarray:
    mask = np.zeros((seq_len, seq_len))
    mask[np.triu_indices(seq_len, k=1)] = -np.inf  # triangular upper matrix with 1s above the diagonal
    return mask
""",
        github("chkechad/transformers-lab", "src/transformers_lab/causal_mask.py"),
        "wrong",
        "returns an additive float mask, 0 where a token may look and -inf where it may not: not booleans, and "
        "read as a mask it is True exactly on the forbidden entries",
        names=("causal_floats", "causal_inverted"),
        breaks=("value", "dtype"),
        note="the docstring left out",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "sequence_regression_sequence_mask",
        "padding_mask",
        """
def padding_mask(lengths,max_len=None,type_=np.bool):
    lengths = np.asarray(lengths)
    if max_len is None:
        max_len = np.max(lengths)
    row_vector = np.arange(0,max_len)
    result = np.expand_dims(lengths,axis=-1)
    result_matrix = row_vector < result
    result_matrix = result_matrix.astype(type_)
    return result_matrix
""",
        github("yata0/sequence-regression", "conv_sequence_regression/utils/sequence_mask.py"),
        "correct",
        note="named sequence_mask(lengths, max_len=None, type_=np.bool); the file's torch variant left out "
        "(np.bool is NumPy's bool again since NumPy 2)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "flatland_masked_softmax",
        "masked_softmax",
        """
import numpy.ma as ma


def masked_softmax(vec, mask, temperature=1, dim=1, fill_value=0):
    '''
    Softmax only on valid outputs
    '''
    exps = np.exp(vec / temperature)
    masked_arr = ma.masked_array(
        exps, mask=np.invert(mask), fill_value=fill_value
    )
    res = masked_arr / masked_arr.sum(axis=dim, keepdims=True)
    res[res.mask] = fill_value
    return res.data
""",
        github("Wadaboa/flatland-challenge", "model_utils.py"),
        "wrong",
        "takes exp of every score with no shift (large scores overflow, with warnings), gives a row with no "
        "allowed choice zeros instead of raising ValueError, and normalises over axis 1 (a single row raises an "
        "AxisError); a mask that broadcasts is refused by the masked array, and a list of scores cannot be divided by "
        "the temperature",
        names=("masked_no_shift", "masked_exp_before_where"),
        breaks=("extremes", "quiet", "shift", "all_forbidden", "shapes", "dtype"),
        note="the signature reordered to the graded one (the original is masked_softmax(vec, mask, dim=1, "
        "fill_value=0, temperature=1)); its own import of numpy.ma kept",
        licence=NO_LICENCE,
    ),
]
