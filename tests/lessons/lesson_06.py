"""Lesson 06_masking: the numbers its executed notebook must print."""

NUMBERS = [
    "forbidden score set to 0:    [0.3072 0.5065 0.1863]",
    "forbidden score set to -inf: [0.3775 0.6225 0.0000]",
    "exp(0) = 1.0 | exp(-inf) = 0.0",
    "the allowed pair on its own: [0.3775 0.6225]",
    "forbidden score set to 0:    [0.0420 0.1142 0.8438]",
    "every score -inf: [nan nan nan]",
    "every score -1e9: [0.3333 0.3333 0.3333]",
    "ValueError: row 1 has no allowed choice",
    "allowed in the causal mask: 21 of 36",
    "allowed in the padding mask: 11 of 18",
    "scores of 'journey' (row 1): [0.9544 1.4950 1.4754 0.8434 0.7070 1.0865]",
    "its weights with no mask (lesson 03): [0.1385 0.2379 0.2333 0.1240 0.1082 0.1581]",
    "[[1.0000 0.0000 0.0000 0.0000 0.0000 0.0000]\n [0.3680 0.6320 0.0000 0.0000 0.0000 0.0000]",
    " [0.1385 0.2184 0.2128 0.1420 0.0988 0.1896]]",
    "row sums: [1.0000 1.0000 1.0000 1.0000 1.0000 1.0000]",
    "ValueError: row 0 has no allowed choice",
]
