"""How long a student waits for feedback on a hub: hand-in (the submit REST call returning) to feedback visible.

A hub of N real Unix students (testbed/hub.py, as the hub tests run it) releases lesson 01; each student's server is
started, fetches the lesson, and saves a notebook through its contents API: a third the reference answers, a third
stubs, a third a catalogued mistake (grader.proof.simulate.class_in_thirds). The grading service (`python -m grader
serve --exchange-as <grader account>`, as the hub's autograder runs: as root, its kernels isolated, in the course
directory: `start_service`) runs in control groups of its own, so its CPU counts every process it starts, kernels
included (benchmarks/treeusage.py). Each hand-in goes through its
student's server (nbgrader's assignment list extension, `submit`); its feedback is visible when the page released
for that submission (the exchange's feedback/<hash of its secret>.html, readable by that student alone) exists, which
this script looks for as root every POLL_S. Three scenarios, in this order:

  alone     one student hands in alone, ALONE_RUNS times one after another: the median is "one grading" as a
            student sees it, and the target for a student alone
  repeated  one student hands in REPEATS times in a row (each as soon as the last REST call returned) while others
            hand in once each, one after another during it: how much later than one grading each other's feedback
            comes (the target: by at most one grading)
  burst     all N hand in at once: p50, p95 and max, and the CPU per hand-in

At the end, each student's fetch_feedback through its server must bring the page of its last hand-in, and `python -m
grader grade --force`, run afterwards on the same hand-ins, must leave every cell's score in the gradebook as the
service left it. Root only (the hub's accounts); about ten minutes at 30 students on 2 cores.

    sudo .venv/bin/python benchmarks/on_submit.py [--students 30] [--poll S] [--json PATH] [--page [PATH]]
    .venv/bin/python benchmarks/on_submit.py --from-json PATH --page   # the blocks again from a saved run

--page writes the figures, dated, into the "on submit" block of docs/reference/performance.md and one line per
figure into the "in a classroom" block of the README (--readme PATH: another copy of it).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import tempfile
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # run as a script: the repository's package and benchmarks/
from nbgrader.utils import notebook_hash  # noqa: E402

from benchmarks import treeusage  # noqa: E402
from benchmarks.autograde import plural, progress_clock  # noqa: E402
from benchmarks.figures import REFERENCE, add_figures_options, figures_of  # noqa: E402
from grader.course import Course  # noqa: E402
from grader.proof import pages  # noqa: E402
from grader.proof.simulate import class_in_thirds  # noqa: E402
from testbed.hub import LESSON, Hub, HubUnavailable, entries_of, running_hub  # noqa: E402

COURSE = Course(REPOSITORY)  # this repository's course (the hub's is a copy of it)
PAGE = REFERENCE / "performance.md"
README = REPOSITORY / pages.README
COMMAND = "benchmarks/on_submit.py --page"
BEGIN, END = pages.markers("on submit", COMMAND)
README_BEGIN, README_END = pages.markers("in a classroom", COMMAND)
KINDS = ("correct", "stub", "mistake")  # class_in_thirds's order: student n hands in KINDS[n % 3]
POLL_S = 0.1  # how often this script looks for a released page
WAIT_S = 900  # the longest a hand-in's feedback is waited for
ALONE_RUNS, REPEATS, OTHERS = 5, 20, 3
BURST_P95_S, ALONE_S = 15.0, 3.0  # the targets: p95 of a burst of 30, the median of a student alone


class Missed(AssertionError):
    """A hand-in's feedback never came, a student's fetch did not bring it, or the scores differ from grade's."""


# ----------------------------------------------------------------- the service, measured


def start_service(hub: Hub, poll: int | None, log: Path) -> treeusage.Started:
    """`python -m grader serve LESSON --exchange-as <grader account>` as the hub's autograder runs
    (jupyterhub-setup/jupyterhub_config.py): as root, so each kernel is isolated, with umask 007, in the course
    directory with the instructors' environment; in control groups of its own."""
    python = f"{hub.settings['instructor_env']}/bin/python"
    options = [LESSON, "--exchange-as", hub.people.grader, *(["--poll", str(poll)] if poll else [])]
    command = ["/bin/sh", "-c", 'umask 007 && exec "$0" -m grader serve "$@"', python, *options]
    return treeusage.Started(command, Path(hub.settings["course_dir"]), hub.environment_of("instructor"), log)


