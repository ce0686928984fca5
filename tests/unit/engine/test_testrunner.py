"""Test cells run in the grading process and reach the learner's kernel only through data
(grader/engine/testrunner.py, grader/engine/bridge.py, grader/engine/kernelside.py)."""

from __future__ import annotations

import ast
import io
import json
import sys
import time

import hypothesis.extra.numpy as hnp
import nbformat
import numpy as np
import pytest
import zmq
from hypothesis import given, settings
from hypothesis import strategies as st
from nbgrader.preprocessors import Execute

from grader.course.limits import Limits
from grader.engine import bridge, kernelside, sandbox, testrunner
from grader.learner import checks
from tests.support import COURSE

# Some of its tests wait for time limits to pass: one worker takes the module among the first, while the other
# workers' work keeps the cores busy (at the end of the run they left the cores idle).
pytestmark = pytest.mark.xdist_group("time-limits")

LESSON = "01_naive_division"
CODEC = bridge.Codec()


def across(value):
    """What the grading side gets for a value that the kernel sends."""
    return CODEC.read(kernelside.Bridge({}).encode(value))


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(
        dtype=st.one_of(
            hnp.floating_dtypes(),
            hnp.integer_dtypes(),
            hnp.unsigned_integer_dtypes(),
            hnp.boolean_dtypes(),
            hnp.complex_number_dtypes(),
        ),
        shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
    )
)
def test_arrays_cross_with_their_dtype_shape_and_every_bit(array):
    back = across(array)
    assert type(back) is np.ndarray and back.dtype == array.dtype and back.shape == array.shape
    assert back.tobytes() == array.tobytes()


def test_arrays_go_to_npy_bytes_as_np_save_writes_them_and_come_back_as_np_load_reads_them_each_time():
    """Seen again, a header is the one NumPy wrote or read the first time (kept), the data what follows it."""
    arrays = [
        np.arange(12.0).reshape(3, 4),
        np.arange(12.0).reshape(3, 4)[:, ::2],  # not contiguous
        np.asfortranarray(np.arange(6, dtype=">i4").reshape(2, 3)),
        np.array(True),
        np.zeros((0, 3), dtype=np.complex64),
        np.array(["text"]),  # not a plain dtype: never kept
    ]
    for array in arrays * 2:
        saved = io.BytesIO()
        np.save(saved, np.array(array, copy=True, order="C"), allow_pickle=False)
        assert kernelside.npy_bytes(array) == saved.getvalue()
        data = saved.getvalue()
        ours = kernelside.npy_array(data)
        for loaded in (ours, np.load(io.BytesIO(data))):
            assert loaded.dtype == array.dtype and loaded.shape == array.shape and loaded.tobytes() == array.tobytes()
        assert ours.flags.writeable and ours.flags.c_contiguous
        assert not np.shares_memory(ours, np.frombuffer(data, dtype=np.uint8))  # its own, as np.load's
    data = kernelside.npy_bytes(np.arange(5.0))
    for refused in (data[:-1], data.replace(b"'<f8'", b"'|O' ")):
        for _ in range(2):
            with pytest.raises(ValueError):
                kernelside.npy_array(refused)


def test_numbers_containers_and_flags_keep_their_kind():
    value = [1, 2.5, True, None, "text", (np.float32(0.5), np.int64(3)), {"k": [np.arange(2)]}]
    back = across(value)
    assert back[:5] == [1, 2.5, True, None, "text"] and type(back[1]) is float and type(back[2]) is bool
    assert type(back[5]) is tuple and type(back[5][0]) is np.float32 and type(back[5][1]) is np.int64
    assert type(back[6]["k"][0]) is np.ndarray
    frozen = np.broadcast_to(np.arange(3.0), (2, 3))
    assert not across(frozen).flags.writeable


def test_a_random_generator_crosses_as_its_state():
    rng = np.random.default_rng(7)
    rng.random(5)
    back = across(rng)
    assert type(back) is np.random.Generator and back.random() == rng.random()


