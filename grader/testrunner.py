"""nbgrader's Execute with the test cells run in the grading process instead of the learner's kernel.

The learner's cells still run in their kernel, in order. A test cell's code runs here, with
the checks imported from this package, never from the notebook, and with the notebook's
names fetched from the kernel as data or as `KernelFunction`s (grader.bridge). So the
kernel never sees a hidden test or an expected value, and nothing the learner defines or
patches there (the checks, NumPy, builtins) can change how their answers are judged. The
cell gets the outputs IPython would have given it, and nbgrader scores it as usual.
"""
from __future__ import annotations

import ast
import builtins
import contextlib
import io
import math
import os
import warnings
from time import monotonic

import numpy as np
import nbformat
from nbclient.exceptions import DeadKernelError
from nbclient.util import run_sync
from nbgrader.preprocessors import Execute

from . import checks
from .bridge import BridgeError, CellTimeoutError, KernelDied, KernelSession

HIDDEN_ENV = "NBGRADER_"  # nbgrader's variables that tell code it is being graded; the kernel gets none


def pinned_names() -> dict:
    """What a test cell always gets from the grader, whatever the notebook holds under these names."""
    names = {name: value for name, value in vars(checks).items() if not name.startswith("_")}
    return {**names, "np": np, "numpy": np, "math": math, "__name__": "__main__"}


def is_test_cell(cell) -> bool:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return cell.get("cell_type") == "code" and bool(meta.get("grade")) and not meta.get("solution")


def names_to_fetch(tree: ast.AST, known) -> set[str]:
    """Names the cell reads but neither binds nor gets from the grader: the notebook's to provide."""
    read, bound = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
    return {name for name in read - bound - set(known)
            if not hasattr(builtins, name) and not name.startswith("__")}


def run_test_cell(source: str, name: str, namespace: dict, session: KernelSession) -> list:
    """Run a test cell's code here; return its outputs as IPython would have recorded them.

    `namespace` holds what earlier test cells defined and is updated; the notebook's names
    are fetched afresh for each cell, since the learner's cells in between may change them.
    """
    stdout, stderr, outputs = io.StringIO(), io.StringIO(), []
    try:
        tree = ast.parse(source)
        fetched = session.describe(sorted(names_to_fetch(tree, namespace)))
    except (SyntaxError, BridgeError, CellTimeoutError) as error:  # the cell fails, the notebook goes on
        return [_error(error)]
    scope = {**namespace, **fetched}
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), \
            warnings.catch_warnings(record=True) as caught, np.errstate(all="warn", under="ignore"):
        warnings.simplefilter("always")
        try:
            exec(compile(ast.Module(tree.body, []), f"<{name}>", "exec"), scope)  # noqa: S102 - the lesson's own tests
            value = eval(compile(ast.Expression(last.value), f"<{name}>", "eval"), scope) if last else None
        except (KernelDied, KeyboardInterrupt):
            raise
        except BaseException as error:  # the cell fails as it would in the kernel  # noqa: BLE001
            value, outputs = None, [_error(error)]
    namespace.update({k: v for k, v in scope.items() if k not in fetched or v is not fetched[k]})
    for warning in caught:
        stderr.write(warnings.formatwarning(warning.message, warning.category, warning.filename, warning.lineno))
    streams = [nbformat.v4.new_output("stream", name=stream, text=text.getvalue())
               for stream, text in (("stdout", stdout), ("stderr", stderr)) if text.getvalue()]
    result = [] if value is None else [nbformat.v4.new_output(
        "execute_result", data={"text/plain": repr(value)}, execution_count=None)]
    return streams + result + outputs


def _error(error: BaseException):
    ename, evalue = type(error).__name__, str(error)
    return nbformat.v4.new_output("error", ename=ename, evalue=evalue, traceback=[f"{ename}: {evalue}"])


class TestsOutsideKernel(Execute):
    """nbgrader's Execute preprocessor, with test cells run by `run_test_cell` (see the module's docstring)."""

    def preprocess(self, nb, resources=None, km=None):
        self._tests_namespace = pinned_names()
        return super().preprocess(nb, resources, km)

    async def async_start_new_kernel(self, **kwargs):
        kwargs["env"] = {k: v for k, v in (kwargs.get("env") or os.environ).items()
                         if not k.startswith(HIDDEN_ENV)}
        return await super().async_start_new_kernel(**kwargs)

    start_new_kernel = run_sync(async_start_new_kernel)  # nbclient binds its own at class level

    def preprocess_cell(self, cell, resources, index):
        if not is_test_cell(cell) or not cell.source.strip():
            return super().preprocess_cell(cell, resources, index)
        self._check_assign_resources(resources)
        timeout = self._get_timeout(cell)
        session = KernelSession(self, monotonic() + (timeout if timeout else float("inf")))
        grade_id = cell.metadata["nbgrader"].get("grade_id", f"cell {index}")
        try:
            cell.outputs = run_test_cell(cell.source, grade_id, self._tests_namespace, session)
        except KernelDied:
            raise DeadKernelError("Kernel died") from None
        cell.execution_count = None
        self.nb.cells[index] = cell
        return cell, self.resources
