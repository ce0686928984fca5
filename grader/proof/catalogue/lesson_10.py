"""Lesson 10_online_softmax: the source of each catalogued misconception, by id (its description, hint and probes
are in grader/learner/hints/)."""

LESSON = "10_online_softmax"

SOURCES = {
    "online_no_rescale": """
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
    "online_rescale_wrong_direction": """
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
    "online_stale_pieces": """
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
    "online_each_chunk_normalised": """
def online_softmax(chunks):
    out = []
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        e = np.exp(x - x.max())
        out.append(e / e.sum())
    return np.concatenate(out)
""",
    "online_first_chunk_max": """
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
    "online_reads_chunks_twice": """
def online_softmax(chunks):
    m = max(np.max(chunk) for chunk in chunks)
    pieces = [np.exp(np.asarray(chunk, dtype=float) - m) for chunk in chunks]
    total = sum(piece.sum() for piece in pieces)
    return np.concatenate(pieces) / total
""",
    "online_nan_for_masked_first_chunk": """
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
    "online_returns_pieces": """
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
    "online_max_starts_at_zero": """
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
    "online_plain_exp": """
def online_softmax(chunks):
    total = 0.0
    pieces = []
    for chunk in chunks:
        e = np.exp(np.asarray(chunk, dtype=float))
        total = total + e.sum()
        pieces.append(e)
    return np.concatenate(pieces) / total
""",
    "online_clips_scores": """
def online_softmax(chunks):
    total = 0.0
    pieces = []
    for chunk in chunks:
        e = np.exp(np.clip(np.asarray(chunk, dtype=float), -700.0, 700.0))
        total = total + e.sum()
        pieces.append(e)
    return np.concatenate(pieces) / total
""",
    "online_minus_inf_as_large_negative": """
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
    "online_nan_to_num": """
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
    "online_divides_by_exp": """
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
    "online_skips_masked_chunks": """
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
    "online_shift_in_place": """
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
    "online_keeps_float32": """
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
    "online_fails_on_lists": """
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
    "online_stacks_pieces": """
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
    "online_concatenates_first": """
def online_softmax(chunks):
    x = np.concatenate(chunks)
    e = np.exp(x - x.max())
    return e / e.sum()
""",
    "online_counts_chunks": """
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
    "online_keeps_chunks": """
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
    "online_list_of_views": """
def online_softmax(chunks):
    kept = list(chunks)
    x = np.concatenate([np.asarray(c, dtype=float) for c in kept])
    e = np.exp(x - x.max())
    return e / e.sum()
""",
}
