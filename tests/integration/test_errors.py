"""Every command fails in one line: bad arguments, a missing or foreign course, a lesson that does not exist, a
broken file and Ctrl-C, each driven through the real command line in a process of its own (as a user runs it) and
through the make targets the docs give. Each says what went wrong in one line on stderr and exits non-zero,
never with a traceback; Ctrl-C loses nothing (`grade` again grades only what was left) and leaves no process.
A bug, which no user can put right, still shows its traceback."""

from __future__ import annotations

import importlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest

from grader import cli, commandline
from grader.engine import warmkernel
from grader.hub import __main__ as hub
from grader.instructor.grading import STATE
from grader.instructor.results import class_results
from grader.proof.demo import MARKER
from tests.results_by_hand import course_by_hand
from tests.support import COURSE, terminal_sigint

pytestmark = pytest.mark.xdist_group("error-places")  # its tests share a module-scoped fixture

LESSON = COURSE.lesson_ids()[0]
MAKE = ["make", "--no-print-directory", "-o", ".venv/.installed"]  # never rebuild the venv from a test
MAKE_FAILED = re.compile(r"make(\[\d+\])?: \*\*\*")  # make's own line; a make inside a make (as CI runs) numbers it
GRADER = [sys.executable, "-m", "grader"]
DEMO = [sys.executable, "-m", "grader.proof.demo"]


def run(argv: list, cwd: Path = COURSE.root) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, cwd=cwd, timeout=300)


def one_line(done: subprocess.CompletedProcess, make: bool = False) -> str:
    """The one line a failed command printed on stderr (besides make's own line naming the target that failed),
    after checking that it exited non-zero and showed no traceback."""
    lines = [line for line in done.stderr.splitlines() if line.strip() and not (make and MAKE_FAILED.match(line))]
    assert done.returncode != 0, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
    return lines[0]


@pytest.fixture(scope="module")
def places(tmp_path_factory) -> dict[str, Path]:
    """What a user may name by mistake: folders that are no course, broken files, a course with a broken gradebook,
    and a released course of one lesson (`class`) that nothing writes into the repository."""
    root = tmp_path_factory.mktemp("places")
    places = {name: root / name for name in ("foreign", "nbgrader_only", "broken_config", "raising_config")}
    for folder in places.values():
        folder.mkdir()
    (places["nbgrader_only"] / "nbgrader_config.py").write_text("c = get_config()  # noqa: F821\n")
    (places["nbgrader_only"] / "source").mkdir()  # nbgrader's own layout, with none of our lessons' sources
    configs = {"broken_config": "c = get_config(\n", "raising_config": "c = get_config()\n\nc.x = nothing\n"}
    for name, text in configs.items():
        (places[name] / "solutions").mkdir()
        (places[name] / "nbgrader_config.py").write_text(text)
    places["missing"] = root / "nowhere"
    places["not_json"] = root / "notebook.ipynb"
    places["not_json"].write_text("print('hello')\n")
    places["not_zip"] = root / "downloads.zip"
    places["not_zip"].write_text("not a zip\n")
    places["entries"] = root / "entries.py"  # one misconception of its own, and no OUTSIDE
    function = COURSE.graded_functions(LESSON)[0]
    places["entries"].write_text(
        "from grader.proof.catalogue import Misconception\n"
        f"LESSON = {LESSON!r}\n"
        f"MISCONCEPTIONS = [Misconception('mine', {function!r}, 'it', 'none', 'def {function}(*a):\\n    pass\\n')]\n"
    )
    places["class"] = course_by_hand(COURSE, root / "class", [LESSON], {}).root
    places["bad_gradebook"] = course_by_hand(COURSE, root / "bad_gradebook", [LESSON], {}).root
    handed_in = places["bad_gradebook"] / ".grading" / "submitted" / "ada" / LESSON / f"{LESSON}.ipynb"
    handed_in.parent.mkdir(parents=True)
    shutil.copy(COURSE.release_notebook(LESSON), handed_in)
    (places["bad_gradebook"] / ".grading" / "gradebook.db").write_text("not a database\n")
    return places


