"""When a cell fails while an exercise above is still a stub, say which function to finish.

A learner who skips an exercise and runs on sees later cells fail: with the stub's
NotImplementedError, or with a NameError for a result that the failed cell never made. Neither
says where to go back to. `point_at_stubs()`, called by each lesson's setup cell, makes IPython
end such a failure with one line naming the unfinished functions. A stub is a function defined in
the notebook whose code still raises NotImplementedError; nothing else about the lesson is needed.
"""

from __future__ import annotations

import types
from collections.abc import Callable

__all__ = ["point_at_stubs", "unfinished"]

POINTED = (NotImplementedError, NameError)
# Per shell, the custom exception handling that was there before ours (another room's, or IPython's
# none), kept the first time so that running the setup cell again does not wrap ours in ours.
BEFORE: dict[int, tuple[tuple, Callable]] = {}


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


def raised_by(tb, names: list[str]) -> list[str]:
    """The stub among `names` whose own frame raised (the innermost one), as a list of at most one."""
    found = []
    while tb is not None:
        if tb.tb_frame.f_code.co_name in names:
            found = [tb.tb_frame.f_code.co_name]
        tb = tb.tb_next
    return found


def pointer(names: list[str], error: BaseException) -> str:
    """The line added under the failure."""
    listed = ", ".join(f"`{name}`" for name in names)
    one = len(names) == 1
    it, its, verb = ("it", "its", "is") if one else ("them", "their", "are")
    if isinstance(error, NameError) and getattr(error, "name", None):
        return (
            f">>> {listed} above {verb} not written yet, so the cell that makes `{error.name}` may have failed: "
            f"finish {it}, then run the cells from {its} exercise down to this one."
        )
    return f">>> {listed} {verb} not written yet: finish {it} in {its} exercise above, run that cell, then this one."


def point_at_stubs(shell=None) -> bool:
    """Have IPython name the unfinished exercises under a NotImplementedError or NameError; False outside IPython.

    Exceptions another handler took before are still given to it.
    """
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        shell = get_ipython()
        if shell is None:
            return False
    before_types, before = BEFORE.setdefault(id(shell), (tuple(shell.custom_exceptions), shell.CustomTB))

    def handler(shell, etype, value, tb, tb_offset=None):
        if before_types and issubclass(etype, before_types):
            return before(etype, value, tb, tb_offset)
        names = unfinished(shell.user_ns)
        if isinstance(value, NotImplementedError):
            names = raised_by(tb, names) or names
        note = pointer(names, value) if names else None
        if note and hasattr(value, "add_note") and note not in getattr(value, "__notes__", ()):
            value.add_note(note)  # shown as the traceback's last line
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)  # IPython 9 no longer shows what a handler returns
        if note and not hasattr(value, "add_note"):  # Python 3.10: no notes on exceptions
            print(note)

    shell.set_custom_exc(tuple(dict.fromkeys((*before_types, *POINTED))), handler)
    return True
