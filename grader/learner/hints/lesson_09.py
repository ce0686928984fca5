"""Lesson 09_gradient_and_online: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception
from grader.learner.streams import OnePass

LESSON = "09_gradient_and_online"

MISCONCEPTIONS = [
    # softmax_jacobian
    Misconception(
        "jacobian_missing_outer",
        "softmax_jacobian",
        "returned only diag(p): the outer product p p^T is missing, so the off-diagonal entries are 0 "
        "and the diagonal is p instead of p - p^2",
        "subtract the outer product: np.diag(p) - np.outer(p, p)",
        """
def softmax_jacobian(p):
    return np.diag(np.asarray(p, dtype=float))
""",
        breaks=("value", "saturated"),
    ),
    Misconception(
        "jacobian_missing_diag",
        "softmax_jacobian",
        "returned only -p p^T: the diag(p) term is missing, so the diagonal is -p^2 instead of p - p^2",
        "add the diagonal matrix of p: np.diag(p) - np.outer(p, p)",
        """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return -np.outer(p, p)
""",
        breaks=("value", "saturated"),
    ),
    Misconception(
        "jacobian_diagonal_only",
        "softmax_jacobian",
        "put p(1 - p) on the diagonal and left every off-diagonal entry 0: raising score j also lowers "
        "every other weight, by p_i p_j",
        "the off-diagonal entries are -p_i p_j: np.diag(p) - np.outer(p, p)",
        """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return np.diag(p * (1 - p))
""",
        breaks=("value", "saturated"),
    ),
    Misconception(
        "jacobian_dot_product",
        "softmax_jacobian",
        "wrote p @ p.T for the outer product: on a 1-D array .T changes nothing, so that is the dot "
        "product (one number), subtracted from every entry",
        "use np.outer(p, p), or p[:, None] * p[None, :], for the n x n matrix of products p_i p_j",
        """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return np.diag(p) - p @ p.T
""",
        breaks=("value",),
    ),
    Misconception(
        "jacobian_sign_flipped",
        "softmax_jacobian",
        "subtracted the wrong way round (p p^T - diag(p)): raising a score must raise its own weight, "
        "so the diagonal is positive",
        "write np.diag(p) - np.outer(p, p): positive diagonal, negative off-diagonal entries",
        """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return np.outer(p, p) - np.diag(p)
""",
        breaks=("value", "saturated"),
    ),
    Misconception(
        "jacobian_broadcast_wrong_axis",
        "softmax_jacobian",
        "multiplied by p along the wrong axis (p * (I - p)): entry (i, j) came out as p_j (delta_ij - p_j) "
        "instead of p_i (delta_ij - p_j)",
        "row i is scaled by p_i: p[:, None] * (np.eye(len(p)) - p[None, :])",
        """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return p * (np.eye(len(p)) - p)
""",
        breaks=("value",),
    ),
    Misconception(
        "jacobian_softmax_again",
        "softmax_jacobian",
        "applied softmax to p first: p is already the vector of weights, not the scores",
        "use p as it is: np.diag(p) - np.outer(p, p)",
        """
def softmax_jacobian(p):
    x = np.asarray(p, dtype=float)
    p = np.exp(x - x.max()) / np.exp(x - x.max()).sum()
    return np.diag(p) - np.outer(p, p)
""",
        breaks=("value", "saturated"),
    ),
    Misconception(
        "jacobian_keeps_ints",
        "softmax_jacobian",
        "kept an integer p as integers, so the Jacobian came back as an integer array",
        "make floats first: p = np.asarray(p, dtype=float)",
        """
def softmax_jacobian(p):
    p = np.asarray(p)
    return np.diag(p) - np.outer(p, p)
""",
        breaks=("dtype",),
    ),
    Misconception(
        "jacobian_diagonal_in_place",
        "softmax_jacobian",
        "wrote the diagonal p - p^2 into p itself (p -= p * p): np.asarray does not copy an array that is "
        "already float, so the caller's weights were changed",
        "compute the diagonal into a new array (d = p - p * p), or add p onto the diagonal of -np.outer(p, p)",
        """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    J = -np.outer(p, p)
    p -= p * p
    J[np.diag_indices(len(p))] = p
    return J
