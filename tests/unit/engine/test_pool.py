"""The worker pool (grader.engine.pool): it starts the next call before its caller has dealt with one that ended (a
worker never waits for the instructor's process to record a result); a worker killed while its result leaves it
never hangs the batch; errors come back with their traceback, and what is not an Exception (SystemExit,
KeyboardInterrupt, GeneratorExit) never reaches the caller as it is."""

from __future__ import annotations

import gc
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

from grader.engine import pool
from tests.support import COURSE


def stamp(path: str, index: int) -> int:
    """A call that notes that it started."""
    with open(path, "a") as log:
        log.write(f"{index}\n")
    return index


def started(log: Path) -> set[int]:
    """The calls that have begun, as their log says."""
    return {int(line) for line in log.read_text().splitlines()} if log.exists() else set()


def test_the_next_call_starts_while_the_caller_still_records_the_last(tmp_path):
    log = tmp_path / "started.txt"
    calls = [(str(log), index) for index in range(3)]
    for index, future in pool.in_workers(stamp, calls, jobs=1):
        assert future.result() == index
        # the caller records the result, slowly: it goes back to the pool only once the next call has begun
        deadline = time.monotonic() + 60
        while index + 1 < len(calls) and index + 1 not in started(log):
            assert time.monotonic() < deadline, f"call {index + 1} waits for the caller to record call {index}"
            time.sleep(0.01)
    assert started(log) == {0, 1, 2}


WRITE = {"x86_64": 1, "aarch64": 64}[os.uname().machine]  # the write system call's number


def blocked_writing(thread: int, at_least: int) -> bool:
    """Whether `thread` of this process waits inside a write of `at_least` bytes or more (as on a full pipe)."""
    try:
        with open(f"/proc/self/task/{thread}/syscall") as state:
            number, _, count, *_ = state.read().split()
    except (OSError, ValueError):  # "running", or not in a system call
        return False
    return number == str(WRITE) and int(count, 16) >= at_least


def answer_or_die_while_sending(size: int, dies: bool) -> bytes:
    """`size` bytes; when `dies`, this worker is killed if it ever waits inside a write of a megabyte or more, as
    it does when it sends its result through a pipe whose reader is behind."""
    if dies:
        main = threading.main_thread().native_id

        def watch():
            while not blocked_writing(main, 2**20):
                time.sleep(0.0005)
            os.kill(os.getpid(), signal.SIGKILL)

        threading.Thread(target=watch, daemon=True).start()
    return b"x" * size


# Run apart: if the pool hangs, only that process is stuck, and the timeout ends it.
DIES_WHILE_SENDING = """
from grader.engine import pool
from tests.unit.engine.test_pool import answer_or_die_while_sending
calls = [(64 * 2**20, True), (3 * 2**20, False), (5, False)]
for index, future in pool.in_workers(answer_or_die_while_sending, calls, jobs=2):
    error = future.exception()
    print(index, type(error).__name__ if error else len(future.result()), flush=True)
"""


def test_a_worker_killed_while_its_large_result_leaves_it_does_not_hang_the_batch():
    """A worker killed halfway through sending its result (say by the kernel's out-of-memory killer) once left the
    pool reading the rest of the message forever: the whole batch hung. Now, whether that worker dies (WorkerDied)
    or its result comes whole, the batch ends, with the other calls' results."""
    done = subprocess.run(
        [sys.executable, "-c", DIES_WHILE_SENDING],
        cwd=COURSE.root,
        capture_output=True,
        text=True,
        timeout=300,  # a few seconds, longer on busy cores; a pool that hangs waits for ever
    )
    assert done.returncode == 0, done.stderr[-3000:]
    ended = dict(line.split() for line in done.stdout.splitlines())
    assert ended.pop("0") in ("WorkerDied", str(64 * 2**20)), done.stdout
    assert ended == {"1": str(3 * 2**20), "2": "5"}, done.stdout


def parent_and_frozen() -> tuple[int, bool]:
    return os.getppid(), gc.get_freeze_count() > 0


# Run apart: a process with no thread but its main one, as `grader grade` is.
FORKED = """
import gc, os
from grader.engine import pool
from tests.unit.engine.test_pool import parent_and_frozen
[(_, future)] = pool.in_workers(parent_and_frozen, [()], jobs=1)
print(future.result() == (os.getpid(), True), gc.get_freeze_count() == 0)
"""


