"""The worker pool (grader.engine.pool) starts the next call before its caller has dealt with one that ended:
a worker never waits for the instructor's process to record a result."""

from __future__ import annotations

import time

from grader.engine import pool


def stamp(path: str, index: int) -> int:
    """A call that notes when it started."""
    with open(path, "a") as log:
        log.write(f"{index} {time.time()}\n")
    return index


def test_the_next_call_starts_while_the_caller_still_records_the_last(tmp_path):
    log = tmp_path / "started.txt"
    calls = [(str(log), index) for index in range(3)]
    resumed = []
    for _, future in pool.in_workers(stamp, calls, jobs=1):
        future.result()
        time.sleep(0.5)  # the caller recording a result, slowly
        resumed.append(time.time())
    started = {int(index): float(when) for index, when in (line.split() for line in log.read_text().splitlines())}
    assert sorted(started) == [0, 1, 2]
    assert started[1] < resumed[0] and started[2] < resumed[1]  # each began before the caller was done with the last
