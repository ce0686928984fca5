"""The grading process's half of the bridge to the learner's kernel (the kernel's half: kernelside).

Test cells run here, in the grading process, so the learner's code can neither see the
hidden tests nor redefine the checks. A name a test cell needs from the notebook is
fetched from the kernel as plain data; a function becomes a `KernelFunction`, which sends
its arguments to the kernel, calls the learner's function there and brings back the result,
the exception it raised, the warnings it gave, and its arguments as they were afterwards
(so that an in-place change or a used random generator is seen as in a normal call).

Nothing the kernel sends is trusted to be small: a value over kernelside.MAX_VALUE comes as a
stand-in that says it was too large to compare, and names and messages are clipped. A call
past the time limit is interrupted; a kernel that does not answer within INTERRUPT_GRACE is
killed (stop_kernel).
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import collections.abc
import contextlib
import functools
import importlib
import inspect
import json
import signal
import warnings
from queue import Empty
from time import monotonic

import numpy as np
from nbclient.util import ensure_async, run_sync

from grader.engine import kernelside
from grader.learner import checks

SAFE_MODULES = {"numpy", "math", "cmath", "random", "itertools", "functools", "collections", "operator", "statistics"}
INSTALL = (
    "__softmax_bridge__ = (lambda ns: (exec({source!r}, ns), ns['Bridge'])[1])"
    "({{'__name__': 'softmax_bridge'}})(globals())"
)
SOURCE = inspect.getsource(kernelside)
INTERRUPT_GRACE = 5.0  # seconds an interrupted kernel gets to answer before it is killed
MAX_ANSWER_TEXT = 2 * kernelside.MAX_ANSWER + 3 * kernelside.MAX_VALUE  # characters of an answer as IPython shows it
NAME_LIMIT = kernelside.NAME_LIMIT


class KernelDied(BaseException):
    """The kernel stopped during a call (not an Exception, so no check mistakes it for the learner's error)."""


class CellTimeoutError(BaseException):
    """A test cell's time ran out while the learner's code was running in the kernel."""


async def stop_kernel(km) -> None:
    """Kill the kernel's process group and wait (a few seconds at most) until the kernel is gone.

    For a kernel that did not answer its interrupt: a function that ignores SIGINT, C code
    that never checks for signals, a stopped process, a shell the kernel became."""
    with contextlib.suppress(RuntimeError, OSError):  # RuntimeError: no kernel running
        await ensure_async(km.signal_kernel(signal.SIGKILL))
    until = monotonic() + 5
    while monotonic() < until and await ensure_async(km.is_alive()):
        await asyncio.sleep(0.05)


class BridgeError(Exception):
    """The kernel did not answer a request as the bridge does (the notebook broke it, or its output)."""


class Opaque:
    """Stands for something the learner's function returned that is not plain data."""

    def __init__(self, description: str):
        self.description = description

    def __repr__(self) -> str:
        return self.description


@functools.lru_cache(maxsize=256)
def _stand_in(type_name: str) -> type:
    return type(type_name, (Opaque,), {"__module__": "learner"})


@functools.lru_cache(maxsize=256)
def _foreign_array(type_name: str) -> type:
    """A plain-behaving ndarray subclass with the name of the learner's subclass, so checks can say what it was."""
    return type(type_name, (np.ndarray,), {"__module__": "learner"})


def rebuilt_class(classes: tuple, root: type) -> type:
    """A class for the learner's exception or warning, from its classes' (module, qualified name),
    innermost first: the real one when it is Python's or NumPy's, else a class of the same name
    and module derived from its nearest real base below `root`."""
    clipped = tuple(tuple(kernelside.clip(part, NAME_LIMIT) for part in names[:3]) for names in classes[:20])
    return _rebuilt_class(clipped, root)


@functools.lru_cache(maxsize=1024)
def _rebuilt_class(classes: tuple, root: type) -> type:
    for index, (module, name, _) in enumerate(classes):
        known = None
        if module == "builtins":
            known = getattr(builtins, name, None)
        elif module.split(".")[0] == "numpy":
            try:
                known = getattr(importlib.import_module(module), name, None)
            except ImportError:
                known = None
        if isinstance(known, type) and issubclass(known, root):
            if index == 0 and (root is not BaseException or issubclass(known, Exception)):
                return known
            break
    else:
        known = root
    if root is BaseException and not issubclass(known, Exception):
        known = Exception  # a learner's SystemExit must not stop the grader
    return _named(*classes[0], known)


@functools.lru_cache(maxsize=1024)
def _named(module: str, qualname: str, name: str, base: type) -> type:
    """A subclass of `base` named as the learner's class was, made from a message alone."""
    return type(
        name,
        (base,),
        {
            "__module__": module,
            "__qualname__": qualname,
            "__init__": BaseException.__init__,
            "__str__": BaseException.__str__,
        },
    )


def rebuilt_error(raised: dict) -> BaseException:
    """The learner's exception, rebuilt from its description (see kernelside.describe_error)."""
    cls = rebuilt_class(tuple(map(tuple, raised["classes"])), BaseException)
    message = kernelside.clip(raised["message"])
    try:
        return cls(message)
    except Exception:  # a class whose constructor wants more than a message (NumPy's casting errors)
        return _named(cls.__module__, cls.__qualname__, cls.__name__, cls)(message)


class Codec(kernelside.Codec):
    """The grading side's codec: iterators go as lists (handed to the learner as iterators)."""

    array_limit = 64 * 2**20  # the tests' own arguments (what comes back is bounded by the kernel's side)

    def encode(self, value, depth=0):
        if isinstance(value, kernelside.OnePass):
            return super().encode(value, depth)
        if isinstance(value, collections.abc.Iterator) and not isinstance(value, (np.ndarray, np.generic, str)):
            return ["iter", [self.encode(item, depth + 1) for item in value]]
        return super().encode(value, depth)

    def read(self, item):
        """Decode what the kernel sent: anything but plain data becomes a stand-in."""
        if item[0] == "array" and item[2].get("subclass"):
            return super().decode(item).view(_foreign_array(str(item[2]["subclass"])))
        return self.decode(item, opaque=_stand_in_for)


def _stand_in_for(item) -> Opaque:
    """A stand-in for what the kernel described instead of sending: a learner's object, or a function."""
    if item[0] != "opaque":
        return Opaque("<a function>")
    kind = kernelside.clip(item[1].get("type", "object"), NAME_LIMIT)
    return _stand_in(kind)(f"<a {kind}: {kernelside.clip(item[1].get('repr', ''), 400)}>")


def write_back(original, after) -> None:
    """Make the grading side's argument look as the learner's function left its copy."""
    if type(original) is np.ndarray and type(after) is np.ndarray:
        if original.shape != after.shape and original.size == after.size and original.flags.writeable:
            try:
                original.shape = after.shape  # the learner's function reshaped the caller's array in place
            except (AttributeError, ValueError):
                return
        if (
            original.shape == after.shape
            and original.flags.writeable
            and not np.array_equal(original, after, equal_nan=original.dtype.kind in "fc")
        ):
            np.copyto(original, after, casting="unsafe")
    elif type(original) is list and type(after) is list and checks.changed_in_place(original, after):
        original[:] = after
    elif type(original) is kernelside.OnePass and type(after) is kernelside.OnePass:
        original.read = after.read  # what the learner's function read is gone from the stream
    elif type(original) is np.random.Generator and type(after) is np.random.Generator:
        try:
            original.bit_generator.state = after.bit_generator.state
        except (TypeError, ValueError, KeyError):
            pass


class KernelSession:
    """Requests to one running notebook's kernel, through nbclient's kernel client, within a time limit."""

    def __init__(self, client, deadline: float):
        self.client, self.deadline, self.codec = client, deadline, Codec()
        self.used_global_random = False  # whether the last call drew from the kernel's global random state
        self.killed = False  # whether the kernel was killed at the time limit (it did not answer its interrupt)

    def describe(self, names: list[str]) -> dict:
        """The notebook's current value of each name it has: data as a copy, functions as KernelFunctions."""
        answer = self._evaluate(
            f"__softmax_bridge__.describe({json.dumps(sorted(names))!r})", INSTALL.format(source=SOURCE)
        )
        found: dict[str, object] = {}
        try:
            for name, item in answer.items():
                if name not in names:
                    continue
                if item[0] == "callable":
                    found[name] = KernelFunction(self, name)
                elif item[0] == "module":
                    if str(item[1]).split(".")[0] in SAFE_MODULES:
                        found[name] = importlib.import_module(str(item[1]))
                else:
                    found[name] = self.codec.read(item)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, ImportError) as problem:
            raise BridgeError(f"the kernel's answer could not be read ({type(problem).__name__})") from None
        return found

    def call(self, name: str, args, kwargs, times: int = 1):
        """Run name(*args, **kwargs) in the kernel `times` times: ([results], exception or None)."""
        request = {
            "name": name,
            "args": [self.codec.encode(a) for a in args],
            "kwargs": {k: self.codec.encode(v) for k, v in kwargs.items()},
            "errstate": np.geterr(),
            "times": times,
        }
        answer = self._evaluate(f"__softmax_bridge__.call({json.dumps(request)!r})")
        try:
            returned = [*answer["args"], *answer["kwargs"].values()]
            for original, after in zip([*args, *kwargs.values()], returned, strict=False):
                write_back(original, self.codec.read(after))
            for warned in answer["warnings"]:
                category = rebuilt_class(tuple(map(tuple, warned["classes"])), Warning)
                warnings.warn_explicit(kernelside.clip(warned["message"]), category, "<learner's code>", 0)
            results = [self.codec.read(item) for item in answer["results"]]
            error = None if answer["raised"] is None else rebuilt_error(answer["raised"])
            self.used_global_random = answer.get("global_random") is True
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as problem:
            raise BridgeError(f"the kernel's answer could not be read ({type(problem).__name__})") from None
        return results, error

    def _evaluate(self, expression: str, code: str = ""):
        return run_sync(self._ask)(expression, code)

    async def _ask(self, expression: str, code: str):
        kc = self.client.kc
        msg_id = kc.execute(code, silent=True, store_history=False, user_expressions={"answer": expression})
        reply = await self._reply(msg_id)
        content = reply["content"]
        if content.get("status") != "ok":
            raise BridgeError(f"the kernel could not run the grader's request ({content.get('ename')})")
        answer = content.get("user_expressions", {}).get("answer", {})
        if answer.get("status") != "ok":
            raise BridgeError(f"the kernel could not run the grader's request ({answer.get('ename')})")
        try:
            text = answer["data"]["text/plain"]
            if len(text) > MAX_ANSWER_TEXT:
                raise BridgeError(f"the kernel's answer was too large ({len(text):,} characters)")
            return json.loads(_string_literal(text))
        except (KeyError, TypeError, ValueError, SyntaxError, MemoryError, RecursionError):
            raise BridgeError("the kernel's answer could not be read") from None

    async def _reply(self, msg_id: str) -> dict:
        kc = self.client.kc
        while True:
            remaining = self.deadline - monotonic()
            if remaining <= 0:
                await ensure_async(self.client.km.interrupt_kernel())
                if await self._matching(kc, msg_id, monotonic() + INTERRUPT_GRACE) is not None:
                    raise CellTimeoutError("the learner's code was still running at the time limit and was stopped")
                if not await ensure_async(kc.is_alive()):
                    raise KernelDied("the kernel stopped (it exited or crashed) during a test")
                await stop_kernel(self.client.km)
                self.killed = True
                raise CellTimeoutError(
                    "the learner's code was still running at the time limit and did not stop "
                    f"when interrupted, so its kernel was stopped after {INTERRUPT_GRACE:g} s more"
                )
            reply = await self._matching(kc, msg_id, monotonic() + min(1.0, remaining))
            if reply is not None:
                return reply
            if not await ensure_async(kc.is_alive()):
                raise KernelDied("the kernel stopped (it exited or crashed) during a test")

    @staticmethod
    async def _matching(kc, msg_id: str, until: float):
        while monotonic() < until:
            try:
                msg = await ensure_async(kc.shell_channel.get_msg(timeout=max(0.0, until - monotonic())))
            except Empty:
                return None
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg
        return None


def _string_literal(text: str) -> str:
    """The str that IPython printed as `text` (its repr), read without evaluating anything."""
    value = ast.literal_eval(text)
    if type(value) is not str:
        raise ValueError("not a string")
    return value


class KernelFunction:
    """A function of the learner's notebook, called in its kernel; the grader sees only data."""

    def __init__(self, session: KernelSession, name: str):
        self._session, self.__name__, self.__qualname__ = session, name, name

    def __call__(self, *args, **kwargs):
        results, error = self._session.call(self.__name__, args, kwargs, 1)
        if error is not None:
            raise error
        return results[0]

    def repeat(self, args, kwargs, times: int):
        """The results of `times` calls made in the kernel in one go, and the error that ended them early."""
        return self._session.call(self.__name__, args, kwargs, times)

    @property
    def used_global_random(self) -> bool:
        """Whether the last call drew from NumPy's global random state or Python's `random` in the kernel."""
        return self._session.used_global_random

    def __repr__(self) -> str:
        return f"<function {self.__name__} of the notebook>"