# name: (the command's arguments, given the places; words its one line holds)
CASES: dict[str, tuple[Callable[[dict], list], str]] = {
    "no command": (lambda p: [], "required: command (see python -m grader --help)"),
    "an unknown command": (lambda p: ["frobnicate"], "invalid choice: 'frobnicate'"),
    "an unknown option": (lambda p: ["grade", "--bogus"], "unrecognized arguments: --bogus"),
    "a count that is no number": (lambda p: ["grade", "--jobs", "x"], "--jobs: 'x' is not a whole number above 0"),
    "no jobs at all": (lambda p: ["grade", "--jobs", "0"], "--jobs: '0' is not a whole number above 0"),
    "a time limit below 0": (lambda p: ["grade", "--timeout", "-1"], "--timeout: '-1' is not a whole number"),
    "check without a notebook": (lambda p: ["check"], "required: notebook"),
    "a pattern that is no regular expression": (
        lambda p: ["--course", p["class"], "collect", "--from", p["not_zip"], "--pattern", "("],
        "--pattern: '(' is not a regular expression",
    ),
    "a scheduler's address that is none": (lambda p: ["grade", "--cluster", "garbage"], "tcp://HOST:PORT"),
    "a course that does not exist": (lambda p: ["--course", p["missing"], "report"], "is not a course directory"),
    "a folder that is no course": (lambda p: ["--course", p["foreign"], "grade"], "is not a course directory"),
    "an nbgrader course without our sources": (
        lambda p: ["--course", p["nbgrader_only"], "release"],
        "is not a course directory (it has no solutions/)",
    ),
    "an nbgrader_config.py that is not Python": (
        lambda p: ["--course", p["broken_config"], "grade"],
        "nbgrader_config.py cannot be read (SyntaxError: '(' was never closed",
    ),
    "an nbgrader_config.py that raises": (
        lambda p: ["--course", p["raising_config"], "report"],
        "nbgrader_config.py cannot be read (line 3: NameError: name 'nothing' is not defined)",
    ),
    "a lesson to release that does not exist": (lambda p: ["release", "99_nothing"], "unknown lesson(s): 99_nothing"),
    "a lesson to collect that does not exist": (
        lambda p: ["--course", p["class"], "collect", "99_nothing"],
        "unknown lesson(s): 99_nothing",
    ),
    "a lesson to grade that does not exist": (lambda p: ["grade", "99_nothing"], "unknown lesson(s): 99_nothing"),
    "a lesson to prove that does not exist": (lambda p: ["prove", "--lesson", "99_nothing"], "unknown lesson(s)"),
    "a notebook that is not JSON": (lambda p: ["check", p["not_json"]], "not a notebook (not valid JSON"),
    "a notebook that does not exist": (lambda p: ["check", p["missing"] / "a.ipynb"], "no such file"),
    "a zip that is not a zip": (
        lambda p: ["--course", p["class"], "collect", "--from", p["not_zip"]],
        "not a folder or a zip file",
    ),
    "a gradebook that is not a database, to grade into": (
        lambda p: ["--course", p["bad_gradebook"], "grade"],
        "the gradebook (--db, else nbgrader_config.py's db_url, else .grading/gradebook.db) cannot be used: "
        "file is not a database",
    ),
    "a gradebook that is not a database, to report on": (
        lambda p: ["--course", p["bad_gradebook"], "report"],
        "cannot be used: file is not a database",
    ),
    "a gradebook address that names no database": (
        lambda p: ["--course", p["class"], "--db", "nonsense://somewhere", "export"],
        "the gradebook (--db, else",
    ),
    "a gradebook with no students yet": (lambda p: ["--course", p["class"], "feedback"], "no students yet"),
    "a working folder that is a file": (
        lambda p: ["--course", p["class"], "workspace", "--into", p["not_json"]],
        "notebook.ipynb: File exists",
    ),
    "options that exclude each other": (lambda p: ["prove", "--page", "--lesson", LESSON], "leave out --lesson"),
    "the outside corpus's figures from a file with none": (
        lambda p: ["prove", "--entries", p["entries"], "--page"],
        "holds no OUTSIDE",
    ),
    "tables for a page the course does not have": (
        lambda p: ["--course", p["class"], "prove", "--page"],
        "docs/reference/proof.md, which has none",
    ),
    "an entries file that does not exist": (lambda p: ["prove", "--entries", p["missing"] / "e.py"], "no such file"),
}


