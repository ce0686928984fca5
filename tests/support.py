"""What tests share: notebooks to grade, work done once per run, kernels in a thread of their own.

Fixtures are registered in tests/conftest.py; everything a test module imports from another lives here.
"""

from __future__ import annotations

import ast
import collections
import concurrent.futures
import contextlib
import copy
import fcntl
import io
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from html.parser import HTMLParser
from pathlib import Path

import nbformat

from grader.course import Course
from grader.engine.scores import Report, TestResult
from grader.engine.warmkernel import ForkedKernelManager
from grader.learner.checks import GRADER_FOLDER

COURSE = Course(Path(__file__).resolve().parent.parent)  # this repository's course
solution_sources = COURSE.reference_answers
learner_notebook = COURSE.learner_notebook


def tools_env(**changes: str) -> dict[str, str]:
    """The environment for a child process: this one's, with the venv's tools (nbgrader's alembic) first on PATH."""
    return {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}", **changes}


def once_per_run(tmp_path_factory, name: str, build) -> Path:
    """A folder that `build(folder)` fills once per test run, shared by every xdist worker.

    The first worker to ask builds it while holding a lock; the others wait for it and
    reuse the result, so expensive grading is not repeated on each worker.
    """
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    folder = base / name
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".built").exists():
            folder.mkdir(exist_ok=True)
            build(folder)
            (folder / ".built").touch()
    return folder


@contextlib.contextmanager
def terminal_sigint():
    """While it lasts, a command started here gets SIGINT as a terminal's foreground job has it: Ctrl-C stops it.

    A run of the suite started in the background (`nohup make test &`, a script's `&`) ignores SIGINT, and a
    command inherits that: a test that sends it Ctrl-C would wait for it in vain. (Python's own handler is undone
    by exec, so the command starts with the default.)"""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def run_apart(function, *args):
    """Call `function(*args)` in a thread of its own and return its result.

    A worker that has run the browser tests keeps Playwright's event loop running in its
    main thread; asyncio.run and nbclient need a thread without one."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function, *args).result()


def marked_lines(begin: str, end: str, lessons) -> list[str]:
    """The lines between `begin` and `end` markers in the lessons' source notebooks, long enough to tell."""
    lines = []
    for lesson in lessons:
        for cell in nbformat.read(COURSE.source_notebook(lesson), as_version=4).cells:
            inside = False
            for line in cell.source.splitlines():
                if line.strip() == begin:
                    inside = True
                elif line.strip() == end:
                    inside = False
                elif inside and len(line.strip()) > 15:
                    lines.append(line.strip())
    return lines


def graded_cells_of(nb: nbformat.NotebookNode) -> list:
    """The notebook's graded test cells, in order."""
    return [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]


TORCH_CALL = "torch_or_none()"  # what a lesson's PyTorch cell calls first
LESSONS_WITH_TORCH = [lesson for lesson in COURSE.lesson_ids() if TORCH_CALL in COURSE.text_source(lesson).read_text()]


def torch_cells(nb: nbformat.NotebookNode) -> list[int]:
    """Indices of the code cells that call torch_or_none or run only `if torch:`."""
    return [
        index
        for index, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and (TORCH_CALL in cell.source or cell.source.startswith("if torch:"))
    ]


def printed_by(cell) -> str:
    """What a cell printed (its stream outputs; nothing for a cell without outputs)."""
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")


def lesson_notebooks(lesson: str) -> dict[str, nbformat.NotebookNode]:
    """The notebooks of a lesson that every run grades: the reference answers, the release's stubs, the
    reference with every guess wrong (but well formed), and the reference with its last test cell deleted."""
    from grader.proof.guesses import wrong_guesses

    answers = solution_sources(lesson)
    reference = learner_notebook(lesson, answers)
    wrong = learner_notebook(lesson, {**answers, **wrong_guesses(COURSE, lesson)})
    deleted = copy.deepcopy(reference)
    deleted.cells.remove(graded_cells_of(deleted)[-1])
    return {"reference": reference, "stub": learner_notebook(lesson, {}), "wrong": wrong, "deleted": deleted}