""",
        breaks=("unchanged",),
    ),
    Misconception(
        "jacobian_fails_on_lists",
        "softmax_jacobian",
        "used array methods and indexing on p directly (p.size, p[:, None]), so a Python list fails",
        "make an array first: p = np.asarray(p, dtype=float)",
        """
def softmax_jacobian(p):
    return p[:, None] * (np.eye(p.size) - p[None, :])
""",
        breaks=("dtype",),
    ),
    Misconception(
        "jacobian_squeezes",
        "softmax_jacobian",
        "squeezed p (np.squeeze) to be sure it is 1-D: a single weight becomes a 0-d array, and np.diag "
        "refuses it, so n = 1 fails",
        "p is already 1-D; use it as it is (np.asarray(p, dtype=float)), or np.atleast_1d if you must reshape",
        """
def softmax_jacobian(p):
    p = np.squeeze(np.asarray(p, dtype=float))
    return np.diag(p) - np.outer(p, p)
""",
        breaks=("shapes",),
    ),
    Misconception(
        "jacobian_nested_list",
        "softmax_jacobian",
        "built the matrix as a list of lists and returned it as it is, not as a NumPy array",
        "wrap the rows in np.array(...) before returning, or build the matrix with np.diag and np.outer",
        """
def softmax_jacobian(p):
    q = [float(v) for v in p]
    return [[q[i] * ((1.0 if i == j else 0.0) - q[j]) for j in range(len(q))] for i in range(len(q))]
""",
        breaks=("returns_array",),
    ),
    Misconception(
        "jacobian_diag_of_column",
        "softmax_jacobian",
        "called np.diag on the column vector p.reshape(-1, 1): on a 2-D array np.diag reads the diagonal "
        "(here just p_0) instead of building a diagonal matrix",
        "np.diag builds a matrix only from a 1-D array: np.diag(p) on the 1-D p, or np.diagflat(column)",
        """
def softmax_jacobian(p):
    col = np.asarray(p, dtype=float).reshape(-1, 1)
    return np.diag(col) - col @ col.T
