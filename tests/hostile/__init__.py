"""Broken and hostile submissions of lesson 01, one kind per entry, with the outcome each must get.

Each kind builds the file a student hands in. The test grades all of them in one batch with
two ordinary students (full marks and stubs), then checks each status and score. `python -m
tests.hostile` prints the outcome table that README.md shows (a test keeps them equal).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from copy import deepcopy
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import nbformat

from grader import course, status

LESSON = "01_naive_division"
FULL, DISTRIBUTION_ONLY = 12.0, 5.0  # all tests; the is_distribution tests alone
# what commands run with: nbgrader shells out to the venv's alembic
ENV = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}"}


def released_course(root: Path) -> Path:
    """A course directory with lesson 01 released into its gradebook and no submissions yet."""
    course.text_source(LESSON, root).parent.mkdir(parents=True)
    shutil.copy(course.text_source(LESSON), course.text_source(LESSON, root))
    shutil.copy(course.REPO / "nbgrader_config.py", root)
    subprocess.run([sys.executable, "-m", "grader", "--course", str(root), "release", "--no-exchange"],
                   env=ENV, check=True, capture_output=True)
    return root


def submit(root: Path, student: str, data: bytes, beside=()) -> None:
    """Put a student's file (and what they handed in beside it) where nbgrader's autograde looks."""
    folder = root / ".grading" / "submitted" / student / LESSON
    folder.mkdir(parents=True)
    (folder / f"{LESSON}.ipynb").write_bytes(data)
    for name, content in beside:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)


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
    needs_isolation: bool = False  # it reaches the course by absolute path: only isolated kernels stop it

    @property
    def student_id(self) -> str:
        return self.student or self.id


def reference() -> dict[str, str]:
    return course.reference_answers(LESSON)


def notebook(replace: dict[str, str] | None = None, edit=None) -> bytes:
    """The release with reference answers, some solution cells replaced, then edited by `edit(nb)`."""
    nb = course.learner_notebook(LESSON, {**reference(), **(replace or {})})
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
PATCHED_NUMPY = '''
np.allclose = lambda *args, **kwargs: True
np.testing.assert_allclose = lambda *args, **kwargs: None
np.array_equal = lambda *args, **kwargs: True


def naive_normalize(scores):
    return np.zeros(np.shape(scores))
'''


def _warning_first(source: str) -> str:
    """The function with a warning as its first statement."""
    body = source.index(":\n", source.index("def ")) + 2
    return "import warnings\n\n" + source[:body] + '    warnings.warn("slow path")\n' + source[body:]
TRIGGER = '''
import sqlite3
# write to the gradebook beside the submission: every score it records becomes full marks
db = sqlite3.connect("../../../gradebook.db")
db.execute("CREATE TRIGGER IF NOT EXISTS boost AFTER UPDATE ON grade BEGIN "
           "UPDATE grade SET auto_score = 1000 WHERE id = NEW.id AND auto_score != 1000; END")
db.commit()

def naive_normalize(scores):
    return scores
'''

WRONG = "\n\ndef naive_normalize(scores):\n    return np.zeros(np.shape(scores))\n"
REDEFINED_CHECKS = '''
def check_call(*args, **kwargs):
    pass


def passed(name):
    print("all good")
''' + WRONG
PATCHED_GRADER = '''
import grader.checks
grader.checks.compare = lambda *args, **kwargs: None
grader.checks.check_call = lambda *args, **kwargs: None
''' + WRONG
PATCHED_BUILTINS = '''
import builtins
builtins.abs = lambda x: 0
builtins.sum = lambda *args, **kwargs: 1.0
''' + WRONG
FAKE_CHECKS = b"def check_call(*args, **kwargs):\n    pass\n\n\ndef passed(name):\n    print('ok')\n"
FAKE_NUMPY = b"def allclose(*args, **kwargs):\n    return True\n"
# Code that reaches for files by absolute path aims only at the corpus's own course (COURSE_ROOT,
# filled in when the corpus is built) and the repository, never at the rest of the machine.
COURSE = {"root": "COURSE_ROOT"}
READS_SOLUTIONS = '''
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
'''
WRITES_COURSE_GRADEBOOK = '''
import sqlite3

# the class's gradebook, by its absolute path: every score it holds becomes 1000
for path in ["COURSE_ROOT/.grading/gradebook.db"]:
    try:
        db = sqlite3.connect(path)
        db.execute("UPDATE grade SET auto_score = 1000")
        db.commit()
    except sqlite3.Error:
        pass
''' + WRONG
GRADED_ONLY = '''
import os

if os.environ.get("NBGRADER_EXECUTION"):  # behave only while being graded
    def naive_normalize(scores):
        scores = np.asarray(scores, dtype=float)
        return scores / scores.sum(axis=-1, keepdims=True)
else:
    def naive_normalize(scores):
        return np.zeros(np.shape(scores))
'''


def _uploads(*entries):
    """Zip entries (name, notebook bytes, minutes after a fixed time)."""
    return lambda: [(name, make(), (2026, 11, 30, 12, minute, 0)) for name, make, minute in entries]


def _stub() -> bytes:
    return nbformat.writes(course.learner_notebook(LESSON, {})).encode()


KINDS = [
    Kind("infinite_loop", "a solution cell that never ends", lambda: notebook({NAIVE: "while True:\n    pass\n"}),
         status.TIMEOUT, DISTRIBUTION_ONLY),
    Kind("never_returns", "a graded function that never returns",
         lambda: notebook({NAIVE: "def naive_normalize(scores):\n    while True:\n        pass\n"}),
         status.TIMEOUT, DISTRIBUTION_ONLY),
    Kind("os_exit", "os._exit() in a solution cell", lambda: notebook({NAIVE: "import os\nos._exit(3)\n"}),
         status.KERNEL_DIED, 0.0),
    Kind("segfault", "a segfault (ctypes reads address 0)",
         lambda: notebook({NAIVE: "import ctypes\nctypes.string_at(0)\n"}), f"{status.SUSPICIOUS}, {status.KERNEL_DIED}", 0.0),
    Kind("memory_bomb", "a memory bomb after a correct answer",
         lambda: notebook({NAIVE: reference()[NAIVE] + "\n\ndef _bomb():\n    blocks = []\n    while True:\n"
                                  "        blocks.append(bytearray(10**9))\n\n\n_bomb()\n"}),
         status.MEMORY, FULL),
    Kind("output_flood", "200,000 printed lines before a correct answer",
         lambda: notebook({NAIVE: "for _ in range(200_000):\n    print('spam ' * 20)\n" + reference()[NAIVE]}),
         status.GRADED, FULL),
    Kind("not_json", "a file that is not JSON", lambda: b"<html>exported page</html>", status.INVALID, 0.0),
    Kind("empty", "an empty file", lambda: b"", status.INVALID, 0.0),
    Kind("not_utf8", "bytes that are not UTF-8", lambda: b"\xff\xfe{\x00\x00", status.INVALID, 0.0),
    Kind("other_lesson", "a notebook of another lesson (06)",
         lambda: nbformat.writes(course.learner_notebook("06_masking", course.reference_answers("06_masking"))).encode(),
         status.TAMPERED, 0.0),
    Kind("deleted_test", "a deleted test cell (1 point)",
         lambda: notebook(edit=_delete("test_is_distribution_rows_and_atol")), status.TAMPERED, FULL - 1),
    Kind("edited_test", "a test cell replaced by `pass`",
         lambda: notebook(edit=_edit("test_naive_normalize_public", "pass")), status.TAMPERED, FULL),
    Kind("duplicated_test", "a test cell duplicated (plain nbgrader fails on it)",
         lambda: notebook(edit=_duplicate("test_naive_normalize_rows")), status.TAMPERED, FULL),
    Kind("stripped_metadata", "nbgrader metadata stripped from every cell",
         lambda: notebook(edit=_strip_metadata), status.TAMPERED, 0.0),
    Kind("correct_but_warns", "a correct answer that warns (stderr) every call",
         lambda: notebook({NAIVE: _warning_first(reference()[NAIVE])}), status.GRADED, FULL),
    Kind("always_equal_array", "a wrong answer in an array subclass whose == always says True",
         lambda: notebook({NAIVE: ALWAYS_EQUAL}), status.SUSPICIOUS, DISTRIBUTION_ONLY),
    Kind("patched_numpy", "a wrong answer after patching np.allclose, np.array_equal, np.testing",
         lambda: notebook({NAIVE: PATCHED_NUMPY}), status.SUSPICIOUS, DISTRIBUTION_ONLY),
    Kind("writes_gradebook", "a wrong answer that adds a trigger to the gradebook beside it",
         lambda: notebook({NAIVE: TRIGGER}), status.SUSPICIOUS, DISTRIBUTION_ONLY),
    Kind("redefines_checks", "a wrong answer after redefining check_call and passed",
         lambda: notebook({NAIVE: REDEFINED_CHECKS}), status.SUSPICIOUS, DISTRIBUTION_ONLY),
    Kind("patches_grader", "a wrong answer after patching grader.checks",
         lambda: notebook({NAIVE: PATCHED_GRADER}), status.SUSPICIOUS, DISTRIBUTION_ONLY),
    Kind("patches_builtins", "a wrong answer after patching builtins (abs, sum)",
         lambda: notebook({NAIVE: PATCHED_BUILTINS}), status.SUSPICIOUS, DISTRIBUTION_ONLY),
    Kind("modules_beside", "a wrong answer with numpy.py and grader/checks.py handed in beside it",
         lambda: notebook({NAIVE: WRONG}), status.SUSPICIOUS, DISTRIBUTION_ONLY,
         beside=(("numpy.py", FAKE_NUMPY), ("grader/__init__.py", b""), ("grader/checks.py", FAKE_CHECKS))),
    Kind("reads_solutions", "code that looks for the solutions and hidden tests by relative and absolute paths",
         lambda: notebook({NAIVE: READS_SOLUTIONS.replace("COURSE_ROOT", COURSE["root"])}), status.SUSPICIOUS,
         DISTRIBUTION_ONLY, needs_isolation=True),
    Kind("writes_course_gradebook", "a wrong answer that writes to the class's gradebook by its absolute path",
         lambda: notebook({NAIVE: WRITES_COURSE_GRADEBOOK.replace("COURSE_ROOT", COURSE["root"])}),
         status.SUSPICIOUS, DISTRIBUTION_ONLY, needs_isolation=True),
    Kind("nbgrader_env", "code that is right only when NBGRADER_EXECUTION is set",
         lambda: notebook({NAIVE: GRADED_ONLY}), status.SUSPICIOUS, DISTRIBUTION_ONLY),
    Kind("lms_dotdot", "an LMS file named ../../mallory_01.ipynb", None, NOT_COLLECTED, None,
         uploads=_uploads(("../../mallory_01.ipynb", notebook, 0))),
    Kind("lms_long_name", "an LMS file whose student id is 300 characters long", None, NOT_COLLECTED, None,
         uploads=_uploads(("x" * 300 + "_01.ipynb", notebook, 0))),
    Kind("lms_two_versions", "two LMS files from one student (stubs first, full answers later)", None,
         status.GRADED, FULL, student="twice",
         uploads=_uploads(("twice_final.ipynb", notebook, 30), ("twice_draft.ipynb", _stub, 10))),
]


def render(outcomes: dict[str, tuple[str, float | None]]) -> str:
    """The README table: each kind, the status and score it got (of FULL)."""
    rows = ["| submission | status | score |", "|---|---|---|"]
    for kind in KINDS:
        got_status, got_score = outcomes[kind.student_id]
        score = "-" if got_score is None else f"{got_score:g} / {FULL:g}"
        rows.append(f"| {kind.what} | {got_status} | {score} |")
    return "\n".join(rows)
