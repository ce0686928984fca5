"""Lesson 09_gradient: public implementations of numerical_gradient, softmax_vjp and cross_entropy_grad."""

from grader.proof.outside import NO_LICENCE, OutsideEntry, github

LESSON = "09_gradient"

OUTSIDE = [
    OutsideEntry(
        "numgrad_cs231n_nditer",
        "numerical_gradient",
        """
def numerical_gradient(f, x, h=1e-5):
    verbose = False
    grad = np.zeros_like(x)
    # iterate over all indexes in x
    it = np.nditer(x, flags=['multi_index'], op_flags=['readwrite'])
    while not it.finished:
        ix = it.multi_index
        oldval = x[ix]
        x[ix] = oldval + h
        fxph = f(x) # evalute f(x + h)
        x[ix] = oldval - h
        fxmh = f(x) # evaluate f(x - h)
        x[ix] = oldval # restore

        # compute the partial derivative with centered formula
        grad[ix] = (fxph - fxmh) / (2 * h)
        if verbose:
            print(ix, grad[ix])
        it.iternext()
    return grad
""",
        github("eliben/deep-learning-samples", "gradients/numgrad.py", "b4e4009db318db849a49a21c20b6d48e23802a2e"),
        "wrong",
        "right for a float x (it nudges x in place and puts back the saved value, so x comes back bit for bit), "
        "but an integer x cannot hold x + h, so every slope is 0, and np.zeros_like(x) makes the result integer",
        names=("numgrad_int_nudge_vanishes", "numgrad_result_like_x"),
        breaks=("dtype",),
        note="eval_numerical_gradient(f, x, verbose=False, h=1e-5), cs231n's gradient check cleaned up; verbose "
        "became a local False",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "numgrad_from_scratch_fixed_h",
        "numerical_gradient",
        """
def numerical_gradient(f, W, h=1e-5):
    \"\"\"
    全ての次元について、個々の次元だけの微分を求める
    f : 関数
    W : 偏微分を求めたい場所の座標。多次元配列
    \"\"\"
    h = 1e-4 # 0.0001
    grad = np.zeros_like(W)

    it = np.nditer(W, flags=['multi_index'])

    while not it.finished:
        idx = it.multi_index
        tmp_val = W[idx]

        W[idx] = tmp_val + h
        fxh1 = f(W)

        W[idx] = tmp_val - h
        fxh2 = f(W)
        grad[idx] = (fxh1 - fxh2) / (2*h)

        W[idx] = tmp_val # 値を元に戻す

        # 次のindexへ進める
        it.iternext()

    return grad
""",
        github("ssshun3/DLcode", "DAY3_vr6_0_2/2_notebook/common/grad.py", "2de1f13a0af0b6dec64e2e6870d9aef30b5be27f"),
        "wrong",
        "a fixed step h = 1e-4 whatever h it is given, and an integer x cannot hold the nudge (every slope 0, in an "
        "integer result)",
        names=("numgrad_ignores_h", "numgrad_int_nudge_vanishes", "numgrad_result_like_x"),
        breaks=("step", "dtype"),
        note="numerical_gradient(f, W), with the step fixed inside (Deep Learning from Scratch's common/gradient.py); "
        "the h argument added to the signature is ignored, as the original has none",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "numgrad_from_scratch_2d_rows",
        "numerical_gradient",
        """
def _numerical_gradient_1d(f, x):
    h = 1e-4 # 0.0001
    grad = np.zeros_like(x)

    for idx in range(x.size):
        tmp_val = x[idx]
        x[idx] = float(tmp_val) + h
        fxh1 = f(x) # f(x+h)

        x[idx] = tmp_val - h
        fxh2 = f(x) # f(x-h)
        grad[idx] = (fxh1 - fxh2) / (2*h)

        x[idx] = tmp_val # 还原值

    return grad


def numerical_gradient(f, X, h=1e-5):
    if X.ndim == 1:
        return _numerical_gradient_1d(f, X)
    else:
        grad = np.zeros_like(X)

        for idx, x in enumerate(X):
            grad[idx] = _numerical_gradient_1d(f, x)

        return grad
""",
        github(
            "lilycy0580/books",
            "2.dl/DeepLearningForScratch/common/gradient.py",
            "07659b5e65b2055da5b5d3ca4ebe77eac1f39765",
        ),
        "wrong",
        "for a matrix it calls f on one row at a time, an array of another shape than x (it works in the book only "
        "because its f ignores its argument); a fixed step h = 1e-4; an integer x gives slopes of 0",
        names=("numgrad_ignores_h",),
        breaks=("shapes", "one_at_a_time", "step", "dtype"),
        note="numerical_gradient_2d(f, X) with its helper _numerical_gradient_1d kept; the h argument added to the "
        "signature is ignored, as the original has none",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "vjp_transformer_from_scratch_no_keepdims",
        "softmax_vjp",
        """
def softmax_vjp(p, g):
    axis = -1
    # https://sgugger.github.io/a-simple-neural-net-in-numpy.html
    grad_x = p * (g - (g * p).sum(axis=axis))
    return grad_x
""",
        github("xinghaow99/transformer_from_scratch", "modules/softmax.py", "1566c1980e055e99e15245bb2e4493af58a15842"),
        "wrong",
        "right for one row, but the row totals are summed without keeping their axis, so a batch fails (or, with as "
        "many rows as weights, each row subtracts another row's total); lists fail and integers stay integers",
        names=("vjp_no_keepdims",),
        breaks=("batch", "dtype"),
        note="the method Softmax.backward(self, grad_y) as a function: self.y (the forward pass's output) is p, "
        "grad_y is g, self.axis is -1",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "vjp_axis_one",
        "softmax_vjp",
        """
def softmax_vjp(p, g):
    s = p  # softmax output
    # Jacobian–vector product: dx = s * (dout - (dout * s) summed over classes)
    dot = np.sum(g * s, axis=1, keepdims=True)
    dx = s * (g - dot)
    return dx
""",
        github("IvanUkrRada/P-MforAI", "task_1/softmax.py", "fbca8b9bee01a8450f498892173b6610d14d324c"),
        "wrong",
        "sums along axis 1, which is the weights' axis only for a 2-D batch: a single row has no axis 1, and with "
        "more leading axes it sums across rows; lists fail and integers stay integers",
        breaks=("shapes", "batch", "dtype"),
        note="the method Softmax.backwards(self, dout) as a function: self.cache (the forward pass's output) is p, "
        "dout is g",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "vjp_nnfs_jacobian_per_sample",
        "softmax_vjp",
        """
def softmax_vjp(p, g):
    # Create uninitialized array
    dinputs = np.empty_like(g)

    # Enumerate outputs and gradients
    for index, (single_output, single_dvalues) in \\
        enumerate(zip(p, g)):

        # Flatten output array
        single_output = single_output.reshape(-1,1)
        # Calculate Jacobian matrix of the output
        jacobian_matrix = np.diagflat(single_output) - \\
                          np.dot(single_output, single_output.T)
        # Calculate sample-wise gradient
        # and add it to the array of sample gradients
        dinputs[index] = np.dot(jacobian_matrix,
                                     single_dvalues)
    return dinputs
""",
        github("Graham-CO/ai_ml_python", "chapter_9/softmax_deriv.py", "2442de46345b5b000123c2114af6b40174445866"),
        "wrong",
        "right for a 2-D batch of float rows (one Jacobian per row, n^2 numbers each), but a single row is taken "
        "as a batch of one-weight rows, more leading axes fail, lists fail, and np.empty_like(g) keeps an integer "
        "g's dtype",
        names=("vjp_builds_jacobian",),
        breaks=("shapes", "batch", "dtype"),
        note="the method Activation_Softmax.backward(self, dvalues) (Neural Networks from Scratch, chapter 9) as a "
        "function: self.output is p, dvalues is g, and self.dinputs a local array that is returned",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "my_own_nn_grad_crossentropy",
        "cross_entropy_grad",
        """
def cross_entropy_grad(logits,reference_answers):
    \"\"\"Compute crossentropy gradient from logits[batch,n_classes] and ids of correct answers\"\"\"
    ones_for_answers = np.zeros_like(logits)
    ones_for_answers[np.arange(len(logits)),reference_answers] = 1

    softmax = np.exp(logits) / np.exp(logits).sum(axis=-1,keepdims=True)

    return (- ones_for_answers + softmax) / logits.shape[0]
""",
        github("salimandre/my-own-neural-network", "loss.py"),
        "wrong",
        "divides by the number of rows (the mean loss's gradient), takes the softmax with no shift (nan for "
        "large logits), and builds the one-hot with logits[np.arange(len(logits)), target], which needs a 2-D "
        "batch",
        names=("cegrad_mean_over_batch", "cegrad_no_shift", "cegrad_2d_only"),
        breaks=("per_row", "extremes", "quiet", "confidently_wrong", "shift", "shapes", "targets"),
        note="named grad_softmax_crossentropy_with_logits (the Coursera 'Intro to deep learning' version)",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "digit_recognition_grad_crossentropy",
        "cross_entropy_grad",
        """
def cross_entropy_grad(logits, reference_answers):
    \"\"\"Compute crossentropy gradient from logits[batch,n_classes] and ids of correct answers\"\"\"
    ones_for_answers = np.zeros_like(logits)
    ones_for_answers[np.arange(len(logits)), reference_answers] = 1
    softmax = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    return (- ones_for_answers + softmax) / logits.shape[0]
""",
        github("EricJ30/DigitRecognition", "utils/math_utils.py"),
        "wrong",
        "divides by the number of rows (the mean loss's gradient), takes the softmax with no shift, and builds "
        "the one-hot in a way that needs a 2-D batch",
        names=("cegrad_mean_over_batch", "cegrad_no_shift", "cegrad_2d_only"),
        breaks=("per_row", "extremes", "quiet", "confidently_wrong", "shift", "shapes", "targets"),
        note="named grad_softmax_crossentropy_with_logits; another copy of the same course code",
        licence=NO_LICENCE,
    ),
    OutsideEntry(
        "resnet_cross_entropy_loss_backward",
        "cross_entropy_grad",
        """
def cross_entropy_grad(probs, labels):
    # Gradient của cross-entropy w.r.t. logits
    m = probs.shape[0]
    grad = probs.copy()
    grad[range(m), labels] -= 1
    grad = grad / m
    return grad
""",
        github("Anhuynh2404/Feature_Detection_and_Description", "ResNet/loss.py"),
        "wrong",
        "takes the weights (its forward pass's softmax) as input: given the logits it subtracts the one-hot from "
        "the logits themselves, divides by the number of rows, and needs a 2-D batch",
        names=("cegrad_mean_over_batch", "cegrad_2d_only"),
        breaks=("value", "per_row", "signs", "confidently_wrong", "shapes", "targets", "dtype"),
        note="the method CrossEntropyLoss.backward(self, probs, labels) as a function (self dropped)",
        licence=NO_LICENCE,
    ),
]