def test_what_is_not_plain_data_becomes_a_stand_in():
    class Sneaky(np.ndarray):
        def __eq__(self, other):
            return np.ones(self.shape, dtype=bool)

    subclass = across(np.zeros(3).view(Sneaky))
    assert type(subclass) is not np.ndarray and type(subclass).__name__ == "Sneaky"
    assert checks.compare(subclass, [1.0, 2.0, 3.0]).startswith("expected a plain NumPy array")
    assert isinstance(across(np.array([object()], dtype=object)), bridge.Opaque)
    assert isinstance(across(lambda: 1), bridge.Opaque)
    assert isinstance(across(Sneaky), bridge.Opaque)  # a class is not data either


def test_exceptions_and_warnings_are_rebuilt_as_the_same_kinds():
    def described(error):
        return kernelside.describe_error(error)

    assert type(bridge.rebuilt_error(described(ValueError("bad")))) is ValueError
    try:
        x = np.array([1, 2])
        x /= 3
    except TypeError as error:
        rebuilt = bridge.rebuilt_error(described(error))
        named = lambda cls: (cls.__module__, cls.__qualname__)  # noqa: E731 - how the bridge tells classes apart
        assert named(type(rebuilt)) == named(type(error)) and isinstance(rebuilt, TypeError)

    class RowError(ValueError):
        pass

    mine = bridge.rebuilt_error(described(RowError("row 2 has no allowed choice")))
    assert isinstance(mine, ValueError) and type(mine).__name__ == "RowError" and str(mine).startswith("row 2")
    assert isinstance(bridge.rebuilt_error(described(SystemExit(3))), Exception)  # never stops the grader
    category = bridge.rebuilt_class(tuple(map(tuple, described(RuntimeWarning())["classes"])), Warning)
    assert category is RuntimeWarning


class NoKernel:
    """The session of a test cell that reads nothing of the notebook."""

    def describe(self, names):
        assert not names
        return {}


def test_a_resource_warning_costs_a_test_cell_nothing_and_other_warnings_are_its_output():
    """The garbage collector may close what the grading process left open while a cell runs (seen: an event loop of
    an earlier grading): that is no output of the cell, as in a kernel, where Python hides it by default."""
    warn = "import warnings\nwarnings.warn({!r}, {})"
    outputs, failed = testrunner.run_test_cell(
        warn.format("unclosed event loop", "ResourceWarning"), "t", {}, NoKernel()
    )
    assert outputs == [] and failed is None
    outputs, failed = testrunner.run_test_cell(warn.format("careful", "UserWarning"), "t", {}, NoKernel())
    assert [output.name for output in outputs] == ["stderr"] and "UserWarning: careful" in outputs[0].text


def test_a_test_cell_takes_checks_from_the_grader_and_only_other_names_from_the_notebook():
    source = (
        "from math import pi\n_x = np.array([1.0])\nfor _t in (1, 2):\n"
        "    check_call(softmax, _x, expect=[1.0])\nlen(_x)"
    )
    wanted = testrunner.names_to_fetch(testrunner.compiled(source, "t"), testrunner.pinned_names())
    assert wanted == {"softmax"}


def _test_cell_names(lesson):
    source = nbformat.read(COURSE.source_notebook(lesson), as_version=4)
    names = set()
    for cell in source.cells:
        if testrunner.is_test_cell(cell):
            tree = ast.parse(cell.source)
            names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            names |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    return names


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_test_cells_need_nothing_from_the_notebook_but_its_graded_functions(lesson):
    source = nbformat.read(COURSE.source_notebook(lesson), as_version=4)
    graded = set()
    for cell in source.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            graded |= {n.name for n in ast.parse(cell.source).body if isinstance(n, ast.FunctionDef)}
    graded |= set(COURSE.predictions(lesson).values())  # a prediction's tests cell reads its guess variable
    fetched, known = set(), testrunner.pinned_names()
    for cell in source.cells:
        if testrunner.is_test_cell(cell):
            fetched |= testrunner.names_to_fetch(testrunner.compiled(cell.source, "t"), known)
            known = {**known, **{name: None for name in _test_cell_names(lesson)}}
    assert fetched <= graded, f"hidden tests must compute their expected values themselves: {fetched - graded}"


