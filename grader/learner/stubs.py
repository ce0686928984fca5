"""When a cell fails because an exercise above is still a stub, say so in one line: which function to finish.

A learner who skips an exercise and runs on sees later cells fail: with the stub's
NotImplementedError, or with whatever the cells that needed it left behind (a NameError for a
result never made, a KeyError or a shape error for a table filled half way). None of these says
where to go back to, and a plot that fails half way is drawn half. `point_at_stubs()`, called by
each lesson's setup cell, makes IPython show such a failure as one line naming the unfinished
functions, with no traceback; and any failed cell's figures are closed before they are drawn.

A failure is put down to a stub only when that can be told from what ran, never from the lesson:
- a stub raised it (its own frame raised the NotImplementedError), directly or through other code;
- or the cell reads a name that an earlier cell, failed in this way, was to make or fill;
- or it is a visible check's failure for a stub (the check's `not_written`), shown without its arguments.
Anything else keeps its normal traceback: an error without a stub unfinished, an error in a
half-written stub's own code, and an error raised inside a function the learner has finished.
A stub is a function defined in the notebook whose code still raises NotImplementedError.

Only a kernel a person works in gets this: one whose cells come with `allow_stdin` (JupyterLab,
Notebook, VS Code, a terminal). nbclient sends none, so nbgrader's Validate, nbconvert and the
grading kernels register nothing, and their outputs are IPython's own.
"""

from __future__ import annotations

import ast
import re
import sys
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from grader.learner.checks import ERROR_NAME_COLOUR
from grader.learner.predictions import NotCommitted, committed, current_shell, guess_not_run, is_prediction

__all__ = ["point_at_stubs", "pointing_at_stubs", "unfinished"]

FILLING = {  # methods that fill or change the object they are called on: a cell that fails midway leaves it partial
    *("append", "extend", "insert", "update", "setdefault", "add", "pop", "popitem", "clear", "remove", "discard"),
    *("sort", "reverse", "fill", "put", "resize"),
}
NOT_WRITTEN = "not written yet (it still raises NotImplementedError)"  # as the checks word a stub
MADE_WHOLE = (types.FunctionType, type, types.ModuleType)  # a def, class or import that ran is complete
# Per shell: our handler, kept the first time so that running the setup cell again does not wrap ours in ours.
POINTERS: dict[int, StubPointer] = {}


def is_stub(value) -> bool:
    """A function written in the notebook (not imported) whose code still raises NotImplementedError."""
    return (
        isinstance(value, types.FunctionType)
        and value.__module__ == "__main__"
        and "NotImplementedError" in value.__code__.co_names
    )


def unfinished(namespace: dict) -> list[str]:
    """The names of the stubs in a kernel's namespace, in the order they were defined."""
    return [name for name, value in namespace.items() if not name.startswith("_") and is_stub(value)]


