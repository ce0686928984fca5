"""Code in a submission that tries to change how it is graded, found by reading it (never by running it).

Such code gains nothing (test cells run outside the kernel, which has its own tree and user),
but an instructor wants to know who tried. Each finding is a short reason; the submission
gets the status "suspicious code" next to the score it earned. Test cells are not read: they
are the lesson's own, restored by nbgrader.
"""

from __future__ import annotations

import ast
import functools

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
CACHED_TEXT = 16 * 1024  # characters of a cell whose verdicts are kept (see per_text); a longer one is read afresh
TO_PYTHON = TransformerManager()  # IPython's own reading of magics and `!` shell lines as Python
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


KEPT: list = []  # the caches of per_text


def kept_texts() -> int:
    """How many verdicts per_text keeps, all its caches together."""
    return sum(kept.cache_info().currsize for kept in KEPT)


def per_text(verdict):
    """`verdict` of a cell's text, kept for short texts: most of a class's cells are the lesson's own, the same
    in every notebook. Bounded, so a submission of long cells cannot fill the grading process's memory."""
    kept = functools.lru_cache(maxsize=1024)(verdict)
    KEPT.append(kept)

    @functools.wraps(verdict)
    def cached(source: str):
        return kept(source) if len(source) <= CACHED_TEXT else verdict(source)

    return cached


def reasons(nb) -> list[str]:
    """Why the learner's cells of this notebook look like an attempt on the grading (empty: they don't).

    A cell that Python cannot read for its size or depth (one expression of 200,000 terms
    overflows the parser's recursion) is itself a reason: what it hides cannot be inspected.
    """
    found = []
    for _, name, source in _learner_cells(nb):
        try:
            found += [f"{name} {reason}" for reason in _cell_reasons(source)]
        except Exception:  # RecursionError, MemoryError, or whatever else the text provokes
            found.append(f"{name} could not be read")
    return list(dict.fromkeys(found))


def uncompilable(nb) -> list[int]:
    """The learner's cells that Python cannot compile for their depth (RecursionError): a kernel given
    one never replies (IPython lets that error escape), so the grading would wait out its time limit."""
    return [index for index, _, source in _learner_cells(nb) if not _compiles(source)]


@per_text
def _compiles(source: str) -> bool:
    """False if Python cannot compile the cell for its depth."""
    try:
        compile(_as_python(source), "<cell>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except (SyntaxError, ValueError, MemoryError):
        pass  # IPython reports these itself
    except Exception:
        return False
    return True


@per_text
def _as_python(source: str) -> str:
    return TO_PYTHON.transform_cell(source)


def _learner_cells(nb):
    """(index, name, source) of each code cell that is not a test cell."""
    for index, cell in enumerate(nb.cells):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        meta = meta if isinstance(meta, dict) else {}
        if cell.get("cell_type") == "code" and not (meta.get("grade") and not meta.get("solution")):
            yield index, meta.get("grade_id", f"cell {index}"), cell.source


@per_text
def _cell_reasons(source: str) -> tuple[str, ...]:
    """What one cell's code does that looks like an attempt on the grading."""
    try:
        tree = ast.parse(_as_python(source))
    except (SyntaxError, ValueError):
        return ()  # not Python (a typo, or text): the kernel says so, nothing runs
    found = []
    for node in ast.walk(tree):
        found += _node_reasons(node)
    return tuple(found)


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