""",
        breaks=("value",),
    ),
    Misconception(
        "jacobian_identity_diagonal",
        "softmax_jacobian",
        "put 1 (the delta alone) on the diagonal, np.eye(n) - p p^T: the diagonal entry is p_i (1 - p_i), "
        "the delta times p_i",
        "multiply the delta by p_i: np.diag(p) - np.outer(p, p)",
        """
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return np.eye(len(p)) - np.outer(p, p)
""",
        breaks=("value", "saturated"),
    ),
    # online_softmax
    Misconception(
        "online_no_rescale",
        "online_softmax",
        "did not rescale the running sum when the max grew: the evidence summed so far was still "
        "measured against the old max",
        "before adding a chunk, multiply the running sum by exp(m_old - m_new)",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        total = total + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
        breaks=("value", "chunking"),
    ),
    Misconception(
        "online_rescale_wrong_direction",
        "online_softmax",
        "rescaled the running sum by exp(m_new - m_old), the wrong way round: the old evidence must "
        "shrink when the max grows, by exp(m_old - m_new)",
        "the factor is exp(m_old - m_new), at most 1",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        if total > 0:
            total = total * np.exp(m_new - m)
        total = total + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
        breaks=("value", "chunking", "extremes"),
    ),
    Misconception(
        "online_stale_pieces",
        "online_softmax",
        "rescaled the running sum but not the evidence kept from earlier chunks: each piece was still "
        "measured against the max of its own time",
        "at the end multiply each kept piece by exp(m_then - m_final) before dividing by the sum",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append(np.zeros_like(x))
            continue
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append(e)
    return np.concatenate(pieces) / total
""",
        breaks=("value", "chunking"),
    ),
    Misconception(
        "online_each_chunk_normalised",
        "online_softmax",
        "normalised each chunk on its own, so every chunk summed to 1 instead of the whole row",
        "the whole row shares one denominator: keep a running max and sum across the chunks",
        """
def online_softmax(chunks):
    out = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        e = np.exp(x - x.max())
        out.append(e / e.sum())
    return np.concatenate(out)
""",
        breaks=("value", "chunking"),
    ),
    Misconception(
        "online_first_chunk_max",
        "online_softmax",
        "shifted every chunk by the first chunk's max only: a much larger score arriving later overflows exp",
        "update the running max with every chunk and rescale the running sum when it grows",
        """
def online_softmax(chunks):
    m = None
    total = 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        if m is None:
            m = x.max()
        e = np.exp(x - m)
        total = total + e.sum()
        pieces.append(e)
    return np.concatenate(pieces) / total
""",
        breaks=("extremes", "quiet"),
    ),
    Misconception(
        "online_reads_chunks_twice",
        "online_softmax",
        "looped over the chunks twice (once for the max, once for the sum): a generator is empty the second time",
        "loop once: keep a running max, rescale the running sum when it grows, and keep what the output needs",
        """
def online_softmax(chunks):
    m = max(np.max(chunk) for chunk in chunks)
    pieces = [np.exp(np.asarray(chunk, dtype=float) - m) for chunk in chunks]
    total = sum(piece.sum() for piece in pieces)
    return np.concatenate(pieces) / total
""",
        breaks=("one_pass",),
    ),
    Misconception(
        "online_nan_for_masked_first_chunk",
        "online_softmax",
        "subtracted a running max of -inf when the first chunk was all -inf: -inf - (-inf) is nan, "
        "and the nan spread to every weight",
        "skip the evidence of a chunk while the running max is still -inf (it is all zeros)",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
        breaks=("masked", "quiet"),
    ),
    Misconception(
        "online_returns_pieces",
        "online_softmax",
        "returned a list with one array per chunk instead of one array for the whole row",
        "join the pieces with np.concatenate before returning",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return [e * np.exp(mc - m) / total for e, mc in pieces]
""",
        breaks=("returns_array",),
    ),
    Misconception(
        "online_max_starts_at_zero",
        "online_softmax",
        "started the running max at 0 instead of -inf: when every score is far below zero (below about "
        "-745), exp(x - 0) underflows to 0 and the weights come out 0 / 0 = nan",
        "start the running max at -inf, so the first finite chunk sets it",
        """
def online_softmax(chunks):
    m, total = 0.0, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
        breaks=("extremes", "shift"),
    ),
    Misconception(
        "online_plain_exp",
        "online_softmax",
        "summed exp(x) without any running max: exp overflows to inf above about 709 and underflows to 0 "
        "below about -745, so the weights become nan",
        "keep a running max m, take exp(x - m), and rescale the running sum by exp(m_old - m_new) when m grows",
        """
def online_softmax(chunks):
    total = 0.0
    pieces = []
    for chunk in chunks:
        e = np.exp(np.asarray(chunk, dtype=float))
        total = total + e.sum()
        pieces.append(e)
    return np.concatenate(pieces) / total
""",
        breaks=("extremes", "shift", "quiet"),
    ),
    Misconception(
        "online_clips_scores",
        "online_softmax",
        "clipped the scores to [-700, 700] so that exp cannot overflow: scores beyond that all become the "
        "same number, so rows far from zero get the wrong weights",
        "do not change the scores: subtract the running max instead, exp(x - m) is at most 1",
        """
def online_softmax(chunks):
    total = 0.0
    pieces = []
    for chunk in chunks:
        e = np.exp(np.clip(np.asarray(chunk, dtype=float), -700.0, 700.0))
        total = total + e.sum()
        pieces.append(e)
    return np.concatenate(pieces) / total
""",
        breaks=("extremes", "shift", "masked"),
    ),
    Misconception(
        "online_minus_inf_as_large_negative",
        "online_softmax",
        "replaced -inf by -1e9 to avoid nan: when the allowed scores are themselves far below zero (-1e12), "
        "the forbidden positions get the weight",
        "keep -inf as it is and skip a chunk's evidence while the running max is still -inf",
        """
def online_softmax(chunks):
    m, total = -1e9, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        x = np.where(np.isneginf(x), -1e9, x)
        m_new = max(m, x.max())
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
        breaks=("extremes", "masked"),
    ),
    Misconception(
        "online_nan_to_num",
        "online_softmax",
        "let -inf - (-inf) make nan for an all -inf chunk and turned the nan into 0 afterwards (np.nan_to_num): "
        "the weights come out right, but NumPy warns 'invalid value' on every such chunk",
        "skip a chunk's evidence while the running max is still -inf, so no nan is ever made",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        e = np.nan_to_num(np.exp(x - m_new))
        total = np.nan_to_num(total * np.exp(m - m_new)) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([np.nan_to_num(e * np.exp(mc - m)) for e, mc in pieces]) / total
""",
        breaks=("quiet",),
    ),
    Misconception(
        "online_divides_by_exp",
        "online_softmax",
        "divided the running sum by exp(m_new - m_old) instead of multiplying by exp(m_old - m_new): the same "
        "number, but exp overflows (NumPy warns) when the max jumps by more than about 709",
        "multiply by exp(m_old - m_new): its exponent is never positive, so it cannot overflow",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        total = total / np.exp(m_new - m) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e / np.exp(m - mc) for e, mc in pieces]) / total
