"""Lesson 10_online_softmax: the numbers its executed notebook must print."""

NUMBERS = [
    # the running max and sum
    "chunk [1. 2.]: rescale by 0.0000, running max 2, running sum 1.3679",
    "chunk [5. 0.]: rescale by 0.0498, running max 5, running sum 1.0748",
    "chunk [3. 4.]: rescale by 1.0000, running max 5, running sum 1.5781",
    "one sum over the whole row, sum(exp(x - 5)): 1.5781",
    "never rescaled:                 2.8778",
    "rescaled by exp(m_new - m_old): 28.9845",
    "the first chunk's sum, 1 + exp(-1) = 1.3679, should shrink by exp(2 - 5) to 0.0681; "
    "the wrong way round multiplies it by exp(3) = 20.09",
    "with a jump of the max by 999: inf the wrong way round",
    "second loop sees 0 scores",
    # a long row
    "chunks: 98 | weights: (100000,) float64 | the running max grew in 6 of the chunks",
    "the first from -inf, with nothing to rescale: the running sum was rescaled 5 times",
    "the max grew at chunks [27, 37, 45, 86, 97] (and was set at chunk 0, to 10.83)",
    "running sum before the last chunk 15.11, after it 1",
    "online_softmax matches stable_softmax: True",
    "chunks of    1: matches stable_softmax: True",
    "three-pass stable softmax: reads the row 3 times",
    "online_softmax: reads the row 1 time",
    "the row: 800,000 bytes;",
    "online_softmax held at least as much as the row: True",
    # per tile, as FlashAttention does
    "tiled attention matches the full computation: True",
    "FlashAttention-1's normalised form matches too: True",
    "divisions of the output: 316 (79 tiles of 64 keys, d_v = 4) normalised per tile, 4 divided once at the end",
    "kept between tiles, per query: 6 numbers (m, s and d_v = 4), whether there are 5,000 keys or ten times as many",
    "one head over N = 5,000 tokens: the weights would be N² = 25,000,000 numbers; "
    "m and s of every query are 2N = 10,000",
]
