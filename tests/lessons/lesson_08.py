"""Lesson 08_log_softmax: the numbers its executed notebook must print."""

NUMBERS = [
    # 1: weights, log-weights, and a difference of 1
    "softmax([1, 2]): [0.2689 0.7311]",
    "log(softmax([1, 2])): [-1.3133 -0.3133]",
    "their difference: 1.0",
    # 2: underflow, and where exp really becomes 0
    "the true second weight of [200, 0]: 1.3839e-87",
    "float32: log(softmax([200, 0])) = [  0. -inf]",
    "float64: log(softmax([200, 0])) = [   0. -200.]",
    "float64: log(softmax([800, 0])) = [  0. -inf]",
    "float32: smallest positive 1.4e-45 = exp(-103.28); exp(x) is 0 below x = -103.97: "
    "exp(-103.98) = 0.0, exp(-103.96) = 1.4e-45",
    "float64: smallest positive 4.9e-324 = exp(-744.44); exp(x) is 0 below x = -745.13: "
    "exp(-745.14) = 0.0, exp(-745.12) = 4.9e-324",
    "  half the smallest positive float32: 7.0e-46",
    "  half the smallest positive float64: 2.5e-324",
    # 3, 4: naive and shifted LSE
    "naive LSE of [1000, 1001]: inf",
    "naive LSE of [-1000, -1001]: -inf",
    "LSE of [1000, 1001] lies between 1001 and 1001 + log 2 = 1001.69",
    "[1000, 1001]: m = 1001, sum of exp(x - m) = 1.3679, its log = 0.3133, LSE = 1001.3133",
    "[-1000, -1001]: m = -1000, sum of exp(x - m) = 1.3679, its log = 0.3133, LSE = -999.6867",
    "shifted by the global max: [-999. -998.] | exp: [0. 0.] | log of the sum: -inf",
    # 5: rows of -inf
    "x - max(x) for a row of -inf: [nan nan]",
    "np.logaddexp.reduce of that row: -inf",
    # 6: logsumexp
    "LSE of [0, 0, 0, 0] = log 4: 1.386294361119890",
    "LSE per row of [[1001, 1002], [3, 4], [-inf, -inf]]: [1002.3133    4.3133      -inf]",
    "what the three zeros add to 50: log(1 + 3 e^-50) = 5.8e-22; the float64 spacing at 50: 7.1e-15",
    # 7: log_softmax
    "log_softmax([800, 0]) = [   0. -800.]",
    "float32: log_softmax([200, 0]) = [   0. -200.] | dtype: float32",
    # 8: cross-entropy, and why not through the weights
    "target A: weight 0.8438, loss = -log_softmax(abc)[0] = 0.1698",
    "target C: weight 0.0420, loss = -log_softmax(abc)[2] = 3.1698",
    "float32, -log(softmax([200, 0]))[1] = inf",
    "float32, -log_softmax([200, 0])[1]  = 200.0",
    "slope of -log p: -inf | derivatives of p: [-0.  0.] | their product, the gradient: [nan nan]",
    # 9: a batch
    "loss per row: [0.0007 1.0986 8.0007]",
    "training loss (mean over the batch): 3.0333",
    # cross-entropy: one-hot and soft labels, likelihood, perplexity
    "-sum(y * log p), y one-hot on C: 3.1698 | cross_entropy(abc, 2): 3.1698",
    "soft label [0.9  0.05 0.05], model weights [0.8438 0.1142 0.042 ]: loss -sum(y * log p) = 0.4198",
    "entropy of the soft label, the loss if p were y: 0.3944 | the gap: 0.0254",
    "the weights of the targets: [0.9993 0.3333 0.0003]",
    "the likelihood of the batch, their product: 1.1167e-04",
    "exp(-(sum of the losses)):                  1.1167e-04",
    "uniform over 3 tokens: loss 1.0986 = log 3, perplexity 3.0",
    "uniform over 50257 tokens: loss 10.8249 = log 50257, perplexity 50257.0",
    "the batch above: mean loss 3.0333, perplexity 20.77",
    # 10: PyTorch side by side (CI installs torch: without it these lines are missing and the test fails)
    "F.log_softmax(x, dim=-1): [[-0.1698, -2.1698, -3.1698], [-1.3133, -0.3133, -1001.3133], [0.0, -200.0, -inf]]",
    "your log_softmax(x):      [[-0.1698, -2.1698, -3.1698], [-1.3133, -0.3133, -1001.3133], [0.0, -200.0, -inf]]",
    "same -inf entries: True | largest difference elsewhere: 0.0e+00",
    "F.cross_entropy(x, t, reduction='none'): [  3.1698   1.3133 200.    ]",
    "your cross_entropy(x, t):                [  3.1698   1.3133 200.    ]",
    "F.cross_entropy(x, t), its default: 68.1610 = the mean of yours: 68.1610",
    "int32 targets: expected target dtype to be Long or Byte, but got Int",
    "F.cross_entropy(softmax(x), t), probabilities by mistake: [1.4596 1.2094 1.5514]",
    "float32 gradient through log(softmax([200, 0]))[1]: [nan nan]",
    "float32 gradient of F.cross_entropy([200, 0], 1):    [ 1. -1.]",
    # 11: ulps
    "one ulp at 1: float64 2.2e-16, float32 1.2e-07",
    "one ulp at 1000: float64 1.1e-13, float32 6.1e-05",
    "  mpmath:        1001.313261687518222834049",
    "float32  ordinary            max 0.96 ulp      max 1.06 ulp      max 1.89 ulp      max 2.27 ulp      max 1.50 ulp",
    "float32  near +1000            fails 100%      max 0.50 ulp      max 2.16 ulp    max 256.13 ulp      max 1.61 ulp",
    "float32  near -1000            fails 100%      max 0.50 ulp      max 2.04 ulp    max 255.99 ulp      max 1.45 ulp",
    "float32  widely spread         fails 100%      max 0.48 ulp        fails  85%    max 115.20 ulp      max 0.98 ulp",
    "float64  ordinary            max 0.93 ulp      max 1.07 ulp      max 1.56 ulp      max 1.98 ulp      max 1.59 ulp",
    "float64  near +1000            fails 100%      max 0.50 ulp      max 1.58 ulp    max 254.40 ulp      max 1.38 ulp",
    "float64  near -1000            fails 100%      max 0.50 ulp      max 1.68 ulp    max 256.54 ulp      max 1.68 ulp",
    "float64  widely spread         fails   8%      max 0.50 ulp        fails  19%    max 254.97 ulp      max 1.00 ulp",
    "float32: exp overflows above 88.72, float64: exp overflows above 709.78",
    "off by -5.5e-14 = 0.48 ulp at 1000",
    "half an ulp at 1000 is 5.68e-14 = 256 ulps at 1",
    "x - LSE(x):              [-0.6931 -0.6931], 247.6 ulps off",
    "(x - m) - log(sum(...)): [-0.6931 -0.6931], 0.1 ulps off",
    "stable_softmax (division)  largest error   3.66 ulps",
    "exp(your log_softmax)      largest error   6.11 ulps",
    "exp(x - LSE(x))            largest error 502.57 ulps",
    # the fine point: log1p
    "true top log-weight:     -1.3839e-87",
    "-log1p(sum of the rest): -1.3838965267367376e-87",
]
