"""Code in a submission that tries to change how it is graded, found by reading it (never by running it).

Such code gains nothing (test cells run outside the kernel, which has its own tree and user),
but an instructor wants to know who tried. Each finding is a short reason; the submission
gets the status "suspicious code" next to the score it earned. Test cells are not read: they
are the lesson's own, restored by nbgrader.

The reading is a flag for the instructor, not a barrier: code that builds its names at run
time (`getattr(np, chr(97) + ...)`) passes unseen. It runs in the grading process, so it is
paid from a budget per notebook: it reads at most READ_LIMIT characters, each pass over a
cell counted (IPython rewrites a cell once per magic or `!` line, and reads it whole each time),
in at most CPU_LIMIT CPU-seconds. A cell past the budget, and every cell after it, is not
inspected, which is itself a reason; the kernel still runs it as written.
"""

from __future__ import annotations

import ast
import time
from collections import OrderedDict
from dataclasses import dataclass

from IPython.core.inputtransformer2 import TransformerManager

from grader.learner import checks, predictions

CHECK_HELPERS = set(checks.__all__) | set(predictions.__all__)  # the checks test cells call by name
PATCHED_MODULES = {"np", "numpy", "builtins", "__builtins__", "checks", "grader", "math", "testing", "warnings"}
RISKY_IMPORTS = {
    "sqlite3": "opens databases (sqlite3)",
    "ctypes": "uses ctypes",
    "subprocess": "runs programs",
    "socket": "opens network sockets",
    "inspect": "inspects the grader's frames",
    "gc": "searches the garbage collector's objects",
    "signal": "handles signals",
    "zmq": "opens ZeroMQ sockets (the kernels' channels)",
    "jupyter_client": "talks to kernels",
    "urllib": "opens network connections",
    "http": "opens network connections",
    "requests": "opens network connections",
}
WORDS = {
    "gradebook": "names the gradebook",
    "nbgrader": "names nbgrader or its settings",
    "solutions/": "names the solutions folder",
    ".grading": "names the grading folder",
    "autograded": "names the autograded folder",
    "/proc/net": "reads the machine's network tables",
    "127.0.0.1": "reaches for a service on this machine",
    "localhost": "reaches for a service on this machine",
}
# What one notebook's inspection may read, in characters with each pass over a cell counted (many times what a
# lesson's notebook takes, and room for one cell of an expression too deep to compile), and in CPU-seconds.
READ_LIMIT, CPU_LIMIT = 500_000, 5.0
UNREADABLE = "could not be read"
TOO_LARGE = (
    f"too large to inspect (the scan reads at most {READ_LIMIT:,} characters of a notebook's code, each of "
    f"IPython's rewrites counted, in {CPU_LIMIT:g} CPU-s)"
)
CACHED_TEXT = 16 * 1024  # characters of a cell whose verdict is kept (see verdict); a longer one is read afresh
KEPT_VERDICTS = 1024


class TooLarge(Exception):
    """The inspection's budget ran out before the cell was read."""


class Budget:
    """What one notebook's inspection may still read (characters, each pass counted) and spend (CPU-seconds
    of this thread). Paid before each pass, so no pass starts that the budget cannot cover."""

    def __init__(self, characters: int = READ_LIMIT, seconds: float = CPU_LIMIT):
        self.left, self.until = characters, time.thread_time() + seconds

    def charge(self, characters: int) -> None:
        if characters > self.left or time.thread_time() > self.until:
            raise TooLarge()
        self.left -= characters