@pytest.mark.parametrize("case", CASES)
def test_a_command_given_what_it_cannot_use_says_so_in_one_line(case, places):
    arguments, words = CASES[case]
    line = one_line(run([*GRADER, *arguments(places)]))
    assert words in line, line


DEMO_CASES = {
    "a class of no one": (["--students", "0"], "--students: '0' is not a whole number above 0"),
    "a lesson that does not exist": (["--lessons", "99_nothing"], "unknown lesson(s): 99_nothing"),
    "sources that are no course": (["--sources", "{foreign}"], "is not a course directory"),
    "an unknown option": (["--bogus"], "unrecognized arguments: --bogus"),
}


@pytest.mark.parametrize("case", DEMO_CASES)
def test_the_demo_given_what_it_cannot_use_says_so_in_one_line(case, places):
    arguments, words = DEMO_CASES[case]
    line = one_line(run([*DEMO, *(a.format(**places) for a in arguments), "--course", places["foreign"] / "demo"]))
    assert words in line and line.startswith("python -m grader.proof.demo: error: "), line
    assert not (places["foreign"] / "demo").exists()


@pytest.mark.parametrize("arguments", [["--students", "x"], ["--bogus"]])
def test_the_hub_given_what_it_cannot_use_says_so_in_one_line(arguments):
    """Only what argparse itself refuses runs in a process here: the hub's set-up, as root, makes Unix accounts."""
    line = one_line(run([sys.executable, "-m", "grader.hub", *arguments]))
    assert line.startswith("python -m grader.hub: error: ") and line.endswith("(see python -m grader.hub --help)")