def grade_every_lesson(folder: Path) -> None:
    """Grade every lesson's `lesson_notebooks` in one warm batch (grade_many); the reports go to reports.json.
    (Read by the `lesson_reports` fixture, and by tests/unit/learner/test_predictions.py beside plain nbgrader's.)"""
    from grader.engine.pool import grade_many

    items = [(lesson, kind, nb) for lesson in COURSE.lesson_ids() for kind, nb in lesson_notebooks(lesson).items()]
    reports = run_apart(grade_many, COURSE, [(lesson, nb) for lesson, _, nb in items])
    failed = [
        (lesson, kind, report)
        for (lesson, kind, _), report in zip(items, reports, strict=True)
        if isinstance(report, Exception)
    ]
    assert not failed, failed
    graded: dict[str, dict] = {}
    for (lesson, kind, _), report in zip(items, reports, strict=True):
        graded.setdefault(lesson, {})[kind] = asdict(report)
    (folder / "reports.json").write_text(json.dumps(graded))


def graded_lessons(tmp_path_factory) -> dict[str, dict[str, Report]]:
    """Every lesson's `lesson_notebooks` graded (grade_every_lesson), once per run, read back (read_lesson_reports)."""
    return read_lesson_reports(once_per_run(tmp_path_factory, "lesson-reports", grade_every_lesson))


def read_lesson_reports(folder: Path) -> dict[str, dict[str, Report]]:
    """lesson -> notebook kind (reference, stub, wrong, deleted) -> its Report, as grade_every_lesson wrote them."""
    graded = json.loads((folder / "reports.json").read_text())
    return {
        lesson: {
            kind: Report(**{**report, "tests": [TestResult(**t) for t in report["tests"]]})
            for kind, report in kinds.items()
        }
        for lesson, kinds in graded.items()
    }


def prove_everything(folder: Path) -> None:
    """One `grader prove --mutate --json` run of this course, with a minimal PATH: its JSON and exit status in
    folder/proofs.json (read by the `proofs` fixture)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}
    run = subprocess.run(
        [sys.executable, "-m", "grader", "prove", "--mutate", "--json"],
        cwd=COURSE.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert run.returncode in (0, 1) and run.stdout.startswith("{"), run.stderr[-3000:]
    result = json.loads(run.stdout)
    result["returncode"] = run.returncode
    (folder / "proofs.json").write_text(json.dumps(result))


def by_id(proofs) -> dict[str, dict]:
    """The proofs of the catalogue's entries, by entry id."""
    return {p["entry"]: p for p in proofs["entries"]}


async def run_in_kernel(
    code: str, cwd, env=None, isolate=False, arguments: Sequence[str] = ()
) -> tuple[str, ForkedKernelManager]:
    """Run `code` in a forked kernel (isolated as in grading when asked, started with the kernel's command-line
    `arguments`: sandbox.GRADING_KERNEL's, say); what it printed, and its manager."""
    km = ForkedKernelManager(kernel_name="python3", isolate=isolate)
    await km.start_kernel(cwd=str(cwd), env={**os.environ, **(env or {})}, extra_arguments=list(arguments))
    client = km.client()
    client.start_channels()
    await client.wait_for_ready(timeout=30)
    printed = []
    reply = await client.execute_interactive(
        code,
        timeout=30,
        output_hook=lambda msg: printed.append(msg["content"].get("text", "")) if msg["msg_type"] == "stream" else None,
    )
    client.stop_channels()
    assert reply["content"]["status"] == "ok", reply["content"]
    return "".join(printed), km


def grade_source_notebooks(folder: Path) -> None:
    """Grade every lesson's source notebook (solutions, their markers and the hidden tests in place), read and
    identified as `check` reads a notebook, in one warm batch (grade_many); the reports go to reports.json as
    grade_every_lesson writes them, each lesson's under the kind "source" (read_lesson_reports reads them)."""
    from grader.engine.pool import grade_many
    from grader.engine.submission import identify_lesson, read_notebook

    lessons = COURSE.lesson_ids()
    notebooks = [read_notebook(COURSE.source_notebook(lesson)) for lesson in lessons]
    items = [
        (identify_lesson(COURSE, nb, COURSE.source_notebook(lesson)), nb)
        for lesson, nb in zip(lessons, notebooks, strict=True)
    ]
    assert [lesson for lesson, _ in items] == lessons, items
    reports = run_apart(grade_many, COURSE, items)
    failed = [
        (lesson, report) for lesson, report in zip(lessons, reports, strict=True) if isinstance(report, Exception)
    ]
    assert not failed, failed
    graded = {lesson: {"source": asdict(report)} for lesson, report in zip(lessons, reports, strict=True)}
    (folder / "reports.json").write_text(json.dumps(graded))


