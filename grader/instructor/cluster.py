"""The instructor's side of grading on a Dask cluster: submissions out to the workers, plain results back.

`grade --cluster tcp://HOST:PORT` hands each submission to a running Dask scheduler as one task of
grader.engine.clusterworker.grade_task (a JSON text in, a JSON text out) and yields the outcomes as
they end, as the local pool does, so grading records them into the gradebook here and only here.
A worker that dies takes no submission with it: the scheduler runs its tasks again on the others.
"""

from __future__ import annotations

import itertools
import json
import logging
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future

from grader.course import Course
from grader.course.nbgrader_calls import GradingFailed
from grader.engine import clusterworker
from grader.engine.grade import named_error
from grader.engine.pool import GraderError, WorkerDied

RETRIES = 2  # times a task that raised on a worker is tried again (a dead worker's tasks are rerun anyway)
CONNECT_SECONDS = 10


class SchedulerUnreachable(RuntimeError):
    """No Dask scheduler answers at the address given."""


def connect(address: str, timeout: float = CONNECT_SECONDS):
    """A client of the scheduler at `address` that decodes results with msgpack only, never pickle: a result
    that is not plain data is refused. (A task's exception would still come pickled, as Dask sends errors;
    grade_task sends every failure back as text, so none is raised.)"""
    from distributed import Client

    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # the one line the command prints says it all
    try:
        return Client(address, timeout=timeout, set_as_default=False, deserializers=["msgpack"])
    except (OSError, TimeoutError) as error:
        raise SchedulerUnreachable(f"cannot reach the Dask scheduler at {address} ({error})") from None


def in_cluster(client, course: Course, calls: Sequence[tuple], progress=None) -> Iterator[tuple[int, Future]]:
    """grade_submission for each args tuple of `calls` on the cluster's workers; yield (index, finished
    future holding its data) as each ends, and call `progress(done, total, elapsed_seconds)` after each.

    At most two tasks per worker thread are out at once, so the class is never all in memory.
    What a worker sends back must be a str: it is read with json.loads, and anything else is an error."""
    from distributed import as_completed

    if not calls:
        return
    start = time.monotonic()
    window = max(4, 2 * sum(client.nthreads().values()))
    pending = iter(range(len(calls)))
    index_of = {}
    digests: dict[str, str] = {}  # lesson -> its digest, read once per batch

    def send(index: int):
        lesson = calls[index][1]
        if lesson not in digests:
            digests[lesson] = clusterworker.lesson_digest(course, lesson)
        text = clusterworker.task(calls[index], digests[lesson])
        future = client.submit(clusterworker.grade_task, text, retries=RETRIES, pure=False)
        index_of[future.key] = index
        return future

    running = as_completed([send(index) for index in itertools.islice(pending, window)], loop=client.loop)
    for done, future in enumerate(running, 1):
        index = index_of.pop(future.key)
        yield index, _plain(future)
        future.release()
        for following in pending:
            running.add(send(following))
            break
        if progress:
            progress(done, len(calls), time.monotonic() - start)


def _plain(future) -> Future:
    """A finished dask future as a concurrent one holding grade_submission's data, or the failure."""
    from distributed import KilledWorker

    plain: Future = Future()
    try:
        try:
            text = future.result()
        except KilledWorker:
            raise WorkerDied(
                "each worker the scheduler gave it to died while grading it (killed, or it crashed), "
                "as many times as its distributed.scheduler.allowed-failures allows"
            ) from None
        except Exception as error:  # the cluster's failure (a worker or scheduler without the package, say)
            raise GradingFailed(f"the cluster could not run it ({named_error(error)})") from None
        plain.set_result(outcome_of(text))
    except Exception as error:  # noqa: BLE001 - each ends as its submission's failure
        plain.set_exception(error)
    return plain


def outcome_of(text) -> dict:
    """grade_submission's data from what a worker sent back (clusterworker.grade_task's JSON text); its failure
    raised as GradingFailed, and what stopped its grading as GraderError, as the local pool gives it."""
    if not isinstance(text, str):
        raise TypeError(f"a worker sent back a {type(text).__name__}, not JSON text")
    answer = json.loads(text)
    if "failed" in answer:
        raise GradingFailed(str(answer["failed"]))
    if "error" in answer:
        raise GraderError(str(answer["error"]))
    return answer["outcome"]