@pytest.mark.parametrize("arguments", [["--prefix", ""], ["--prefix", "Sm student"], ["--students", "-1"]])
def test_the_hub_refuses_a_prefix_no_account_name_starts_with(arguments, capsys):
    """An empty prefix would make the hub's accounts `instructor` and `grader`, and --remove remove such accounts."""
    with pytest.raises(SystemExit) as stopped:
        hub.parse(arguments)
    said = capsys.readouterr().err
    assert stopped.value.code == 2 and len(said.strip().splitlines()) == 1 and "python -m grader.hub: error:" in said


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_make_targets_given_what_they_cannot_use_say_so_in_one_line(places):
    """make's own line ("make: *** [Makefile:N: target] Error 2") follows the command's."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        targets = {
            ("check", "NB=missing.ipynb"): "missing.ipynb: no such file",
            ("check",): "usage: make check NB=path/to/lesson.ipynb",
            ("formgrader", f"COURSE={places['missing']}"): "holds no nbgrader_config.py",
            ("lab", f"PORT={port}", "HEADLESS=1"): f"make lab: port {port} is taken or no port number",
            ("lab", "PORT=abc", "HEADLESS=1"): "make lab: port abc is taken or no port number",
            ("formgrader", f"PORT={port}"): f"make formgrader: port {port} is taken",
            ("lab", f"WORK={places['not_json']}", f"PORT={free_port()}", "HEADLESS=1"): "notebook.ipynb: File exists",
            ("profile", "LESSON=99_nothing"): "--lesson: invalid choice: '99_nothing'",
        }
        for target, words in targets.items():
            line = one_line(run([*MAKE, *target]), make=True)
            assert words in line, (target, line)


@pytest.mark.parametrize("name", commandline.REFUSALS)
def test_every_refusal_names_an_error_class(name):
    """REFUSALS names classes by module and name; a class renamed or moved would show its traceback again."""
    module, _, kind = name.rpartition(".")
    assert issubclass(getattr(importlib.import_module(module), kind), Exception)


def test_a_bug_shows_its_traceback(monkeypatch):
    """What no user can put right is not hidden behind a line: its traceback is what a report of it needs."""

    def broken(args):
        raise TypeError("a bug")

    monkeypatch.setattr(cli, "_outputs", broken)
    with pytest.raises(TypeError, match="a bug"):
        cli.main(["report"])


# ----------------------------------------------------------------- Ctrl-C


def processes() -> dict[int, tuple[int, float, str]]:
    """Every process: pid -> (parent's pid, CPU seconds used, command line)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command_line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue  # not a process, or one that has just ended
        ticks = int(stat[11]) + int(stat[12])  # utime and stime
        found[int(entry.name)] = (int(stat[1]), ticks / os.sysconf("SC_CLK_TCK"), command_line)
    return found


def descendants(pid: int, table: dict[int, tuple[int, float, str]]) -> set[int]:
    found, more = set(), {pid}
    while more:
        more = {child for child, (parent, _, _) in table.items() if parent in more} - found
        found |= more
    return found


def kernel_busy(pid: int) -> bool:
    """A kernel of the command (forked by its zygote, or by a keeper the zygote forked) has used a second of CPU: it
    runs the learner's loop (its own start-up, forked from a zygote that has imported everything, takes far less)."""
    table = processes()
    return any(
        "grader.engine.warmkernel" in table[p][2] and table[p][0] != pid and table[p][1] >= 1.0
        for p in descendants(pid, table)
    )


def ctrl_c(argv: list, ready: Callable[[int], bool], out: Path, cwd: Path = COURSE.root) -> subprocess.CompletedProcess:
    """Run argv in a session of its own with a kernel zygote of its own, and once ready(its pid), send SIGINT to
    its process group, as Ctrl-C in a terminal does; then wait until every process it had started has ended."""
    env = {k: v for k, v in os.environ.items() if k != warmkernel.ADDRESS}
    with open(out / "stdout", "w") as stdout, open(out / "stderr", "w") as stderr:
        with terminal_sigint():
            process = subprocess.Popen(
                [str(a) for a in argv], stdout=stdout, stderr=stderr, cwd=cwd, env=env, start_new_session=True
            )
        deadline = time.monotonic() + 240
        while not ready(process.pid):
            assert process.poll() is None, f"it ended before it was interrupted: {(out / 'stderr').read_text()}"
            assert time.monotonic() < deadline, "it never got to the work to interrupt"
            time.sleep(0.05)
        started = descendants(process.pid, processes())
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=120)
    while started & set(processes()):
        assert time.monotonic() < deadline + 60, f"left running: {started & set(processes())}"
        time.sleep(0.1)
    said = [(out / name).read_text() for name in ("stdout", "stderr")]
    return subprocess.CompletedProcess(argv, process.returncode, *said)


def test_ctrl_c_in_grade_keeps_what_was_graded_and_grade_again_grades_the_rest(tmp_path):
    course = course_by_hand(COURSE, tmp_path / "course", [LESSON], {})
    solved = COURSE.learner_notebook(LESSON, COURSE.reference_answers(LESSON))
    looping = COURSE.learner_notebook(LESSON, {COURSE.graded_functions(LESSON)[0]: "while True:\n    pass"})
    for student, nb in (("ada", solved), ("cy", looping)):
        handed_in = course.grading / "submitted" / student / LESSON / f"{LESSON}.ipynb"
        handed_in.parent.mkdir(parents=True)
        nbformat.write(nb, handed_in)
    state = course.grading / STATE

    def ada_graded(_) -> bool:
        return state.is_file() and f"ada/{LESSON}" in state.read_text()

    argv = [*GRADER, "--course", course.root, "grade", "--jobs", "2", "--timeout", "300"]
    done = ctrl_c(argv, ada_graded, tmp_path)
    line = one_line(done)
    assert done.returncode == 130 and line.startswith("stopped (Ctrl-C): the submissions graded so far are saved")
    results = class_results(course)
    assert results.score("ada", LESSON) == results.max_scores[LESSON] > 0 and f"cy/{LESSON}" not in state.read_text()
    again = run([*GRADER, "--course", course.root, "grade", "--timeout", "2"])
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Graded 1 submission(s)") and "1 unchanged since last graded" in again.stdout
    assert f"  cy / {LESSON}: timeout" in again.stdout and f"cy/{LESSON}" in state.read_text()