class Rewriter(TransformerManager):
    """IPython's reading of magics and `!` shell lines as Python, as the kernel reads a cell, paid from a budget.

    IPython's token transforms read the whole cell again for each special line they rewrite
    (quadratic in the lines). Each applies only where Python finds a syntax error (`!ls`,
    `%time`, `x?`), so a text Python compiles as it is is left as it is, unread (`as_is`)."""

    def __init__(self, budget: Budget):
        super().__init__()
        self.budget, self.as_is = budget, False

    def do_token_transforms(self, lines):
        self.as_is = False
        try:
            compile("".join(lines), "<cell>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        except (SyntaxError, ValueError, MemoryError):
            return super().do_token_transforms(lines)
        self.as_is = True
        return lines

    def do_one_token_transform(self, lines):
        self.budget.charge(sum(map(len, lines)))
        return super().do_one_token_transform(lines)


@dataclass(frozen=True)
class Verdict:
    """What one cell's text is: whether Python can compile it as IPython rewrites it, why it looks like an
    attempt on the grading, and how many characters reading it took from the budget."""

    compiles: bool
    reasons: tuple[str, ...]
    cost: int


@dataclass(frozen=True)
class Inspection:
    """What the learner's cells of a notebook look like: the reasons (empty: nothing suspicious), and the
    cells Python cannot compile for their depth (RecursionError): a kernel given one never replies (IPython
    lets that error escape), so the grading would wait out its time limit."""

    reasons: list[str]
    uncompilable: list[int]


KEPT: OrderedDict[str, Verdict] = OrderedDict()  # short texts' verdicts, the least recently used first


def kept_texts() -> int:
    """How many verdicts are kept."""
    return len(KEPT)


def inspect(nb) -> Inspection:
    """Read the learner's cells of this notebook, within one budget (see the module's docstring).

    A cell that Python cannot read for its size or depth (one expression of 200,000 terms
    overflows the parser's recursion) is itself a reason: what it hides cannot be inspected.
    """
    rewriter = Rewriter(Budget())
    found: list[str] = []
    uncompilable = []
    cells = list(_learner_cells(nb))
    for place, (index, name, source) in enumerate(cells):
        try:
            read = verdict(source, rewriter)
        except TooLarge:
            found.append(f"{name}{_and_after(len(cells) - place - 1)} {TOO_LARGE}")
            break
        except Exception:  # whatever else the text provokes
            found.append(f"{name} {UNREADABLE}")
            continue
        found += [f"{name} {reason}" for reason in read.reasons]
        if not read.compiles:
            uncompilable.append(index)
    return Inspection(list(dict.fromkeys(found)), uncompilable)


def _and_after(count: int) -> str:
    return "" if count == 0 else " and the cell after it" if count == 1 else f" and the {count} cells after it"


def reasons(nb) -> list[str]:
    """Why the learner's cells of this notebook look like an attempt on the grading (empty: they don't)."""
    return inspect(nb).reasons


def uncompilable(nb) -> list[int]:
    """The learner's cells that Python cannot compile for their depth (see Inspection)."""
    return inspect(nb).uncompilable


def verdict(source: str, rewriter: Rewriter) -> Verdict:
    """The cell's Verdict, paid from the rewriter's budget. Kept for short texts: most of a class's cells are
    the lesson's own, the same in every notebook; a kept verdict costs what reading it did, so whether a
    cell is inspected never depends on what this process read before."""
    kept = KEPT.get(source)
    if kept is not None:
        KEPT.move_to_end(source)
        rewriter.budget.charge(kept.cost)
        return kept
    left = rewriter.budget.left
    compiles, found = _read(source, rewriter)
    read = Verdict(compiles, found, left - rewriter.budget.left)
    if len(source) <= CACHED_TEXT:
        KEPT[source] = read
        if len(KEPT) > KEPT_VERDICTS:
            KEPT.popitem(last=False)
    return read


def _read(source: str, rewriter: Rewriter) -> tuple[bool, tuple[str, ...]]:
    """(whether Python can compile the cell as the kernel's IPython rewrites it, what it does that looks like
    an attempt on the grading); each pass over its text is paid first."""
    budget = rewriter.budget
    budget.charge(len(source))  # IPython's clean-up of prompts and indents, then Python's compiler
    try:
        python = rewriter.transform_cell(source)
        if not rewriter.as_is:
            budget.charge(len(python))
            compile(python, "<cell>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except TooLarge:
        raise
    except (SyntaxError, ValueError, MemoryError):
        return True, ()  # not Python (a typo, or text): the kernel says so, nothing runs
    except Exception:  # RecursionError: too deep to compile, or to read
        return False, (UNREADABLE,)
    budget.charge(2 * len(python))  # parsed into a tree, and the tree walked
    try:
        tree = ast.parse(python)
    except (SyntaxError, ValueError):
        return True, ()
    except Exception:  # RecursionError, MemoryError: the parser's tree is deeper than the compiler's
        return True, (UNREADABLE,)
    return True, tuple(reason for node in ast.walk(tree) for reason in _node_reasons(node))


def _learner_cells(nb):
    """(index, name, source) of each code cell that is not a test cell."""
    for index, cell in enumerate(nb.cells):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        meta = meta if isinstance(meta, dict) else {}
        if cell.get("cell_type") == "code" and not (meta.get("grade") and not meta.get("solution")):
            yield index, meta.get("grade_id", f"cell {index}"), cell.source


def _node_reasons(node: ast.AST) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name in CHECK_HELPERS:
        return [f"redefines the check {node.name}"]
    if isinstance(node, ast.ClassDef) and any(_dotted(base).endswith("ndarray") for base in node.bases):
        return ["subclasses np.ndarray"]
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return [reason for target in targets for reason in _assignment_reasons(target)]
    if isinstance(node, ast.Call) and _dotted(node.func) in ("setattr", "delattr") and node.args:
        if _dotted(node.args[0]).split(".")[0] in PATCHED_MODULES:
            return [f"patches {_dotted(node.args[0])} with {_dotted(node.func)}"]
    if isinstance(node, ast.Call) and _dotted(node.func) in ("get_ipython().system", "os.system", "os.popen"):
        return ["runs shell commands"]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        return [RISKY_IMPORTS[m.split(".")[0]] for m in modules if m.split(".")[0] in RISKY_IMPORTS]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value.lower()
        found = [reason for word, reason in WORDS.items() if word in text]
        if "../" in text or text.strip() == "..":
            found.append("reaches outside its folder ('..')")
        return found
    return []


def _assignment_reasons(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name) and target.id in CHECK_HELPERS:
        return [f"redefines the check {target.id}"]
    if isinstance(target, ast.Attribute) and _dotted(target.value).split(".")[0] in PATCHED_MODULES:
        return [f"patches {_dotted(target)}"]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [reason for item in target.elts for reason in _assignment_reasons(item)]
    return []


def _dotted(node: ast.AST) -> str:
    """`np.testing.assert_allclose` for an attribute chain, `f()` for a call, '' for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return f"{_dotted(node.func)}()"
    return ""
