"""Lesson 01_naive_division: the numbers its executed notebook must print."""

NUMBERS = [
    "third entry 0.5 in attention over the source words ['I', 'like', 'tea']: take half of the information of 'tea'",
    "a 50% chance that the next word is 'fish'",
    "sum of the scores: 6.5617",
    "weight on 'journey': 0.2278",
    "evidence of 'Your': 2.5971",
    "total evidence: 18.745 | the notes say 18.751, off by 0.006",
    "weight of 'Your' with the total 18.745: 0.138548, rounded 0.1385",
    "weight of 'Your' with the total 18.751: 0.138505, rounded 0.1385",
    "naive weights: [-2.  0.  3.]",
    "0.9999999999999999 | equal to 1.0? False",
    "the float just below 1.0? True",
    "is it a distribution? False",
    "[1, -1]    -> [ inf -inf]",
    "[1, -1, 0] -> [ inf -inf  nan]",
    "[1, 2, 3] * 1e+300 -> [0.1667 0.3333 0.5   ] | the same as for [1, 2, 3]? True",
    "[1, 2, 3] * 1e-300 -> [0.1667 0.3333 0.5   ] | the same as for [1, 2, 3]? True",
    "[1e308, 1e308] -> its sum is inf -> [0. 0.]",
    "the largest float64: 1.7976931348623157e+308",
    "[1, -0.9999] -> [10000. -9999.]",
    "[1, -1.0001] -> [-10000.  10001.]",
]
