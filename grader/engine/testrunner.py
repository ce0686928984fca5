"""nbgrader's Execute with the test cells run in the grading process instead of the learner's kernel.

The learner's cells still run in their kernel, in order. A test cell's code runs here, with
the checks imported from this package, never from the notebook, and with the notebook's
names fetched from the kernel as data or as `KernelFunction`s (grader.engine.bridge). So the
kernel never sees a hidden test or an expected value, and nothing the learner defines or
patches there (the checks, NumPy, builtins) can change how their answers are judged. The
cell gets the outputs IPython would have given it, and nbgrader scores it as usual.

A cell (the learner's or a test) that runs past its time limit is interrupted; a kernel that
does not answer within a grace period is killed. The whole notebook has a time limit too
(notebook_timeout; by default NOTEBOOK_TIMES cell limits), so cells that each stay just under
theirs cannot add up: a cell that starts near its end gets only the time left, and at the end
the kernel is stopped. Once the kernel is gone (killed, crashed, out of memory, out of time) the
cells after it are not run: each gets a "NotRun" error and scores 0, while every test before
keeps its points and nbgrader scores the notebook as usual. Every output the executed notebook
records is bounded (see bounded_outputs), whatever the learner's code prints, displays, raises
or returns.

The kernel gets none of nbgrader's NBGRADER_* variables, and one of this package's:
grader.learner.pytorch.SKIP_VARIABLE, so that the lessons' PyTorch cells, which earn no points,
skip instead of importing torch.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import hashlib
import io
import json
import math
import os
import types
import warnings
from dataclasses import dataclass
from queue import Empty
from time import monotonic

import nbclient.exceptions
import nbformat
import numpy as np
import zmq
from jupyter_client.asynchronous import AsyncKernelClient
from nbclient.exceptions import DeadKernelError
from nbclient.util import ensure_async, run_sync
from nbgrader.preprocessors import Execute
from traitlets import Float, default

from grader.course.limits import NOTEBOOK_TIMES
from grader.engine import kernelside
from grader.engine.bridge import INTERRUPT_GRACE, BridgeError, CellTimeoutError, KernelDied, KernelSession, stop_kernel
from grader.learner import checks, predictions, pytorch

HIDDEN_ENV = "NBGRADER_"  # nbgrader's variables that tell code it is being graded; the kernel gets none
NOT_RUN = "NotRun"  # the error of a cell after the kernel stopped
TIMEOUT, DIED = "timeout", "the kernel died"  # why a kernel stopped (or its manager's stop_reason: "memory limit")
NOTEBOOK_TIMEOUT = "notebook time limit"  # why the kernel was stopped when the whole notebook's time ran out
# the stopping cell's error; else:
STOPPED_ERROR = {TIMEOUT: "CellTimeoutError", "memory limit": "MemoryError", NOTEBOOK_TIMEOUT: "NotebookTimeoutError"}
DIED_ERROR = "KernelDied"
TIMEOUT_ERRORS = ("CellTimeoutError", "KeyboardInterrupt")  # what a cell interrupted at its time limit shows
TEXT_LIMIT = 64 * 1024  # bytes of text (as stored) a cell's outputs keep: its streams, results and errors
IMAGE_LIMIT = 384 * 1024  # bytes of images a learner's cell keeps
LEARNER_LIMIT = 512 * 1024  # bytes of outputs all the learner's cells keep together (the lessons': 300 KB at most)
NAME_LIMIT = kernelside.NAME_LIMIT  # characters of an exception's name
DISPLAY_LIMIT = 50  # displays a cell keeps
RECEIVE_LIMIT = 16 * 2**20, 64 * 2**20  # bytes of output messages kept in memory while a cell, a notebook runs
MAX_MESSAGE = 64 * 2**20  # bytes of one message from the kernel; a larger one is dropped unread
# Messages ZMQ may hold received but unread by the grading: more wait in the kernel (in its memory, under its limit),
# so a kernel that writes faster than a busy grading reads cannot fill the grading's memory (with ZMQ's 1,000, a
# flood of 10 MB messages on two busy cores took it from 171 MB to 325 MB).
RECEIVE_QUEUE = 2
RECONNECT_MS = 5  # milliseconds between a kernel client's tries to reach a kernel still binding its ports
SHORT = 100  # bytes of a text that is never clipped
IMAGES = {"image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp"}
FLOODED = "[... more output than the grading keeps: the rest was left out]\n"


def pinned_names() -> dict:
    """What a test cell always gets from the grader, whatever the notebook holds under these names."""
    names = {name: getattr(checks, name) for name in checks.__all__}
    names |= {name: getattr(predictions, name) for name in predictions.__all__}
    return {**names, "np": np, "numpy": np, "math": math, "__name__": "__main__"}


def is_test_cell(cell) -> bool:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return cell.get("cell_type") == "code" and bool(meta.get("grade")) and not meta.get("solution")


def submission_salt(nb) -> str:
    """A digest of the code of the notebook's cells other than tests: what its hidden inputs are drawn with
    (checks.salted_draws), the same each time it is graded, other ones after any change of its code."""
    code = [str(c.get("source", "")) for c in nb.cells if c.get("cell_type") == "code" and not is_test_cell(c)]
    return hashlib.sha256(json.dumps(code).encode()).hexdigest()


def names_to_fetch(cell: CompiledCell, known) -> set[str]:
    """Names the cell reads but neither binds nor gets from the grader: the notebook's to provide."""
    return set(cell.reads) - set(known)