@dataclass
class Ran:
    """What a run of the command line gave: its exit status and what it printed."""

    returncode: int
    stdout: str
    stderr: str


def run_cli_here(*args) -> Ran:
    """`python -m grader ARGS` run in this process (grader.cli.main, in a thread of its own for the kernels it may
    start), what it printed caught here: no interpreter to start, so a run costs what it does (a process of its own
    spends 1 to 2 CPU-s importing first). The working directory is put back, as nbgrader changes it while it works;
    a kernel zygote or worker pool it starts stays with this pytest worker and ends with it."""
    from grader import cli

    out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            returncode = run_apart(cli.main, [str(arg) for arg in args])
    finally:
        os.chdir(here)
    return Ran(returncode, out.getvalue(), err.getvalue())


# Every bullet of docs/COURSE.md, "The misconceptions the hidden tests must catch", and the
# catalogue entries that embody it.
COURSE_MISCONCEPTIONS = {
    "divides by the sum (no exp)": ["softmax_no_exp"],
    "sums over the wrong axis": ["naive_sums_axis0", "softmax_axis0", "stable_sums_axis0"],
    "sums over the whole array": ["naive_sums_whole_array", "softmax_whole_array", "masked_whole_array_sum"],
    "subtracts the global max instead of each row's max": ["stable_global_max", "masked_global_max"],
    "forgets to shift at all": ["stable_no_shift", "masked_no_shift"],
    "multiplies by T instead of dividing": ["swt_multiplies_by_t", "stable_multiplies_temperature"],
    "accepts T <= 0": ["swt_no_checks", "snt_no_negative_check"],
    "returns nan for T = 0": ["swt_nan_for_zero"],
    "masks with 0": ["masked_with_zero"],
    "multiplies scores by the mask": ["masked_multiplies_scores_by_mask"],
    "fills with a large finite negative number, so an all-forbidden row comes back uniform": [
        "masked_large_negative_fill"
    ],
    "inverted mask polarity (True = forbidden)": ["masked_inverted_polarity", "causal_inverted", "padding_inverted"],
    "modifies the caller's array in place": [
        "naive_in_place",
        "softmax_in_place",
        "stable_shift_in_place",
        "masked_in_place",
    ],
    "fails on int input": ["naive_fails_on_ints", "softmax_fails_on_ints"],
    "fails on list input": ["naive_fails_on_lists", "softmax_fails_on_lists", "evidence_fails_on_lists"],
    "float32 silently becomes something else": ["stable_float32_becomes_float64"],
    "returns a list where an array is expected": ["naive_returns_list", "softmax_returns_list"],
    "returns a scalar where an array is expected": ["evidence_returns_scalar"],
    "greedy decoding that samples": ["snt_greedy_samples"],
    "sampling that always takes the argmax": ["snt_always_argmax"],
    "is_distribution that ignores negatives": ["dist_ignores_negatives"],
    "is_distribution that ignores nan": ["dist_ignores_nan"],
    "is_distribution that only checks the first row": ["dist_first_row_only"],
}

SMALL_DEMO_LESSON = "01_naive_division"
SMALL_DEMO_STUDENTS = 8


def run_small_demo(folder: Path) -> None:
    """`python -m grader.proof.demo` on SMALL_DEMO_STUDENTS students and one lesson, into folder/course; its output
    and exit status in files beside (one run per test session, shared by the demo and formgrader tests)."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "grader.proof.demo",
            "--students",
            str(SMALL_DEMO_STUDENTS),
            "--lessons",
            SMALL_DEMO_LESSON,
            "--jobs",
            "2",
            "--course",
            str(folder / "course"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    (folder / "stdout.txt").write_text(result.stdout)
    (folder / "stderr.txt").write_text(result.stderr)
    (folder / "returncode.txt").write_text(str(result.returncode))


ANSI = re.compile(r"\x1b\[[0-9;]*m")  # terminal colours, as IPython writes tracebacks


def plain(text: str) -> str:
    """`text` without colours and with every run of whitespace one space (shown lines are wrapped)."""
    return " ".join(ANSI.sub("", text).split())


def grader_source_lines() -> list[str]:
    """The lines of the checks' own source long enough to tell, as a traceback of the grader would quote them."""
    source = (GRADER_FOLDER / "learner" / "checks.py").read_text().splitlines()
    return [line.strip() for line in source if len(line.strip()) > 20 and not line.strip().startswith(("#", '"'))]


