"""Command line: `python -m grader {release,collect,grade,serve,feedback,export,report,check,prove,workspace} ...`.

Each command imports what it needs when it runs, after checking its arguments: nbgrader and
nbformat take a second or more to import, and help or a refused argument should answer at once
(tests/unit/test_imports.py keeps it so).

A mistake the user can put right (commandline.REFUSALS: an argument, a course, a lesson, a file, the gradebook) and
Ctrl-C are each said in one line on stderr, with an exit status (commandline.in_one_line); a bug shows its traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import logging
import re
import sys
from pathlib import Path

from grader import logs
from grader.commandline import OneLineParser, Refused, in_one_line, positive
from grader.course import Course
from grader.course.limits import CELL_SECONDS, MEMORY_MB, NOTEBOOK_TIMES, Limits
from grader.instructor.collect import DEFAULT_PATTERN, MB, DownloadLimits

logger = logging.getLogger(__name__)

# The outputs written from the gradebook: what each is, and where it goes in the course directory.
OUTPUTS = {
    "feedback": ("an HTML feedback page per student", ".grading/feedback-html"),
    "export": ("grades.csv and a Canvas-ready canvas.csv", ".grading/exports"),
    "report": ("the class report: scores, pass rates, misconceptions", ".grading/report.html"),
}
# What Ctrl-C leaves, by command: every command can be run again, and grade goes on where it stopped.
STOPPED = {
    "grade": "the submissions graded so far are saved; `grade` again grades the rest",
    "check": "nothing was graded; run it again to grade the notebook",
    "serve": "what was being graded, if anything, waits again; `serve` again grades it",
}


def pattern(text: str) -> str:
    """A regular expression that compiles."""
    try:
        re.compile(text)
    except re.error as error:
        raise argparse.ArgumentTypeError(f"{text!r} is not a regular expression ({error})") from None
    return text


def scheduler(text: str) -> str:
    """A Dask scheduler's address, PROTOCOL://HOST:PORT."""
    if not re.fullmatch(r"[a-z][a-z0-9+.-]*://[^/\s]+:[0-9]+", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a scheduler's address, tcp://HOST:PORT")
    return text


def add_limit_options(command: argparse.ArgumentParser) -> None:
    """The options that replace a limit of the course's (docs/reference/limits.md) for one grade or check."""
    setting = "in the course's nbgrader_config.py"
    command.add_argument(
        "--timeout",
        type=positive,
        metavar="S",
        help=f"seconds each cell may run (default: c.Execute.timeout {setting}, else {CELL_SECONDS})",
    )
    command.add_argument(
        "--notebook-timeout",
        type=positive,
        metavar="S",
        help="seconds the whole notebook may run; the cells left are not run (default: "
        f"c.GradingLimits.notebook_timeout {setting}, else {NOTEBOOK_TIMES} × the cells' limit)",
    )
    command.add_argument(
        "--memory",
        type=positive,
        metavar="MB",
        help=f"memory each grading kernel may use (default: c.GradingLimits.memory {setting}, else {MEMORY_MB})",
    )


def limits_of(args) -> Limits:
    """The course's limits, with each one given on the command line in its place."""
    limits: Limits = args.course.limits()
    return limits.given(cell_seconds=args.timeout, notebook_seconds=args.notebook_timeout, memory_mb=args.memory)


NOT_ISOLATED = (
    "not running as root, so kernels are not isolated: the learner's code can read what "
    "this user can read (test cells still run outside the kernel)"
)


def require_known(lessons, course: Course) -> None:
    unknown = set(lessons) - set(course.lesson_ids())
    if unknown:
        raise Refused(f"unknown lesson(s): {', '.join(sorted(unknown))}; known: {', '.join(course.lesson_ids())}")


def _release(args) -> int:
    require_known(args.lessons, args.course)
    from grader.course.release import publish, release

    release(args.course, args.lessons or None)
    if not args.no_exchange:
        publish(args.course, args.lessons or None, exchange=args.exchange)
    return 0


def _collect(args) -> int:
    from grader.instructor.collect import collect_downloads, collect_exchange

    require_known(args.lessons, args.course)
    limits = DownloadLimits(file_bytes=args.max_file * MB, download_bytes=args.max_download * MB)
    if args.downloads:
        log = collect_downloads(args.downloads, args.course, pattern=args.pattern, limits=limits)
    else:
        log = collect_exchange(
            args.course, args.lessons or args.course.lesson_ids(), exchange=args.exchange, limits=limits
        )
    print(log.render())
    return 0


def _grade(args) -> int:
    require_known(args.lessons, args.course)
    from grader.engine import isolation, pool
    from grader.engine.pool import print_progress

    if not args.cluster:
        pool.start_early()  # the zygote's and the workers' imports, beside nbgrader's below
    from grader.instructor.grading import grade_class

    if not isolation.available():
        logger.warning(NOT_ISOLATED)
    log = grade_class(
        args.course,
        lessons=args.lessons or None,
        jobs=args.jobs,
        force=args.force,
        limits=limits_of(args),
        progress=print_progress if logs.progress_shown() else None,
        cluster=args.cluster,
    )
    from grader.instructor.results import class_counts

    print(log.render())
    print(f"The class: {class_counts(args.course).sentence()}")  # counted as the report, CSV and feedback count
    return 1 if log.failed else 0


def _serve(args) -> int:
    require_known(args.lessons, args.course)
    from grader.instructor.journal import Journal

    if args.pause or args.resume or args.status:
        with Journal(args.course.grading) as journal:
            if args.pause or args.resume:
                journal.pause(args.pause)
            paused, counts = journal.paused_since(), journal.counts()
        print(f"Grading is paused since {paused}." if paused else "Grading is on.")
        if args.status:
            print("Hand-ins: " + (", ".join(f"{n} {state}" for state, n in sorted(counts.items())) or "none yet"))
        return 0
    from grader.engine import isolation, pool
    from grader.instructor.collect import inbound_of
    from grader.instructor.exchange_steps import others_write, steps_for
    from grader.instructor.service import Grading, serve

    if args.exchange_as and not isolation.available():
        raise Refused(
            "serve --exchange-as needs root: it grades as root, in isolated kernels, and acts on the "
            "exchange as that account"
        )
    try:
        exchange = steps_for(args.course, args.exchange_as)  # first: the agent is forked before any thread starts
    except KeyError:
        raise Refused(f"--exchange-as: no account named {args.exchange_as}") from None
    if not args.cluster:
        pool.start_early()
    if not isolation.available():
        logger.warning(NOT_ISOLATED)
    elif not args.exchange_as and others_write(inbound_of(args.course.nbgrader_config())):
        logger.warning(
            "running as root without --exchange-as: collect and release feedback act as root in an exchange others "
            "can write; on a machine students share, give --exchange-as ACCOUNT (the course directory's owner)"
        )
    grading = Grading(jobs=args.jobs, cluster=args.cluster)
    done = serve(args.course, args.lessons, args.once, args.poll, grading, exchange)
    print(f"Graded {done} hand-in(s); `serve --status` counts them all.")
    return 0


def _outputs(args) -> int:
    """feedback, export and report: read the gradebook once, write what was asked for."""
    from grader.instructor.results import class_results

    results = class_results(args.course)
    if not results.students:
        raise Refused("the gradebook has no students yet (run `python -m grader collect` and `grade`)")
    out = Path(args.out) if args.out else args.course.root / OUTPUTS[args.command][1]
    if args.command == "feedback":
        from grader.instructor.feedback import write_feedback

        pages = write_feedback(results, out)
        print(f"Wrote {len(pages)} feedback page(s) to {out}")
    elif args.command == "export":
        from grader.instructor.export import write_canvas_csv, write_grades_csv

        out.mkdir(parents=True, exist_ok=True)
        write_grades_csv(results, out / "grades.csv")
        write_canvas_csv(results, out / "canvas.csv")
        print(f"Wrote {out / 'grades.csv'} and {out / 'canvas.csv'}")
    else:
        from grader.instructor.report import write_report

        out.parent.mkdir(parents=True, exist_ok=True)
        write_report(results, out)
        print(f"Wrote the class report to {out}")
    return 0


def _check(args) -> int:
    from grader.engine.submission import identify_lesson, read_notebook

    if sys.stderr.isatty() and not args.json:
        logger.info("Grading %s with every test, hidden ones included (a few seconds)...", args.notebook)
    nb = read_notebook(args.notebook)
    lesson = identify_lesson(args.course, nb, Path(args.notebook))
    logger.debug("%s is lesson %s", args.notebook, lesson)
    from grader.engine import warmkernel

    # the zygote check's kernel is forked from (as grade's are), unless an earlier check in this process
    # started one; it returns at once, so its imports (NumPy, matplotlib, ipykernel) run beside nbgrader's below
    warmkernel.ensure_zygote()
    from grader.engine.sandbox import autograde_sandboxed
    from grader.engine.scores import render_table

    report = autograde_sandboxed(args.course, lesson, nb, limits=limits_of(args), warm=True).report
    assert report is not None, "autograde always reports (only a notebook never graded has no report)"
    print(report.to_json() if args.json else render_table(report))
    return 0


def _prove(args) -> int:
    require_known([args.lesson] if args.lesson else [], args.course)
    if args.page and args.lesson:
        raise Refused("--page writes the whole course's tables; leave out --lesson")
    if args.entries and (args.mutate or args.survivors):
        raise Refused("--entries grades the file's entries only; leave out --mutate and --survivors")
    from grader.engine.pool import print_progress
    from grader.proof import prove

    page = args.course.root / prove.PAGE
    begin, end = (prove.OUTSIDE_BEGIN, prove.OUTSIDE_END) if args.entries else (prove.BEGIN, prove.END)
    if args.page and not (page.is_file() and begin in page.read_text() and end in page.read_text()):
        raise Refused(f"--page writes the generated block of {page}, which has none")
    todo = prove.plan(
        args.course,
        [args.lesson] if args.lesson else None,
        mutants=args.mutate or args.survivors,
        entries_file=args.entries,
    )
    if not todo.entries:
        where = f"{args.entries} has" if args.entries else "the catalogue has"
        raise Refused(f"{where} no entries for " + (args.lesson or "any lesson"))
    if args.page and args.entries and not any(isinstance(entry[-1], prove.OutsideEntry) for entry in todo.entries):
        raise Refused(f"--page with --entries writes the outside corpus's figures; {args.entries} holds no OUTSIDE")
    what = f"{len(todo.entries)} {'catalogue ' if todo.catalogued else ''}entries"
    if todo.mutants is not None:
        what += f" and {len(todo.mutants)} mechanical mutants"
    logger.info("Grading %s with nbgrader, %s at a time...", what, args.jobs or "all")
    proven = prove.prove(args.course, todo, jobs=args.jobs, progress=print_progress if logs.progress_shown() else None)
    if args.page and args.entries:
        prove.write_outside_page(page, proven, args.entries.as_posix())
    elif args.page:
        prove.write_page(page, proven)
    if args.json:
        print(prove.to_json(proven))
    elif args.survivors:
        print(prove.render_survivors(proven))
        for problem in proven.problems():
            logger.error("%s", problem)
    else:
        print(prove.render_table(proven))
        corpus = prove.render_corpus(proven)
        if corpus:
            print("\n" + corpus)
    return 0 if proven.ok else 1


def _workspace(args) -> int:
    from grader.course import workspace

    folder = args.into if args.into is not None else args.course.root / workspace.DEFAULT_FOLDER
    return workspace.main(args.course.root, folder, lab_config=args.lab_config)


def parser() -> OneLineParser:
    """Every command and its options (the site's CLI reference is generated from it)."""
    parser = OneLineParser(prog="python -m grader", description="Softmax course tools.")
    parser.add_argument(
        "--course",
        type=Path,
        metavar="DIR",
        help="the nbgrader course directory (default: the current directory if it holds "
        "nbgrader_config.py, else this repository)",
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the gradebook's database, e.g. postgresql://user@host/db (default: nbgrader_config.py's db_url)",
    )
    logs.add_options(parser)
    commands = parser.add_subparsers(dest="command", required=True)

    release = commands.add_parser("release", help="regenerate notebooks/ from solutions/ and release to the exchange")
    release.add_argument("lessons", nargs="*", metavar="LESSON", help="lesson ids (default: all)")
    release.add_argument("--exchange", metavar="PATH", help="nbgrader exchange root (default: as configured)")
    release.add_argument("--no-exchange", action="store_true", help="only regenerate notebooks/")
    release.set_defaults(run=_release)

    collect = commands.add_parser("collect", help="collect submissions from the exchange or from LMS downloads")
    collect.add_argument("lessons", nargs="*", metavar="LESSON", help="lesson ids (default: all)")
    collect.add_argument(
        "--from", dest="downloads", metavar="PATH", help="a folder or zip of LMS downloads instead of the exchange"
    )
    collect.add_argument(
        "--pattern",
        type=pattern,
        default=DEFAULT_PATTERN,
        metavar="REGEX",
        help="finds the student id (group 'student') in a file name (default: %(default)r)",
    )
    collect.add_argument(
        "--max-file",
        type=positive,
        default=DownloadLimits.file_bytes // MB,
        metavar="MB",
        help="a larger file handed in is listed, not read (default: %(default)s)",
    )
    collect.add_argument(
        "--max-download",
        type=positive,
        default=DownloadLimits.download_bytes // MB,
        metavar="MB",
        help="files past this much of what is collected are listed, not read (default: %(default)s)",
    )
    collect.add_argument("--exchange", metavar="PATH", help="nbgrader exchange root (default: as configured)")
    collect.set_defaults(run=_collect)

    grade = commands.add_parser("grade", help="autograde collected submissions in parallel into the gradebook")
    grade.add_argument("lessons", nargs="*", metavar="LESSON", help="lesson ids (default: all)")
    grade.add_argument(
        "--jobs", type=positive, metavar="N", help="submissions graded at once (default: one per core and one more)"
    )
    grade.add_argument("--force", action="store_true", help="grade again even what has not changed")
    add_limit_options(grade)
    grade.add_argument(
        "--cluster",
        type=scheduler,
        metavar="tcp://HOST:PORT",
        help="grade on the workers of this Dask scheduler (docs/howto/cluster.md); default: here",
    )
    grade.set_defaults(run=_grade)

    serve = commands.add_parser(
        "serve", help="grade each hand-in to the exchange as it comes and release its student's feedback"
    )
    serve.add_argument("lessons", nargs="*", metavar="LESSON", help="lesson ids (default: all released)")
    serve.add_argument("--once", action="store_true", help="grade what waits now, then stop")
    serve.add_argument(
        "--poll", type=positive, default=1, metavar="S", help="seconds between scans of the exchange (default: 1)"
    )
    serve.add_argument(
        "--jobs", type=positive, metavar="N", help="hand-ins graded at once (default: one per core and one more)"
    )
    serve.add_argument(
        "--cluster",
        type=scheduler,
        metavar="tcp://HOST:PORT",
        help="grade on the workers of this Dask scheduler (docs/howto/cluster.md); default: here",
    )
    serve.add_argument(
        "--exchange-as",
        metavar="ACCOUNT",
        help="as root: grade in isolated kernels, and collect and release feedback as this account (the course's "
        "grader account on a hub), never as root",
    )
    switch = serve.add_mutually_exclusive_group()
    switch.add_argument(
        "--pause", action="store_true", help="tell the running service to grade nothing more until --resume, and stop"
    )
    switch.add_argument("--resume", action="store_true", help="tell the running service to grade again, and stop")
    switch.add_argument("--status", action="store_true", help="say whether grading is paused and count the hand-ins")
    serve.set_defaults(run=_serve)

    for name, (what, default) in OUTPUTS.items():
        command = commands.add_parser(name, help=f"write {what} from the gradebook")
        command.add_argument("--out", metavar="PATH", help=f"where to write (default: {default})")
        command.set_defaults(run=_outputs)

    check = commands.add_parser("check", help="grade one notebook with the lesson's full tests")
    check.add_argument("notebook", help="path to a lesson notebook (.ipynb)")
    check.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    add_limit_options(check)
    check.set_defaults(run=_check)

    proof = commands.add_parser(
        "prove",
        help="grade every catalogued misconception and correct alternative (and with --mutate, mechanical mutants)",
    )
    proof.add_argument("--lesson", metavar="ID", help="one lesson only (default: all)")
    proof.add_argument(
        "--jobs", type=positive, metavar="N", help="notebooks graded at once (default: one per core and one more)"
    )
    proof.add_argument("--json", action="store_true", help="print JSON instead of a table")
    proof.add_argument(
        "--page",
        action="store_true",
        help="also write the tables (with --entries, the outside corpus's figures), dated, into the course's "
        "docs/reference/proof.md",
    )
    proof.add_argument(
        "--mutate",
        action="store_true",
        help="also grade the mechanical mutants of every reference (grader/proof/mutate.py)",
    )
    proof.add_argument(
        "--survivors",
        action="store_true",
        help="print only the mutants that survive and are not recorded as equivalent (implies --mutate)",
    )
    proof.add_argument(
        "--entries",
        metavar="FILE",
        help="grade the entries of FILE (written like a catalogue module) instead of the catalogue",
    )
    proof.set_defaults(run=_prove)

    room = commands.add_parser(
        "workspace",
        help="copy the release into the learner's working folder; never overwrite a notebook they started",
    )
    room.add_argument("--into", type=Path, metavar="DIR", help="the working folder (default: work/ in the course)")
    room.add_argument(
        "--lab-config",
        type=Path,
        metavar="DIR",
        help="also write a Jupyter config folder (for JUPYTER_CONFIG_PATH) for the learner's lab: the instructor's "
        "nbgrader tools hidden, the Assignments tab on the working folder",
    )
    room.set_defaults(run=_workspace)
    return parser


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    logs.configure(verbose=args.verbose, quiet=args.quiet)

    def run() -> int:
        args.course = Course.find(args.course)
        if args.db:
            args.course = dataclasses.replace(args.course, db_url=args.db)
        logger.debug("%s on the course in %s", args.command, args.course.root)
        return args.run(args)

    code = in_one_line(run, STOPPED.get(args.command, "run it again to finish"))
    if argv is None and args.command == "check":
        # This process's own command line, so the process ends now: the garbage collections Python runs
        # at exit would walk every object the imports left (nearly half a second of a check) for nothing.
        gc.freeze()
    return code
