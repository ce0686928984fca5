"""Inputs the checks hand to learners' functions, and the random state they must leave alone.

OnePass is a stream of chunks read once, as from a file; Formula a function of an array from a fixed list;
random_states tells whether a call drew from the global generators. They are used in the learner's kernel and,
across the grading bridge, by the grader.
"""

import random
from collections.abc import Callable

import numpy as np


class OnePass:
    """Chunks handed out once each, in order, as a stream read from a file hands them out.

    A second loop sees nothing. With `reuse_buffer`, every chunk arrives in one array that
    the next chunk overwrites, as a producer that reads into a single buffer does: code that
    keeps a chunk must copy it. (Tests hand these to functions that take a stream.)
    """

    def __init__(self, chunks, reuse_buffer=False):
        self.chunks = [np.array(c) for c in chunks]
        self.reuse_buffer, self.read, self._buffer = bool(reuse_buffer), 0, None

    def __iter__(self):
        return self

    def __next__(self):
        if self.read >= len(self.chunks):
            raise StopIteration
        chunk = self.chunks[self.read]
        self.read += 1
        if not self.reuse_buffer:
            return chunk.copy()
        if self._buffer is None or self._buffer.dtype != chunk.dtype or self._buffer.size < chunk.size:
            self._buffer = np.empty(max(c.size for c in self.chunks), dtype=chunk.dtype)
        view = self._buffer[: chunk.size].reshape(chunk.shape)
        view[...] = chunk
        return view

    def __repr__(self):
        reused = ", each in the same reused buffer" if self.reuse_buffer else ""
        return f"<one-pass stream of {len(self.chunks)} chunks{reused}>"


def random_states():
    """NumPy's global random state and Python's `random` module's, to tell whether a call drew from them."""
    state = np.random.get_state(legacy=True)
    assert isinstance(state, tuple), "the global generator is NumPy's legacy MT19937, whose state is a tuple"
    return state[1].tobytes(), state[2], random.getstate()


# name -> (how it reads, the function of x and its numbers): smooth functions whose gradients are known in closed form
FORMULAS: dict[str, tuple[str, Callable[..., float]]] = {
    "cubic": ("sum(a*x**3 + b*x**2 + c*x)", lambda x, a, b, c: np.sum(a * x**3 + b * x**2 + c * x)),
    "quadratic_form": ("x.ravel() @ A @ x.ravel() / 2", lambda x, A: x.ravel() @ A @ x.ravel() / 2),
    "exp_dot": ("exp(sum(w*x))", lambda x, w: np.exp(np.sum(w * x))),
    "sin_sum": ("sum(a*sin(w*x))", lambda x, a, w: np.sum(a * np.sin(w * x))),
    "square_of_sum": ("sum(w*x)**2", lambda x, w: np.sum(w * x) ** 2),
}


class Formula:
    """A function of an array, taken from the fixed list FORMULAS with its own numbers, that returns a float.

    Tests hand these to functions that take a function (a numerical gradient's `f`): a Formula crosses the
    grading bridge as data, its name, the shape of array it takes and its numbers, never as code. Called on an
    array of another shape it raises ValueError, as a function written for arrays of one shape would.
    """

    def __init__(self, name, shape, *numbers):
        if name not in FORMULAS:
            raise ValueError(f"no formula named {name!r}")
        self.name, self.shape = name, tuple(int(n) for n in shape)
        self.numbers = tuple(np.array(n, dtype=np.float64) for n in numbers)

    def __call__(self, x):
        x = np.asarray(x)
        if x.shape != self.shape:
            raise ValueError(f"f takes an array of shape {self.shape}, not of shape {x.shape}")
        return float(FORMULAS[self.name][1](x.astype(np.float64), *self.numbers))

    def __eq__(self, other):
        return (
            type(other) is Formula
            and (self.name, self.shape) == (other.name, other.shape)
            and all(np.array_equal(a, b) for a, b in zip(self.numbers, other.numbers, strict=True))
        )

    __hash__ = None  # type: ignore[assignment]  # equal by value, and its numbers are arrays

    def __repr__(self):
        return f"<f(x) = {FORMULAS[self.name][0]}, for x of shape {self.shape}>"