def _spy(lesson):
    """A correct naive_normalize that turns wrong as soon as it finds a trace of the tests in its kernel."""
    secrets = sorted(_test_cell_names(lesson))
    return f"""
def naive_normalize(scores):
    shell = get_ipython()
    history = "\\n".join(shell.user_ns.get("In", []))
    traces = [name for name in {secrets!r} if name in shell.user_ns]
    if "HIDDEN" + " TESTS" in history or "check_" + "call(" in history or traces:  # split: not to find itself
        return np.zeros(np.shape(scores))
    scores = np.asarray(scores, dtype=float)
    return scores / scores.sum(axis=-1, keepdims=True)
"""


def test_the_kernel_never_sees_a_test_cell(monkeypatch):
    nb = COURSE.learner_notebook(LESSON, {**COURSE.reference_answers(LESSON), "naive_normalize": _spy(LESSON)})
    report = sandbox.autograde_sandboxed(COURSE, LESSON, nb, warm=True).report
    assert report.score == report.max_score, [t.message for t in report.tests if not t.passed]
    # the control: with nbgrader's own Execute the tests run in the kernel, and the spy sees them
    plain_steps = tuple(Execute if step is testrunner.TestsOutsideKernel else step for step in sandbox.AUTOGRADE_STEPS)
    monkeypatch.setattr(sandbox, "AUTOGRADE_STEPS", plain_steps)
    plain = sandbox.autograde_sandboxed(COURSE, LESSON, nb, warm=True).report
    assert plain.score < plain.max_score


def test_a_call_that_runs_past_the_time_limit_is_stopped_and_reported_as_a_timeout(monkeypatch):
    """Every test cell has its own limit: one that follows a timed-out cell gets no more (the bridge waits a grace
    period for the timed-out cell's serve loop to end, and once gave the next cell that period as its limit)."""
    calls_limits = []  # seconds left before the limit as each call into the kernel starts waiting
    exchange = bridge.KernelSession._exchange

    async def timed_exchange(session, request):
        calls_limits.append(session.deadline - time.monotonic())
        return await exchange(session, request)

    monkeypatch.setattr(bridge.KernelSession, "_exchange", timed_exchange)
    reference = COURSE.reference_answers(LESSON)
    # its first call sleeps past the limit; every later one answers at once
    slow = reference["naive_normalize"] + (
        "\n\nimport time\n_answer, _calls = naive_normalize, []\n\n\ndef naive_normalize(scores):\n"
        "    _calls.append(1)\n    if len(_calls) == 1:\n        time.sleep(60)\n    return _answer(scores)\n"
    )
    nb = COURSE.learner_notebook(LESSON, {**reference, "naive_normalize": slow})
    # A limit well under the grace period (5 s), which the next cell once got, and far above what every other cell
    # takes (a fifth of a second at most, on busy cores).
    # No notebook limit: ten cell limits (the default) would be all the grading may take, busy or not.
    timeout = 2
    result = sandbox.autograde_sandboxed(COURSE, LESSON, nb, limits=Limits(timeout, notebook_seconds=0), warm=True)
    first, *after = [t for t in result.report.tests if "naive_normalize" in t.grade_id]
    assert first.points == 0 and "CellTimeoutError" in first.message, first
    assert after and all(t.passed for t in after), [t.message for t in after if not t.passed]
    assert all(t.passed for t in result.report.tests if "is_distribution" in t.grade_id)
    assert len(calls_limits) > len(after) + 1 and max(calls_limits) <= timeout, calls_limits


def test_arguments_come_back_as_the_learner_left_them():
    chunks, counts, rng = [np.zeros(2), np.zeros(3)], np.zeros(2), np.random.default_rng(1)
    after_rng = np.random.default_rng(1)
    after_rng.random(3)
    bridge.write_back(chunks, [np.zeros(2), np.ones(3)])
    bridge.write_back(counts, np.array([1.0, 2.0]))
    bridge.write_back(rng, after_rng)
    assert chunks[1].tolist() == [1, 1, 1] and counts.tolist() == [1, 2] and rng.random() == after_rng.random()
    frozen = np.broadcast_to(np.zeros(2), (2, 2))
    bridge.write_back(frozen, np.ones((2, 2)))  # a read-only argument cannot have been changed
    assert not frozen.any()
    reshaped = np.arange(3.0)
    bridge.write_back(reshaped, np.arange(3.0).reshape(3, 1))  # `p.shape = (-1, 1)` on the caller's array
    assert reshaped.shape == (3, 1)


