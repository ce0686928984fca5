"""Grading on a cluster as docs/howto/cluster.md prints it, typed in fresh clones: a worker machine's
checkout made by the page's own `git clone` line from the instructor's, its venv, a Dask scheduler and workers over
TCP; then `grade --cluster` on the instructor's machine gives every cell of a class of lesson 01 the score the local
pool gives it.

What the test substitutes, as a user would: <this repository> and <the instructor's commit> (the instructor's clone
and its HEAD), SCHEDULER (127.0.0.1: every machine is this one) and the port 8786 (a free one); `sudo` is dropped (the
tier runs as root in CI; without root the workers grade without isolation, as `grade` does). The instructor's machine
first types the instructor's journey's `export PATH=...` and lesson 01's release; the class (six students in thirds:
reference answers, stubs, a catalogued mistake) is then put where collect puts hand-ins.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import time
from pathlib import Path

import nbformat
import pytest

from grader.course import Course
from grader.instructor.cluster import connect
from grader.instructor.grading import grade_class
from grader.proof.simulate import cell_scores, class_in_thirds, course_with_class, hand_in
from testbed.cluster import zygote_socket
from tests.journey.newcomer import Server, Terminal, free_port, newcomer_environment, quoted, the_command, venv_in
from tests.support import COURSE, journey_commands

pytestmark = pytest.mark.journey

LESSON = "01_naive_division"  # the lesson the instructor's journey releases
STUDENTS = 6
START_SECONDS = 300  # the workers import the grader and start their zygotes, on cores other tests share
# The page's cluster commands, in order: what each is, and how the test knows it.
STEPS = {
    "a machine's checkout": r"^git clone ",
    "its venv": r"^make venv$",
    "the scheduler": r"dask scheduler ",
    "the workers": r"dask worker ",
    "the instructor's grade": r"^python -m grader grade --cluster ",
}


def on_this_machine(command: str, port: int) -> str:
    """A cluster command of the page with this machine as every machine: SCHEDULER is 127.0.0.1, its port a free one."""
    return re.sub(r"^sudo ", "", command).replace("SCHEDULER", "127.0.0.1").replace("8786", str(port))


def workers_ready(started: list[Server], port: int, count: int) -> list[Path]:
    """Wait until `count` workers have joined the scheduler (the test fails, naming the command, if the scheduler or
    the workers end first); the folders of their kernel zygotes."""
    started[0].printed(rf"Scheduler at:\s+tcp://\S+:{port}")
    deadline = time.monotonic() + START_SECONDS
    with connect(f"tcp://127.0.0.1:{port}", timeout=START_SECONDS) as client:
        while len(client.nthreads()) < count:
            for server in started:
                server.still_running()
            assert time.monotonic() < deadline, f"{len(client.nthreads())} of {count} workers after {START_SECONDS} s"
            time.sleep(0.5)
        return [Path(socket).parent for socket in client.run(zygote_socket).values() if socket]


def test_the_cluster_commands_grade_as_the_local_pool_does(clone, tmp_path):
    cluster = journey_commands("cluster", clone)
    steps = [the_command(cluster, pattern, "cluster") for pattern in STEPS.values()]
    assert steps == list(range(len(cluster))), f"the cluster page's commands are not {list(STEPS)}: {cluster}"
    checkout, venv, scheduler, workers, grade = cluster
    instructor = journey_commands("instructor", clone)
    path = instructor[the_command(instructor, r"^export PATH=", "instructor")]
    release = instructor[the_command(instructor, rf"^python -m grader release {LESSON}$", "instructor")]
    port, count = free_port(), int(re.search(r"--nworkers (\d+)", workers)[1])
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=clone, capture_output=True, text=True, check=True)

    class_ = class_in_thirds(COURSE, STUDENTS, [LESSON])
    at_the_instructor = Terminal(clone, newcomer_environment(clone, tmp_path / "instructor-home"), "cluster-instructor")
    elsewhere = tmp_path / "worker-machine"  # where the worker machine's checkout is made
    elsewhere.mkdir()
    at_a_worker = Terminal(elsewhere, newcomer_environment(elsewhere, tmp_path / "worker-home"), "cluster-worker")
    started, zygotes = [], []
    with contextlib.ExitStack() as leaving:
        leaving.callback(at_the_instructor.close)
        leaving.callback(at_a_worker.close)
        at_the_instructor.type(path)
        at_the_instructor.type(release)
        for student in sorted({s for s, _ in class_}):  # handed in, and collected
            hand_in(clone, student, LESSON, nbformat.writes(class_[student, LESSON]).encode())

        repository = checkout.replace("<this repository>", quoted(clone))
        at_a_worker.type(repository.replace("<the instructor's commit>", commit.stdout.strip()))
        machine = at_a_worker.cwd()
        assert machine.parent == elsewhere, machine  # in the checkout the line made
        leaving.enter_context(venv_in(machine))
        at_a_worker.quietly(f"export PYTHONPATH={quoted(machine)}")  # the checkout's package (see newcomer.py)
        assert "-m venv" not in at_a_worker.type(venv)  # the venv is there: nothing rebuilt

        def stop_everything() -> None:
            for server in reversed(started):
                server.stop()
            for folder in zygotes:  # a zygote removes its own once its worker is gone, but not always in time
                shutil.rmtree(folder, ignore_errors=True)

        leaving.callback(stop_everything)
        for name, command in (("scheduler", scheduler), ("workers", workers)):
            started.append(at_a_worker.start(on_this_machine(command, port), f"cluster-{name}"))
        local = Course(course_with_class(COURSE, tmp_path / "local-pool", [LESSON], class_))  # while workers start
        pooled = grade_class(local)
        assert not pooled.failed, pooled.render()
        expected = cell_scores(local, [LESSON])
        zygotes += workers_ready(started, port, count)

        graded = at_the_instructor.type(on_this_machine(grade, port))
        assert f"Graded {STUDENTS} submission(s)" in graded, graded
        assert cell_scores(Course(clone), [LESSON]) == expected
