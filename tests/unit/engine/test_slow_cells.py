"""A slow, mute or dying kernel costs the cell it happened in, not the notebook; a notebook whose cells each
stay under their limit costs at most its own; and whatever the learner's code returns, raises or prints, the
autograded notebook stays small (grader/engine/testrunner.py, grader/engine/bridge.py, grader/engine/kernelside.py).

Each test grades a lesson 01 notebook with real nbgrader and real kernels. The tests of
naive_normalize come first (7 points), then those of is_distribution; the trouble is put in
is_distribution's function or cell, after a correct naive_normalize.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from dataclasses import dataclass, field
from time import monotonic
from types import SimpleNamespace

import nbformat
import pytest

from grader.course.limits import MEMORY_MB, Limits
from grader.engine import sandbox, scores, status, testrunner
from grader.engine.bridge import INTERRUPT_GRACE
from grader.learner.predictions import is_prediction
from tests.support import COURSE, printed_by, run_apart

# Its tests mostly wait for time limits to pass: one worker takes them all, among the first, while the other workers'
# work keeps the cores busy (spread over every worker at the end of the run, they left the cores idle together).
pytestmark = pytest.mark.xdist_group("slow-cells")

LESSON = "01_naive_division"
TIMEOUT = 4  # seconds per cell
# the limit of the tests that wait for it to pass: the smallest that a warm kernel's other cells keep well within
# (a cold kernel imports numpy in its first cell, so it keeps TIMEOUT)
WARM_TIMEOUT = 2
SIGNATURE = "def is_distribution(weights, atol=1e-8):\n"
REFERENCE = COURSE.reference_answers(LESSON)


def graded(
    answers: dict,
    extra_cells=(),
    warm: bool = True,
    metadata=None,
    memory: int | None = None,
    timeout=TIMEOUT,
    notebook_timeout=None,
):
    """Autograde lesson 01 with these answers (and extra learner cells at the end): (result, executed)."""
    nb = COURSE.learner_notebook(LESSON, {**REFERENCE, **answers})
    nb.cells += [nbformat.v4.new_code_cell(source) for source in extra_cells]
    for cell in nb.cells:
        cell.metadata.update(metadata or {})
    limits = Limits(timeout, notebook_timeout, memory or MEMORY_MB)
    result = run_apart(lambda: sandbox.autograde_sandboxed(COURSE, LESSON, nb, limits=limits, warm=warm))
    return result, nbformat.reads(result.autograded, as_version=4)


@dataclass
class CellTimes:
    """When the grading's cells ran (the machine's monotonic clock): each cell's start and end by its index in the
    notebook, and the notebook's deadline. A time limit's test measures from the cell that met the trouble: the
    kernel's start and the cells before, which busy cores slow down, are no part of what it tests."""

    ran: dict = field(default_factory=dict)
    deadline: float = math.inf

    def since(self, index: int) -> float:
        """Seconds from the start of cell `index` to the end of the last cell."""
        return max(end for _, end in self.ran.values()) - self.ran[index][0]


@pytest.fixture
def cell_times(monkeypatch) -> CellTimes:
    """The times of the next grading's cells, as the grading process runs them."""
    times, run = CellTimes(), testrunner.TestsOutsideKernel.preprocess_cell

    def timed(self, cell, resources, index):
        times.deadline, start = self.notebook_deadline, monotonic()
        try:
            return run(self, cell, resources, index)
        finally:
            times.ran[index] = (start, monotonic())

    monkeypatch.setattr(testrunner.TestsOutsideKernel, "preprocess_cell", timed)
    return times


