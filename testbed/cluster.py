"""A Dask cluster of this machine's processes, as `grade --cluster` meets one: a scheduler and workers preloaded with
grader.engine.clusterworker. The cluster tests (`make test-cluster`, the cluster journey) and benchmarks/cluster.py
grade on it."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

from grader.engine import warmkernel
from grader.instructor.cluster import connect

REPOSITORY = Path(__file__).resolve().parent.parent
START_SECONDS = 120  # a worker imports the grader and starts its zygote before it registers


@contextlib.contextmanager
def local_cluster(folder: Path, worker_course: Path, workers: int, nanny: bool = False):
    """`dask scheduler` and `workers` × `dask worker` on 127.0.0.1 (one thread each; without a nanny, a killed
    worker stays dead), each a subprocess in a session of its own, preloaded with grader.engine.clusterworker
    and told to grade against `worker_course`. Yields (address, {worker name: process}); every process, with
    what it started, is killed on the way out. Children get this checkout's package (PYTHONPATH)."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"  # nbgrader's alembic
    dask = str(Path(sys.executable).with_name("dask"))
    started: list[subprocess.Popen] = []
    zygotes: list[Path] = []

    def start(name: str, *args: str) -> subprocess.Popen:
        with open(folder / f"{name}.log", "w") as log:
            started.append(subprocess.Popen([dask, *args], stdout=log, stderr=log, env=env, start_new_session=True))
        return started[-1]

    try:
        port = free_port()
        address = f"tcp://127.0.0.1:{port}"
        start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
        named = {
            f"w{n}": start(
                f"w{n}",
                *("worker", address, "--name", f"w{n}", "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"),
                *(() if nanny else ("--no-nanny",)),
                *("--local-directory", str(folder / f"w{n}-space")),
                *("--preload", "grader.engine.clusterworker", "--course", str(worker_course)),
            )
            for n in range(1, workers + 1)
        }
        with connect(address, timeout=START_SECONDS) as client:
            client.wait_for_workers(workers, timeout=START_SECONDS)
            zygotes += [Path(socket).parent for socket in client.run(zygote_socket).values() if socket]
        yield address, named
    finally:
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # its session; a worker's zygote leads one of its own
            process.wait()
        for folder in zygotes:  # a zygote removes its own once its worker is gone, but not always in time
            shutil.rmtree(folder, ignore_errors=True)


def zygote_socket() -> str | None:
    """On a worker: the socket of the zygote its preload started."""
    return os.environ.get(warmkernel.ADDRESS)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