def listed(names: Iterable[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def pointer(stubs: list[str], needs: list[str] | None = None, plot: bool = False) -> str:
    """The one line a failure caused by `stubs` shows; `needs`: names the cell wanted that they kept from being made.
    A prediction among them (its guess not committed, so its answer's cell stopped) is to commit, not to finish."""
    guesses = [name for name in stubs if is_prediction(name)]
    functions = [name for name in stubs if name not in guesses]
    parts = [f"finish {listed(functions)}"] if functions else []
    parts += [f"commit your guess for {listed(guesses)}"] if guesses else []
    to_do = " and ".join(parts)
    to_do = to_do[:1].upper() + to_do[1:]
    subject, them, verb = ("it", "it", "is") if len(stubs) == 1 else ("they", "them", "are")
    goal = "to see this plot" if plot else "to run this cell"
    if not needs:
        return f"{to_do} above {goal}: {subject} {verb} not written yet."
    return (
        f"{to_do} above {goal}, then run the cells below {them} again: "
        f"{listed(needs)} could not be made without {them}."
    )


def check_pointer(stub: str, ename: str = "CheckFailed") -> str:
    """The one line a visible check of `stub` shows in the learner's kernel (the checks' own words, no arguments)."""
    return f"{ename}: `{stub}` is {NOT_WRITTEN}: finish it above."


def parsed(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):  # a magic, or not Python at all: nothing can be said about its names
        return None


def top_level(tree: ast.AST) -> Iterable[ast.AST]:
    """The nodes that run when the cell runs: not the bodies of the functions, classes and comprehensions it defines."""
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
    comprehensions = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
    for child in ast.iter_child_nodes(tree):
        yield child
        if not isinstance(child, (*scopes, *comprehensions)):
            yield from top_level(child)


def base_name(node: ast.AST) -> str | None:
    """`x` of `x`, `x[i]`, `x.a`, `x[i].a[j]`."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def made_by(code: str | ast.Module) -> dict[str, bool]:
    """The names a cell (its source, or a part of it parsed) binds or fills in place at its top level, each with
    whether it fills in place (`table[key] = ...`, `rows.append(...)`: what a cell stopped midway leaves half made)."""
    tree = parsed(code) if isinstance(code, str) else code
    if tree is None:
        return {}
    made: dict[str, bool] = {}
    for node in top_level(tree):
        name, filled = None, False
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            name = node.id
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            name, filled = base_name(node), True
        elif isinstance(node, ast.AugAssign):
            name, filled = base_name(node.target), True
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
        elif isinstance(node, ast.alias):
            name = (node.asname or node.name).split(".")[0]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in FILLING:
            name, filled = base_name(node.func.value), True
        if name:
            made[name] = made.get(name, False) or filled
    return made


def unrun(source: str, line: int | None) -> dict[str, bool]:
    """What a cell that stopped at `line` did not make: the names of the statement that stopped and those after it
    (all of the cell's when the line is not known)."""
    tree = parsed(source)
    if tree is None:
        return {}
    statements = [s for s in tree.body if line is None or (s.end_lineno or s.lineno) >= line]
    made: dict[str, bool] = {}
    for statement in statements:
        for name, filled in made_by(ast.Module(body=[statement], type_ignores=[])).items():
            made[name] = made.get(name, False) or filled
    return made


def wanted_by(source: str) -> set[str]:
    """The names a cell reads from outside: read anywhere in its code (its functions too), never bound in it."""
    tree = parsed(source)
    if tree is None:
        return set()
    read: set[str] = set()
    bound: set[str] = set()
    nodes = list(ast.walk(tree))
    updated = {id(node.target) for node in nodes if isinstance(node, ast.AugAssign)}  # `n += 1` reads n as well
    for node in nodes:
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) or id(node) in updated else bound).add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
    return read - bound


def chain(error: BaseException | None) -> Iterable[BaseException]:
    """`error` and the errors behind it (`raise ... from`, or raised while handling), each once."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        yield error
        error = error.__cause__ or error.__context__


def frames(tb) -> list:
    """The code objects of a traceback, outermost first."""
    codes = []
    while tb is not None:
        codes.append(tb.tb_frame.f_code)
        tb = tb.tb_next
    return codes


def stub_that_raised(error: BaseException, stubs: dict) -> str | None:
    """The stub (name -> its code) whose own frame raised a NotImplementedError in `error`'s chain."""
    for link in chain(error):
        codes = frames(link.__traceback__)
        if isinstance(link, NotImplementedError) and codes:
            for name, code in stubs.items():
                if codes[-1] is code:
                    return name
    return None


@dataclass
class StubPointer:
    """What one learner's kernel knows of its stubs between cells, and the handler IPython calls on a failure."""

    shell: Any  # IPython's InteractiveShell
    before_types: tuple = ()  # the custom exceptions another handler took before ours, still given to it
    before: Callable | None = None
    were_stubs: set[str] = field(default_factory=set)  # every function seen unfinished: finished ones are the learner's
    waiting: dict[str, list[str]] = field(default_factory=dict)  # a name never made, or made half -> the stubs it needs
    raw: str = ""  # the cell that runs now, as typed
    figures: set = field(default_factory=set)  # the figures open before it ran
    python: tuple[str, str] = ("", "")  # the last cell read (as typed, as Python): a cell is read only when needed

    @property
    def namespace(self) -> dict:
        return self.shell.user_ns

    @property
    def source(self) -> str:
        """The cell that runs now, as IPython runs it: magics made Python, its lines where they were."""
        if self.python[0] != self.raw:
            try:
                self.python = (self.raw, self.shell.transform_cell(self.raw))
            except Exception:  # noqa: BLE001 - a cell IPython cannot transform fails by itself, not here
                self.python = (self.raw, self.raw)
        return self.python[1]

    def before_cell(self, info=None) -> None:
        self.raw = getattr(info, "raw_cell", "") or ""
        self.were_stubs.update(unfinished(self.namespace))
        pyplot = sys.modules.get("matplotlib.pyplot")
        self.figures = set(pyplot.get_fignums()) if pyplot else set()

    def after_cell(self, result=None) -> None:
        if self.waiting and getattr(result, "success", False):
            for name in made_by(self.source):
                self.waiting.pop(name, None)

    def close_new_figures(self) -> bool:
        """Close the figures the failed cell opened, so that none is shown half drawn; whether there were any."""
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is None:
            return False
        opened = set(pyplot.get_fignums()) - self.figures
        for number in opened:
            pyplot.close(number)
        return bool(opened)

    def cause(self, error: BaseException) -> tuple[list[str], list[str]] | None:
        """(the stubs behind the failure, the names it needed that they kept from being made), or None: not theirs."""
        stubs = unfinished(self.namespace)
        self.were_stubs.update(stubs)
        waited_on = {blocker for blockers in self.waiting.values() for blocker in blockers}
        uncommitted = [name for name in waited_on if is_prediction(name) and not committed(name)]
        if not stubs and not uncommitted:
            return None
        raised = stub_that_raised(error, {name: self.namespace[name].__code__ for name in stubs})
        if raised:
            return [raised], []
        finished = {self.namespace[name].__code__ for name in self.were_stubs - set(stubs) if name in self.namespace}
        if any(code in finished for link in chain(error) for code in frames(link.__traceback__)):
            return None  # raised in a function the learner has finished: their own error, shown in full
        # a NameError: a name never made, or a typo (only the former is the stub's doing); else what the cell takes in
        wanted = {error.name} if isinstance(error, NameError) else wanted_by(self.source)
        blockers = stubs + sorted(uncommitted)
        needs = [name for name in self.waiting if name in wanted and set(self.waiting[name]) & set(blockers)]
        behind = [blocker for blocker in blockers if any(blocker in self.waiting[name] for name in needs)]
        return (behind, needs) if behind else None

    def stopped_at(self, error: BaseException) -> int | None:
        """The line of the cell where it stopped: that of the cell's own frame (IPython runs it as module code)."""
        tb = error.__traceback__
        while tb is not None:
            frame = tb.tb_frame
            if frame.f_code.co_name == "<module>" and frame.f_globals is self.namespace:
                return tb.tb_lineno
            tb = tb.tb_next
        return None

    def left_unmade(self, stubs: list[str], error: BaseException) -> None:
        """Record what the failed cell did not make (or made half) because of `stubs`, for the cells after it;
        what it made before it stopped waits no more."""
        unmade = unrun(self.source, self.stopped_at(error))
        for name in made_by(self.source).keys() - unmade.keys():
            self.waiting.pop(name, None)
        for name in unmade if stubs else ():
            if not isinstance(self.namespace.get(name), MADE_WHOLE):  # not a def, class or import, made before
                self.waiting[name] = list(dict.fromkeys([*self.waiting.get(name, []), *stubs]))

    def unwritten_check(self, error: BaseException) -> str | None:
        """The one line for a visible check of a stub (its own message also lists the arguments), else None."""
        checked = re.match(r"(\w+)\(", str(error))
        if not (getattr(error, "not_written", False) and checked and checked.group(1) in unfinished(self.namespace)):
            return None
        return check_pointer(checked.group(1), type(error).__name__)

    def handle(self, shell, etype, value, tb, tb_offset=None):
        """IPython's custom exception handler: one line for a failure a stub caused, the usual traceback otherwise."""
        if self.before_types and self.before and issubclass(etype, self.before_types):
            return self.before(etype, value, tb, tb_offset)
        shown, ran = None, True  # the line shown instead of the traceback; whether the cell's code ran
        try:
            ran = self.stopped_at(value) is not None
            plot = self.close_new_figures()
            if isinstance(value, NotCommitted):  # a prediction's answer, held back: what its cell makes waits for it
                self.left_unmade([value.prediction], value)
            elif hasattr(value, "_render_traceback_"):  # it shows itself: a check's failure, say
                line = self.unwritten_check(value)
                name = etype.__name__
                shown = None if line is None else ERROR_NAME_COLOUR.format(name) + line[len(name) :]  # as checks do
            else:
                found = self.cause(value)
                self.left_unmade(found[0] if found else [], value)
                shown = pointer(*found, plot=plot) if found else None
                unguessed = None if found else guess_not_run(value, self.source)
                shown = shown if unguessed is None else ERROR_NAME_COLOUR.format("NameError") + unguessed[9:]
            if shown is not None:
                value._render_traceback_ = lambda: [shown]  # IPython's way for an error to show itself
        except Exception:  # noqa: BLE001 - a fault of ours must not hide the learner's error (nor unregister us)
            shown = None
        try:
            # the same error (its name, the kernel's status); a SyntaxError raised by running code as IPython shows it
            shell.showtraceback((etype, value, tb), tb_offset=tb_offset, running_compiled_code=ran)
        finally:
            if shown is not None:
                del value._render_traceback_  # %tb still shows the whole traceback
        return None


def for_a_person(shell) -> bool:
    """Whether the cell running now came from a front end a person types into: it lets the kernel ask for input.

    nbclient (nbgrader's Validate and grading, nbconvert) sends allow_stdin false; a shell with no
    kernel is IPython in a terminal."""
    kernel = getattr(shell, "kernel", None)
    if kernel is None or not hasattr(kernel, "get_parent"):
        return True
    return bool(kernel.get_parent().get("content", {}).get("allow_stdin", False))


def point_at_stubs(shell=None) -> None:
    """Have IPython show a failure an unfinished exercise caused as one line naming it.

    Nothing outside IPython and in a kernel nobody types into (grading, Validate); running it again changes
    nothing, and exceptions another handler took before are still given to it. It returns nothing, so the
    setup cell that calls it last shows nothing (`pointing_at_stubs` says whether it took effect).
    """
    shell = shell if shell is not None else current_shell()
    if shell is None or id(shell) in POINTERS or not for_a_person(shell):
        return
    pointing = StubPointer(shell, tuple(shell.custom_exceptions), shell.CustomTB)
    pointing.before_cell(types.SimpleNamespace(raw_cell=""))
    POINTERS[id(shell)] = pointing
    shell.events.register("pre_run_cell", pointing.before_cell)
    shell.events.register("post_run_cell", pointing.after_cell)
    shell.set_custom_exc(tuple(dict.fromkeys((*pointing.before_types, Exception))), pointing.handle)


def pointing_at_stubs(shell=None) -> bool:
    """Whether `point_at_stubs` took effect in `shell` (by default IPython's running one, if any)."""
    shell = shell if shell is not None else current_shell()
    return shell is not None and id(shell) in POINTERS