def free_names(tree: ast.AST) -> frozenset[str]:
    """Names the cell reads but does not bind, builtins and dunder names left out."""
    read: set[str] = set()
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
    return frozenset(name for name in read - bound if not hasattr(builtins, name) and not name.startswith("__"))


@dataclass(frozen=True)
class CompiledCell:
    """A test cell read once: its statements, its last expression (the cell's result) and the names it reads."""

    body: types.CodeType
    last: types.CodeType | None
    reads: frozenset[str]


@functools.lru_cache(maxsize=1024)
def compiled(source: str, name: str) -> CompiledCell:
    """A test cell parsed and compiled once per process: every submission of a lesson has the same test cells
    (nbgrader restores them), and code objects are never changed by running them. SyntaxError if it is not Python."""
    tree = ast.parse(source)
    reads = free_names(tree)
    final = tree.body[-1] if tree.body else None
    last = final if isinstance(final, ast.Expr) else None  # its value is the cell's result
    if last is not None:
        tree.body.pop()
    body = compile(ast.Module(tree.body, []), f"<{name}>", "exec")
    return CompiledCell(body, None if last is None else compile(ast.Expression(last.value), f"<{name}>", "eval"), reads)


def run_test_cell(source: str, name: str, namespace: dict, session: KernelSession):
    """Run a test cell's code here: (its outputs as IPython would have recorded them, the error that failed it).

    `namespace` holds what earlier test cells defined and is updated; the notebook's names
    are fetched afresh for each cell, since the learner's cells in between may change them.
    """
    stdout, stderr, outputs, failed = io.StringIO(), io.StringIO(), [], None
    try:
        cell = compiled(source, name)
        fetched = session.describe(sorted(names_to_fetch(cell, namespace)))
    except (SyntaxError, BridgeError, CellTimeoutError) as error:  # the cell fails, the notebook goes on
        return [_error(error)], error
    scope = {**namespace, **fetched}
    with (
        contextlib.redirect_stdout(stdout),
        contextlib.redirect_stderr(stderr),
        warnings.catch_warnings(record=True) as caught,
        np.errstate(all="warn", under="ignore"),
    ):
        warnings.simplefilter("always")
        # what the garbage collector says of the grading process's own leftovers (an event loop, a file) while
        # the cell runs is not the cell's output; Python and nbgrader's kernels hide it by default too
        warnings.simplefilter("ignore", ResourceWarning)
        try:
            exec(cell.body, scope)  # noqa: S102 - the lesson's own tests
            value = eval(cell.last, scope) if cell.last is not None else None
        except (KernelDied, KeyboardInterrupt):
            raise
        except BaseException as error:  # the cell fails as it would in the kernel  # noqa: BLE001
            value, outputs, failed = None, [_error(error)], error
    namespace.update({k: v for k, v in scope.items() if k not in fetched or v is not fetched[k]})
    for warning in caught:
        stderr.write(warnings.formatwarning(warning.message, warning.category, warning.filename, warning.lineno))
    streams = [
        nbformat.v4.new_output("stream", name=stream, text=text.getvalue())
        for stream, text in (("stdout", stdout), ("stderr", stderr))
        if text.getvalue()
    ]
    result = (
        []
        if value is None
        else [nbformat.v4.new_output("execute_result", data={"text/plain": repr(value)}, execution_count=None)]
    )
    return streams + result + outputs, failed


