"""Lesson 09_gradient: public implementations of numerical_gradient, softmax_vjp and cross_entropy_grad."""

from grader.proof.outside import NO_LICENCE, OutsideEntry, github

LESSON = "09_gradient"

OUTSIDE = [
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