def test_ctrl_c_in_check_stops_it_in_one_line(tmp_path):
    looping = COURSE.learner_notebook(LESSON, {COURSE.graded_functions(LESSON)[0]: "while True:\n    pass"})
    nbformat.write(looping, tmp_path / "mine.ipynb")
    done = ctrl_c([*GRADER, "check", tmp_path / "mine.ipynb"], kernel_busy, tmp_path)
    assert one_line(done).startswith("stopped (Ctrl-C): nothing was graded") and done.returncode == 130
    assert done.stdout == ""


def test_ctrl_c_in_collect_stops_it_and_collect_again_collects_everything(tmp_path):
    course = course_by_hand(COURSE, tmp_path / "course", [LESSON], {})
    downloads, notebook = tmp_path / "downloads.zip", COURSE.release_notebook(LESSON).read_bytes()
    with zipfile.ZipFile(downloads, "w", zipfile.ZIP_DEFLATED) as archive:
        for n in range(1000):
            archive.writestr(f"s{n:04d}_1_2_{LESSON}.ipynb", notebook)
    submitted = course.grading / "submitted"

    def collecting(_) -> bool:
        return submitted.is_dir() and any(submitted.iterdir())

    done = ctrl_c([*GRADER, "--course", course.root, "collect", "--from", downloads], collecting, tmp_path)
    assert one_line(done).startswith("stopped (Ctrl-C): ") and done.returncode == 130
    again = run([*GRADER, "--course", course.root, "collect", "--from", downloads])
    assert again.returncode == 0 and again.stdout.startswith("Collected 1000 submission(s)"), again.stderr
    assert len(list(submitted.iterdir())) == 1000


def test_ctrl_c_in_release_stops_it_and_release_again_releases_every_lesson(tmp_path):
    root = tmp_path / "course"
    shutil.copytree(COURSE.root / "solutions", root / "solutions")
    shutil.copy(COURSE.root / "nbgrader_config.py", root)
    lessons = COURSE.lesson_ids()[:3]

    def first_released(_) -> bool:
        return (root / "notebooks" / lessons[0] / f"{lessons[0]}.ipynb").is_file()

    done = ctrl_c([*GRADER, "--course", root, "release", *lessons], first_released, tmp_path)
    assert one_line(done) == "stopped (Ctrl-C): run it again to finish" and done.returncode == 130
    again = run([*GRADER, "--course", root, "release", *lessons])
    assert again.returncode == 0, again.stderr
    assert all((root / "notebooks" / lesson / f"{lesson}.ipynb").is_file() for lesson in lessons)


def test_ctrl_c_in_the_demo_stops_it_in_one_line(tmp_path):
    course = tmp_path / "demo"

    def collected(_) -> bool:
        return (course / ".grading" / "submitted").is_dir() and any((course / ".grading" / "submitted").iterdir())

    argv = [*DEMO, "--students", "4", "--lessons", LESSON, "--jobs", "1", "--course", course]
    done = ctrl_c(argv, collected, tmp_path)
    assert one_line(done) == "stopped (Ctrl-C): the demo starts over when run again" and done.returncode == 130
    assert (course / MARKER).is_file()  # so the next run may wipe it and start over
