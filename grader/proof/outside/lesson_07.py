"""Lesson 07_attention: public implementations of attention_weights and attend."""

from grader.proof.outside import NO_LICENCE, OutsideEntry, github

LESSON = "07_attention"

OUTSIDE = [
    OutsideEntry(
        "mlhelper_attention_weights",
        "attention_weights",
        """
def softmaxT (logits,temperature=1): #default temperature is 1
  return np.exp(logits/temperature) / np.sum(np.exp(logits/temperature), axis=0)
def attention_weights(q, k, mask=None, scale=True, temp=1):
  return softmaxT(np.dot(q,k.T),temperature=temp)
""",
        github("pluu2/MLhelper", "attention.py"),
        "wrong",
        "never scales the scores by sqrt(d_k), ignores the mask, takes the softmax down the columns (over the "
        "queries) and never shifts the scores; lists fail at k.T",
        names=("aw_no_scaling", "aw_ignores_mask", "aw_softmax_over_queries", "aw_no_max_shift", "aw_fails_on_lists"),
        breaks=("scaling", "forbidden", "all_forbidden", "value", "extremes", "quiet", "dtype"),
        note="named attention(q, k, temp=1); mask and scale are the adaptation's and never read; with its "
        "helper softmaxT",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "coursera_attention_tuple",
        "attend",
        """
def softmax(x):
    e_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e_x / np.sum(e_x, axis=-1, keepdims=True)

def attend(query, key, value, mask=None, scale=True):
    d_k = query.shape[-1]  # dimension of the key
    scores = np.matmul(query, key.T) / np.sqrt(d_k)  # Scaled dot-product
    weights = softmax(scores)  # Attention weights
    output = np.matmul(weights, value)  # Weighted sum of values
    return output, weights
""",
        github("cpsource/coursera", "course9/attention-mechanism-example.py"),
        "wrong",
        "returns the pair (output, weights) instead of the output, has no mask (forbidden keys still count) and "
        "always scales; lists fail at query.shape",
        names=("attend_ignores_mask", "attend_ignores_scale"),
        breaks=("returns_array", "value", "forbidden", "all_forbidden", "scaling", "dtype"),
        note="named attention(query, key, value); mask and scale are the adaptation's and never read; with its "
        "helper softmax",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "transformers_additive_mask_attention",
        "attend",
        """
def softmax(x):
    return (np.exp(x).T / np.sum(np.exp(x), axis=-1)).T

def attend(q, k, v, mask=None, scale=True):
    d_k = q.shape[-1]
    scaled = np.matmul(q, k.T) / math.sqrt(d_k)
    if mask is not None:
        scaled = scaled + mask
    attention = softmax(scaled)
    out = np.matmul(attention, v)
    return out, attention
""",
        github("andyluken/transformers", "SelfAttention.py"),
        "wrong",
        "returns the pair (output, weights); adds the mask to the scores (an additive 0 / -inf mask), so a "
        "boolean mask adds 1 to the allowed scores and forbids nothing; never shifts the scores; always scales",
        names=("attend_additive_mask", "attend_no_max_shift", "attend_ignores_scale"),
        breaks=("returns_array", "value", "forbidden", "all_forbidden", "scaling", "extremes", "quiet"),
        note="named scaled_dot_product_attention(q, k, v, mask=None); scale is the adaptation's; with its helper "
        "softmax; math is imported for it",
        licence=NO_LICENCE,
    ),
]
