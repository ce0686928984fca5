"""Lesson 09_gradient_and_online: misconceptions and correct alternatives."""
from grader.catalogue import Alternative, Misconception

LESSON = "09_gradient_and_online"

MISCONCEPTIONS = [
    # softmax_jacobian
    Misconception(
        "jacobian_missing_outer", "softmax_jacobian",
        "returned only diag(p): the outer product p p^T is missing, so the off-diagonal entries are 0 "
        "and the diagonal is p instead of p - p^2",
        "subtract the outer product: np.diag(p) - np.outer(p, p)", '''
def softmax_jacobian(p):
    return np.diag(np.asarray(p, dtype=float))
'''),
    Misconception(
        "jacobian_missing_diag", "softmax_jacobian",
        "returned only -p p^T: the diag(p) term is missing, so the diagonal is -p^2 instead of p - p^2",
        "add the diagonal matrix of p: np.diag(p) - np.outer(p, p)", '''
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return -np.outer(p, p)
'''),
    Misconception(
        "jacobian_diagonal_only", "softmax_jacobian",
        "put p(1 - p) on the diagonal and left every off-diagonal entry 0: raising score j also lowers "
        "every other weight, by p_i p_j",
        "the off-diagonal entries are -p_i p_j: np.diag(p) - np.outer(p, p)", '''
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return np.diag(p * (1 - p))
'''),
    Misconception(
        "jacobian_dot_product", "softmax_jacobian",
        "wrote p @ p.T for the outer product: on a 1-D array .T changes nothing, so that is the dot "
        "product (one number), subtracted from every entry",
        "use np.outer(p, p), or p[:, None] * p[None, :], for the n x n matrix of products p_i p_j", '''
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return np.diag(p) - p @ p.T
'''),
    Misconception(
        "jacobian_sign_flipped", "softmax_jacobian",
        "subtracted the wrong way round (p p^T - diag(p)): raising a score must raise its own weight, "
        "so the diagonal is positive",
        "write np.diag(p) - np.outer(p, p): positive diagonal, negative off-diagonal entries", '''
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return np.outer(p, p) - np.diag(p)
'''),
    Misconception(
        "jacobian_broadcast_wrong_axis", "softmax_jacobian",
        "multiplied by p along the wrong axis (p * (I - p)): entry (i, j) came out as p_j (delta_ij - p_j) "
        "instead of p_i (delta_ij - p_j)",
        "row i is scaled by p_i: p[:, None] * (np.eye(len(p)) - p[None, :])", '''
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return p * (np.eye(len(p)) - p)
'''),
    Misconception(
        "jacobian_softmax_again", "softmax_jacobian",
        "applied softmax to p first: p is already the vector of weights, not the scores",
        "use p as it is: np.diag(p) - np.outer(p, p)", '''
def softmax_jacobian(p):
    x = np.asarray(p, dtype=float)
    p = np.exp(x - x.max()) / np.exp(x - x.max()).sum()
    return np.diag(p) - np.outer(p, p)
'''),
    Misconception(
        "jacobian_keeps_ints", "softmax_jacobian",
        "kept an integer p as integers, so the Jacobian came back as an integer array",
        "make floats first: p = np.asarray(p, dtype=float)", '''
def softmax_jacobian(p):
    p = np.asarray(p)
    return np.diag(p) - np.outer(p, p)
'''),
    # online_softmax
    Misconception(
        "online_no_rescale", "online_softmax",
        "did not rescale the running sum when the max grew: the evidence summed so far was still "
        "measured against the old max",
        "before adding a chunk, multiply the running sum by exp(m_old - m_new)", '''
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
'''),
    Misconception(
        "online_rescale_wrong_direction", "online_softmax",
        "rescaled the running sum by exp(m_new - m_old), the wrong way round: the old evidence must "
        "shrink when the max grows, by exp(m_old - m_new)",
        "the factor is exp(m_old - m_new), at most 1", '''
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
'''),
    Misconception(
        "online_stale_pieces", "online_softmax",
        "rescaled the running sum but not the evidence kept from earlier chunks: each piece was still "
        "measured against the max of its own time",
        "at the end multiply each kept piece by exp(m_then - m_final) before dividing by the sum", '''
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
'''),
    Misconception(
        "online_each_chunk_normalised", "online_softmax",
        "normalised each chunk on its own, so every chunk summed to 1 instead of the whole row",
        "the whole row shares one denominator: keep a running max and sum across the chunks", '''
def online_softmax(chunks):
    out = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        e = np.exp(x - x.max())
        out.append(e / e.sum())
    return np.concatenate(out)
'''),
    Misconception(
        "online_first_chunk_max", "online_softmax",
        "shifted every chunk by the first chunk's max only: a much larger score arriving later overflows exp",
        "update the running max with every chunk and rescale the running sum when it grows", '''
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
'''),
    Misconception(
        "online_reads_chunks_twice", "online_softmax",
        "looped over the chunks twice (once for the max, once for the sum): a generator is empty the "
        "second time",
        "loop once: keep a running max, rescale the running sum when it grows, and keep what the output needs", '''
def online_softmax(chunks):
    m = max(np.max(chunk) for chunk in chunks)
    pieces = [np.exp(np.asarray(chunk, dtype=float) - m) for chunk in chunks]
    total = sum(piece.sum() for piece in pieces)
    return np.concatenate(pieces) / total
'''),
    Misconception(
        "online_nan_for_masked_first_chunk", "online_softmax",
        "subtracted a running max of -inf when the first chunk was all -inf: -inf - (-inf) is nan, "
        "and the nan spread to every weight",
        "skip the evidence of a chunk while the running max is still -inf (it is all zeros)", '''
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
'''),
    Misconception(
        "online_returns_pieces", "online_softmax",
        "returned a list with one array per chunk instead of one array for the whole row",
        "join the pieces with np.concatenate before returning", '''
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
'''),
]