""",
        breaks=("quiet",),
    ),
    Misconception(
        "online_skips_masked_chunks",
        "online_softmax",
        "skipped a chunk of nothing but -inf altogether, so its zeros are missing and the weights come out "
        "shorter than the row",
        "a forbidden score still gets a weight, 0: keep zeros for every score of an all -inf chunk",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        if x.max() == -np.inf:
            continue
        m_new = max(m, x.max())
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
        breaks=("masked",),
    ),
    Misconception(
        "online_shift_in_place",
        "online_softmax",
        "shifted and exponentiated each chunk in place (x -= m, np.exp(x, out=x)): np.asarray does not copy "
        "a float chunk, so the caller's chunks were overwritten, and a reused buffer overwrites the kept evidence",
        "compute into new arrays (e = np.exp(x - m)); never write into the chunks you are given",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        x -= m_new
        np.exp(x, out=x)
        total = total * np.exp(m - m_new) + x.sum()
        m = m_new
        pieces.append((x, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
        breaks=("unchanged", "reused_buffer"),
    ),
    Misconception(
        "online_keeps_float32",
        "online_softmax",
        "used np.asarray(chunk) without a dtype, so float32 chunks give float32 weights instead of float64",
        "convert each chunk with np.asarray(chunk, dtype=float): the weights are float64 whatever the chunks are",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
        breaks=("dtype",),
    ),
    Misconception(
        "online_fails_on_lists",
        "online_softmax",
        "called array methods on each chunk directly (chunk.max()), so a chunk given as a Python list fails",
        "make each chunk an array first: x = np.asarray(chunk, dtype=float)",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        m_new = max(m, chunk.max())
        if m_new == -np.inf:
            pieces.append((np.zeros(chunk.shape), m_new))
            continue
        e = np.exp(chunk - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
        breaks=("dtype",),
    ),
    Misconception(
        "online_stacks_pieces",
        "online_softmax",
        "joined the pieces with np.array(pieces) (np.stack): chunks of one size give a 2-D array (one row per "
        "chunk) and chunks of different sizes fail",
        "join 1-D pieces end to end with np.concatenate(pieces)",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.array([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
        breaks=("shapes",),
    ),
    Misconception(
        "online_concatenates_first",
        "online_softmax",
        "joined the chunks with np.concatenate(chunks) first: a list works, but np.concatenate refuses an "
        "iterator such as a generator",
        "loop over the chunks once with a for loop; a generator can be read only that way",
        """