def index_of(executed, grade_id: str) -> int:
    return next(i for i, c in enumerate(executed.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def code_cells(executed):
    return [cell for cell in executed.cells if cell.cell_type == "code" and cell.source.strip()]


def assert_stopped_at(result, executed, stopping: str, ename: str, why: str) -> None:
    """The tests before `stopping` (a grade id) keep their points, it fails with `ename`, every code cell
    after it is not run, and the status names `why` and never an invalid notebook."""
    names = [cell.metadata.get("nbgrader", {}).get("grade_id") for cell in code_cells(executed)]
    at = names.index(stopping)
    scores = {t.grade_id: t for t in result.report.tests}
    before = [name for name in names[:at] if name in scores]
    assert before and all(scores[name].passed for name in before), [scores[n].message for n in before]
    errors = [o for o in code_cells(executed)[at].outputs if o.output_type == "error"]
    assert [o.ename for o in errors][-1:] == [ename], errors
    after = code_cells(executed)[at + 1 :]
    assert after and all(
        [(o.output_type, o.get("ename"), o.get("evalue")) for o in cell.outputs]
        == [("error", "NotRun", f"not run: kernel stopped ({why})")]
        for cell in after
    )
    assert all(scores[name].points == 0 for name in names[at:] if name in scores)
    state, detail = status.combine(status.execution_problems(executed))
    assert {
        "timeout": status.TIMEOUT,
        "the kernel died": status.KERNEL_DIED,
        "memory limit": status.MEMORY,
        testrunner.NOTEBOOK_TIMEOUT: status.TIMEOUT,
    }[why] in state.split(", ")
    assert status.INVALID not in state and f"{len(after)} cells after it were not run" in detail


SLOW = {
    "a function that ignores SIGINT": (
        {
            "is_distribution": f"import signal, time\n\n{SIGNATURE}"
            "    signal.signal(signal.SIGINT, signal.SIG_IGN)\n    time.sleep(1000)\n"
        },
        "test_is_distribution_public",
        True,
    ),
    # deque(map(...)) calls libc's sleep again and again from C, which never checks for signals: an interrupt cuts
    # one sleep short and the next begins. It waits as a long C computation would, without spinning a core for the
    # time limit and the grace.
    "C code that never checks for signals, in a learner's cell": (
        {
            "is_distribution": REFERENCE["is_distribution"] + "\nimport collections, ctypes, itertools\n"
            "collections.deque(map(ctypes.CDLL(None).sleep, itertools.repeat(1000)), maxlen=0)\n"
        },
        "is_distribution",
        True,
    ),
    "a kernel that becomes a shell ignoring INT and TERM": (
        {
            "is_distribution": REFERENCE["is_distribution"]
            + "\nimport os\nos.execv('/bin/sh', ['sh', '-c', \"trap '' INT TERM; sleep 1000\"])\n"
        },
        "is_distribution",
        True,
    ),
    # a kernel that is pid 1 of its own PID namespace (isolated) cannot stop itself: this one is not
    "a kernel that stops itself (SIGSTOP)": (
        {"is_distribution": f"import os, signal\n\n{SIGNATURE}    os.kill(os.getpid(), signal.SIGSTOP)\n"},
        "test_is_distribution_public",
        False,
    ),
}


@pytest.mark.parametrize("kind", SLOW)
def test_a_cell_past_its_limit_that_ignores_its_interrupt_costs_that_cell(kind, cell_times):
    answers, stopping, warm = SLOW[kind]
    timeout = WARM_TIMEOUT if warm else TIMEOUT
    result, executed = graded(answers, warm=warm, timeout=timeout)
    assert_stopped_at(result, executed, stopping, "CellTimeoutError", "timeout")
    cells = len(code_cells(executed))
    # from that cell on: one timeout and the grace, not one per cell left (nor nbclient's output wait of 30 s)
    seconds = cell_times.since(index_of(executed, stopping))
    assert seconds < timeout + INTERRUPT_GRACE + 15 < cells * timeout, seconds


DEATHS = {
    "os._exit in a function the tests call": (
        {"is_distribution": f"import os\n\n{SIGNATURE}    os._exit(3)\n"},
        "test_is_distribution_public",
        "KernelDied",
        "the kernel died",
    ),
    "a segmentation fault in a learner's cell": (
        {"is_distribution": REFERENCE["is_distribution"] + "\nimport ctypes\nctypes.string_at(0)\n"},
        "is_distribution",
        "KernelDied",
        "the kernel died",
    ),
    # pages of a shared mapping are no process's data (RLIMIT_DATA): the kernel's control group has them
    "a shared mapping past the kernel's memory, in a function the tests call": (
        {
            "is_distribution": f"import mmap\n\n{SIGNATURE}"
            "    shared = mmap.mmap(-1, 512 * 2**20, flags=mmap.MAP_SHARED)\n"
            "    for at in range(0, len(shared), 4096):\n        shared[at] = 1\n"
        },
        "test_is_distribution_public",
        "MemoryError",
        "memory limit",
    ),
}


@pytest.mark.parametrize("kind", DEATHS)
def test_a_kernel_that_dies_keeps_the_points_of_the_tests_before(kind, cell_times):
    answers, stopping, ename, why = DEATHS[kind]
    result, executed = graded(answers, memory=256)  # megabytes for the whole kernel
    assert_stopped_at(result, executed, stopping, ename, why)
    # a death is seen at once: no time limit and no output wait (30 s) is waited for; filling the memory takes a
    # CPU-second or two of that
    seconds = cell_times.since(index_of(executed, stopping))
    assert seconds < TIMEOUT + 15, seconds


# Every call of is_distribution sleeps a second: no test cell runs past its own limit (45 s), but the notebook
# would run past a minute. Its limit (30 s) leaves the kernel's start and the fast cells before, a few seconds, room
# on busy cores (at 20 s, they could take it all, and the notebook stop before is_distribution's tests).
SLEEPS_EACH_CALL = {
    "is_distribution": "import time\n\n"
    + SIGNATURE
    + "    time.sleep(1)\n"
    + REFERENCE["is_distribution"].split(":\n", 1)[1]
}
OWN_LIMIT, NOTEBOOK_LIMIT = 45, 30


def test_a_notebook_whose_every_test_call_sleeps_stops_at_the_notebook_limit_and_keeps_the_tests_before(cell_times):
    result, executed = graded(SLEEPS_EACH_CALL, timeout=OWN_LIMIT, notebook_timeout=NOTEBOOK_LIMIT)
    stopped = [
        cell.metadata.get("nbgrader", {}).get("grade_id")
        for cell in code_cells(executed)
        if any(o.get("ename") == "NotebookTimeoutError" for o in cell.outputs)
    ]
    assert len(stopped) == 1 and stopped[0].startswith("test_is_distribution"), stopped
    assert_stopped_at(result, executed, stopped[0], "NotebookTimeoutError", testrunner.NOTEBOOK_TIMEOUT)
    state, detail = status.combine(status.execution_problems(executed))
    assert state == status.TIMEOUT and f"the notebook ran past its {NOTEBOOK_LIMIT} s limit at {stopped[0]}" in detail
    # the cell running at the notebook's end got what was left of it, not its own limit: it began before the notebook's
    # deadline and ended at it (its sleeping call interrupted at once, then its kernel stopped: a few seconds at most),
    # and the cells after it, each marked not run, took no time
    started, ended = cell_times.ran[index_of(executed, stopped[0])]
    assert started < cell_times.deadline and ended - cell_times.deadline < INTERRUPT_GRACE + 10, (started, ended)
    assert cell_times.since(index_of(executed, stopped[0])) - (ended - started) < 10, cell_times


def test_the_notebook_limit_is_ten_cell_limits_unless_set():
    def limit(**settings):
        return testrunner.TestsOutsideKernel(**settings).notebook_limit()

    assert testrunner.NOTEBOOK_TIMES == 10
    page = " ".join((COURSE.root / "docs" / "reference" / "limits.md").read_text().split())
    assert "it is ten times the cell limit (300 s with the default 30 s)" in page
    assert (limit(timeout=4), limit(timeout=4, notebook_timeout=7.5), limit()) == (40, 7.5, 300)
    assert limit(timeout=4, notebook_timeout=0) is None and limit(timeout=None) is None  # no limit


MB = 2**20


def test_what_the_learner_returns_raises_or_prints_leaves_a_small_notebook():
    huge_name = "type('E' * 4_000_000, (ValueError,), {})"
    result, executed = graded(
        {
            "naive_normalize": "def naive_normalize(scores):\n    return 'x' * 8_000_000\n",
            "is_distribution": f"{SIGNATURE}    raise {huge_name}('no')\n\n"
            "for i in range(20_000):\n    print('line', i, 'of a long printout')\n",  # 560 KB: past TEXT_LIMIT
        }
    )
    assert len(result.autograded.encode()) < 2 * MB
    messages = {t.grade_id: t.message for t in result.report.tests}
    assert all("too large to compare" in m for name, m in messages.items() if "naive_normalize" in name)
    raised = [m for name, m in messages.items() if "is_distribution" in name]
    assert raised and all("EEEE" in m and "clipped" in m and len(m) < 2000 for m in raised)
    printed = next(c for c in executed.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "is_distribution")
    text = printed_by(printed)
    assert text.startswith("line 0 of") and ("clipped" in text or "truncated" in text) and len(text) < 100_000
    assert status.INVALID not in status.combine(status.execution_problems(executed))[0]


def flood(scale: int) -> str:
    """A learner cell that prints, displays and raises output in proportion to `scale`, much of it control characters,
    which JSON writes six bytes each: at 5, many times the text a cell keeps (testrunner.TEXT_LIMIT) and an image it
    keeps whole; at 100, megabytes (the cell's and the notebook's RECEIVE_LIMIT) and an image over IMAGE_LIMIT."""
    return (
        "import base64\nfrom IPython.display import display\n"
        f"print('\\x01' * {20_000 * scale})\n"
        f"image = base64.b64encode(b'p' * {15_000 * scale}).decode()\n"
        f"display({{'image/png': image, 'text/plain': 'x' * {5_000 * scale}}}, raw=True)\n"
        f"for _ in range({2 * scale}):\n    display({{'text/html': '<b>' + 'h' * 5000 + '</b>'}}, raw=True)\n"
        f"raise ValueError('\\x02' * {30_000 * scale})\n"
    )


# Three cells past what a cell and a notebook may send; then enough past a cell's text limit that together they are
# past what all the learner's cells keep (LEARNER_LIMIT): without that limit the notebook would not stay small.
FLOODS = [flood(100)] * 3 + [flood(5)] * 27


def test_the_notebook_stays_small_when_every_output_is_as_large_as_the_grader_takes():
    """Values just under the bridge's limit quoted by every failing test, and many learner cells that
    print, display and raise more than the grader keeps (FLOODS)."""
    result, executed = graded(
        {
            "naive_normalize": "def naive_normalize(scores):\n    return '\\x01' * 600_000\n",
            "is_distribution": f"{SIGNATURE}    return [float(i) for i in range(200_000)]\n",
        },
        extra_cells=FLOODS,
    )
    assert all(t.points == 0 for t in result.report.tests if not is_prediction(t.grade_id))  # the guesses are right
    assert len(result.autograded.encode()) < 2 * MB
    for cell in code_cells(executed)[-len(FLOODS) :]:
        assert [o.output_type for o in cell.outputs][-1:] == ["error"]  # an error is never left out


def test_a_checks_named_mistakes_are_recorded_as_data_and_a_students_own_are_removed():
    whole_array = "def naive_normalize(scores):\n    x = np.asarray(scores, dtype=float)\n    return x / x.sum()\n"
    result, executed = graded(
        {"naive_normalize": whole_array}, metadata={"grader": {"mistakes": ["a mistake the student wrote in"]}}
    )
    recorded = {
        c.metadata["nbgrader"]["grade_id"]: c.metadata.get("grader")
        for c in executed.cells
        if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata["nbgrader"].get("solution")
    }
    passed = {t.grade_id for t in result.report.tests if t.passed}
    assert passed and all(recorded[name] == {"mistakes": []} for name in passed)
    named = [m for name, value in recorded.items() if name not in passed for m in value["mistakes"]]
    assert "divided by the total of the whole array instead of each row's own total" in named
    assert all(
        "grader" not in c.metadata
        for c in executed.cells
        if c.metadata.get("nbgrader", {}).get("grade_id") not in recorded
    )
    assert "a mistake the student wrote in" not in result.autograded


FLOOD = f'''
import json, time
from grader.course import Course
from grader.course.limits import Limits
from grader.engine import sandbox, testrunner
COURSE = Course(".")  # run from the repository
sandbox.IOPUB_SECONDS = 5  # how long a cell's outputs may trail its reply (30 s when grading)
# A grading busy elsewhere: it reads each large message a quarter of a second late, while the kernel writes on.
read = testrunner.TestsOutsideKernel.output
def late_reader(self, outs, msg, *rest):
    if len(msg["content"].get("text", "")) > 2**20:
        time.sleep(0.25)
    return read(self, outs, msg, *rest)
testrunner.TestsOutsideKernel.output = late_reader
answers = COURSE.reference_answers("{LESSON}")
# 200 MB in messages of 10 MB, which the grading reads but keeps only RECEIVE_LIMIT of; then one message of 150 MB
answers["is_distribution"] += "\\nfor _ in range(20):\\n    print('y' * 10_000_000, flush=True)\\n"
answers["is_distribution"] += "\\nprint('x' * 150_000_000)\\n"
# a time limit the cell's own printing keeps well within on busy cores (at TIMEOUT, this test once failed in a full
# run: the cell can pass its limit there and be interrupted), so what stops this kernel is the wait for its outputs
result = sandbox.autograde_sandboxed(COURSE, "{LESSON}", COURSE.learner_notebook("{LESSON}", answers),
                                     limits=Limits(30), warm=True)
with open("/proc/self/status") as status:  # VmHWM: the most memory it held (ru_maxrss may count its parent's)
    peak = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
print(json.dumps({{"peak": peak, "notebook": result.autograded}}))
'''


def test_output_past_what_the_grading_reads_or_keeps_never_reaches_its_memory():
    """Of many messages, no more than RECEIVE_LIMIT is kept while the cell runs, and no more than RECEIVE_QUEUE wait
    unread when the grading reads late; a message larger than the grading reads ZMQ drops unread, and as the outputs
    never end, the kernel is stopped after the output wait."""
    env = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        [sys.executable, "-c", FLOOD], capture_output=True, text=True, env=env, timeout=300, cwd=COURSE.root
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    # 191 MB measured, on idle and on busy cores; 315 to 335 MB with ZMQ's own queue of unread messages (no
    # RECEIVE_QUEUE); reading the 150 MB would take three times that (567 MB), and keeping the 200 MB 391 MB with no
    # limit per cell (896 MB with neither RECEIVE_LIMIT)
    assert answer["peak"] < 256 * MB
    executed = nbformat.reads(answer["notebook"], as_version=4)
    report = SimpleNamespace(report=scores.report_of(COURSE, executed, LESSON))
    assert_stopped_at(report, executed, "is_distribution", "CellTimeoutError", "timeout")
    assert len(answer["notebook"].encode()) < 2 * MB
