"""Lesson 04_temperature: the numbers its executed notebook must print."""

NUMBERS = [
    "T = 0.5 evidence: [1. 4. 9.]",
    "T = 0.5 weights x 14: [1. 4. 9.]",
    "top weight: 0.5 -> 0.643",
    "T = 1  : A 0.8438  B 0.1142  C 0.0420",
    "T = 0.3: A 0.99868  B 0.00127  C 0.0000453",
    "T = 1000  : [0.3339 0.3332 0.3329]",
    "T = 0.03  : [1. 0. 0.]",
    "[1, 1, 0] at T = 0.01: [0.5 0.5 0. ]",
    "T = 0  : [nan nan nan]",
    "T = -1 : A 0.0351  B 0.2595  C 0.7054",
    "T = inf: [0.3333 0.3333 0.3333]",
    "I: 3.7%",
    "am: 29.8%",
    "learning: 13.9%",
    "to: 16.6%",
    "Delhi: 35.9%",
    "predicted token at T = 1: Delhi",
    "greedy decoding (T = 0) picks: A",
]
