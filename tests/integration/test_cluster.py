"""`grade --cluster`: a real Dask scheduler and two real `dask worker` processes over TCP on 127.0.0.1, started
here as subprocesses, grade a small simulated class as the local pool does; a worker killed mid-run loses no
submission; a worker with another version of the lesson refuses it; no scheduler is one error line."""

from __future__ import annotations

import fractions
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from grader.course import Course
from grader.course.limits import Limits
from grader.engine import clusterworker
from grader.engine.pool import print_progress
from grader.instructor.cluster import connect
from grader.instructor.grading import grade_class
from grader.proof.simulate import cell_scores, class_in_thirds, course_with_class
from testbed.cluster import free_port, local_cluster, zygote_socket
from tests.support import COURSE, once_per_run, tools_env

pytestmark = [pytest.mark.cluster, pytest.mark.xdist_group("cluster-class")]

LESSON = "01_naive_division"
STUDENTS = 6


def build(folder: Path) -> None:
    """The class, graded once by the local pool (the expected scores), and a worker's copy of its course."""
    course_with_class(COURSE, folder / "class", [LESSON], class_in_thirds(COURSE, STUDENTS, [LESSON]))
    shutil.copytree(folder / "class", folder / "worker-course", ignore=shutil.ignore_patterns(".grading"))
    shutil.copytree(folder / "class", folder / "local")
    log = grade_class(Course(folder / "local"))
    assert not log.failed, log.render()
    scores = sorted(cell_scores(Course(folder / "local"), [LESSON]).items())
    (folder / "local-scores.json").write_text(json.dumps(scores))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return once_per_run(tmp_path_factory, "cluster-class", build)


def local_scores(built: Path) -> dict:
    return {tuple(key): value for key, value in json.loads((built / "local-scores.json").read_text())}


def grader_command(*args: str) -> subprocess.CompletedProcess:
    """`python -m grader ...` of this checkout, in a process of its own."""
    command = [sys.executable, "-m", "grader", *args]
    env = tools_env(PYTHONPATH=str(COURSE.root))
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)


def copy_of_class(built: Path, into: Path) -> Course:
    shutil.copytree(built / "class", into)
    return Course(into)


def test_the_cluster_grades_as_the_local_pool_does_and_shows_progress(built, tmp_path):
    course = copy_of_class(built, tmp_path / "class")
    with local_cluster(tmp_path / "dask", built / "worker-course", workers=2) as (address, _):
        seen: list[tuple[int, int, float]] = []
        with connect(address) as client:
            before = client.run(zygote_socket)
        log = grade_class(course, cluster=address, progress=lambda *step: seen.append(step))
        with connect(address) as client:  # each worker kept the one zygote its preload started
            zygotes = client.run(zygote_socket)
            assert all(map(os.path.exists, zygotes.values()))  # still there, as the cluster runs
            with pytest.raises(TypeError, match="only able to deserialize data with"):  # no pickle comes back
                client.submit(fractions.Fraction, 1, 3, pure=False).result()
    assert not log.failed, log.render()
    assert cell_scores(course, [LESSON]) == local_scores(built)
    graded = len(log.graded)
    assert graded >= STUDENTS - 1 and [done for done, _, _ in seen] == list(range(1, graded + 1))
    assert {total for _, total, _ in seen} == {graded}
    assert [elapsed for _, _, elapsed in seen] == sorted(elapsed for _, _, elapsed in seen)
    assert zygotes == before and len(set(zygotes.values())) == 2 and all(zygotes.values())
    shown = io.StringIO()
    for step in seen:
        print_progress(*step, stream=shown)
    assert shown.getvalue().endswith(f"] {graded}/{graded} graded, {seen[-1][2]:.0f} s so far, about 0 s left \n")