def _error(error: BaseException):
    return error_output(type(error).__name__, str(error))


def error_output(ename: str, evalue: str):
    return nbformat.v4.new_output("error", ename=ename, evalue=evalue, traceback=[f"{ename}: {evalue}"])


def mistakes_of(error) -> list[str]:
    """The catalogued mistakes a failed check named (CheckFailed.mistakes), as data for the report."""
    return [str(mistake) for mistake in getattr(error, "mistakes", ()) or ()]


def stopped_output(why: str, timeout) -> nbformat.NotebookNode:
    """The error of the cell during which the kernel stopped."""
    if why == TIMEOUT:
        return error_output(
            STOPPED_ERROR[TIMEOUT],
            f"the cell ran past the time limit ({timeout} s) and did not stop "
            f"when interrupted, so its kernel was stopped after {INTERRUPT_GRACE:g} s more",
        )
    if why in STOPPED_ERROR:
        return error_output(STOPPED_ERROR[why], f"the kernel was stopped while this cell ran ({why})")
    return error_output(DIED_ERROR, f"the kernel stopped (it exited or crashed) while this cell ran ({why})")


# ----------------------------------------------------------------- bounded outputs


def stored_size(value) -> int:
    """Bytes `value` takes in the notebook file (JSON, UTF-8)."""
    return len(json.dumps(value, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass"))


def clip_stored(text: str, limit: int) -> str:
    """`text` in at most `limit` bytes as stored; a clipped text ends saying how much was cut."""
    if stored_size(text) <= limit:
        return text
    room = max(0, limit - 80)
    cut = text[:room]
    while cut and stored_size(cut) > room:
        cut = cut[: min(len(cut) - 1, len(cut) * room // stored_size(cut))]
    return f"{cut} [... clipped: {len(text) - len(cut):,} more characters]"


def _rough_size(value, depth: int = 0) -> int:
    """About the bytes `value` (plain data from JSON) takes, counted without copying it."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict) and depth < 20:
        return sum(len(str(k)) + _rough_size(v, depth + 1) for k, v in value.items())
    if isinstance(value, list) and depth < 20:
        return sum(_rough_size(v, depth + 1) for v in value)
    return 8


def _text(value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return "".join(value)
    return json.dumps(value, default=str)


PRIORITY = {"error": 0, "execute_result": 1, "stderr": 2, "stdout": 3, "display_data": 4}


def bounded_outputs(outputs: list, text_limit: int, image_limit: int) -> tuple[list, int]:
    """A cell's outputs within `text_limit` bytes of text and `image_limit` of images, and the bytes they take.

    Streams are merged by name (as nbclient does). Errors, results and streams stay, since
    nbgrader scores a cell by them, clipped in that order of precedence; displays that do
    not fit are left out; anything clipped or left out says so.
    """
    pieces: dict[str, list[str]] = {}  # stream name -> its texts, merged into one output
    kept, displays, left_out = [], 0, 0
    for output in outputs:
        kind = output.get("output_type")
        if kind == "stream":
            name = "stderr" if output.get("name") == "stderr" else "stdout"
            if name not in pieces:
                pieces[name] = []
                kept.append(nbformat.v4.new_output("stream", name=name, text=""))
            pieces[name].append(_text(output.get("text", "")))
        elif kind in ("error", "execute_result") or (kind == "display_data" and displays < DISPLAY_LIMIT):
            kept.append(output)
            displays += kind == "display_data"
        else:
            left_out += 1
    budget = {"text": text_limit, "image": image_limit}

    def take(text: str, share: float = 1.0, whole: int = 0) -> str:
        text = clip_stored(text, max(int(budget["text"] * share), whole)) if text else text
        budget["text"] = max(0, budget["text"] - stored_size(text))
        return text

    for output in sorted(kept, key=lambda o: PRIORITY[o.name if o.output_type == "stream" else o.output_type]):
        if output.output_type == "stream":
            output.text = take("".join(pieces[output.name]))
        elif output.output_type == "error":
            output.ename = clip_stored(_text(output.get("ename", "")), NAME_LIMIT)
            output.evalue = take(_text(output.get("evalue", "")), 0.5)  # the traceback (which pages show) gets the rest
            traceback = output.get("traceback")
            output.traceback = take("\n".join(map(_text, traceback if isinstance(traceback, list) else []))).split("\n")
        elif not _bound_data(output, budget, take):
            left_out += 1
    kept = [output for output in kept if output.output_type != "display_data" or output.data]
    if left_out:
        note = nbformat.v4.new_output(
            "stream",
            name="stdout",
            text=f"[... {left_out} more outputs left out: a cell's outputs are limited in number and size]\n",
        )
        ends_in_error = bool(kept) and kept[-1].output_type == "error"
        kept.insert(len(kept) - ends_in_error, note)  # an error stays last, where a reader looks for it
    return kept, sum(map(stored_size, kept))


def _bound_data(output, budget: dict, take) -> bool:
    """Keep what fits of a display's or a result's data (text/plain clipped, the rest whole or left out):
    whether anything was kept. A result keeps its text/plain, whole when short (nbgrader reads a
    partial score there: "1.5")."""
    data = output.get("data") if isinstance(output.get("data"), dict) else {}
    result = output.output_type == "execute_result"
    plain = _text(data.get("text/plain", ""))
    kept = {}
    if plain and (result or budget["text"] >= min(SHORT, stored_size(plain))):
        kept["text/plain"] = take(plain, whole=SHORT if result else 0)
    cut = stored_size(plain) if plain and not kept else 0
    for mime, value in data.items():
        if mime == "text/plain":
            continue
        size = stored_size(value)
        pool = "image" if mime in IMAGES else "text"
        if len(str(mime)) <= NAME_LIMIT and size <= budget[pool]:
            kept[mime], budget[pool] = value, budget[pool] - size
        else:
            cut += size
    if cut and "text/plain" not in kept and (kept or result):
        kept["text/plain"] = f"[an output of {cut:,} bytes, left out: larger than a cell may keep]"
    if result:
        kept["text/plain"] = kept.get("text/plain") or "[no text]"
        count = output.get("execution_count")
        output.execution_count = count if type(count) is int else None
    metadata = output.get("metadata")
    output.metadata = metadata if isinstance(metadata, dict) and stored_size(metadata) <= 1000 else {}
    output.data = kept
    return bool(kept)


def bound_notebook(nb) -> None:
    """Bound every cell's outputs: each test cell's to TEXT_LIMIT, the learner's cells' to LEARNER_LIMIT in all."""
    left = LEARNER_LIMIT
    for cell in nb.cells:
        if cell.get("cell_type") != "code":
            continue
        if is_test_cell(cell):
            cell.outputs, _ = bounded_outputs(cell.get("outputs", []), TEXT_LIMIT, 0)
        else:
            cell.outputs, used = bounded_outputs(cell.get("outputs", []), min(TEXT_LIMIT, left), min(IMAGE_LIMIT, left))
            left = max(0, left - used)
    if "widgets" in nb.metadata and stored_size(nb.metadata["widgets"]) > TEXT_LIMIT:
        del nb.metadata["widgets"]  # widget state the learner's code sent, too large to keep


# ----------------------------------------------------------------- the preprocessor


class KernelKilled(Exception):
    """The kernel did not answer its interrupt at a cell's time limit and was killed."""


class BoundedClient(AsyncKernelClient):
    """A kernel client whose sockets drop a message over MAX_MESSAGE bytes before reading it (ZMQ
    resets that connection) and hold at most RECEIVE_QUEUE messages it has not read, so what the
    learner's code sends cannot fill the grader's memory.

    Its sockets connect while the new kernel is still binding its ports; a refused connection
    is tried again after RECONNECT_MS rather than ZMQ's default 100 ms, which every kernel
    would otherwise wait before its first answer."""

    @default("context")
    def _bounded_context(self):
        context = super()._context_default()
        context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE)
        context.setsockopt(zmq.RCVHWM, RECEIVE_QUEUE)
        context.setsockopt(zmq.RECONNECT_IVL, RECONNECT_MS)
        return context

    async def _async_wait_for_ready(self, timeout: float | None = None) -> None:
        """jupyter_client's wait for a new kernel, without its fixed pauses (0.2 s at least, every kernel).

        The kernel is ready once iopub is connected and it has answered kernel_info on the shell
        channel. Iopub is connected once the kernel has welcomed the subscription (ipykernel's
        iopub_welcome) or the idle status of that kernel_info request has come there; a kernel that
        sends neither within a second (a subscription made too late misses the status) is asked
        again. What iopub held before is read and dropped.
        """
        deadline = monotonic() + (math.inf if timeout is None else timeout)
        while True:
            request = self.kernel_info()
            if await self._answer(self.iopub_channel, request, min(deadline, monotonic() + 1), iopub=True):
                reply = await self._answer(self.shell_channel, request, min(deadline, monotonic() + 1))
                if reply is not None:
                    self._handle_kernel_info_reply(reply)
                    return
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if monotonic() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout:.0f} seconds")

    @staticmethod
    async def _answer(channel, request: str, until: float, iopub: bool = False):
        """The first message on `channel` that answers `request` before `until`; on iopub, the first that
        shows it connected: the kernel's welcome, or the idle status of `request`."""
        while (left := until - monotonic()) > 0:
            try:
                msg = await ensure_async(channel.get_msg(timeout=left))
            except Empty:
                return None
            answers = msg["parent_header"].get("msg_id") == request
            if not iopub and answers:
                return msg
            if iopub and (
                msg["msg_type"] == "iopub_welcome"
                or (answers and msg["msg_type"] == "status" and msg["content"].get("execution_state") == "idle")
            ):
                return msg
        return None

    wait_for_ready = _async_wait_for_ready  # jupyter_client's async client binds its own at class level


class TestsOutsideKernel(Execute):
    """nbgrader's Execute preprocessor, with test cells run by `run_test_cell` and every cell's
    time and outputs bounded, and the whole notebook's time (see the module's docstring)."""

    notebook_timeout = Float(
        None,
        allow_none=True,
        help="Seconds the whole notebook may run, its kernel's start included (None: NOTEBOOK_TIMES times "
        "`timeout`; 0: no limit)",
    ).tag(config=True)

    def preprocess(self, nb, resources=None, km=None):
        limit = self.notebook_limit()
        self.notebook_deadline = monotonic() + limit if limit else math.inf
        self._tests_namespace = pinned_names()
        self._session = KernelSession(self)  # its channel opens when a test cell first needs the kernel
        self.kernel_stopped = None  # why the kernel stopped (TIMEOUT, DIED, NOTEBOOK_TIMEOUT, ...), once it has
        self.received = [0, 0]  # bytes of output messages received: this cell's, the notebook's
        # the running cell's time limit, whether the notebook's end set it, and whether it ran into it
        self._cell_limit, self._by_notebook, self._timed_out = self._get_timeout(None), False, False
        for cell in nb.cells:
            if isinstance(cell.get("metadata"), dict):
                cell.metadata.pop("grader", None)  # the grading's to write, whatever the submission holds
        try:
            with checks.salted_draws(submission_salt(nb)):
                nb, resources = super().preprocess(nb, resources, km)
        finally:
            self._session.close()
        bound_notebook(nb)
        return nb, resources

    async def async_start_new_kernel(self, **kwargs):
        env = {k: v for k, v in (kwargs.get("env") or os.environ).items() if not k.startswith(HIDDEN_ENV)}
        kwargs["env"] = {**env, pytorch.SKIP_VARIABLE: "1"}  # the lessons' PyTorch cells, ungraded, skip
        return await super().async_start_new_kernel(**kwargs)

    start_new_kernel = run_sync(async_start_new_kernel)  # nbclient binds its own at class level

    async def async_start_new_kernel_client(self):
        self.km.client_factory = BoundedClient
        return await super().async_start_new_kernel_client()

    start_new_kernel_client = run_sync(async_start_new_kernel_client)

    def notebook_limit(self) -> float | None:
        """Seconds the whole notebook may run (None: no limit)."""
        if self.notebook_timeout is not None:
            return self.notebook_timeout or None
        return NOTEBOOK_TIMES * self.timeout if self.timeout else None

    def _get_timeout(self, cell):
        """The running cell's time limit: its own, or the notebook's time left when that is shorter."""
        if cell is None:
            return super()._get_timeout(None)
        return self._cell_limit

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code" or not cell.source.strip():
            return super().preprocess_cell(cell, resources, index)
        self._check_assign_resources(resources)
        self.received[0] = 0
        test = is_test_cell(cell)
        if not test and not self.kernel_stopped:
            self._finish_tests()
        own, left = super()._get_timeout(cell), self.notebook_deadline - monotonic()
        self._by_notebook, self._timed_out = left < (own or math.inf), False
        self._cell_limit = left if self._by_notebook else own
        failed = None
        if self.kernel_stopped:
            cell.outputs = [error_output(NOT_RUN, f"not run: kernel stopped ({self.kernel_stopped})")]
            cell.execution_count = None
        elif left <= 0:
            self._out_of_time(cell, ran=False)
        else:
            failed = self._run_test_cell(cell, index) if test else self._run_learner_cell(cell, index)
            if self._timed_out and self._by_notebook:
                self._out_of_time(cell, ran=True)
        if test:
            cell.metadata["grader"] = {"mistakes": mistakes_of(failed)}
        self.nb.cells[index] = cell
        return cell, self.resources

    def _out_of_time(self, cell, ran: bool) -> None:
        """The notebook's time ran out while this cell ran (it was interrupted) or before it: the cell says so,
        the kernel is stopped, and the cells after are not run."""
        limit = f"the notebook ran past its time limit ({self.notebook_limit():g} s)"
        if ran:
            note = f"{limit} while this cell ran, so the cell was stopped"
            kept = [o for o in cell.outputs if o.get("output_type") != "error" or o.get("ename") not in TIMEOUT_ERRORS]
        else:
            note, kept, cell.execution_count = f"{limit} before this cell, so it was not run", [], None
        cell.outputs = [*kept, error_output(STOPPED_ERROR[NOTEBOOK_TIMEOUT], note)]
        self.kernel_stopped = NOTEBOOK_TIMEOUT
        run_sync(stop_kernel)(self.km)

    def _finish_tests(self) -> None:
        """End the kernel side's serve loop before a learner cell (one serves a whole run of test cells)."""
        try:
            self._session.finish()
        except KernelDied:
            self.kernel_stopped = self._death()

    async def _async_cleanup_kernel(self) -> None:
        """End the serve loop of the last test cells, then stop the kernel as nbclient does."""
        session = getattr(self, "_session", None)
        if session is not None and not self.kernel_stopped:
            with contextlib.suppress(KernelDied):  # every cell is scored by now
                await session.finished()
        await super()._async_cleanup_kernel()

    _cleanup_kernel = run_sync(_async_cleanup_kernel)  # nbclient binds its own at class level

    def _run_test_cell(self, cell, index):
        timeout = self._get_timeout(cell)
        session = self._session
        session.begin(monotonic() + (timeout if timeout else math.inf))
        grade_id = cell.metadata["nbgrader"].get("grade_id", f"cell {index}")
        cell.execution_count = None
        try:
            cell.outputs, failed = run_test_cell(cell.source, grade_id, self._tests_namespace, session)
        except KernelDied:
            self.kernel_stopped = self._death()
            cell.outputs = [stopped_output(self.kernel_stopped, timeout)]
            return None
        if session.killed:
            self.kernel_stopped = TIMEOUT
        self._timed_out = session.killed or isinstance(failed, CellTimeoutError)
        return failed

    def _run_learner_cell(self, cell, index):
        try:
            super().preprocess_cell(cell, self.resources, index)
            return None
        except KernelKilled:
            self.kernel_stopped = TIMEOUT
        except nbclient.exceptions.CellTimeoutError:  # it answered, but its outputs did not all arrive
            run_sync(stop_kernel)(self.km)  # its output channel is not to be trusted any more
            self.kernel_stopped = TIMEOUT
            cell.outputs.append(
                error_output(
                    STOPPED_ERROR[TIMEOUT],
                    (
                        f"the cell's outputs did not all arrive within {self.iopub_timeout} s (one may have been "
                        f"larger than the {MAX_MESSAGE // 2**20} MB the grading reads), so its kernel was stopped"
                    ),
                )
            )
            return None
        except DeadKernelError:
            self.kernel_stopped = self._death()
        cell.outputs.append(stopped_output(self.kernel_stopped, self._get_timeout(cell)))
        return None

    def _death(self) -> str:
        """Why the kernel stopped by itself: its manager's stop_reason ("memory limit"), else DIED."""
        return str(getattr(self.km, "stop_reason", None) or DIED)[:NAME_LIMIT]

    async def _async_handle_timeout(self, timeout, cell=None):
        """nbclient's interrupt at a cell's time limit; a kernel that does not answer it in time is killed."""
        self._timed_out = cell is not None
        reply = await super()._async_handle_timeout(timeout, cell)
        if cell is None or not self.interrupt_on_timeout:
            return reply
        try:
            await ensure_async(self.kc.shell_channel.get_msg(timeout=INTERRUPT_GRACE))
        except Empty:
            await stop_kernel(self.km)
            raise KernelKilled() from None
        return reply

    def output(self, outs, msg, display_id, cell_index):
        """Record an output, unless the cell's or the notebook's outputs have passed RECEIVE_LIMIT (a flood)."""
        size = _rough_size(msg.get("content"))
        if all(received + size <= limit for received, limit in zip(self.received, RECEIVE_LIMIT, strict=False)):
            self.received = [received + size for received in self.received]
            return super().output(outs, msg, display_id, cell_index)
        if not (outs and outs[-1].get("text") == FLOODED):
            outs.append(nbformat.v4.new_output("stream", name="stdout", text=FLOODED))
        return None
