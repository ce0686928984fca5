"""Lesson 02_exp_evidence: the numbers its executed notebook must print."""

NUMBERS = [
    "exp(-100) = 3.720075976020836e-44",
    "positive? True",
    "scores [0, log 2, log 3] ≈ [0.     0.6931 1.0986]",
    "evidence: [1. 2. 3.]",
    "exp(log 2) = 2.0",
    "evidence(scores + 1.5) / evidence(scores): [4.4817 4.4817 4.4817]",
    "exp(1.5) = 4.4817",
    "weights: [0.1667 0.3333 0.5   ]",
    "weights × 6: [1. 2. 3.] | total: 1.0",
    "[-2, 0, 3] -> [0.0064 0.0471 0.9465] | all positive? True | total: 1.0000",
    "[1, -1] -> [0.8808 0.1192] | all positive? True | total: 1.0000",
    "exp(710) = inf",
    "exp(1000) / exp(999) = nan",
    "evidence_ratio(1000, 999) = 2.7183",
]