LEARNER_CODE = """
import random
import numpy as np

def keeps_chunks(chunks):
    kept = [c for c in chunks]
    return np.concatenate(kept)

def copies_chunks(chunks):
    kept = [np.array(c) for c in chunks]
    return np.concatenate(kept)

def slopes(f, x):
    return np.array([f(x), f(x + 1.0)])

def calls_with_a_row(f, x):
    return np.array([f(x[0])])

def reads_twice(chunks):
    first = sum(len(c) for c in chunks)
    second = sum(len(c) for c in chunks)
    return np.array([first, second])

def sample_next_token(logits, temperature, rng):
    return int(rng.integers(len(logits)))

def sample_global(logits, temperature, rng):
    return int(np.random.randint(len(logits)))

def sample_python_random(logits, temperature, rng):
    return random.randrange(len(logits))
"""


def _with_kernel(use, code=LEARNER_CODE, names=None):
    """Run `use(functions)` against the functions `code` defines, called in a real kernel through the bridge
    (`use(functions, session)` when it takes two arguments)."""
    from time import monotonic

    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    client = NotebookClient(nb, kernel_name="python3", timeout=60)
    names = names or [node.name for node in ast.parse(code).body if isinstance(node, ast.FunctionDef)]
    with client.setup_kernel():
        client.execute_cell(nb.cells[0], 0)
        with bridge.KernelSession(client, monotonic() + 120) as session:
            functions = session.describe(names)
            return use(functions, session) if use.__code__.co_argcount == 2 else use(functions)


def test_streams_cross_to_the_kernel_as_one_pass_streams_with_their_reused_buffer():
    from tests.support import run_apart

    def use(fns):
        reused = checks.OnePass([[1.0, 2.0], [3.0, 4.0]], reuse_buffer=True)
        out = {
            "kept": fns["keeps_chunks"](reused),
            "read": reused.read,
            "copied": fns["copies_chunks"](checks.OnePass([[1.0, 2.0], [3.0, 4.0]], reuse_buffer=True)),
            "twice": fns["reads_twice"](checks.OnePass([[1.0], [2.0, 3.0]])),
        }
        return out

    out = run_apart(_with_kernel, use)
    assert out["kept"].tolist() == [3.0, 4.0, 3.0, 4.0]  # both kept chunks are the one buffer
    assert out["copied"].tolist() == [1.0, 2.0, 3.0, 4.0] and out["read"] == 2
    assert out["twice"].tolist() == [3, 0]  # a second loop over a stream finds nothing


def test_formulas_cross_to_the_kernel_as_functions_it_can_call():
    """A numerical gradient's tests hand it an f: a Formula crosses as data (name, shape, numbers) and is called
    in the kernel, where a call on an array of another shape raises."""
    from tests.support import run_apart

    def use(fns):
        cube = checks.Formula("cubic", (2,), 1.0, 0.0, np.array([0.0, 2.0]))
        out = {"values": fns["slopes"](cube, np.array([1.0, 2.0]))}
        try:
            fns["calls_with_a_row"](checks.Formula("cubic", (2, 2), 1.0, 0.0, 0.0), np.ones((2, 2)))
        except ValueError as error:
            out["refused"] = str(error)
        return out

    out = run_apart(_with_kernel, use)
    assert out["values"].tolist() == [1.0 + 8.0 + 4.0, 8.0 + 27.0 + 6.0]
    assert out["refused"] == "f takes an array of shape (2, 2), not of shape (2,)"


def test_a_function_drawing_from_the_kernels_global_random_state_is_seen():
    from tests.support import run_apart

    def use(fns):
        verdicts = {}
        for name in ("sample_next_token", "sample_global", "sample_python_random"):
            try:
                checks.check_own_generator(fns[name], [1.0, 2.0, 3.0], 1.0, np.random.default_rng(4), draws=50)
                verdicts[name] = "passed"
            except checks.CheckFailed as failure:
                verdicts[name] = str(failure)
        return verdicts

    verdicts = run_apart(_with_kernel, use)
    assert verdicts["sample_next_token"] == "passed"
    assert "global random state" in verdicts["sample_global"]
    assert "global random state" in verdicts["sample_python_random"]


