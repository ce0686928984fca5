"""Whether tests pass every time: a make target or a pytest selection run N times in a row in a fresh clone.

    .venv/bin/python benchmarks/repeat.py --runs 10 --load 2 tests/browser tests/unit/engine/test_pool.py
    .venv/bin/python benchmarks/repeat.py --runs 3 --make test-fast
    .venv/bin/python benchmarks/repeat.py --runs 1 -- -k slider tests/browser   # pytest options after --

The clone is of this checkout's commit (`--revision` another; uncommitted changes are not in it), made in a temporary
folder and removed at the end. It uses this checkout's .venv as it is, never builds one: a hard-linked copy (the
temporary folder must be on the venv's file system); make runs with `-o .venv/.installed`. A pytest selection runs as
`make test` runs the suite (`-n JOBS --dist loadgroup`). `--load K` keeps K busy loops running beside the runs, as
other work on the machine would. One line per run (tests passed and failed, time), then "N of N runs passed"; each
run's whole output is kept in artifacts/repeat/run-<i>.log.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # run as a script: the repository's grader/
from grader.commandline import OneLineParser, positive  # noqa: E402
from testbed.clone import fresh_clone, git  # noqa: E402

LOGS = REPOSITORY / "artifacts" / "repeat"
SUMMARY = re.compile(r"^=+ (.*\d+ (?:passed|failed|errors?|skipped|deselected).*) in [\d.]+s", re.M)
COUNT = re.compile(r"(\d+) (passed|failed|errors?)")


def parse(argv):
    parser = OneLineParser(prog="repeat.py", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=positive, default=10, help="runs in a row (default: %(default)s)")
    parser.add_argument("--load", type=int, default=0, help="busy loops beside the runs (default: %(default)s)")
    parser.add_argument(
        "--jobs", type=int, default=(os.cpu_count() or 1) + 1, help="pytest workers, 0 for none (default: as make's)"
    )
    parser.add_argument("--revision", default="HEAD", help="the commit to clone (default: %(default)s)")
    parser.add_argument("--make", metavar="TARGET", help="a make target to run instead of a pytest selection")
    parser.add_argument("selection", nargs="*", help="what pytest runs: paths, test ids, options after --")
    args = parser.parse_args(argv)
    for name in ("load", "jobs"):
        if getattr(args, name) < 0:
            parser.error(f"--{name} {getattr(args, name)}: give 0 or more")
    if bool(args.make) == bool(args.selection):
        parser.error("give a pytest selection or --make TARGET (one of them)")
    if not (REPOSITORY / ".venv" / "bin" / "python").exists():
        parser.error(f"{REPOSITORY / '.venv'} is missing: build it first (make venv)")
    found = git("rev-parse", "--verify", "--quiet", f"{args.revision}^{{commit}}", cwd=REPOSITORY)
    if found.returncode:
        parser.error(f"--revision {args.revision}: no such commit in {REPOSITORY}")
    args.commit = found.stdout.strip()
    return args


@contextmanager
def busy_loops(count: int):
    """`count` processes that keep a core each busy, ended (by their ids) afterwards."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def command(args, clone: Path) -> list[str]:
    if args.make:
        return ["make", "--no-print-directory", "-o", ".venv/.installed", args.make, f"JOBS={args.jobs}"]
    workers = ["-n", str(args.jobs), "--dist", "loadgroup"] if args.jobs else []
    return [str(clone / ".venv" / "bin" / "python"), "-m", "pytest", *workers, *args.selection]


def run_once(argv: list[str], clone: Path, log: Path) -> tuple[bool, str]:
    """Run `argv` in the clone, its output into `log`; whether it passed, and what pytest counted.

    The run is a process group of its own, which Ctrl-C here ends as a terminal's Ctrl-C would (pytest tears down
    its fixtures: servers, browsers, kernels), and its SIGINT is the default even where this script's was ignored
    (started in the background with `&`)."""
    env = {**os.environ, "PYTHONPATH": str(clone), "PATH": f"{clone / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    with open(log, "w") as out:
        out.write(f"$ {' '.join(argv)}\n")
        out.flush()
        run = subprocess.Popen(argv, cwd=clone, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = run.wait()
        except BaseException:
            os.killpg(run.pid, signal.SIGINT)
            try:
                run.wait()
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(run.pid, signal.SIGKILL)  # what is left of it after a second Ctrl-C
            raise
    kept = keep_screenshots(clone, log)
    summaries = SUMMARY.findall(log.read_text(errors="replace"))
    counts = {kind.rstrip("s"): int(n) for n, kind in COUNT.findall(summaries[-1])} if summaries else {}
    said = f"{counts.get('passed', 0)} passed, {counts.get('failed', 0)} failed"
    if counts.get("error"):
        said += f", {counts['error']} errors"
    said = said if summaries else f"no pytest summary (exit status {code})"
    return code == 0, said + (f", {kept} screenshots of failed browser tests" if kept else "")


def keep_screenshots(clone: Path, log: Path) -> int:
    """Move what the browser tests that failed left (tests/browser/conftest.py) out of the clone, beside the log."""
    shots = sorted((clone / "artifacts" / "browser").glob("failed-*.png"))
    for shot in shots:
        shutil.move(shot, log.with_name(f"{log.stem}-{shot.name}"))
    return len(shots)


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}:{seconds % 60:04.1f}"


def main(argv=None) -> int:
    args = parse(argv)
    LOGS.mkdir(parents=True, exist_ok=True)
    passed = 0
    with fresh_clone(args.commit) as clone, busy_loops(args.load):
        argv = command(args, clone)
        what = f"make {args.make}" if args.make else f"pytest {' '.join(argv[3:])}"
        print(f"{what} in a clone of {args.commit[:12]}, {args.runs} runs, {args.load} busy loops beside", flush=True)
        for run in range(1, args.runs + 1):
            start = time.monotonic()
            log = LOGS / f"run-{run}.log"
            ok, said = run_once(argv, clone, log)
            passed += ok
            where = "" if ok else f"  (see {log.relative_to(REPOSITORY)})"
            print(f"run {run} of {args.runs}: {said} in {minutes(time.monotonic() - start)}{where}", flush=True)
    print(f"{passed} of {args.runs} runs passed")
    return 0 if passed == args.runs else 1


def stop(signum, frame):
    raise KeyboardInterrupt  # SIGTERM as Ctrl-C: the run ends, the loops end, the clone goes


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)  # also when started in the background, which ignores it
    signal.signal(signal.SIGTERM, stop)
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit("repeat.py: stopped")
