"""Grade many lesson notebooks at once: nbgrader's autograde in parallel worker processes.

nbgrader grades one notebook after another; here each worker process grades whole
notebooks in its own throw-away course directory (see sandbox), so the work spreads
over every core, each worker pays Python's and nbgrader's start-up only once, and its
kernels are forked from a process that has done their imports (see warmkernel).
Workers are forks of the caller, which has imported the grading code, so they share its
memory rather than each holding a copy of nbgrader (see _start_method).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import multiprocessing
import multiprocessing.forkserver
import os
import pickle
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING

import nbformat

from grader.course import Course
from grader.engine import warmkernel

if TYPE_CHECKING:  # imported here, the scores' nbgrader (more than half a second) would delay start_early's zygote
    from grader.engine.scores import Report

# What the workers need imported before they are forked (by the caller, or by a fork server).
WORKER_PRELOAD = ["grader.engine.sandbox", "grader.engine.warmkernel"]


def default_jobs() -> int:
    """One per core and one more: a grading spends part of its time waiting for its kernel, so cores would sit
    idle with one per core, and each grading at once holds about 70 MB more (its worker's and its kernel's own
    pages), which two per core would spend for little time."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores + 1


def start_early() -> None:
    """Start the kernel zygote (and the workers' fork server, when they need one) now, without waiting.

    Each imports for a second or more (NumPy, matplotlib, ipykernel; nbgrader); started before
    the caller's own imports and set-up (nbgrader, the lessons' gradebooks), it imports beside
    it on the other cores, and the first kernel (or worker) is ready sooner. Each listens on a
    socket made before it starts, so a request sent while it imports waits there."""
    warmkernel.ensure_zygote()  # first: a fork server inherits its address
    if not _forks_safely():
        _fork_server()
        multiprocessing.forkserver.ensure_running()


def _forks_safely() -> bool:
    """Whether this process runs no thread but its main one: a fork copies the locks other threads hold."""
    return threading.active_count() == 1


