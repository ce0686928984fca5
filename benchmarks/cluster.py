"""The local pool against a Dask cluster on the same machine: what the cluster path costs per submission.

One class in thirds (grader/proof/simulate.py) is graded, each run, by `grade_class` with the local
pool and by `grade_class(cluster=...)` on one `dask scheduler` and N `dask worker` processes of this
machine (one thread each, N = the pool's jobs, so both grade as many submissions at once), started
before the timing (their start-up is reported apart). The order alternates between runs. Both must
give every cell the same score. The overhead is the cluster's wall time per submission less the
pool's: the JSON tasks, the scheduler's round trips, the workers' own processes.

    .venv/bin/python benchmarks/cluster.py [--students 24] [--runs 3] [--workers N] [--lesson ID] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # run as a script: the repository's package and testbed/
from grader.course import Course  # noqa: E402
from grader.course.gradebook import lesson_gradebook  # noqa: E402
from grader.engine.pool import default_jobs  # noqa: E402
from grader.instructor.grading import grade_class  # noqa: E402
from grader.proof.simulate import cell_scores, class_in_thirds, course_with_class  # noqa: E402
from testbed.cluster import local_cluster  # noqa: E402

COURSE = Course(REPOSITORY)
ALLOWED_OVERHEAD = 0.15  # the cluster path may cost at most this much more per submission than the pool


def timed(course: Course, lesson: str, cluster: str | None) -> tuple[float, dict]:
    start = time.monotonic()
    log = grade_class(course, [lesson], cluster=cluster)
    wall = time.monotonic() - start
    if log.failed:
        raise SystemExit(log.render())
    return wall, cell_scores(course, [lesson])


def measure(students: int, runs: int, workers: int, lesson: str, folder: Path) -> dict:
    class_ = course_with_class(COURSE, folder / "class", [lesson], class_in_thirds(COURSE, students, [lesson]))
    worker_course = folder / "worker-course"
    shutil.copytree(class_, worker_course, ignore=shutil.ignore_patterns(".grading"))
    lesson_gradebook(Course(worker_course), lesson)  # as a worker machine has after its first batch
    started = time.monotonic()
    walls: dict[str, list[float]] = {"pool": [], "cluster": []}
    with local_cluster(folder / "dask", worker_course, workers) as (address, _):
        startup = time.monotonic() - started
        for run in range(runs):
            order = ["pool", "cluster"] if run % 2 == 0 else ["cluster", "pool"]
            scores = {}
            for way in order:
                copy = folder / f"run{run}-{way}"
                shutil.copytree(class_, copy)
                wall, scores[way] = timed(Course(copy), lesson, address if way == "cluster" else None)
                walls[way].append(wall)
            if scores["pool"] != scores["cluster"]:
                raise SystemExit("the cluster and the local pool gave different scores")
    graded = students
    pool, cluster = statistics.median(walls["pool"]), statistics.median(walls["cluster"])
    return {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "cores": len(os.sched_getaffinity(0)),
        "load_average_at_end": os.getloadavg()[0],
        "lesson": lesson,
        "submissions": graded,
        "runs": runs,
        "workers": workers,
        "pool_jobs": workers,
        "cluster_start_s": startup,
        "pool_wall_s": walls["pool"],
        "cluster_wall_s": walls["cluster"],
        "pool_per_submission_s": pool / graded,
        "cluster_per_submission_s": cluster / graded,
        "overhead_per_submission_s": (cluster - pool) / graded,
        "overhead_fraction": cluster / pool - 1,
    }


def render(figures: dict) -> str:
    within = figures["overhead_fraction"] <= ALLOWED_OVERHEAD
    return "\n".join(
        [
            f"{figures['submissions']} submissions of {figures['lesson']}, {figures['runs']} run(s), "
            f"{figures['cores']} cores; {figures['workers']} workers (one thread each) against a pool of "
            f"{figures['pool_jobs']}; load average {figures['load_average_at_end']:.1f} at the end",
            f"  cluster start-up (scheduler and workers, apart): {figures['cluster_start_s']:.1f} s",
            f"  local pool: {figures['pool_per_submission_s']:.2f} s per submission (median wall)",
            f"  cluster:    {figures['cluster_per_submission_s']:.2f} s per submission (median wall)",
            f"  overhead of the cluster path: {figures['overhead_per_submission_s']:+.2f} s per submission "
            f"({figures['overhead_fraction']:+.0%}; allowed {ALLOWED_OVERHEAD:.0%}: "
            f"{'within' if within else 'OVER'})",
        ]
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=24)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=default_jobs(), help="default: the pool's jobs")
    parser.add_argument("--lesson", default="01_naive_division")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="softmax-cluster-benchmark-") as folder:
        figures = measure(args.students, args.runs, args.workers, args.lesson, Path(folder))
    print(render(figures))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0 if figures["overhead_fraction"] <= ALLOWED_OVERHEAD else 1


if __name__ == "__main__":
    sys.exit(main())