def test_a_worker_killed_mid_run_loses_nothing_and_grades_nothing_twice(built, tmp_path):
    course = copy_of_class(built, tmp_path / "class")
    with local_cluster(tmp_path / "dask", built / "worker-course", workers=2) as (address, workers):
        killed: dict[str, list] = {}

        def kill_a_busy_worker(done, total, elapsed):
            if killed:
                return
            with connect(address) as client:
                for worker, keys in client.processing().items():
                    name = client.scheduler_info()["workers"][worker]["name"]
                    if keys and name in workers:
                        workers[name].send_signal(signal.SIGKILL)
                        killed[name] = list(keys)
                        return

        log = grade_class(course, cluster=address, progress=kill_a_busy_worker)
        (name,) = killed
        assert workers[name].wait(10) == -signal.SIGKILL and killed[name]  # it died while grading one
    assert not log.failed, log.render()
    assert len(log.graded) == len({(student, lesson) for student, lesson, *_ in log.graded}) >= STUDENTS - 1
    assert cell_scores(course, [LESSON]) == local_scores(built)
    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gradebook:
        assert len(gradebook.find_assignment(LESSON).submissions) == len(log.graded)


def test_a_worker_with_another_version_of_the_lesson_refuses_it(built, tmp_path):
    course = copy_of_class(built, tmp_path / "class")
    other = tmp_path / "other-course"
    shutil.copytree(built / "worker-course", other)
    source = Course(other).source_notebook(LESSON)
    nb = nbformat.read(source, as_version=4)
    nb.cells[-1].source += "\n# another version of the tests"
    nbformat.write(nb, source)
    with local_cluster(tmp_path / "dask", other, workers=1) as (address, _):  # through the command line
        ran = grader_command("--course", str(course.root), "grade", "--cluster", address)
    refused = [line for line in ran.stdout.splitlines() if f"has another version of the lesson {LESSON}" in line]
    assert ran.returncode == 1 and "Graded 0 submission(s)" in ran.stdout, ran.stdout + ran.stderr
    assert len(refused) >= STUDENTS - 1 and f"Could not grade {len(refused)}:" in ran.stdout, ran.stdout
    with Gradebook(course.nbgrader_config().CourseDirectory.db_url) as gradebook:  # nothing recorded
        assert gradebook.find_assignment(LESSON).submissions == []


def test_a_worker_refuses_a_lesson_it_lacks_or_a_different_installation(tmp_path):
    """The worker side alone (no cluster): grade_task answers a refusal as JSON text, never grading."""
    call = (str(COURSE.root), LESSON, b"{}", None, [], Limits(5, 40, 512))
    lacking = tmp_path / "course"
    lacking.mkdir()
    shutil.copy(COURSE.root / "nbgrader_config.py", lacking)
    (lacking / "solutions").mkdir()
    task = json.loads(clusterworker.task(call, clusterworker.lesson_digest(COURSE, LESSON)))
    answer = json.loads(clusterworker.grade_task(json.dumps({**task, "course": str(lacking)})))
    assert answer == {"failed": answer["failed"]} and f"lacks the lesson {LESSON}" in answer["failed"]
    other = json.loads(clusterworker.grade_task(json.dumps({**task, "versions": {"nbgrader": "0.0"}})))
    assert "install the same" in other["failed"]


def test_no_scheduler_is_one_error_line_and_exit_1(built, tmp_path):
    course = copy_of_class(built, tmp_path / "class")
    start = time.monotonic()
    ran = grader_command("--course", str(course.root), "grade", "--cluster", f"tcp://127.0.0.1:{free_port()}")
    lines = [line for line in ran.stderr.splitlines() if not line.startswith("warning: not running as root")]
    assert ran.returncode == 1 and len(lines) == 1, ran.stderr
    assert lines[0].startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:"), ran.stderr
    assert ran.stdout == "" and time.monotonic() - start < 60


def test_the_benchmark_prints_the_overhead_of_the_cluster_path(tmp_path):
    figures_at = tmp_path / "figures.json"
    command = ["benchmarks/cluster.py", "--students", "3", "--runs", "1", "--workers", "2", "--json", str(figures_at)]
    ran = subprocess.run(
        [sys.executable, *command], cwd=COURSE.root, capture_output=True, text=True, env=tools_env(), timeout=900
    )
    assert ran.returncode in (0, 1), ran.stderr  # 1: over the allowed overhead (a busy machine), still measured
    figures = json.loads(figures_at.read_text())
    assert figures["submissions"] == 3 and len(figures["pool_wall_s"]) == len(figures["cluster_wall_s"]) == 1
    per_submission = (figures["cluster_wall_s"][0] - figures["pool_wall_s"][0]) / 3
    assert abs(figures["overhead_per_submission_s"] - per_submission) < 1e-9
    assert f"overhead of the cluster path: {per_submission:+.2f} s per submission" in ran.stdout