def _fork_server():
    """The start method of workers forked from a server process that imported the grading code once."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(WORKER_PRELOAD)
    return context


@contextlib.contextmanager
def _start_method():
    """The workers' start method, for one batch: plain fork, so every worker shares the pages of this process's
    imports (nbgrader's, NumPy's: about 80 MB) rather than a copy of its own; a fork server when this process
    runs other threads (pytest-xdist's do).

    While the batch runs, what the workers inherit is frozen (gc.freeze): Python's collections, here and in
    them, never walk it, so they never write to its pages, which stay shared (about 30 MB per worker)."""
    if not _forks_safely():
        yield _fork_server()
        return
    for module in WORKER_PRELOAD:
        importlib.import_module(module)
    gc.collect()  # the garbage goes first: frozen, it would stay
    gc.freeze()
    try:
        yield multiprocessing.get_context("fork")
    finally:
        gc.unfreeze()


class WorkerDied(RuntimeError):
    """The worker process grading a call died (killed, or crashed) twice, the second time grading it alone."""


class GraderError(RuntimeError):
    """A call in a worker ended with what is not an Exception (a SystemExit, KeyboardInterrupt, GeneratorExit), or
    with an error of a class that pickle could only name by importing its module: it comes back as this plain
    error, which names it. So nothing a call raises stops the caller, a KeyboardInterrupt the caller sees is its
    own (the instructor's Ctrl-C), and no module is imported by a name that an error (one the bridge rebuilt from
    what a kernel said, say) gives."""


def plain(error: BaseException) -> Exception:
    """`error` if it is an Exception of a module this process has imported, else a GraderError that names it."""
    if isinstance(error, Exception) and type(error).__module__ in sys.modules:
        return error
    return GraderError(f"{type(error).__name__}: {error}".rstrip(": "))


class RemoteTraceback(Exception):
    """The `__cause__` of an error raised in a worker: the traceback it had there, as text."""

    def __str__(self) -> str:
        return self.args[0]


def in_workers(
    fn: Callable, calls: Sequence[tuple], jobs: int | None = None, progress=None
) -> Iterator[tuple[int, Future]]:
    """Run `fn(*args)` for each args tuple in worker processes; yield (index, finished future) as each ends.

    `progress(done, total, elapsed_seconds)` is called after each. Every lesson's gradebook
    must already be cached (lesson_gradebook), so workers never build one at the same time.

    A worker that dies (killed, or a crash in the grading process) takes the pool with it:
    the calls it and the others were running are tried again, each alone in a new pool; one
    that kills that worker too ends as a future holding WorkerDied. The rest go on in a new pool.
    Each call's outcome comes back through a file (spilled), never whole through the pool's pipe.
    """
    if not calls:
        return
    start = time.monotonic()
    workers = max(1, min(jobs or default_jobs(), len(calls)))
    warmkernel.ensure_zygote()  # one for every worker, before they start
    waiting = list(range(len(calls)))
    with _start_method() as context, tempfile.TemporaryDirectory(prefix="softmax-outcomes-") as folder:
        spilled_calls = [(folder, fn, *args) for args in calls]

        def ended():
            while waiting:
                stopped: list[int] = []
                yield from _until_a_worker_dies(spilled, spilled_calls, waiting, workers, context, stopped)
                for index in stopped:  # each alone: one whose worker dies again is the cause
                    yield index, _alone(spilled, spilled_calls[index], context)

        for done, (index, future) in enumerate(ended(), 1):
            yield index, read_back(future)
            if progress:
                progress(done, len(calls), time.monotonic() - start)


def spilled(folder: str, fn: Callable, *args) -> str:
    """fn(*args), run in a worker: its outcome (result, or error and traceback) pickled to a new file in `folder`,
    whose path is what the worker sends back.

    The pool sends a result through a pipe, and once it has read the start of a message it reads the rest before
    it looks at its workers again: a worker killed halfway through sending a large result (by the kernel's
    out-of-memory killer, or a person) would leave the whole batch waiting forever. A path goes in one write, which
    no death can cut in two; a worker that dies while it writes the file dies before it has sent anything."""
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C stops the call (idle_worker)
    try:
        outcome: tuple = ("result", fn(*args))
    except BaseException as error:  # noqa: BLE001 - as the pool itself would send it back, but never one that stops
        outcome = ("error", plain(error), "".join(traceback.format_exception(error)))
    finally:
        idle_worker()
    handle, path = tempfile.mkstemp(dir=folder)
    with os.fdopen(handle, "wb") as file:
        try:
            pickle.dump(outcome, file)
        except BaseException as error:  # noqa: BLE001 - an outcome that cannot be pickled (pickle imports the
            # module an error's class names, which may exit)
            file.seek(0)
            file.truncate()
            unsent = RuntimeError(f"the worker could not send back what it ended with: {error!r}")
            pickle.dump(("error", unsent, ""), file)
    return path


def idle_worker() -> None:
    """A worker waiting for a call ignores Ctrl-C (which the terminal sends to the whole process group): it is the
    instructor's, and stops the instructor's process, whose pool then ends its workers; a worker interrupted while
    it waits would die printing a traceback. A call running when it comes is stopped by it (spilled)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def read_back(future: Future) -> Future:
    """The future of a `spilled` call, with the outcome its worker wrote (its file then removed); a future holding
    the pool's own error (BrokenProcessPool, WorkerDied) as it is. Nothing a call ended with stops the batch: an
    outcome that cannot be read back is an error of that call, and one that is not an Exception comes as a
    GraderError (plain)."""
    ended: Future = Future()
    failed = future.exception()
    if failed is not None:
        ended.set_exception(plain(failed))
        return ended
    path = future.result()
    try:
        with open(path, "rb") as file:
            kind, *outcome = pickle.load(file)
    except Exception as unreadable:  # what pickle writes but cannot read (an error class that wants more arguments)
        ended.set_exception(RuntimeError(f"what the worker ended with could not be read back: {unreadable!r}"))
        return ended
    finally:
        with contextlib.suppress(OSError):  # already gone, or not removable: its temporary folder goes anyway
            os.unlink(path)
    if kind == "result":
        ended.set_result(outcome[0])
    else:
        error, text = plain(outcome[0]), outcome[1]
        if text:
            error.__cause__ = RemoteTraceback(text)
        ended.set_exception(error)
    return ended


def _until_a_worker_dies(fn, calls, waiting: list[int], workers: int, context, stopped: list[int]):
    """Yield (index, future) of the calls in `waiting` as each ends, at most `workers` running at once
    (so a dying worker takes with it only calls that were running). When a worker dies, the calls
    that were running go into `stopped`, and `waiting` keeps the ones not started."""
    running: dict[Future, int] = {}

    def start_more() -> bool:
        """Start waiting calls while fewer than `workers` run; False if the pool broke (a worker died between calls)."""
        try:
            while waiting and len(running) < workers:
                future = pool.submit(fn, *calls[waiting[0]])
                running[future] = waiting.pop(0)
        except BrokenProcessPool:
            return False
        return True

    with ProcessPoolExecutor(workers, mp_context=context, initializer=idle_worker) as pool:
        while waiting or running:
            broken = not start_more()
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            if broken or any(isinstance(future.exception(), BrokenProcessPool) for future in finished):
                wait(running)  # a broken pool ends every call it still had
                for future, index in running.items():
                    if isinstance(future.exception(), BrokenProcessPool):
                        stopped.append(index)
                    else:
                        yield index, future
                if not running and waiting:
                    stopped.append(waiting.pop(0))  # a pool that breaks before any call: the next goes alone
                return
            ended = [(running.pop(future), future) for future in finished]
            start_more()  # the next calls run while the caller records these (a broken pool is seen next round)
            yield from ended


def _alone(fn, args: tuple, context) -> Future:
    """fn(*args) in a pool of its own; a future holding WorkerDied if that worker dies too."""
    again: list[int] = []
    finished = list(_until_a_worker_dies(fn, [args], [0], 1, context, again))
    if finished:
        return finished[0][1]
    died: Future = Future()
    died.set_exception(
        WorkerDied(
            "the grading process died twice while grading it (killed, or it crashed), the second time grading it alone"
        )
    )
    return died


def _grade(course_root: str, lesson: str, notebook_json: str) -> Report:
    from grader.engine.sandbox import autograde_sandboxed

    report = autograde_sandboxed(
        Course(Path(course_root)), lesson, nbformat.reads(notebook_json, as_version=4), warm=True
    ).report
    assert report is not None, "autograde always reports (only a notebook never graded has no report)"
    return report


def grade_many(
    course: Course, items: list[tuple[str, nbformat.NotebookNode]], jobs: int | None = None, progress=None
) -> list[Report | BaseException]:
    """Grade (lesson, notebook) pairs of `course` in parallel; the reports come back in the same order.

    A notebook nbgrader could not grade gives its exception in place of a report.
    """
    from grader.course.gradebook import lesson_gradebook

    for lesson in {lesson for lesson, _ in items}:
        lesson_gradebook(course, lesson)
    reports: dict[int, Report | BaseException] = {}  # item index -> its report, as each worker ends
    calls = [(str(course.root), lesson, nbformat.writes(nb)) for lesson, nb in items]
    for index, future in in_workers(_grade, calls, jobs, progress):
        reports[index] = future.exception() or future.result()
    again = [index for index, report in sorted(reports.items()) if isinstance(report, Exception)]
    # A notebook of the catalogue always grades; a failure is the machine's (a kernel that did
    # not start in time on a loaded machine), so each gets one more try.
    for index, future in in_workers(_grade, [calls[i] for i in again], jobs):
        reports[again[index]] = future.exception() or future.result()
    return [reports[index] for index in range(len(items))]


def print_progress(done: int, total: int, elapsed: float, stream=sys.stderr) -> None:
    """A one-line progress bar with the estimated time left, redrawn in place."""
    width = 30
    filled = round(width * done / total)
    left = elapsed / done * (total - done)
    stream.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} graded, "
        f"{elapsed:.0f} s so far, about {left:.0f} s left "
    )
    if done == total:
        stream.write("\n")
    stream.flush()