def test_the_kernels_global_random_states_are_watched_through_repeated_calls_only():
    from tests.support import run_apart

    def use(fns):
        sample = fns["sample_global"]
        sample([1.0, 2.0, 3.0], 1.0, np.random.default_rng(4))
        once = sample.used_global_random
        sample.repeat(([1.0, 2.0, 3.0], 1.0, np.random.default_rng(4)), {}, 3)
        repeated = sample.used_global_random
        fns["sample_next_token"].repeat(([1.0, 2.0, 3.0], 1.0, np.random.default_rng(4)), {}, 3)
        return once, repeated, fns["sample_next_token"].used_global_random

    assert run_apart(_with_kernel, use) == (False, True, False)


BREAKS_THE_BRIDGE = """
import os
import socket


def _bridge():
    for fd in range(3, 1024):
        try:
            found = socket.socket(fileno=os.dup(fd))
        except OSError:
            continue
        with found:
            if found.family == socket.AF_UNIX and str(found.getpeername()).endswith("bridge"):
                return fd
    raise LookupError("no bridge")


def garbles():
    with socket.socket(fileno=os.dup(_bridge())) as channel:
        channel.sendall(b"\\xff" * 8)  # an answer of 2**64 - 1 bytes


def hangs_up():
    os.close(_bridge())


def dies():
    os._exit(1)


def double(x):
    return 2 * x
"""


def test_a_function_that_breaks_the_bridge_fails_its_own_call_and_the_next_call_gets_through():
    from tests.support import run_apart

    def use(fns):
        out = {}
        for name in ("garbles", "hangs_up"):
            try:
                fns[name]()
                out[name] = "returned"
            except bridge.BridgeError as error:
                out[name] = str(error)
            out[f"{name}, then"] = fns["double"](21)
        try:
            fns["dies"]()
        except bridge.KernelDied as error:
            out["dies"] = str(error)
        return out

    out = run_apart(_with_kernel, use, BREAKS_THE_BRIDGE)
    assert "too large" in out["garbles"] and out["garbles, then"] == 42
    assert "stopped answering" in out["hangs_up"] and out["hangs_up, then"] == 42
    assert "kernel stopped" in out["dies"]


def test_requests_and_answers_larger_than_the_socket_holds_and_answers_that_come_late_cross_whole():
    """Sent and read in pieces, directly or (past bridge.DIRECT_WAIT) through the event loop, which takes over the
    same exchange."""
    from tests.support import run_apart

    code = "import time\ndef double(x):\n    return 2 * x\ndef late_double(x):\n    time.sleep(0.3)\n    return 2 * x\n"

    def use(fns):
        large = np.arange(300_000.0)  # 2.4 MB, a 3.2 MB frame: many times what a Unix socket holds
        return [fns[name](x) for name in ("double", "late_double") for x in (large, 3.0)]

    doubled = run_apart(_with_kernel, use, code)
    assert all(np.array_equal(got, 2 * np.arange(300_000.0)) for got in doubled[::2]) and doubled[1::2] == [6.0, 6.0]


def test_one_execute_request_serves_every_request_until_the_session_is_finished():
    from tests.support import run_apart

    def use(fns, session):
        sent = []
        execute = session.client.kc.execute
        session.client.kc.execute = lambda *args, **kwargs: sent.append(1) or execute(*args, **kwargs)
        answers = [fns["double"](n) for n in range(20)] + [session.describe(["double"])["double"](5)]
        opened = len(sent)
        session.finish()
        answers.append(fns["double"](100))  # a function of an earlier cell still works in a later one
        return answers, opened, len(sent)

    answers, opened, after = run_apart(_with_kernel, use, BREAKS_THE_BRIDGE)
    assert answers == [2 * n for n in range(20)] + [10, 200]
    assert (opened, after) == (0, 1)  # the functions came with the session's serve loop; a new one after finish


