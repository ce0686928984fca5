"""Inputs the checks hand to learners' functions, and the random state they must leave alone.

OnePass is a stream of chunks read once, as from a file; random_states tells whether a call drew from the
global generators. Both are used in the learner's kernel and, across the grading bridge, by the grader.
"""

import random

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
