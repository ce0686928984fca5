"""Lesson 03_shared_denominator: the numbers its executed notebook must print."""

NUMBERS = [
    "total evidence: 18.745",
    "first weight = e^0.9544 / 18.745 = 2.597 / 18.745 = 0.1385",
    "softmax weights: [0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581]",
    "softmax([0.707, 0, 0.707]) = [0.401, 0.198, 0.401]",
    "every other weight fell: True",
    "all 0: [0.25, 0.25, 0.25, 0.25]",
    "all 100: [0.25, 0.25, 0.25, 0.25]",
    "all -100: [0.25, 0.25, 0.25, 0.25]",
]