def stop_service(service: treeusage.Started) -> treeusage.Usage:
    """SIGTERM to the service (the shell's exec made it the child itself), and what it cost from its start."""
    service.child.send_signal(signal.SIGTERM)
    return service.finish()


# ----------------------------------------------------------------- the students


@dataclass
class Student:
    name: str
    token: str
    kind: str


def prepare(hub: Hub, say) -> list[Student]:
    """Every student's token, server (started at once, not timed) and fetched lesson, with its notebook saved."""
    names = hub.people.student_names
    notebooks = list(class_in_thirds(COURSE, len(names), [LESSON]).values())
    students = [Student(name, hub.token_of(name), KINDS[n % 3]) for n, name in enumerate(names)]
    with ThreadPoolExecutor(len(names)) as pool:
        list(pool.map(hub.start_server, names))
    say(f"{len(names)} servers started")

    def fetch_and_write(student: Student, notebook) -> None:
        hub.assignment(student.name, student.token, "fetch")
        hub.save_notebook(student.name, student.token, notebook)

    with ThreadPoolExecutor(len(names)) as pool:
        list(pool.map(fetch_and_write, students, notebooks))
    return students


def released_page(hub: Hub, entry: Path) -> Path:
    """Where the feedback of the hand-in `entry` (an inbound folder) is released: named from its secret."""
    secret = (entry / "submission_secret.txt").read_text()
    return hub.exchange / "feedback" / f"{notebook_hash(secret=secret, notebook_id=LESSON)}.html"


def hand_in(hub: Hub, student: Student) -> tuple[Path, float]:
    """One hand-in through the student's server: the page its feedback will be released as, and when the submit
    call returned."""
    before = set(entries_of(hub, student.name))
    hub.assignment(student.name, student.token, "submit")
    returned = time.monotonic()
    [entry] = set(entries_of(hub, student.name)) - before
    return released_page(hub, entry), returned


def visible_after(page: Path, since: float) -> float:
    """Seconds from `since` until `page` exists (its release renames it into place, readable by its student)."""
    while not page.exists():
        if time.monotonic() - since > WAIT_S:
            raise Missed(f"no feedback after {WAIT_S} s: {page.name}")
        time.sleep(POLL_S)
    return time.monotonic() - since


def latency(hub: Hub, student: Student) -> float:
    """One hand-in, and the seconds until its feedback is visible."""
    page, returned = hand_in(hub, student)
    return visible_after(page, returned)


# ----------------------------------------------------------------- the scenarios


def alone(hub: Hub, student: Student, service: treeusage.Started) -> dict:
    cpu = service.cpu_s()
    latencies = [latency(hub, student) for _ in range(ALONE_RUNS)]
    return {
        "student": student.name,
        "latencies_s": latencies,
        "median_s": statistics.median(latencies),
        "cpu_per_hand_in_s": (service.cpu_s() - cpu) / ALONE_RUNS,
    }