def online_softmax(chunks):
    x = np.concatenate(chunks)
    e = np.exp(x - x.max())
    return e / e.sum()
""",
        breaks=("one_pass",),
    ),
    Misconception(
        "online_counts_chunks",
        "online_softmax",
        "looped over range(len(chunks)) and indexed the chunks: a generator has no length and no indexing",
        "loop over the chunks themselves: for chunk in chunks",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    pieces = []
    for k in range(len(chunks)):
        x = np.asarray(chunks[k], dtype=float)
        m_new = max(m, x.max())
        if m_new == -np.inf:
            pieces.append((np.zeros_like(x), m_new))
            continue
        e = np.exp(x - m_new)
        total = total * np.exp(m - m_new) + e.sum()
        m = m_new
        pieces.append((e, m_new))
    return np.concatenate([e * np.exp(mc - m) for e, mc in pieces]) / total
""",
        breaks=("one_pass",),
    ),
    Misconception(
        "online_keeps_chunks",
        "online_softmax",
        "kept the chunks themselves for the output (kept.append(x)): a stream that reuses one buffer "
        "overwrites them, so at the end every kept chunk shows the last chunk's scores",
        "keep a copy (np.array(chunk, dtype=float)) or what you computed from the chunk, never the chunk itself",
        """
def online_softmax(chunks):
    m, total = -np.inf, 0.0
    kept = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        m_new = max(m, x.max())
        kept.append(x)
        if m_new == -np.inf:
            continue
        total = total * np.exp(m - m_new) + np.exp(x - m_new).sum()
        m = m_new
    return np.exp(np.concatenate(kept) - m) / total
""",
        breaks=("reused_buffer",),
    ),
    Misconception(
        "online_list_of_views",
        "online_softmax",
        "read the stream into a list (list(chunks)) without copying the chunks: with one reused buffer every "
        "element of the list is the same buffer, so the row comes out as the last chunk repeated",
        "copy each chunk as you read it: [np.array(chunk, dtype=float) for chunk in chunks]",
        """
def online_softmax(chunks):
    kept = list(chunks)
    x = np.concatenate([np.asarray(c, dtype=float) for c in kept])
    e = np.exp(x - x.max())
    return e / e.sum()
""",
        breaks=("reused_buffer",),
    ),
]

# Small inputs on which the misconceptions of each function behave differently from each other
# (values, errors, changed inputs, warnings): when several give the learner's wrong answer on a
# failing input, the ones that agree with the learner on most of these are named.
_INF = np.inf
PROBES: dict[str, list[tuple[tuple, dict]]] = {  # function -> [(args, kwargs), ...]
    "softmax_jacobian": [
        ((np.array([0.2, 0.3, 0.5]),), {}),
        (([0.25, 0.75],), {}),
        ((np.array([1]),), {}),
        ((np.array([0, 1, 0]),), {}),
        ((np.array([0.7, 0.1, 0.2]),), {}),
    ],
    "online_softmax": [
        (([np.array([1.0, 2.0]), np.array([3.0, 0.0])],), {}),
        (([[0.5, 2.0], [-1.0], [3.0, 1.0, 2.5]],), {}),
        ((OnePass([[1.0, 2.0], [3.0, 0.5]]),), {}),
        ((OnePass([[3.0, 1.0, 2.0], [0.5], [-1.0, 2.5]], reuse_buffer=True),), {}),
        (([np.array([-_INF, -_INF]), np.array([1.0, 2.0]), np.array([-_INF])],), {}),
        (([np.array([-1000.0, -1001.0]), np.array([-999.0, -1002.0])],), {}),
        (([np.array([0.0, 1.0]), np.array([800.0, 799.0])],), {}),
        (([np.array([-1e12]), np.array([-_INF, -1e12 - 1e4])],), {}),
        (([np.array([2.0, 1.0], dtype=np.float32), np.array([0.5], dtype=np.float32)],), {}),
    ],
}