def test_a_value_too_large_to_compare_crosses_as_a_stand_in_that_says_so():
    kernel = kernelside.Bridge({"big": lambda n: "x" * n, "many": lambda: [np.zeros(1000)] * 1000})
    answer = json.loads(
        kernel.call(
            json.dumps(
                {"name": "big", "args": [CODEC.encode(8_000_000)], "kwargs": {}, "errstate": np.geterr(), "times": 1}
            )
        )
    )
    refused = CODEC.read(answer["results"][0])
    assert isinstance(refused, bridge.Opaque) and "too large to compare" in repr(refused) and len(repr(refused)) < 300
    small = json.loads(
        kernel.call(
            json.dumps({"name": "big", "args": [CODEC.encode(1000)], "kwargs": {}, "errstate": np.geterr(), "times": 1})
        )
    )
    assert CODEC.read(small["results"][0]) == "x" * 1000
    assert isinstance(across(np.zeros(kernelside.MAX_VALUE)), bridge.Opaque)  # 32 MB of float64
    assert isinstance(across([np.zeros(1000)] * 1000), list)  # each part is small: only the kernel's answer is bounded
    repeated = json.loads(
        kernel.call(
            json.dumps(
                {"name": "big", "args": [CODEC.encode(3_000_000)], "kwargs": {}, "errstate": np.geterr(), "times": 8}
            )
        )
    )
    assert len(json.dumps(repeated)) < kernelside.MAX_ANSWER + kernelside.MAX_VALUE  # the calls share one budget
    assert isinstance(CODEC.read(repeated["results"][-1]), bridge.Opaque)


def test_names_and_messages_the_kernel_sends_are_clipped_and_say_so():
    huge = "E" * 4_000_000
    error = bridge.rebuilt_error(
        {"classes": [["learner", huge, huge], ["builtins", "ValueError", "ValueError"]], "message": "m" * 4_000_000}
    )
    assert isinstance(error, ValueError) and len(type(error).__name__) < 300 and "clipped" in type(error).__name__
    assert len(str(error)) < 3000 and str(error).endswith("more characters]")
    described = kernelside.describe_error(type(huge, (KeyError,), {})("k" * 100_000))
    assert len(json.dumps(described)) < 20_000


def _graded_cell(outputs):
    meta = {"nbgrader": {"grade": True, "solution": False, "points": 3, "grade_id": "t"}}
    return nbformat.v4.new_code_cell("", metadata=meta, outputs=outputs)


_texts = st.builds(
    lambda char, n: char * n, st.sampled_from(["a", "\x01", "é", "\n", "💥"]), st.integers(0, 200_000)
) | st.sampled_from(["1.5", "0", "2", "3.0", "text"])
_outputs = st.one_of(
    st.builds(
        lambda name, text: nbformat.v4.new_output("stream", name=name, text=text),
        st.sampled_from(["stdout", "stderr"]),
        _texts,
    ),
    st.builds(
        lambda ename, evalue: nbformat.v4.new_output("error", ename=ename, evalue=evalue, traceback=[ename, evalue]),
        _texts,
        _texts,
    ),
    st.builds(
        lambda text: nbformat.v4.new_output("execute_result", data={"text/plain": text or "x"}, execution_count=1),
        _texts,
    ),
    st.builds(
        lambda text, image: nbformat.v4.new_output("display_data", data={"text/html": text, "image/png": image}),
        _texts,
        _texts,
    ),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_outputs, max_size=8), st.sampled_from([0, 1000, testrunner.TEXT_LIMIT]))
def test_bounded_outputs_keep_the_cells_grade_and_their_limits(outputs, limit):
    from nbgrader.utils import determine_grade

    before = determine_grade(_graded_cell(nbformat.from_dict(outputs)))
    bounded, size = testrunner.bounded_outputs(nbformat.from_dict(outputs), limit, limit)
    assert determine_grade(_graded_cell(bounded)) == before
    most = 3 * limit + 500 * (len(outputs) + 1)  # text, images and the traceback's share; names and notes
    assert size == sum(map(testrunner.stored_size, bounded)) <= most
    if testrunner.stored_size(outputs) > most:  # something was cut, and says so
        assert "clipped" in json.dumps(bounded) or "left out" in json.dumps(bounded)


ORDINARY_NAMES = ("numbers", "copy", "tolerance", "Mistake", "sys", "contextlib", "warnings", "dataclass")