ALTERNATIVES = [
    # softmax_jacobian
    Alternative("jacobian_broadcast", "softmax_jacobian",
                "broadcasting: p[:, None] * (np.eye(n) - p[None, :])", '''
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return p[:, None] * (np.eye(p.size) - p[None, :])
'''),
    Alternative("jacobian_einsum", "softmax_jacobian", "np.einsum for the diagonal and the outer product", '''
def softmax_jacobian(p):
    p = np.asarray(p, dtype=float)
    return np.einsum("i,ij->ij", p, np.eye(len(p))) - np.einsum("i,j->ij", p, p)
'''),
    Alternative("jacobian_nested_loops", "softmax_jacobian",
                "two loops over Python floats: p_i - p_i^2 on the diagonal, -p_i p_j elsewhere", '''
def softmax_jacobian(p):
    q = [float(v) for v in p]
    n = len(q)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            out[i, j] = q[i] - q[i] * q[j] if i == j else -q[i] * q[j]
    return out
'''),
    Alternative("jacobian_column_vector", "softmax_jacobian",
                "a column vector times its transpose: np.diagflat(p) - col @ col.T", '''
def softmax_jacobian(p):
    col = np.asarray(p, dtype=float).reshape(-1, 1)
    return np.diagflat(col) - col @ col.T
'''),
    # online_softmax
    Alternative("online_materialise_two_pass", "online_softmax",
                "reads the chunks once into a list, joins them, then a stable softmax over the whole row", '''
def online_softmax(chunks):
    x = np.concatenate([np.asarray(chunk, dtype=float) for chunk in chunks])
    e = np.exp(x - x.max())
    return e / e.sum()
'''),
    Alternative("online_logaddexp", "online_softmax",
                "a running log-sum-exp with np.logaddexp, the chunks kept, then exp(x - lse)", '''
def online_softmax(chunks):
    lse = -np.inf
    kept = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        top = x.max()
        if top > -np.inf:
            lse = np.logaddexp(lse, top + np.log(np.exp(x - top).sum()))
        kept.append(x)
    return np.exp(np.concatenate(kept) - lse)
'''),
    Alternative("online_rescaled_output_buffer", "online_softmax",
                "one output buffer rescaled by exp(m_old - m_new) whenever the max grows, as FlashAttention "
                "rescales its accumulator", '''
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
'''),
    Alternative("online_per_score_math", "online_softmax",
                "Milakov and Gimelshein's running max and sum one score at a time with math.exp, "
                "the scores kept for the output", '''
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
'''),
]
