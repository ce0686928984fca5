"""Lesson 05_stable_softmax: the numbers its executed notebook must print."""

NUMBERS = [
    "naive softmax of [1000, 1001]: [nan nan]",
    "exp of the scores: [0. 0.] | their total: 0.0",
    "naive softmax of [-1000, -1001]: [nan nan]",
    "factor exp(-c) = 3.72e-44, weights [0.09   0.2447 0.6652]",
    "stable softmax of [1000, 1001]: [0.2689 0.7311]",
    "stable softmax of [-1000, -1001]: [0.7311 0.2689]",
    "weights, row 2: [nan nan]",
    "row-wise shift, row 1: [0.2689 0.7311]",
    "row-wise shift, row 2: [0.2689 0.7311]",
    "whole matrix at once, row 1: [0.2689 0.7311] | row 2: [0. 0.]",
    "whole matrix at once, row sums: [1. 0.]",
    "whole matrix at once: [0.1966 0.5344 0.0723 0.1966]",
]
