"""Lesson 09_gradient_and_online: the numbers its executed notebook must print."""

NUMBERS = [
    "formula and measurement agree within 1e-9: True",
    " [-0.033   0.1813 -0.0555 -0.0295 -0.0257 -0.0376]",
    "every row and column sums to 0 (within 1e-15): True",
    "gap  0: top weight 0.5000000000, largest Jacobian entry 0.25",
    "gap 10: top weight 0.9999546021, largest Jacobian entry 4.54e-05",
    "gap 40: top weight 1.0000000000, largest Jacobian entry 4.25e-18",
    "chunk [5. 0.]: rescale by 0.0498, running max 5, running sum 1.0748",
    "chunk [3. 4.]: rescale by 1.0000, running max 5, running sum 1.5781",
    "one sum over the whole row, sum(exp(x - 5)): 1.5781",
    "never rescaled:                 2.8778",
    "rescaled by exp(m_new - m_old): 28.9845",
    "second loop sees 0 scores",
    "online_softmax matches stable_softmax: True",
    "chunks of    1: matches stable_softmax: True",
    "tiled attention matches the full computation: True",
]
