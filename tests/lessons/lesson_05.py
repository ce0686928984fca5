"""Lesson 05_stable_softmax: the numbers its executed notebook must print."""

NUMBERS = [
    "naive softmax of [1000, 1001]: [nan nan]",
    "exp(1000) = 1.970e+434",
    "largest float64 = 1.798e+308",
    "the layout rule gives float16's largest number: True",
    "exp overflows  float64 above 709.78 (largest number 1.798e+308)",
    "exp overflows  float32 above 88.72 (largest number 3.403e+38)",
    "exp overflows bfloat16 above 88.72 (largest number 3.39e+38)",
    "exp overflows  float16 above 11.09 (largest number 6.55e+04)",
    "in float16: exp(11) = 59872.0 | exp(11.1) = inf",
    "exp of the scores: [0. 0.] | their total: 0.0",
    "naive softmax of [-1000, -1001]: [nan nan]",
    "exp(-1000) = 5.076e-435",
    "smallest positive float64 = 4.941e-324",
    "factor exp(-c) = 3.72e-44, weights [0.09   0.2447 0.6652]",
    "stable softmax of [1000, 1001]: [0.2689 0.7311]",
    "stable softmax of [-1000, -1001]: [0.7311 0.2689]",
    "weights, row 2: [nan nan]",
    "row-wise shift, row 1: [0.2689 0.7311]",
    "row-wise shift, row 2: [0.2689 0.7311]",
    # PyTorch side by side (requirements.txt installs torch, so these cells run in the tests)
    "[1000.0, 1001.0]: torch.softmax [0.2689 0.7311], stable_softmax [0.2689 0.7311], largest difference",
    "[-1000.0, -1001.0]: torch.softmax [0.7311 0.2689], stable_softmax [0.7311 0.2689], largest difference",
    "[[1001.0, 1002.0], [3.0, 4.0]]: torch.softmax [0.2689 0.7311 0.2689 0.7311], "
    "stable_softmax [0.2689 0.7311 0.2689 0.7311], largest difference",
    "torch.exp(1000.0) alone: inf",
    "float16: torch.exp [5.987e+04       inf], torch.softmax [0.269 0.731] (float16), "
    "stable_softmax [0.2688 0.731 ] (float16), largest difference 2.4e-04",
    "torch.finfo(torch.bfloat16).max follows the layout rule: True",
    "whole matrix at once, row 1: [0.2689 0.7311] | row 2: [0. 0.]",
    "whole matrix at once, row sums: [1. 0.]",
    "whole matrix at once: [0.1966 0.5344 0.0723 0.1966]",
]