def test_a_caller_with_no_other_thread_forks_its_workers_and_its_collector_walks_all_again_after_the_batch():
    """Workers forked from the caller share the pages of its imports (no fork server holds one more copy), and
    what they inherit is frozen for the garbage collector while the batch runs, so no collection writes to those
    pages; once it ends, the caller's collections walk every object again."""
    done = subprocess.run([sys.executable, "-c", FORKED], cwd=COURSE.root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["True", "True"]


def fails(text: str) -> None:
    raise ValueError(text)


def unpicklable() -> object:
    return threading.Lock()


class TwoPartError(Exception):
    """An error that pickle writes but cannot read back: its class wants two arguments, its `args` hold one."""

    def __init__(self, what: str, why: str):
        super().__init__(f"{what}: {why}")


def fails_oddly() -> None:
    raise TwoPartError("bad input", "no reason")


def test_an_error_in_a_worker_comes_back_with_its_traceback_and_an_outcome_pickle_cannot_carry_as_an_error():
    [(_, raised)] = pool.in_workers(fails, [("bad input",)], jobs=1)
    error = raised.exception()
    assert isinstance(error, ValueError) and str(error) == "bad input"
    assert isinstance(error.__cause__, pool.RemoteTraceback) and "in fails" in str(error.__cause__)
    [(_, returned)] = pool.in_workers(unpicklable, [()], jobs=1)
    assert isinstance(returned.exception(), RuntimeError) and "could not send back" in str(returned.exception())
    [(_, unread)] = pool.in_workers(fails_oddly, [()], jobs=1)  # the batch goes on: an error of that call
    assert isinstance(unread.exception(), RuntimeError) and "could not be read back" in str(unread.exception())


STOPPING = {"SystemExit": SystemExit, "KeyboardInterrupt": KeyboardInterrupt, "GeneratorExit": GeneratorExit}


def stops(name: str) -> None:
    raise STOPPING[name]("raised in the worker")


def fails_as_a_class_named(module: str) -> None:
    """An error of a class that names `module`, as the bridge rebuilds a learner's error from what the kernel says."""
    raise type("Refused", (ValueError,), {"__module__": module})("a class named as the kernel said")


def test_what_is_not_an_exception_comes_back_as_a_grader_error_that_names_it():
    """A SystemExit that came back as it was ended the instructor's `grade` with exit status 0, and a worker's
    KeyboardInterrupt could not be told from the instructor's Ctrl-C."""
    calls = [(name,) for name in STOPPING]
    ended = dict(pool.in_workers(stops, calls, jobs=2))
    for index, (name,) in enumerate(calls):
        error = ended[index].exception()
        assert isinstance(error, Exception) and str(error) == f"{name}: raised in the worker", repr(error)
        assert type(error) is pool.GraderError
        assert isinstance(error.__cause__, pool.RemoteTraceback) and "in stops" in str(error.__cause__)


def test_an_error_is_never_sent_back_by_importing_the_module_its_class_names():
    """pickle names a class by its module, which it imports to check: numpy.f2py.__main__ runs f2py, which exits."""
    [(_, ended)] = pool.in_workers(fails_as_a_class_named, [("numpy.f2py.__main__",)], jobs=1)
    error = ended.exception()
    assert isinstance(error, Exception) and str(error) == "Refused: a class named as the kernel said", repr(error)
    assert type(error) is pool.GraderError


def test_read_back_hands_the_caller_no_systemexit_or_keyboardinterrupt(tmp_path):
    interrupted: Future = Future()  # as the pool itself holds a call whose worker was interrupted
    interrupted.set_exception(KeyboardInterrupt())
    error = pool.read_back(interrupted).exception()
    assert isinstance(error, Exception) and str(error) == "KeyboardInterrupt", repr(error)
    written = tmp_path / "outcome"
    written.write_bytes(pickle.dumps(("error", SystemExit(3), "Traceback: ...")))
    spilled: Future = Future()
    spilled.set_result(str(written))
    error = pool.read_back(spilled).exception()
    assert isinstance(error, Exception) and str(error) == "SystemExit: 3" and not written.exists(), repr(error)
    assert type(error) is pool.GraderError
    broken: Future = Future()  # the pool's own errors stay as they are
    broken.set_exception(pool.WorkerDied("died twice"))
    assert type(pool.read_back(broken).exception()) is pool.WorkerDied
