"""Lesson 01_naive_division: the numbers its executed notebook must print."""

NUMBERS = [
    "sum of the scores: 6.5617",
    "weight on 'journey': 0.2278",
    "naive weights: [-2.  0.  3.]",
    "0.9999999999999999 | equal to 1.0? False",
    "is it a distribution? False",
    "[1, -1]    -> [ inf -inf]",
    "[1, -1, 0] -> [ inf -inf  nan]",
]