def assert_no_grader_frame(shown: str) -> None:
    assert str(GRADER_FOLDER) not in shown, shown
    assert "checks.py" not in shown, shown
    quoted = [line for line in grader_source_lines() if line in shown]
    assert not quoted, quoted


# ----------------------------------------------------------------- what a page may run (grader/engine/inert.py)
# Tags that run or load something, or take the page elsewhere, wherever they appear in a page's body.
ACTIVE_TAGS = {
    *("script", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta", "link", "form"),
    *("svg", "math", "style", "audio", "video", "source", "track", "portal"),
}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "data", "poster", "background", "xlink:href", "srcset"}
SAFE_URL = re.compile(r"(?i)(https?://|mailto:|#|data:image/(png|jpeg|gif);base64,)")


class ActiveMarkup(HTMLParser):
    """What in a page could run, load or navigate: each active tag (with its attributes, and a script's first
    characters), each event handler and each address that is not http(s), mailto, a fragment or an image's
    data, as one line each."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.found: collections.Counter[str] = collections.Counter()
        self.script: list[str] | None = None
        self.feed(page)
        self.close()

    def handle_starttag(self, tag, attrs):
        described = f"<{tag} {' '.join(f'{name}={value!r}' for name, value in attrs)}>"
        if tag == "script":
            self.script = [described]
        elif tag in ACTIVE_TAGS:
            self.found[described] += 1
        for name, value in attrs:
            value = (value or "").strip()
            if name.startswith("on") or name == "srcdoc":
                self.found[f"{tag} {name}={value!r}"] += 1
            elif name in URL_ATTRIBUTES and value and not SAFE_URL.match(value):
                self.found[f"{tag} {name}={value!r}"] += 1
            elif tag == "img" and name == "src" and not value.startswith("data:image/"):
                self.found[f"{tag} {name}={value!r} (loaded from elsewhere)"] += 1

    def handle_data(self, data):
        if self.script is not None:
            self.script.append(data[:200])

    def handle_endtag(self, tag):
        if tag == "script" and self.script is not None:
            self.found["".join(self.script)] += 1
            self.script = None


def active_markup(page: str) -> collections.Counter[str]:
    """ActiveMarkup's findings in `page`, counted."""
    return ActiveMarkup(page).found


def formgrader_page(nb: nbformat.NotebookNode) -> str:
    """The page formgrader shows of an autograded notebook: nbgrader's own exporter and template, with the
    resources its submission page passes them."""
    from nbconvert.exporters import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers
    from traitlets.config import Config

    config = Config()
    config.HTMLExporter.template_name = "formgrade"
    config.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    resources = {
        **dict.fromkeys(("assignment_id", "notebook_id", "submission_id", "student", "notebook_path"), "x"),
        **{"index": 0, "total": 1, "base_url": "", "first_name": "", "last_name": ""},
    }
    page, _ = HTMLExporter(config=config).from_notebook_node(copy.deepcopy(nb), resources=resources)
    return page


JOURNEY = re.compile(r"<!-- journey: ([\w-]+) -->")
COMMENT = re.compile(r"(^|\s)#.*$")  # a shell comment: a whole line, or after a space


def documentation(root: Path = COURSE.root) -> list[Path]:
    """The README and every Markdown page of docs/ that a person reads (the site's build output left out)."""
    pages = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    return [page for page in pages if page.is_file() and "_build" not in page.relative_to(root).parts]


def journeys_on(page: Path) -> set[str]:
    """The journeys whose blocks `page` holds: each line `<!-- journey: NAME -->` alone on its line."""
    return {marker[1] for line in page.read_text().splitlines() if (marker := JOURNEY.fullmatch(line.strip()))}


def journey_page(name: str, root: Path = COURSE.root) -> Path:
    """The one page of the documentation that tells the journey `name`: the page holding its blocks, each after a
    line `<!-- journey: name -->`. A journey told on two pages, or on none, is an error: its commands have one order."""
    pages = [page for page in documentation(root) if name in journeys_on(page)]
    if len(pages) != 1:
        found = ", ".join(str(page.relative_to(root)) for page in pages) or "none"
        raise LookupError(f"<!-- journey: {name} --> must be on one page of the documentation; found on: {found}")
    return pages[0]


