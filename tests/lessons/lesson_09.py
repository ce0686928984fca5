"""Lesson 09_gradient: the numbers its executed notebook must print."""

NUMBERS = [
    # the Jacobian, measured
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
    # why attention divides by sqrt(d_k)
    "d_k =    4: spread of q·k   2.0 (sqrt(d_k) =  2.0); median largest entry 2.3e-01 unscaled, 0.21 scaled",
    "d_k = 1024: spread of q·k  32.5 (sqrt(d_k) = 32.0); median largest entry 5.4e-07 unscaled, 0.22 scaled",
    # the gradient of cross-entropy
    "gradient: [ 0.1385  0.2379  0.2333  0.124   0.1082 -0.8419]",
    "largest difference from central differences: 9.2e-12",
    "weight of 'step' 0.1581, minus 1: -0.8419",
    "weights: [0.9999999979, 2.1e-09]",
    "largest Jacobian entry: 2.1e-09",
    "gradient of the loss, target 1 (wrong): [ 1. -1.]",
    "gradient of the loss, target 0 (right): -2.1e-09 on the target",
    "cross-entropy: logits after 100 steps [ 7.4029 12.5971], weight of class 1 0.9945",
    "squared error: logits after 100 steps [20.  0.], weight of class 1 2.061e-09",
    "reduction='sum': autograd's gradient matches cross_entropy_grad: True",
    "reduction='mean': autograd's gradient matches cross_entropy_grad / 4: True",
    # one number that learns
    "slope at w = 1 by the chain rule: -0.2626430064",
    "measured by numerical_gradient:   -0.2626430064",
    "the largest feature is the world's answer in 69.8% of the examples",
    "w after 0, 1, 5, 10, 20, 50, 100 steps: [0.     0.8667 1.6232 1.9044 2.0761 2.1315 2.1326]",
    "loss: 1.3863 at w = 0 (log 4 = 1.3863), 0.7337 at the end",
    "after 10,000 steps: w = 28.13, loss 0.0230",
    # a small W
    "gradient at W = 0: (2, 3)",
    "largest difference from numerical_gradient: 7.4e-12",
    "loss: 1.0986 at W = 0 (log 3 = 1.0986), 0.1629 after 10 steps, 0.1216 after 100",
    "own class on top: 284 of 300 points (94.7%)",
]
