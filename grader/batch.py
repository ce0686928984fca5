"""Grade many lesson notebooks at once: nbgrader's autograde in parallel worker processes.

nbgrader grades one notebook after another; here each worker process grades whole
notebooks in its own throw-away course directory (see selfgrade), so the work spreads
over every core, each worker pays Python's and nbgrader's start-up only once, and its
kernels are forked from a process that has done their imports (see warmkernel).
"""
from __future__ import annotations

import multiprocessing
import os
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import Callable, Iterator

import nbformat

from . import warmkernel
from .selfgrade import Report, autograde_sandboxed, lesson_gradebook


def default_jobs() -> int:
    """Two per core: a grading spends much of its time waiting for its kernel, so cores would sit idle."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return 2 * cores


def in_workers(fn: Callable, calls: list[tuple], jobs: int | None = None, progress=None) -> Iterator[tuple[int, Future]]:
    """Run `fn(*args)` for each args tuple in worker processes; yield (index, finished future) as each ends.

    `progress(done, total, elapsed_seconds)` is called after each. Every lesson's gradebook
    must already be cached (lesson_gradebook), so workers never build one at the same time.
    """
    if not calls:
        return
    start = time.monotonic()
    workers = max(1, min(jobs or default_jobs(), len(calls)))
    if not os.path.exists(os.environ.get(warmkernel.ADDRESS, "")):
        warmkernel.start_zygote()  # one for every worker, before they start
    # Workers fork from a server process that imported the grading code once. Not plain
    # fork: the caller may run threads (pytest-xdist does), and fork copies their locks.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["grader.selfgrade", "grader.warmkernel"])
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        futures = {pool.submit(fn, *args): index for index, args in enumerate(calls)}
        for done, future in enumerate(as_completed(futures), 1):
            yield futures[future], future
            if progress:
                progress(done, len(calls), time.monotonic() - start)


def _grade(lesson: str, notebook_json: str) -> Report:
    return autograde_sandboxed(lesson, nbformat.reads(notebook_json, as_version=4), warm=True).report


def grade_many(items: list[tuple[str, nbformat.NotebookNode]], jobs: int | None = None,
               progress=None) -> list[Report | Exception]:
    """Grade (lesson, notebook) pairs in parallel; the reports come back in the same order.

    A notebook nbgrader could not grade gives its exception in place of a report.
    """
    for lesson in {lesson for lesson, _ in items}:
        lesson_gradebook(lesson)
    reports: list[Report | Exception | None] = [None] * len(items)
    calls = [(lesson, nbformat.writes(nb)) for lesson, nb in items]
    for index, future in in_workers(_grade, calls, jobs, progress):
        reports[index] = future.exception() or future.result()
    again = [index for index, report in enumerate(reports) if isinstance(report, Exception)]
    # A notebook of the catalogue always grades; a failure is the machine's (a kernel that did
    # not start in time on a loaded machine), so each gets one more try.
    for index, future in in_workers(_grade, [calls[i] for i in again], jobs):
        reports[again[index]] = future.exception() or future.result()
    return reports


def print_progress(done: int, total: int, elapsed: float, stream=sys.stderr) -> None:
    """A one-line progress bar with the estimated time left, redrawn in place."""
    width = 30
    filled = round(width * done / total)
    left = elapsed / done * (total - done)
    stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} graded, "
                 f"{elapsed:.0f} s so far, about {left:.0f} s left ")
    if done == total:
        stream.write("\n")
    stream.flush()
