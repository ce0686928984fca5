"""Lesson 10_online_softmax: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception
from grader.learner.streams import OnePass

LESSON = "10_online_softmax"

MISCONCEPTIONS = [
    # online_softmax
    Misconception(
        "online_no_rescale",
        "online_softmax",
        "did not rescale the running sum when the max grew: the evidence summed so far was still "
        "measured against the old max",
        "when the max grows, the sum so far was measured against the old max: shrink it before adding more",
        breaks=("value", "chunking"),
    ),
    Misconception(
        "online_rescale_wrong_direction",
        "online_softmax",
        "rescaled the running sum by exp(m_new - m_old), the wrong way round: the old evidence must "
        "shrink when the max grows, by exp(m_old - m_new)",
        "a larger max means smaller evidence: the factor that fixes the old sum is at most 1",
        breaks=("value", "chunking", "extremes"),
    ),
    Misconception(
        "online_stale_pieces",
        "online_softmax",
        "rescaled the running sum but not the evidence kept from earlier chunks: each piece was still "
        "measured against the max of its own time",
        "every piece kept was measured against the max of its own time: bring each to the final max before dividing",
        breaks=("value", "chunking"),
    ),
    Misconception(
        "online_each_chunk_normalised",
        "online_softmax",
        "normalised each chunk on its own, so every chunk summed to 1 instead of the whole row",
        "the whole row shares one denominator: the sum runs across all the chunks",
        breaks=("value", "chunking"),
    ),
    Misconception(
        "online_first_chunk_max",
        "online_softmax",
        "shifted every chunk by the first chunk's max only: a much larger score arriving later overflows exp",
        "a later chunk can hold a larger score: the max has to keep up with every chunk",
        breaks=("extremes", "quiet"),
    ),
    Misconception(
        "online_reads_chunks_twice",
        "online_softmax",
        "looped over the chunks twice (once for the max, once for the sum): a generator is empty the second time",
        "a generator can be read once: everything the output needs must be found or kept in a single loop",
        breaks=("one_pass",),
    ),
    Misconception(
        "online_nan_for_masked_first_chunk",
        "online_softmax",
        "subtracted a running max of -inf when the first chunk was all -inf: -inf - (-inf) is nan, "
        "and the nan spread to every weight",
        "-inf minus -inf is nan: a chunk can add no evidence before a finite max exists",
        breaks=("masked", "quiet"),
    ),
    Misconception(
        "online_returns_pieces",
        "online_softmax",
        "returned a list with one array per chunk instead of one array for the whole row",
        "the contract asks for one array for the whole row, not one per chunk",
        breaks=("returns_array", "shapes"),
    ),
    Misconception(
        "online_max_starts_at_zero",
        "online_softmax",
        "started the running max at 0 instead of -inf: when every score is far below zero (below about "
        "-745), exp(x - 0) underflows to 0 and the weights come out 0 / 0 = nan",
        "0 is not below every score: the running max must start below anything a chunk can hold",
        breaks=("extremes", "shift"),
    ),
    Misconception(
        "online_plain_exp",
        "online_softmax",
        "summed exp(x) without any running max: exp overflows to inf above about 709 and underflows to 0 "
        "below about -745, so the weights become nan",
        "exp of a raw score overflows or underflows: measure every score against a running max",
        breaks=("extremes", "shift", "quiet"),
    ),
    Misconception(
        "online_clips_scores",
        "online_softmax",
        "clipped the scores to [-700, 700] so that exp cannot overflow: scores beyond that all become the "
        "same number, so rows far from zero get the wrong weights",
        "clipping changes the scores; shifting by the running max keeps them and keeps exp in range",
        breaks=("extremes", "shift", "masked"),
    ),
    Misconception(
        "online_minus_inf_as_large_negative",
        "online_softmax",
        "replaced -inf by -1e9 to avoid nan: when the allowed scores are themselves far below zero (-1e12), "
        "the forbidden positions get the weight",
        "a large finite number is not forbidden when the allowed scores are smaller still: keep -inf as it is",
        breaks=("extremes", "masked"),
    ),
    Misconception(
        "online_nan_to_num",
        "online_softmax",
        "let -inf - (-inf) make nan for an all -inf chunk and turned the nan into 0 afterwards (np.nan_to_num): "
        "the weights come out right, but NumPy warns 'invalid value' on every such chunk",
        "make no nan in the first place, rather than cleaning it up: nan warns as it is made",
        breaks=("quiet",),
    ),
    Misconception(
        "online_divides_by_exp",
        "online_softmax",
        "divided the running sum by exp(m_new - m_old) instead of multiplying by exp(m_old - m_new): the same "
        "number, but exp overflows (NumPy warns) when the max jumps by more than about 709",
        "dividing by exp of a positive gap can overflow; multiplying by exp of the negative gap cannot",
        breaks=("quiet",),
    ),
    Misconception(
        "online_skips_masked_chunks",
        "online_softmax",
        "skipped a chunk of nothing but -inf altogether, so its zeros are missing and the weights come out "
        "shorter than the row",
        "a forbidden score still gets a weight, 0: the output has one weight per score",
        breaks=("masked",),
    ),
    Misconception(
        "online_shift_in_place",
        "online_softmax",
        "shifted and exponentiated each chunk in place (x -= m, np.exp(x, out=x)): np.asarray does not copy "
        "a float chunk, so the caller's chunks were overwritten, and a reused buffer overwrites the kept evidence",
        "the chunks are the caller's (and a reused buffer's): compute into new arrays, never into the chunks",
        breaks=("unchanged", "reused_buffer"),
    ),
    Misconception(
        "online_keeps_float32",
        "online_softmax",
        "used np.asarray(chunk) without a dtype, so float32 chunks give float32 weights instead of float64",
        "the contract asks for float64 weights whatever the chunks' dtype",
        breaks=("dtype",),
    ),
    Misconception(
        "online_fails_on_lists",
        "online_softmax",
        "called array methods on each chunk directly (chunk.max()), so a chunk given as a Python list fails",
        "a chunk may come as a Python list: make it a NumPy array first",
        breaks=("dtype",),
    ),
    Misconception(
        "online_stacks_pieces",
        "online_softmax",
        "joined the pieces with np.array(pieces) (np.stack): chunks of one size give a 2-D array (one row per "
        "chunk) and chunks of different sizes fail",
        "the pieces are 1-D parts of one row: join them end to end, not as rows of a matrix",
        breaks=("shapes",),
    ),
    Misconception(
        "online_concatenates_first",
        "online_softmax",
        "joined the chunks with np.concatenate(chunks) first: a list works, but np.concatenate refuses an "
        "iterator such as a generator",
        "a generator cannot be joined or measured up front: read it chunk by chunk",
        breaks=("one_pass",),
    ),
    Misconception(
        "online_counts_chunks",
        "online_softmax",
        "looped over range(len(chunks)) and indexed the chunks: a generator has no length and no indexing",
        "a generator has no length and no indexing: loop over the chunks themselves",
        breaks=("one_pass",),
    ),
    Misconception(
        "online_keeps_chunks",
        "online_softmax",
        "kept the chunks themselves for the output (kept.append(x)): a stream that reuses one buffer "
        "overwrites them, so at the end every kept chunk shows the last chunk's scores",
        "a reused buffer is overwritten by the next chunk: keep what you computed from a chunk, or a copy of it",
        breaks=("reused_buffer",),
    ),
    Misconception(
        "online_list_of_views",
        "online_softmax",
        "read the stream into a list (list(chunks)) without copying the chunks: with one reused buffer every "
        "element of the list is the same buffer, so the row comes out as the last chunk repeated",
        "a reused buffer is overwritten by the next chunk: a list of the chunks ends up holding the last one n times",
        breaks=("reused_buffer",),
    ),
]

_INF = np.inf
PROBES: dict[str, list[tuple[tuple, dict]]] = {  # function -> [(args, kwargs), ...]
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