def test_test_cells_are_handed_the_checks_alone_not_what_the_checks_module_imports():
    pinned = testrunner.pinned_names()
    assert set(checks.__all__) <= set(pinned) and {"check_call", "passed", "compare"} <= set(pinned)
    assert not set(ORDINARY_NAMES) & set(pinned)
    source = "_row = copy.deepcopy(numbers)\ncheck_call(softmax, _row, expect=tolerance)"
    wanted = testrunner.names_to_fetch(testrunner.compiled(source, "t"), pinned)
    assert wanted == {"copy", "numbers", "softmax", "tolerance"}


def test_ordinary_names_in_a_learners_cell_are_not_suspicious_but_redefined_checks_are():
    from grader.engine import suspicious

    def notebook(*sources):
        return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])

    ordinary = notebook(
        "numbers = [1, 2, 3]",
        "copy = list(numbers)",
        "tolerance = 1e-8",
        "Mistake = 'dividing by the max'",
        "import sys\nsys = None",
    )
    assert suspicious.reasons(ordinary) == []
    redefined = notebook("def check_call(*args, **kwargs):\n    pass", "passed = print")
    assert suspicious.reasons(redefined) == [
        "cell 0 redefines the check check_call",
        "cell 1 redefines the check passed",
    ]


def test_a_kernel_client_retries_a_refused_connection_soon_and_refuses_a_flood():
    """Its sockets connect while a new kernel still binds its ports: ZMQ's 100 ms between tries would be waited
    by every kernel. And a message over MAX_MESSAGE bytes resets the connection instead of being read."""
    client = testrunner.BoundedClient()
    socket = client.context.socket(zmq.DEALER)
    try:
        assert socket.getsockopt(zmq.RECONNECT_IVL) == testrunner.RECONNECT_MS < 100
        assert socket.getsockopt(zmq.MAXMSGSIZE) == testrunner.MAX_MESSAGE
    finally:
        socket.close()
        client.context.term()


# The module whose import runs NumPy's f2py command line, which exits (SystemExit): the bridge imported a module
# by the name the kernel gave it, and a class's module by the name an error or a warning gave.
EXITS_ON_IMPORT = "numpy.f2py.__main__"
NAMES_MODULES = f"""
import math as maths
import os
import types

import numpy.linalg as linalg

exits = types.ModuleType({EXITS_ON_IMPORT!r})
"""


def test_a_module_the_kernel_names_is_the_graders_own_copy_or_a_stand_in_and_never_imported():
    from tests.support import run_apart

    found = run_apart(_with_kernel, lambda fns: fns, NAMES_MODULES, ["maths", "os", "exits", "linalg"])
    assert found["maths"] is __import__("math") and found["linalg"] is np.linalg  # safe, and already imported here
    assert isinstance(found["exits"], bridge.Opaque) and repr(found["exits"]) == f"<module {EXITS_ON_IMPORT}>"
    assert isinstance(found["os"], bridge.Opaque)  # not a safe module: not this process's own
    with pytest.raises(TypeError, match="'module' object is not callable"):
        found["exits"]()
    assert EXITS_ON_IMPORT not in sys.modules


def test_an_error_or_warning_class_is_never_looked_up_by_importing_the_module_it_names():
    rest = [["builtins", "ValueError", "ValueError"], ["builtins", "Exception", "Exception"]]
    error = bridge.rebuilt_error({"classes": [[EXITS_ON_IMPORT, "Refused", "Refused"], *rest], "message": "no"})
    assert isinstance(error, ValueError) and type(error).__module__ == EXITS_ON_IMPORT and str(error) == "no"
    category = bridge.rebuilt_class(
        ((EXITS_ON_IMPORT, "Slow", "Slow"), ("builtins", "UserWarning", "UserWarning")), Warning
    )
    assert issubclass(category, UserWarning) and category.__name__ == "Slow"
    assert EXITS_ON_IMPORT not in sys.modules


def test_a_random_generator_crosses_only_with_a_bit_generator_of_numpy_and_calls_nothing_else():
    """A state named its bit generator, and the grading side called whatever np.random held by that name: seed
    (the grading process's own global random state), test (NumPy's tests, run by pytest)."""
    np.random.seed(5)
    expected = np.random.random()
    np.random.seed(5)
    with pytest.raises(KeyError):
        CODEC.read(["rng", {"bit_generator": "seed", "state": {}}])
    assert np.random.random() == expected  # never reseeded