def repeated(hub: Hub, repeater: Student, others: list[Student], one_grading: float) -> dict:
    """The repeater hands in REPEATS times in a row; the others, one after another, each once it has handed in a
    few more times (its hand-ins spread over theirs), and each waits for its feedback before the next goes."""
    handed_in = threading.Semaphore(0)
    pages: list[Path] = []

    def repeat() -> float:
        for _ in range(REPEATS):
            page, returned = hand_in(hub, repeater)
            pages.append(page)
            handed_in.release()
        return visible_after(pages[-1], returned)  # its last hand-in is graded, the earlier ones may be skipped

    spacing = max(1, REPEATS // (len(others) + 1))
    with ThreadPoolExecutor(1) as pool:
        last = pool.submit(repeat)
        latencies, during = [], []
        for _ in others:
            for _ in range(spacing):
                handed_in.acquire()
            latencies.append(latency(hub, others[len(latencies)]))
            during.append(len(pages) < REPEATS)
        repeater_last = last.result()
    delays = [seconds - one_grading for seconds in latencies]
    return {
        "repeater": repeater.name,
        "repeats": REPEATS,
        "others": [other.name for other in others],
        "latencies_s": latencies,
        "while_repeating": during,
        "one_grading_s": one_grading,
        "max_delay_s": max(delays),
        "repeater_last_latency_s": repeater_last,
        "released_to_repeater": sum(page.exists() for page in pages),
    }


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie, linearly between the two nearest (p95: 0.95)."""
    ordered = sorted(values)
    position = fraction * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def burst(hub: Hub, students: list[Student], service: treeusage.Started) -> dict:
    """Every student hands in at the same moment (a barrier), each waiting for its own feedback."""
    ready = threading.Barrier(len(students))

    def at_once(student: Student) -> float:
        ready.wait()
        return latency(hub, student)

    cpu = service.cpu_s()
    with ThreadPoolExecutor(len(students)) as pool:
        latencies = dict(zip([s.name for s in students], pool.map(at_once, students), strict=True))
    values = list(latencies.values())
    return {
        "latencies_s": latencies,
        "p50_s": statistics.median(values),
        "p95_s": percentile(values, 0.95),
        "max_s": max(values),
        "cpu_per_hand_in_s": (service.cpu_s() - cpu) / len(students),
    }


# ----------------------------------------------------------------- what students and grade see afterwards


def fetched_by_each(hub: Hub, students: list[Student]) -> int:
    """How many students' fetch_feedback, through their server, brought the page of their last hand-in."""
    fetched = 0
    for student in students:
        hub.assignment(student.name, student.token, "fetch_feedback")
        page = released_page(hub, entries_of(hub, student.name)[-1]).read_bytes()
        home = Path(os.path.expanduser(f"~{student.name}")) / hub.course / LESSON / "feedback"
        fetched += any(copy.read_bytes() == page for copy in home.glob(f"*/{LESSON}.html"))
    return fetched


SCORES = f"""
from pathlib import Path
from grader.course import Course
from grader.proof.simulate import cell_scores
seen = [[*key, score] for key, score in sorted(cell_scores(Course(Path.cwd()), ["{LESSON}"]).items())]
"""


def scores_as_graded(hub: Hub) -> list[list]:
    """Every (student, lesson, cell, score) of the gradebook, read by the grader account (root writes nothing there)."""
    done = hub.run_as(
        hub.people.grader,
        ["python", "-c", SCORES + "import json\nprint(json.dumps(seen))"],
        "instructor",
        hub.settings["course_dir"],
    )
    if done.returncode != 0:
        raise Missed(f"the gradebook could not be read: {done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def same_scores_as_grade(hub: Hub, students: list[Student]) -> dict:
    """The gradebook as the service left it, against the one `grade --force` leaves on the same hand-ins."""
    served = scores_as_graded(hub)
    graded = hub.grader_as_grader("grade", "--force", LESSON)
    if graded.returncode != 0:
        raise Missed(f"grade --force failed: {graded.stderr[-2000:]}")
    again = scores_as_graded(hub)
    differ = [row for row in served if row not in again] + [row for row in again if row not in served]
    if differ or {row[0] for row in served} != {s.name for s in students}:
        raise Missed(f"the service's scores differ from grade's on {len(differ)} cells, e.g. {differ[:4]}")
    totals = {s.name: sum(row[3] for row in served if row[0] == s.name) for s in students}
    by_kind = {kind: sorted({totals[s.name] for s in students if s.kind == kind}) for kind in KINDS}
    return {"identical": True, "students": len(students), "cells": len(served), "totals_by_kind": by_kind}


# ----------------------------------------------------------------- the whole run


def benchmark(args, say) -> dict:
    started = time.monotonic()
    measure = treeusage.measure_name()
    figures = {
        "benchmark": "on submit",
        "date": pages.now(),
        "machine": pages.this_machine(),
        "students": args.students,
        "lesson": LESSON,
        "poll_s": args.poll,
        "measure": measure,
        "measure_description": treeusage.describe(measure),
    }
    logs = Path(tempfile.mkdtemp(prefix="softmax-on-submit-"))  # kept: the hub's and the service's logs
    with running_hub(args.students, logs, autograder=False) as hub:  # its own service, measured in its cgroups
        say(f"a hub of {args.students} students at {hub.url}; its log and the service's in {logs}")
        hub.release()
        students = prepare(hub, say)
        say("lesson 01 fetched and written by every student; the service starts")
        service = start_service(hub, args.poll, logs / "serve.log")
        try:
            one = alone(hub, students[0], service)
            say(f"alone: {', '.join(f'{s:.1f}' for s in one['latencies_s'])} s")
            repeater, others = students[-1], students[: min(OTHERS, len(students) - 1)]
            again = repeated(hub, repeater, others, one["median_s"])
            say(f"others while one hands in {REPEATS} times: {', '.join(f'{s:.1f}' for s in again['latencies_s'])} s")
            at_once = burst(hub, students, service)
            say(f"{len(students)} at once: p50 {at_once['p50_s']:.1f} s, p95 {at_once['p95_s']:.1f} s")
        finally:
            usage = stop_service(service)
        fetched = fetched_by_each(hub, students)
        if fetched != len(students):
            raise Missed(f"fetch_feedback brought the last page to {fetched} of {len(students)} students")
        say("every student fetched its feedback; grade --force on the same hand-ins")
        scores = same_scores_as_grade(hub, students)
    figures |= {"alone": one, "repeated": again, "burst": at_once, "fetched_feedback": fetched, "scores": scores}
    figures |= {"service": usage.as_dict(), "took_s": time.monotonic() - started}
    figures["machine"]["load_average_at_end"] = os.getloadavg()[0]
    return figures


# ----------------------------------------------------------------- the figures, for people


def targets(figures: dict) -> list[tuple[str, float, float, str]]:
    """(what, measured, target, the target in words) of each target: met when measured ≤ target. Another student's
    wait beside one handing in again and again may hold its own grading and one more: twice one grading."""
    again = figures["repeated"]
    one_grading = again["one_grading_s"]
    return [
        (f"p95 of {figures['students']} at once", figures["burst"]["p95_s"], BURST_P95_S, f"{BURST_P95_S:.1f} s"),
        ("a student alone (median)", figures["alone"]["median_s"], ALONE_S, f"{ALONE_S:.1f} s"),
        (
            f"another's wait while one hands in {again['repeats']} times",
            max(again["latencies_s"]),
            2 * one_grading,
            f"its grading and one more (2 × {one_grading:.1f} s)",
        ),
    ]


def verdicts(figures: dict) -> list[str]:
    return [
        f"Target: {what} ≤ {words}: {measured:.1f} s (×{measured / target:.2f}), "
        + ("met" if measured <= target else "MISSED")
        for what, measured, target, words in targets(figures)
    ]


def rows(figures: dict) -> list[list[str]]:
    at_once, one, again = figures["burst"], figures["alone"], figures["repeated"]
    return [
        ["scenario", "hand-ins", "p50", "p95", "max", "CPU per hand-in"],
        [
            f"{figures['students']} students at once",
            str(figures["students"]),
            f"{at_once['p50_s']:.1f} s",
            f"{at_once['p95_s']:.1f} s",
            f"{at_once['max_s']:.1f} s",
            f"{at_once['cpu_per_hand_in_s']:.2f} s",
        ],
        [
            "one student alone",
            str(len(one["latencies_s"])),
            f"{one['median_s']:.1f} s",
            "",
            f"{max(one['latencies_s']):.1f} s",
            f"{one['cpu_per_hand_in_s']:.2f} s",
        ],
        [
            f"others, while one hands in {again['repeats']}×",
            str(len(again["latencies_s"])),
            f"{statistics.median(again['latencies_s']):.1f} s",
            "",
            f"{max(again['latencies_s']):.1f} s",
            "",
        ],
    ]


def notes(figures: dict) -> list[str]:
    again, scores = figures["repeated"], figures["scores"]
    by_kind = [(kind, found) for kind, found in scores["totals_by_kind"].items() if found]
    totals = "; ".join(f"{kind} {', '.join(f'{points:g}' for points in found)}" for kind, found in by_kind)
    poll = f"`--poll {figures['poll_s']:g}`" if figures["poll_s"] else "its default poll"
    return [
        f"Hand-in (the submit call through the student's server returning) to its feedback page released to that "
        f"student, the grading service `python -m grader serve` running as the hub runs it (as root, each hand-in in "
        f"an isolated kernel, its exchange steps as the grader account) with {poll}.",
        *[line + "." for line in verdicts(figures)],
        f"One grading is the median of a student alone; {plural(len(again['latencies_s']), 'other student')} handed "
        f"in one after another while one handed in {again['repeats']} times, whose last hand-in was visible after "
        f"{again['repeater_last_latency_s']:.1f} s ({again['released_to_repeater']} of its pages released).",
        f"Every student's fetch_feedback brought its page ({figures['fetched_feedback']} of {figures['students']}); "
        f"`python -m grader grade --force` on the same hand-ins left the same score in all {scores['cells']} cells "
        f"(points per student: {totals}).",
        f"Counted: {figures['measure_description']}; the service used {figures['service']['cpu_s']:.1f} CPU seconds "
        f"in all; the machine's load average was {figures['machine'].get('load_average_at_end', 0):.1f} at the end. "
        f"The whole benchmark took {figures['took_s']:.0f} s (the hub's start and removal included).",
    ]


def text_table(figures: dict) -> str:
    table = rows(figures)
    widths = [max(len(row[column]) for row in table) for column in range(len(table[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in table]
    lines.insert(1, "  ".join("-" * width for width in widths))
    title = (
        f"Hand-in to feedback visible on a hub of {figures['students']} students, lesson {figures['lesson']}, "
        f"{figures['machine']['cores']} cores"
    )
    return "\n".join([title, "", *lines, "", *(textwrap.fill(n, 120, subsequent_indent="  ") for n in notes(figures))])


def markdown(figures: dict) -> str:
    """The "on submit" block of docs/reference/performance.md."""
    intro = (
        f"Measured by `benchmarks/on_submit.py --students {figures['students']}` on "
        f"{pages.measured_on(figures['date'], figures['machine'])}, lesson `{figures['lesson']}`."
    )
    table = rows(figures)
    lines = ["| " + " | ".join(table[0]) + " |", "|---|---:|---:|---:|---:|---:|"]
    lines += ["| " + " | ".join(row) + " |" for row in table[1:]]
    return "\n".join([intro, "", *lines, "", " ".join(notes(figures))])


def readme_lines(figures: dict) -> str:
    """The README's "in a classroom" block: one line per figure."""
    at_once, one, again = figures["burst"], figures["alone"], figures["repeated"]
    return pages.figure_lines(
        figures["date"],
        figures["machine"],
        f"benchmarks/on_submit.py --students {figures['students']}",
        [
            f"{figures['students']} students hand in at once: each sees its feedback after {at_once['p50_s']:.1f} s "
            f"(median), {at_once['p95_s']:.1f} s (p95), {at_once['max_s']:.1f} s at most",
            f"a student alone: {one['median_s']:.1f} s (median of {len(one['latencies_s'])})",
            f"while a student hands in {again['repeats']} times in a row, another waits "
            f"{max(again['latencies_s']):.1f} s at most (one grading: {again['one_grading_s']:.1f} s)",
            f"CPU per hand-in: {at_once['cpu_per_hand_in_s']:.2f} s, kernels included",
            f"scores: the same as `grade --force` in all {figures['scores']['cells']} cells",
        ],
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30, help="students on the hub (default 30; at least 2)")
    parser.add_argument("--poll", type=int, metavar="S", help="serve --poll (default: serve's own)")
    parser.add_argument("--readme", type=Path, default=README, metavar="PATH", help="the README --page writes into")
    add_figures_options(parser, PAGE)
    args = parser.parse_args(argv)
    if args.students < 2:
        parser.error("--students must be at least 2 (one repeats while another hands in)")
    try:
        figures = figures_of(args, lambda: benchmark(args, progress_clock()))
    except (Missed, HubUnavailable, treeusage.CommandFailed) as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 1
    print(text_table(figures))
    if args.page:
        pages.write_block(args.page, BEGIN, END, markdown(figures))
        pages.write_block(args.readme, README_BEGIN, README_END, readme_lines(figures))
        print(f"Rewrote the on submit block of {args.page} and the in a classroom block of {args.readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
