"""Lesson 10_online_softmax: correct alternatives, and the mutants equivalent to the reference."""

from grader.proof.alternatives import Alternative

LESSON = "10_online_softmax"

ALTERNATIVES = [
    # online_softmax
    Alternative(
        "online_materialise_two_pass",
        "online_softmax",
        "reads the chunks once into a list of copies, joins them, then a stable softmax over the whole row",
        """
def online_softmax(chunks):
    x = np.concatenate([np.array(chunk, dtype=float) for chunk in chunks])
    e = np.exp(x - x.max())
    return e / e.sum()
""",
    ),
    Alternative(
        "online_logaddexp",
        "online_softmax",
        "a running log-sum-exp with np.logaddexp, copies of the chunks kept, then exp(x - lse)",
        """
def online_softmax(chunks):
    lse = -np.inf
    kept = []
    for chunk in chunks:
        x = np.array(chunk, dtype=float)
        top = x.max()
        if top > -np.inf:
            lse = np.logaddexp(lse, top + np.log(np.exp(x - top).sum()))
        kept.append(x)
    return np.exp(np.concatenate(kept) - lse)
""",
    ),
    Alternative(
        "online_rescaled_output_buffer",
        "online_softmax",
        "one output buffer rescaled by exp(m_old - m_new) whenever the max grows, as FlashAttention "
        "rescales its accumulator",
        """
def online_softmax(chunks):
    m, s = -np.inf, 0.0
    out = np.zeros(0)
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, float(x.max()))
        if m_new == -np.inf:
            out = np.concatenate([out, np.zeros(x.size)])
            continue
        if m_new > m:
            factor = np.exp(m - m_new)
            s, out = s * factor, out * factor
        e = np.exp(x - m_new)
        s += e.sum()
        out = np.concatenate([out, e])
        m = m_new
    return out / s
""",
    ),
    Alternative(
        "online_per_score_math",
        "online_softmax",
        "Milakov and Gimelshein's running max and sum one score at a time with math.exp, "
        "the scores kept for the output",
        """
import math

def online_softmax(chunks):
    m, s = -math.inf, 0.0
    kept = []
    for chunk in chunks:
        for value in np.asarray(chunk, dtype=float).tolist():
            if value > m:
                s = s * math.exp(m - value) if s > 0 else 0.0
                m = value
            s += math.exp(value - m) if value > -math.inf else 0.0
            kept.append(value)
    return np.array([0.0 if value == -math.inf else math.exp(value - m) / s for value in kept])
""",
    ),
    Alternative(
        "online_lse_of_copies",
        "online_softmax",
        "copies of the chunks joined, then the log-sum-exp form exp(x - (m + log(sum(exp(x - m)))))",
        """
def online_softmax(chunks):
    x = np.concatenate([np.array(chunk, dtype=float) for chunk in chunks])
    m = x.max()
    return np.exp(x - (m + np.log(np.exp(x - m).sum())))
""",
    ),
    Alternative(
        "online_chunk_dtype_then_float64",
        "online_softmax",
        "works in the chunks' own dtype (float32 stays float32 inside) and returns the weights as float64",
        """
def online_softmax(chunks):
    m, s = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk)
        if x.dtype.kind not in "f":
            x = x.astype(float)
        top = x.max()
        if top == -np.inf and m == -np.inf:
            pieces.append((np.zeros(x.shape, dtype=x.dtype), m))
            continue
        new = max(m, top)
        e = np.exp(x - new)
        s = s * np.exp(m - new) + e.sum()
        m = new
        pieces.append((e, new))
    return (np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / s).astype(np.float64)
""",
    ),
    Alternative(
        "online_python_scalars",
        "online_softmax",
        "the running max and sum as Python floats with math.exp for the rescaling, the shifted scores kept",
        """
import math

def online_softmax(chunks):
    m, s = -math.inf, 0.0
    shifted = []
    for chunk in chunks:
        x = np.array(chunk, dtype=float)
        new = max(m, float(x.max()))
        if new == -math.inf:
            shifted.append((x, new))
            continue
        s = s * math.exp(m - new) + float(np.exp(x - new).sum())
        m = new
        shifted.append((x - new, new))
    return np.concatenate([np.exp(d + (mc - m)) if mc > -math.inf else np.zeros(d.size) for d, mc in shifted]) / s
""",
    ),
    Alternative(
        "online_next_until_stop",
        "online_softmax",
        "next() until StopIteration, a running max and sum, the output buffer grown with np.append",
        """
def online_softmax(chunks):
    it = iter(chunks)
    m, s, out, maxes = -np.inf, 0.0, np.zeros(0), []
    while True:
        try:
            chunk = next(it)
        except StopIteration:
            break
        x = np.asarray(chunk, dtype=float)
        new = max(m, x.max())
        e = np.exp(x - new) if new > -np.inf else np.zeros(x.shape)
        s = (s * np.exp(m - new) if m > -np.inf else 0.0) + e.sum()
        m = new
        out = np.append(out, e)
        maxes.extend([new] * x.size)
    maxes = np.array(maxes)
    factor = np.where(maxes > -np.inf, np.exp(np.where(maxes > -np.inf, maxes, m) - m), 0.0)
    return out * factor / s
""",
    ),
    Alternative(
        "online_logaddexp_reduce",
        "online_softmax",
        "copies of the chunks joined, then exp(x - np.logaddexp.reduce(x))",
        """
def online_softmax(chunks):
    x = np.concatenate([np.array(chunk, dtype=float) for chunk in chunks])
    return np.exp(x - np.logaddexp.reduce(x))
""",
    ),
    Alternative(
        "online_minus_log_sum",
        "online_softmax",
        "the running max and rescaled sum in one pass over copies, then exp(x - m - log(s))",
        """
def online_softmax(chunks):
    m, s, kept = -np.inf, 0.0, []
    for chunk in chunks:
        x = np.array(chunk, dtype=float)
        new = max(m, x.max())
        if new > -np.inf:
            s = s * np.exp(m - new) + np.exp(x - new).sum()
            m = new
        kept.append(x)
    return np.exp(np.concatenate(kept) - m - np.log(s))
""",
    ),
]

# Mechanical mutants of the reference that compute the same thing for every valid input.
EQUIVALENT_MUTANTS = {
    "online_softmax:plus-1:1": "the running sum's starting value is multiplied by exp(-inf - m) = 0 when the first "
    "finite chunk arrives (an all -inf chunk before it skips the update), so starting it "
    "at 1.0 instead of 0.0 changes nothing",
    "online_softmax:minus-1:1": "the running sum's starting value is multiplied by exp(-inf - m) = 0 when the first "
    "finite chunk arrives (an all -inf chunk before it skips the update), so starting it "
    "at -1.0 instead of 0.0 changes nothing",
}
