"""Lesson 10_online_softmax: public implementations of online_softmax."""

from grader.proof.outside import OutsideEntry, github

LESSON = "10_online_softmax"

OUTSIDE = [
    OutsideEntry(
        "kernel_handbook_online_softmax",
        "online_softmax",
        """
def online_softmax(chunks, chunk: int = 3):
    # adapter: the original takes the whole row x; the chunks are joined (each copied) and re-chunked by 3
    x = np.concatenate([np.array(c, dtype=np.float64).reshape(-1) for c in chunks])
    \"\"\"Compute a numerically-stable softmax over a 1D array, streaming in chunks.

    Equivalent to scipy/np softmax with max-subtraction, but never sees the whole
    array's max up front -- it discovers it chunk by chunk.
    \"\"\"
    x = np.asarray(x, dtype=np.float64)
    m = -np.inf          # running max
    l = 0.0              # running sum of exp(x - m)
    # First streaming pass: compute the exact denominator `l` and final max `m`.
    for start in range(0, len(x), chunk):
        block = x[start:start + chunk]
        m_new = max(m, block.max())
        l = l * np.exp(m - m_new) + np.exp(block - m_new).sum()  # rescale + add
        m = m_new
    # Second pass: now that m and l are exact, produce probabilities.
    return np.exp(x - m) / l
""",
        github(
            "youyun8/deep-kernel-handbook",
            "code/attention/online_softmax.py",
            "2149bf67832ecf7baad4d9c9ba8a75dc2fa2fd17",
        ),
        "wrong",
        "starts its running max at -inf and rescales by exp(m - m_new) even while both are -inf: a row that "
        "begins with three or more -inf scores (a whole re-chunked block) gives nan everywhere, with a warning",
        names=("online_nan_for_masked_first_chunk",),
        breaks=("masked", "quiet"),
        note="the original takes the whole row; one adapter line joins the chunks into it (copying each, so a "
        "reused buffer is safe), and its own loop re-chunks the row by 3",
        licence="MIT (code/)",
    ),
]
