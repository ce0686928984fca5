"""The kinds of the hostile corpus, one entry each: how to make the file a student hands in, and the status and
score it must get; and the table of what each got."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import nbformat

from grader.engine import status
from testbed.hostile.cells import (
    deep_json,
    delete_test,
    duplicate_test,
    fake_grade_cell,
    json_of,
    last_cell,
    list_metadata,
    markdown_grade,
    plain_cell,
    replace_test,
    set_metadata,
    sleepy_cells,
    strip_metadata,
    timed,
    warning_first,
)
from testbed.hostile.lesson import (
    COURSE,
    DISTRIBUTION_ONLY,
    FULL,
    NORMALIZE_ONLY,
    notebook,
    reference,
    stub,
)
from testbed.hostile.lookup import lookup_table
from testbed.hostile.payloads import (
    ALWAYS_EQUAL,
    ASKS_SERVICE,
    C_LOOP,
    CHR_NAMES,
    EXCEPTION_NAME_4MB,
    EXECS_SHELL,
    EXITS_ON_IMPORT,
    FAKE_CHECKS,
    FAKE_NUMPY,
    FORGED_MISTAKE,
    FORGED_NAMES,
    FORKED_CHILDREN,
    GARBLES_BRIDGE,
    GRADED_ONLY,
    HOLDS_TERMINALS,
    IGNORES_SIGINT,
    LONG_EXPRESSION,
    MODULE_EXITS,
    MUTE_SHELL,
    NAIVE,
    PATCHED_BUILTINS,
    PATCHED_GRADER,
    PATCHED_NUMPY,
    RACES_LINKS,
    READS_SOLUTIONS,
    REDEFINED_CHECKS,
    RETURNS_8MB,
    SETSID_SURVIVOR,
    SHARED_MAPPING,
    SHELL_LINES,
    SHM_KEY,
    SLEEP,
    SLEEPY_CELLS,
    SNOOPS_IOPUB,
    STOPS_ITSELF,
    SURVIVOR,
    SYSV_SEGMENT,
    TRIGGER,
    WRITES_COURSE_GRADEBOOK,
    WRONG,
)
from testbed.hostile.scripts import scripts_everywhere

NOT_COLLECTED = "not collected (listed, kept in .grading/unplaced/)"


@dataclass(frozen=True)
class Kind:
    """A kind of submission: how to make it, and the status and score it must get.

    `beside` are files handed in next to the notebook (path, bytes). A kind with `uploads`
    arrives in an LMS zip instead, as (file name, bytes, zip time) entries; `student` is
    the id its upload names."""

    id: str
    what: str
    make: Callable[[], bytes] | None
    status: str
    score: float | None
    beside: tuple = ()
    uploads: Callable[[], list] | None = None
    student: str = ""
    needs_isolation: bool = False  # its outcome is that of an isolated kernel (as root): one that reaches the
    # course by absolute path, or stops itself, only isolation stops
    own_zip: bool = False  # its uploads go in a zip of their own, collected by themselves
    listed_as: str = ""  # what the collect log shows of an upload it refuses (default: its name)
    timed: bool = False  # it prints when its grading started, so the test can time it
    unsafe_for_plain: str = ""  # why plain nbgrader, with no limits, must not grade it

    @property
    def student_id(self) -> str:
        return self.student or self.id

    def made(self, root: Path, service_port: int = 0) -> bytes:
        """The file it hands in to the course at `root`, with COURSE_ROOT and SERVICE_PORT filled in."""
        data = self.make().replace(b"COURSE_ROOT", str(root).encode())
        return data.replace(b"SERVICE_PORT", str(service_port).encode())


def uploads(*entries):
    """Zip entries (name, notebook bytes, minutes after a fixed time[, damage]); damage "bad crc" flips
    a byte of the stored entry after the zip is written."""
    return lambda: [(name, make(), (2026, 11, 30, 12, minute, 0), *damage) for name, make, minute, *damage in entries]


@dataclass(frozen=True)
class Zeros:
    """An upload of `size` zero bytes, written into the zip in chunks (never held in memory)."""

    size: int


KINDS = [
    Kind(
        "infinite_loop",
        "a solution cell that never ends",
        lambda: notebook({NAIVE: "while True:\n    pass\n"}),
        status.TIMEOUT,
        DISTRIBUTION_ONLY,
    ),
    Kind(
        "never_returns",
        "a graded function that never returns",
        # it waits rather than spins (infinite_loop spins): each of its test cells runs to the time limit, and
        # burning a core in each would starve the memory kinds graded beside it
        lambda: notebook(
            {NAIVE: "def naive_normalize(scores):\n    import time\n    while True:\n        time.sleep(60)\n"}
        ),
        status.TIMEOUT,
        DISTRIBUTION_ONLY,
    ),
    Kind(
        "os_exit",
        "os._exit() in a solution cell",
        lambda: notebook({NAIVE: "import os\nos._exit(3)\n"}),
        status.KERNEL_DIED,
        0.0,
    ),
    Kind(
        "segfault",
        "a segfault (ctypes reads address 0)",
        lambda: notebook({NAIVE: "import ctypes\nctypes.string_at(0)\n"}),
        f"{status.SUSPICIOUS}, {status.KERNEL_DIED}",
        0.0,
    ),
    Kind(
        "memory_bomb",
        "a memory bomb after a correct answer",
        lambda: notebook(
            {
                NAIVE: reference()[NAIVE] + "\n\ndef _bomb():\n    blocks = []\n    while True:\n"
                "        blocks.append(bytearray(10**9))\n\n\n_bomb()\n"
            }
        ),
        status.MEMORY,
        FULL,
        unsafe_for_plain="no memory limit",
    ),
    Kind(
        "output_flood",
        "20 MB printed (20,000 lines) before a correct answer",
        # past what a cell keeps (RECEIVE_LIMIT); as 200,000 shorter lines it took the kernel 5 times the CPU
        lambda: notebook({NAIVE: "for _ in range(20_000):\n    print('spam ' * 200)\n" + reference()[NAIVE]}),
        status.GRADED,
        FULL,
    ),
    Kind("not_json", "a file that is not JSON", lambda: b"<html>exported page</html>", status.INVALID, 0.0),
    Kind("empty", "an empty file", lambda: b"", status.INVALID, 0.0),
    Kind("not_utf8", "bytes that are not UTF-8", lambda: b"\xff\xfe{\x00\x00", status.INVALID, 0.0),
    Kind(
        "other_lesson",
        "a notebook of another lesson (06)",
        lambda: nbformat.writes(COURSE.learner_notebook("06_masking", COURSE.reference_answers("06_masking"))).encode(),
        status.TAMPERED,
        0.0,
    ),
    Kind(
        "deleted_test",
        "a deleted test cell (1 point)",
        lambda: notebook(edit=delete_test("test_is_distribution_rows_and_atol")),
        status.TAMPERED,
        FULL - 1,
    ),
    Kind(
        "edited_test",
        "a test cell replaced by `pass`",
        lambda: notebook(edit=replace_test("test_naive_normalize_public", "pass")),
        status.TAMPERED,
        FULL,
    ),
    Kind(
        "duplicated_test",
        "a test cell duplicated (plain nbgrader fails on it)",
        lambda: notebook(edit=duplicate_test("test_naive_normalize_rows")),
        status.TAMPERED,
        FULL,
    ),
    Kind(
        "stripped_metadata",
        "nbgrader metadata stripped from every cell",
        lambda: notebook(edit=strip_metadata),
        status.TAMPERED,
        0.0,
    ),
    Kind(
        "correct_but_warns",
        "a correct answer that warns (stderr) every call",
        lambda: notebook({NAIVE: warning_first(reference()[NAIVE])}),
        status.GRADED,
        FULL,
    ),
    Kind(
        "always_equal_array",
        "a wrong answer in an array subclass whose == always says True",
        lambda: notebook({NAIVE: ALWAYS_EQUAL}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
    ),
    Kind(
        "patched_numpy",
        "a wrong answer after patching np.allclose, np.array_equal, np.testing",
        lambda: notebook({NAIVE: PATCHED_NUMPY}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
    ),
    Kind(
        "writes_gradebook",
        "a wrong answer that adds a trigger to the gradebook beside it",
        lambda: notebook({NAIVE: TRIGGER}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
    ),
    Kind(
        "redefines_checks",
        "a wrong answer after redefining check_call and passed",
        lambda: notebook({NAIVE: REDEFINED_CHECKS}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
    ),
    Kind(
        "patches_grader",
        "a wrong answer after patching grader.learner.checks",
        lambda: notebook({NAIVE: PATCHED_GRADER}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
    ),
    Kind(
        "patches_builtins",
        "a wrong answer after patching builtins (abs, sum)",
        lambda: notebook({NAIVE: PATCHED_BUILTINS}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
    ),
    Kind(
        "modules_beside",
        "a wrong answer with numpy.py and grader/learner/checks.py handed in beside it",
        lambda: notebook({NAIVE: WRONG}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
        beside=(("numpy.py", FAKE_NUMPY), ("grader/__init__.py", b""), ("grader/learner/checks.py", FAKE_CHECKS)),
    ),
    Kind(
        "reads_solutions",
        "code that looks for the solutions and hidden tests by relative and absolute paths",
        lambda: notebook({NAIVE: READS_SOLUTIONS}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
        needs_isolation=True,
    ),
    Kind(
        "writes_course_gradebook",
        "a wrong answer that writes to the class's gradebook by its absolute path",
        lambda: notebook({NAIVE: WRITES_COURSE_GRADEBOOK}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
        needs_isolation=True,
    ),
    Kind(
        "nbgrader_env",
        "code that is right only when NBGRADER_EXECUTION is set",
        lambda: notebook({NAIVE: GRADED_ONLY}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
    ),
    Kind(
        "lms_dotdot",
        "an LMS file named ../../mallory_01.ipynb",
        None,
        NOT_COLLECTED,
        None,
        uploads=uploads(("../../mallory_01.ipynb", notebook, 0)),
    ),
    Kind(
        "lms_long_name",
        "an LMS file whose student id is 300 characters long",
        None,
        NOT_COLLECTED,
        None,
        uploads=uploads(("x" * 300 + "_01.ipynb", notebook, 0)),
    ),
    Kind(
        "lms_two_versions",
        "two LMS files from one student (stubs first, full answers later)",
        None,
        status.GRADED,
        FULL,
        student="twice",
        uploads=uploads(("twice_final.ipynb", notebook, 30), ("twice_draft.ipynb", stub, 10)),
    ),
    # one student stops the whole class
    Kind(
        "long_expression",
        "a plain cell of one expression of 200,000 terms (`x = 1+1+...`), answers right",
        lambda: notebook(edit=plain_cell(LONG_EXPRESSION)),
        status.SUSPICIOUS,
        FULL,
    ),
    Kind(
        "lms_nbgrader_list",
        "an LMS file whose `metadata.nbgrader` is a list on one plain cell, answers right",
        None,
        status.TAMPERED,
        FULL,
        student="listy",
        uploads=uploads(("listy_01.ipynb", lambda: json_of(list_metadata), 0)),
    ),
    Kind(
        "lms_deep_json",
        "an LMS file whose JSON nests 100,000 levels deep",
        None,
        NOT_COLLECTED,
        None,
        student="deep",
        uploads=uploads(("deep_01.ipynb", deep_json, 0)),
    ),
    Kind(
        "lms_bad_crc",
        "an LMS zip entry with a bad CRC",
        None,
        NOT_COLLECTED,
        None,
        student="crc",
        uploads=uploads(("crc_01.ipynb", notebook, 0, "bad crc")),
    ),
    # collect trusts what it reads
    Kind(
        "lms_zip_bomb",
        "an LMS zip entry of 1 GB of zeros (1 MB compressed)",
        None,
        NOT_COLLECTED,
        None,
        student="bomb",
        own_zip=True,
        uploads=uploads(("bomb_01.ipynb", lambda: Zeros(2**30), 0)),
    ),
    Kind(
        "lms_absolute",
        "an LMS file named /tmp/eve_01.ipynb (not a student called tmp)",
        None,
        NOT_COLLECTED,
        None,
        student="tmp",
        listed_as="tmp/eve_01.ipynb",
        uploads=uploads(("/tmp/eve_01.ipynb", notebook, 0)),
    ),
    Kind(
        "lms_control_chars",
        "an LMS file whose name holds a newline, a forged log line and an ANSI escape",
        None,
        NOT_COLLECTED,
        None,
        student="forger",
        listed_as="forger_x",
        uploads=uploads(
            ("forger_x\n  mallory / 01_naive_division <- mallory_01.ipynb\x1b[2K\x1b[1A.ipynb", notebook, 0)
        ),
    ),
    # kernels share the machine's network
    Kind(
        "snoops_iopub",
        "a wrong answer that listens to every kernel's IOPub port on 127.0.0.1 for a correct one",
        lambda: notebook({NAIVE: SNOOPS_IOPUB}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
        unsafe_for_plain="it connects to every port of the machine",
    ),
    Kind(
        "asks_service",
        "a graded function that asks a service on 127.0.0.1 for the reference code",
        lambda: notebook({NAIVE: ASKS_SERVICE}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
        unsafe_for_plain="it reaches a service of the machine",
    ),
    # the bridge between the test cells and the kernel
    Kind(
        "garbles_bridge",
        "a wrong answer that writes an endless answer on the grading bridge's socket",
        lambda: notebook({NAIVE: GARBLES_BRIDGE}),
        status.SUSPICIOUS,
        DISTRIBUTION_ONLY,
    ),
    # limits that a process tree walks around
    Kind(
        "shared_mapping",
        "a 2.5 GB shared anonymous mapping, touched page by page",
        lambda: notebook({"is_distribution": SHARED_MAPPING}),
        status.MEMORY,
        NORMALIZE_ONLY,
        unsafe_for_plain="no memory limit",
    ),
    Kind(
        "forked_children",
        "six forked children of 100 MB each (600 MB together)",
        lambda: notebook({"is_distribution": FORKED_CHILDREN}),
        status.MEMORY,
        NORMALIZE_ONLY,
        unsafe_for_plain="no memory limit",
    ),
    Kind(
        "sysv_segment",
        "a 256 MB System V shared memory segment, never removed, answers right",
        lambda: notebook({NAIVE: reference()[NAIVE] + SYSV_SEGMENT.replace("SHM_KEY", str(SHM_KEY))}),
        status.SUSPICIOUS,
        FULL,
        unsafe_for_plain="the segment outlives the kernel",
    ),
    Kind(
        "setsid_survivor",
        "a double-forked `setsid` child left running, answers right",
        lambda: notebook({NAIVE: reference()[NAIVE] + SETSID_SURVIVOR.replace("SURVIVOR", SURVIVOR)}),
        status.GRADED,
        FULL,
        unsafe_for_plain="the process outlives the kernel",
    ),
    # slow or mute kernels cost everything
    Kind(
        "ignores_sigint",
        "a graded function that swallows every interrupt and loops",
        lambda: notebook({NAIVE: timed(reference()[NAIVE]), "is_distribution": IGNORES_SIGINT}),
        status.TIMEOUT,
        NORMALIZE_ONLY,
        timed=True,
    ),
    Kind(
        "c_loop",
        "a cell of C code that never checks for signals (`any(itertools.repeat(0))`)",
        lambda: notebook({NAIVE: timed(reference()[NAIVE]), "is_distribution": C_LOOP}),
        status.TIMEOUT,
        NORMALIZE_ONLY,
        timed=True,
    ),
    Kind(
        "execs_shell",
        "a kernel that execs a shell ignoring INT and TERM",
        lambda: notebook(
            {NAIVE: timed(reference()[NAIVE]), "is_distribution": EXECS_SHELL.replace("MUTE_SHELL", MUTE_SHELL)}
        ),
        status.TIMEOUT,
        NORMALIZE_ONLY,
        timed=True,
    ),
    Kind(
        "stops_itself",
        "a kernel that stops itself (SIGSTOP; the first process of its own PID namespace cannot)",
        lambda: notebook({NAIVE: timed(reference()[NAIVE]), "is_distribution": STOPS_ITSELF}),
        status.GRADED,
        NORMALIZE_ONLY,
        timed=True,
        needs_isolation=True,
    ),
    # edited metadata zeroes real work
    Kind(
        "fake_grade_cell",
        "an extra grade cell of 100 points, answers right",
        lambda: notebook(edit=fake_grade_cell),
        status.TAMPERED,
        FULL,
    ),
    Kind(
        "markdown_grade",
        "a markdown cell given grade metadata (10 points), answers right",
        lambda: notebook(edit=markdown_grade),
        status.TAMPERED,
        FULL,
    ),
    Kind(
        "schema_version",
        "schema_version 4 on one test cell, answers right",
        lambda: notebook(edit=set_metadata("test_naive_normalize_rows", schema_version=4)),
        status.TAMPERED,
        FULL,
    ),
    Kind(
        "hidden_to_solution",
        "a hidden test cell flipped to a solution cell, answers right",
        lambda: notebook(edit=set_metadata("test_naive_normalize_rows", solution=True)),
        status.TAMPERED,
        FULL,
    ),
    Kind(
        "points_changed",
        "a test's points changed from 2 to 20, answers right",
        lambda: notebook(edit=set_metadata("test_naive_normalize_public", points=20)),
        status.TAMPERED,
        FULL,
    ),
    # sizes nobody bounds
    Kind(
        "returns_8mb_string",
        "a graded function returning an 8 MB string (the figure cell draws it in C)",
        lambda: notebook({NAIVE: timed(RETURNS_8MB)}),
        status.TIMEOUT,
        DISTRIBUTION_ONLY,
        timed=True,
    ),
    Kind(
        "exception_name_4mb",
        "a graded function raising an exception whose class name is 4 MB",
        lambda: notebook({NAIVE: EXCEPTION_NAME_4MB}),
        status.GRADED,
        DISTRIBUTION_ONLY,
    ),
    Kind(
        "forged_mistake",
        'an error message holding a forged "likely mistake:" line',
        lambda: notebook({NAIVE: FORGED_MISTAKE}),
        status.GRADED,
        DISTRIBUTION_ONLY,
    ),
    # issue 40, seams 1 and 7: one student stops the whole class; forged lines in grade's output
    Kind(
        "module_exits",
        f"a graded function bound to a module named {EXITS_ON_IMPORT} (importing it runs f2py, which exits)",
        lambda: notebook({NAIVE: MODULE_EXITS}),
        status.GRADED,
        DISTRIBUTION_ONLY,
    ),
    Kind(
        "forged_file_names",
        "files beside it named with a newline and a forged log line, ANSI escapes, a bidi override; answers right",
        notebook,
        status.SUSPICIOUS,
        FULL,
        beside=FORGED_NAMES,
    ),
    # issue 40, seams 2 and 4: links planted for root to follow, the machine's terminals
    Kind(
        "races_links",
        "a process swapping its kernel's channel files and the bridge's socket, once bound, for links to a course file",
        lambda: notebook({NAIVE: RACES_LINKS + "\n\n" + reference()[NAIVE]}),
        status.GRADED,
        FULL,
        needs_isolation=True,
        unsafe_for_plain="it plants links in the folder of its connection file, Jupyter's runtime folder",
    ),
    Kind(
        "holds_terminals",
        "a kernel that opens as many terminals (ptys) as it can and holds them while its tests run",
        lambda: notebook({NAIVE: HOLDS_TERMINALS + "\n\n" + reference()[NAIVE]}),
        status.GRADED,
        FULL,
        needs_isolation=True,
        unsafe_for_plain="it holds 64 of the machine's terminals",
    ),
    # budgets per notebook: time, the grader's own reading, and what that reading is
    Kind(
        "just_under_the_limit",
        f"{SLEEPY_CELLS} cells after naive_normalize's tests, each sleeping just under the cell limit",
        # the notebook's limit ends it among them, whatever the machine's load: is_distribution's tests are not run
        lambda: notebook({NAIVE: timed(reference()[NAIVE])}, edit=sleepy_cells(SLEEPY_CELLS, SLEEP)),
        status.TIMEOUT,
        NORMALIZE_ONLY,
    ),
    Kind(
        "shell_lines",
        "a cell of 8,000 shell-escape lines (55 kB) after the tests, answers right",
        # too large for the scan, so flagged; the kernel's IPython takes longer than the cell limit to read it
        lambda: notebook(edit=last_cell(SHELL_LINES)),
        f"{status.SUSPICIOUS}, {status.TIMEOUT}",
        FULL,
    ),
    Kind(
        "chr_names",
        "a wrong answer after patching np.allclose through names built with chr() (unseen by the scan)",
        lambda: notebook({NAIVE: CHR_NAMES}),
        status.GRADED,
        DISTRIBUTION_ONLY,
    ),
    # issue 40, seam 8: feedback hands over the hidden tests' inputs and expected values
    Kind(
        "lookup_table",
        "a lookup table of the hidden tests' inputs and answers (as feedback showed them), a wrong formula otherwise",
        # the hand-picked inputs pass (why pages do not show them before the due date); the generated ones are drawn
        # for this submission alone, so the table misses them: test_naive_normalize_rows's point is lost
        lambda: notebook({NAIVE: lookup_table()}),
        status.GRADED,
        FULL - 1,
    ),
    # issue 40, seam 3: scripts for the pages an instructor opens
    Kind(
        "scripts_everywhere",
        "a notebook whose outputs and markdown carry scripts (raw HTML, SVG, iframe, javascript: links), answers right",
        scripts_everywhere,
        status.GRADED,
        FULL,
    ),
]
SIZES = ("returns_8mb_string", "exception_name_4mb", "forged_mistake")