def journey_commands(name: str, root: Path = COURSE.root) -> list[str]:
    """The commands a user types in the journey `name`, as its page of the documentation prints them (`journey_page`):
    the lines of the fenced block that follows each line `<!-- journey: name -->`, comments and blank lines dropped,
    a line ending in a backslash joined to the next as the shell joins them. A test that runs these runs what the
    page says, so the two cannot drift apart. `root`: the checkout whose documentation is read (a fresh clone's)."""
    page = journey_page(name, root)
    commands: list[str] = []
    wanted = inside = continued = False
    for line in page.read_text().splitlines():
        fence = line.strip().startswith("```")
        if inside:
            inside = not fence
            command = COMMENT.sub("", line).strip()
            if inside and command:
                if continued:
                    command = f"{commands.pop()} {command}"
                continued = command.endswith("\\")
                commands.append(command.removesuffix("\\").rstrip() if continued else command)
        elif fence and wanted:
            inside, wanted = True, False
        elif marker := JOURNEY.fullmatch(line.strip()):
            wanted = marker[1] == name
    if not commands:
        raise LookupError(f"{page.relative_to(root)} has no fenced block after <!-- journey: {name} -->")
    return commands


GRADED_FUNCTIONS = frozenset(f for lesson in COURSE.lesson_ids() for f in COURSE.graded_functions(lesson))


def defined_graded_functions(code: str) -> set[str]:
    """The graded functions `code` defines, when it is Python (at any depth); none when it is not."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return set()
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in GRADED_FUNCTIONS
    }


def strings_in(value) -> list[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*strings_in(k), *strings_in(v))]
    if isinstance(value, list):
        return [s for item in value for s in strings_in(item)]
    return []


def graded_function_implementations(folder: Path) -> dict[str, set[str]]:
    """{file: the graded functions it implements} for each file under `folder` that defines one: a Python module by
    its own code or by any string in it that compiles to code defining one; a JSON file by any of its strings; any
    other file by a `def NAME(` in its text."""
    found = {}
    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        text = path.read_bytes().decode("utf-8", errors="replace")
        if path.suffix == ".py":
            tree = ast.parse(text)
            pieces = [text] + [
                n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            ]
        elif path.suffix == ".json":
            pieces = strings_in(json.loads(text))
        else:
            pieces = [f"def {name}(): pass" for name in GRADED_FUNCTIONS if re.search(rf"\bdef\s+{name}\s*\(", text)]
        defined = set().union(*(defined_graded_functions(piece) for piece in pieces))
        if defined:
            found[str(path)] = defined
    return found


# ---------------------------------------------------------------------------------------- a real nbgrader exchange


def exchange_course(root: Path, lesson: str) -> Course:
    """A course of `lesson` alone, released into its gradebook and its exchange (the course's .grading/exchange)."""
    from grader.course.release import publish
    from grader.proof.simulate import released_course

    released_course(COURSE, root, [lesson])
    course = Course(root)
    publish(course, [lesson], progress=lambda _: None)
    return course


def exchange_inbound(course: Course) -> Path:
    """Where the course's students hand in (its exchange's inbound folder)."""
    config = course.nbgrader_config()
    return Path(config.Exchange.root) / config.CourseDirectory.course_id / "inbound"


def as_student(course: Course, student: str, lesson: str, kind) -> Path:
    """One of nbgrader's own exchange steps (ExchangeSubmit, ExchangeFetchFeedback) run as `student` does; the
    student's home."""
    from nbgrader.auth import Authenticator
    from nbgrader.coursedir import CourseDirectory

    config = course.nbgrader_config()
    home = course.root / "students" / student
    config.Exchange.cache = str(home / ".nbgrader-cache")  # each student's own, as in a home folder
    coursedir = CourseDirectory(config=config, assignment_id=lesson, student_id=student)
    step = kind(
        coursedir=coursedir, authenticator=Authenticator(config=config), config=config, assignment_dir=str(home)
    )
    step.start()
    return home


def submit_with_nbgrader(course: Course, student: str, lesson: str, data: bytes) -> Path:
    """`student` hands in `data` as `lesson` with nbgrader's own submit; the new inbound folder."""
    from nbgrader.exchange.default.submit import ExchangeSubmit

    home = course.root / "students" / student
    notebook = home / course.nbgrader_config().CourseDirectory.course_id / lesson / f"{lesson}.ipynb"
    notebook.parent.mkdir(parents=True, exist_ok=True)
    notebook.write_bytes(data)
    inbound = exchange_inbound(course)
    before = set(inbound.glob(f"{student}+*")) if inbound.is_dir() else set()
    as_student(course, student, lesson, ExchangeSubmit)
    [new] = set(inbound.glob(f"{student}+*")) - before
    return new
