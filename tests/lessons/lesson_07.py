"""Lesson 07_attention: the numbers its executed notebook must print."""

NUMBERS = [
    "scores of 'journey' (row 1): [0.9544 1.4950 1.4754 0.8434 0.7070 1.0865]",
    "weights of 'journey': [0.1385 0.2379 0.2333 0.1240 0.1082 0.1581]",
    "row sums:    [1.0000 1.0000 1.0000 1.0000 1.0000 1.0000]",
    "context vector of 'journey', by hand: [0.4419 0.6515 0.5683]",
    "context vector of 'journey', weights @ X: [0.4419 0.6515 0.5683]",
    "scores: (2, 5) | weights: (2, 5) | output: (2, 7)",
    " 1024 |      32.0 |        32.01 |       1.00 |           0.973 |  0.363",
    "unscaled weights: [0.0000 0.9963 0.0037 0.0000 0.0000 0.0000 0.0000 0.0000]",
    "context of 'journey', unscaled: [0.4419 0.6515 0.5683]",
    "weights of 'journey', scaled:   [0.1515 0.2070 0.2046 0.1421 0.1313 0.1635]",
    "context of 'Your':    [0.4300 0.1500 0.8900] | its own vector: [0.4300 0.1500 0.8900]",
    " [0.4226 0.5774 0.0000 0.0000 0.0000 0.0000]",
    "context of 'step':    [0.4219 0.6231 0.5507] | unmasked: [0.4219 0.6231 0.5507]",
    "batch of 2 works: True",
]
