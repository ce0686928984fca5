"""Lesson 09_gradient: the numbers its executed notebook must print."""

NUMBERS = [
    # the Jacobian, given and measured
    "[[ 0.25 -0.25]",
    "h = 1e-01: one-sided 3.3100000000 (off by 3.1e-01), central 3.0100000000 (off by 1.0e-02)",
    "h = 1e-05: one-sided 3.0000300001 (off by 3.0e-05), central 3.0000000001 (off by 9.7e-11)",
    "central: smallest error 5.0e-12, at h = 3.2e-06",
    "at h = 1e-12: one-sided off by 2.7e-04, central by 1.0e-04",
    "largest difference from central differences: 2.4e-12",
    "formula and measurement agree within 1e-9: True",
    " [-0.033   0.1813 -0.0555 -0.0295 -0.0257 -0.0376]",
    "every row and column sums to 0 (within 1e-15): True",
    # saturation
    "gap  0: top weight 0.5000000000, largest Jacobian entry 0.25",
    "gap 10: top weight 0.9999546021, largest Jacobian entry 4.54e-05",
    "gap 20: top weight 0.9999999979, largest Jacobian entry 2.06e-09",
    "gap 40: top weight 1.0000000000, largest Jacobian entry 4.25e-18",
    "one more unit of gap (20 to 21) divides the largest entry by 2.7183 (e = 2.7183)",
    "at gap 30, 8 choices run 7.00 times higher than 2",
    "8 choices: 0.109 at gap 0, highest (0.250) at gap 2.00; log 7 = 1.95",
    # the vector-Jacobian product
    "a Jacobian over 50,257 tokens: 2,525,766,049 entries, 20.2 GB in float64",
    "p and g together: 100,514 numbers, 0.8 MB",
    "softmax_vjp matches the Jacobian times g: True",
    "g of all 5s gives: [0. 0. 0. 0. 0. 0.]",
    "g and g + 5 give the same product: True",
    "g: [  0. -inf]   through softmax_vjp: [nan nan]",
    # the gradient of cross-entropy
    "gradient: [ 0.1385  0.2379  0.2333  0.124   0.1082 -0.8419]",
    "largest difference from central differences: 9.2e-12",
    "weight of 'step' 0.1581, minus 1: -0.8419",
    "weights: [0.9999999979, 2.1e-09]",
    "largest Jacobian entry: 2.1e-09",
    "gradient of the loss, target 1 (wrong): [ 1. -1.]",
    "gradient of the loss, target 0 (right): -2.1e-09 on the target",
    "softmax_vjp matches the Jacobian times the slope: True",
    "largest difference from numerical_gradient: 8.0e-12",
    "cross-entropy: logits after 100 steps [ 7.4029 12.5971], weight of class 1 0.9945",
    "squared error: logits after 100 steps [20.  0.], weight of class 1 2.061e-09",
    "reduction='sum': autograd's gradient matches cross_entropy_grad: True",
    "reduction='mean': autograd's gradient matches cross_entropy_grad / 4: True",
    "autograd's softmax backward matches softmax_vjp: True",
    # measure wrong, walk downhill
    "loss at the start: 1.8444 (weight of 'step' 0.1581)",
    "after 10 steps: 0.2395; after 60 steps: 0.0305 (weight of 'step' 0.9699)",
    "sum of the scores: 6.5617 at the start, 6.5617 after 60 steps",
]
