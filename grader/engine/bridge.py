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

import asyncio
import builtins
import collections.abc
import contextlib
import functools
import hmac
import importlib
import inspect
import json
import marshal
import math
import os
import secrets
import select
import shutil
import signal
import socket
import sys
import tempfile
import types
import warnings
from queue import Empty
from time import monotonic

import numpy as np
from nbclient.util import ensure_async, run_sync

from grader.engine import kernelside
from grader.learner import checks, crashes

# The modules (and their submodules) that a test cell may take from the notebook, imported here once: a module the
# kernel names is then the grading process's own copy when it is one of these already imported (sys.modules), and
# never imported by that name (an import runs a module's code here; numpy.f2py.__main__ runs f2py and exits).
SAFE_MODULES = {
    name: importlib.import_module(name)
    for name in ("numpy", "math", "cmath", "random", "itertools", "functools", "collections", "operator", "statistics")
}
SERVE = (  # the execute request of a run of test cells: the kernel side's loader, which takes its code from here
    "exec({loader!r}, {{'__name__': 'softmax_bridge', 'namespace': globals(),"
    " 'address': {address!r}, 'token': {token!r}}})"
)
SOURCE = inspect.getsource(kernelside)
# the loader's first frame: the kernel side, compiled here once (in marshal's form, which the kernel's Python, the
# same, reads), made afresh from it each time
SOURCE_FRAME = kernelside.frame(marshal.dumps(compile(SOURCE, "<string>", "exec")))
INTERRUPT_GRACE = 5.0  # seconds an interrupted kernel gets to answer before it is killed
MAX_ANSWER_BYTES = 2 * kernelside.MAX_ANSWER + 3 * kernelside.MAX_VALUE  # bytes of one answer read from the kernel
# Seconds a request waits for its answer before the event loop takes it over (with the time limit, the kernel's
# liveness and the interrupt): most answers come within a millisecond, and going through the loop costs about
# 0.3 ms of CPU per request, as much as the kernel's own side of it.
DIRECT_WAIT = 0.05
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
        # read from the module's own namespace, already imported: no import, nor a module's __getattr__ (NumPy's
        # imports a submodule it is asked for)
        owner = builtins if module == "builtins" else loaded(module) if module.split(".")[0] == "numpy" else None
        known = vars(owner).get(name) if owner is not None else None
        if isinstance(known, type) and issubclass(known, root):
            if index == 0 and (root is not BaseException or issubclass(known, Exception)):
                return known
            break
    else:
        known = root
    if root is BaseException and not issubclass(known, Exception):
        known = Exception  # a learner's SystemExit must not stop the grader
    return _named(*classes[0], known)


def loaded(name: str) -> types.ModuleType | None:
    """The grading process's own module of that name if it is, or is part of, one of SAFE_MODULES and has been
    imported; else None. Nothing is imported here."""
    module = sys.modules.get(name) if name.split(".")[0] in SAFE_MODULES else None
    return module if isinstance(module, types.ModuleType) else None


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
        error = cls(message)
    except Exception:  # a class whose constructor wants more than a message (NumPy's casting errors)
        error = _named(cls.__module__, cls.__qualname__, cls.__name__, cls)(message)
    return crashes.remember_where(error, raised.get("where"))


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
    """Requests to one running notebook's kernel, each test cell's within that cell's time limit.

    The channel opens when a test cell first needs the kernel: one execute request runs the
    kernel side's loader, which connects to a Unix socket this session listens on (in the
    kernel's own channel folder when it is isolated, else in a private folder), shows the
    request's token, takes the kernel side's code from this session and runs its
    `Bridge.serve`; each request is then one round trip on that socket. `finish` hangs up at
    the end of a run of test cells and waits for the execute request's reply, so the kernel is
    idle again before the next learner cell runs. `close` removes the socket."""

    def __init__(self, client, deadline: float = math.inf):
        self.client, self.deadline, self.codec = client, deadline, Codec()
        self.used_global_random = False  # whether the last watched call drew from the kernel's global random state
        self.killed = False  # whether the kernel was killed at the time limit (it did not answer its interrupt)
        self._listener: socket.socket | None = None
        self._address, self._own_folder = "", ""
        self._channel: socket.socket | None = None  # the kernel side's connection, while it serves
        self._serving: str | None = None  # the msg_id of the execute request that runs its serve loop

    def __enter__(self) -> KernelSession:
        return self

    def __exit__(self, *_) -> None:
        try:
            self.finish()
        finally:
            self.close()

    def begin(self, deadline: float) -> None:
        """Start a test cell that must be done by `deadline` (a time.monotonic() value)."""
        self.deadline, self.killed = deadline, False

    def describe(self, names: list[str]) -> dict:
        """The notebook's current value of each name it has: data as a copy, functions as KernelFunctions."""
        answer = self._evaluate(kernelside.DESCRIBE, json.dumps(sorted(names)))
        found: dict[str, object] = {}
        try:
            for name, item in answer.items():
                if name not in names:
                    continue
                if item[0] == "callable":
                    found[name] = KernelFunction(self, name)
                elif item[0] == "module":  # the grader's own copy, or a stand-in (never imported by its name)
                    module = str(item[1])
                    found[name] = loaded(module) or _stand_in("module")(
                        f"<module {kernelside.clip(module, NAME_LIMIT)}>"
                    )
                else:
                    found[name] = self.codec.read(item)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as problem:
            raise BridgeError(f"the kernel's answer could not be read ({type(problem).__name__})") from None
        return found

    def call(self, name: str, args, kwargs, times: int = 1, watch_random: bool = False):
        """Run name(*args, **kwargs) in the kernel `times` times: ([results], exception or None). With
        `watch_random`, used_global_random says whether the calls drew from the kernel's global random states
        (otherwise it is False)."""
        request = {
            "name": name,
            "args": [self.codec.encode(a) for a in args],
            "kwargs": {k: self.codec.encode(v) for k, v in kwargs.items()},
            "errstate": np.geterr(),
            "times": times,
            "watch_random": watch_random,
        }
        answer = self._evaluate(kernelside.CALL, json.dumps(request))
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

    def finish(self) -> None:
        """Hang up on the kernel side and wait until its serve loop has ended (before the kernel runs anything else)."""
        if self._serving is not None:
            run_sync(self.finished)()

    async def finished(self) -> None:
        """`finish`, for a caller in the event loop."""
        if self._serving is not None:
            await self._finish()

    def close(self) -> None:
        """Remove the socket this session listened on (the notebook's grading is over)."""
        if self._channel is not None:
            self._channel.close()
            self._channel = None
        if self._listener is not None:
            self._listener.close()
            self._listener = None
            with contextlib.suppress(OSError):
                os.unlink(self._address)
        if self._own_folder:
            shutil.rmtree(self._own_folder, ignore_errors=True)
            self._own_folder = ""

    def _evaluate(self, kind: bytes, body: str):
        """The kernel's answer to one request: taken directly when it comes within DIRECT_WAIT (and the cell's
        time), else through the event loop, which goes on with the same exchange."""
        exchange = _Exchange(kernelside.frame(kind + body.encode()))
        wait = min(DIRECT_WAIT, self.deadline - monotonic())
        if self._channel is not None and wait > 0:
            try:
                done = exchange.advance(self._channel, wait)
            except _HungUp:
                raise run_sync(self._hung_up)() from None
            except BaseException:
                self._drop_channel()  # a half-read answer may be left on it
                raise
            if done:
                return _decoded(exchange.answer())
        return run_sync(self._ask)(exchange)

    async def _ask(self, exchange: _Exchange):
        if self._channel is None:
            await self._open()
        finishing = asyncio.ensure_future(self._exchange(exchange))
        try:
            await self._within_limit({finishing})
            text = finishing.result()
        except _HungUp:
            raise await self._hung_up() from None
        except BaseException:
            self._drop_channel()  # a half-read answer may be left on it
            raise
        finally:
            await _cancelled(finishing)
        return _decoded(text)

    async def _open(self) -> None:
        """Run the kernel side's serve loop and take its connection."""
        kc = self.client.kc
        if self._serving is not None:  # a serve loop whose channel broke: let it end first
            await self._finish()
        if self._listener is None:
            self._listen(getattr(self.client.km, "channel_folder", None), getattr(self.client.km, "kernel_uid", None))
        assert self._listener is not None
        token = secrets.token_hex(16)
        self._serving = kc.execute(
            SERVE.format(loader=kernelside.LOADER, address=self._address, token=token), silent=True, store_history=False
        )
        loop = asyncio.get_running_loop()
        reply = asyncio.ensure_future(self._matching(kc, self._serving, math.inf))
        try:
            while True:
                accepted = asyncio.ensure_future(loop.sock_accept(self._listener))
                try:
                    done = await self._within_limit({accepted, reply})
                finally:
                    await _cancelled(accepted)
                if reply in done:
                    self._serving = None
                    raise BridgeError(f"the kernel could not run the grader's request ({_error_name(reply.result())})")
                channel, _ = accepted.result()
                if await self._shows(channel, token):
                    self._channel = channel
                    try:
                        await loop.sock_sendall(channel, SOURCE_FRAME)
                    except OSError:
                        raise await self._hung_up() from None
                    return
                channel.close()
        finally:
            await _cancelled(reply)

    def _listen(self, folder: str | None, group: int | None) -> None:
        """Listen on a socket in `folder`, an isolated kernel's channel folder, that its `group` may connect to;
        else in a private folder. The socket's owner and mode are set by path, which is safe only in a folder
        that no one else can write (no link can take the socket's place): any other folder is refused."""
        if folder is None or group is None:
            folder, group = tempfile.mkdtemp(prefix="softmax-bridge-"), None
            self._own_folder = folder
        owner = os.stat(folder)
        if owner.st_uid != os.geteuid() or owner.st_mode & 0o022:
            raise BridgeError("the grader would not listen in a folder that others can write")
        self._address = os.path.join(folder, "bridge")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._address)
        listener = socket.socket(socket.AF_UNIX)
        listener.setblocking(False)
        listener.bind(self._address)
        if group is not None:
            os.chown(self._address, -1, group)
        os.chmod(self._address, 0o600 if group is None else 0o660)
        listener.listen(8)
        self._listener = listener

    async def _shows(self, channel: socket.socket, token: str) -> bool:
        """Whether the new connection begins with the token (within a second, and the cell's time:
        the kernel side sends it at once)."""
        channel.setblocking(False)
        try:
            limit = max(0.0, min(1.0, self.deadline - monotonic()))
            shown = await asyncio.wait_for(_read(channel, len(token)), timeout=limit)
        except (asyncio.TimeoutError, _HungUp, OSError):
            return False
        return hmac.compare_digest(shown, token.encode("ascii"))

    async def _exchange(self, exchange: _Exchange) -> bytes:
        """The rest of `exchange` (what advance left of it), through the event loop."""
        loop = asyncio.get_running_loop()
        assert self._channel is not None
        try:
            await loop.sock_sendall(self._channel, exchange.unsent)
        except OSError:
            raise _HungUp() from None
        exchange.unsent = memoryview(b"")
        while (missing := exchange.missing()) > 0:
            exchange.received += await _read(self._channel, missing)
        return exchange.answer()

    async def _hung_up(self) -> BridgeError:
        """The kernel side hung up: its serve loop ended (its reply says why), or the kernel died (KernelDied)."""
        reply = await self._finish()
        return BridgeError(f"the kernel stopped answering the grader's requests ({_error_name(reply)})")

    async def _finish(self) -> dict:
        """Hang up, and wait for the serve loop's reply ({} if none came in time)."""
        self._drop_channel()
        serving, self._serving = self._serving, None
        if serving is None:
            return {}
        # A serve loop ends at once when hung up on: it gets a grace period even when the cell's time is up. The
        # cell's own limit stands afterwards (a test cell that follows a timed-out one keeps its full limit, no more).
        deadline, self.deadline = self.deadline, max(self.deadline, monotonic() + INTERRUPT_GRACE)
        reply = asyncio.ensure_future(self._matching(self.client.kc, serving, math.inf))
        try:
            await self._within_limit({reply})
        except CellTimeoutError:
            return {}
        finally:
            self.deadline = deadline
            await _cancelled(reply)
        return reply.result() or {}

    def _drop_channel(self) -> None:
        if self._channel is not None:
            self._channel.close()
            self._channel = None

    async def _within_limit(self, waiting: set) -> set:
        """Wait until one of `waiting` is done (the done ones). At the time limit the kernel is
        interrupted, and killed if it does not answer within INTERRUPT_GRACE; a kernel found dead
        on the way is KernelDied. The caller cancels what is left of `waiting`."""
        kc = self.client.kc
        while True:
            remaining = self.deadline - monotonic()
            if remaining <= 0:
                await ensure_async(self.client.km.interrupt_kernel())
                done, _ = await asyncio.wait(waiting, timeout=INTERRUPT_GRACE, return_when=asyncio.FIRST_COMPLETED)
                if done:
                    raise CellTimeoutError("the learner's code was still running at the time limit and was stopped")
                if not await ensure_async(kc.is_alive()):
                    raise KernelDied("the kernel stopped (it exited or crashed) during a test")
                await stop_kernel(self.client.km)
                self.killed = True
                self._drop_channel()
                self._serving = None
                raise CellTimeoutError(
                    "the learner's code was still running at the time limit and did not stop "
                    f"when interrupted, so its kernel was stopped after {INTERRUPT_GRACE:g} s more"
                )
            done, _ = await asyncio.wait(waiting, timeout=min(1.0, remaining), return_when=asyncio.FIRST_COMPLETED)
            if done:
                return done
            if not await ensure_async(kc.is_alive()):
                self._drop_channel()
                self._serving = None
                raise KernelDied("the kernel stopped (it exited or crashed) during a test")

    @staticmethod
    async def _matching(kc, msg_id: str, until: float):
        """The reply to `msg_id` on the shell channel (others are dropped); None if none came before `until`."""
        while (left := until - monotonic()) > 0:
            try:
                msg = await ensure_async(kc.shell_channel.get_msg(timeout=None if math.isinf(left) else left))
            except Empty:
                return None
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg
        return None


class _HungUp(Exception):
    """The kernel side closed its end of the bridge's socket."""


class _Exchange:
    """One request and its answer on the bridge's socket, as far as they have gone: the request's bytes not sent yet,
    and the answer's frame read so far (its length first, which is checked before the answer is read)."""

    def __init__(self, request: bytes):
        self.unsent = memoryview(request)
        self.received = bytearray()

    def missing(self) -> int:
        """Bytes of the answer's frame still to read (at most a MiB at a time); BridgeError for an answer too large."""
        header = kernelside.FRAME.size
        if len(self.received) < header:
            return header - len(self.received)
        size = kernelside.FRAME.unpack(self.received[:header])[0]
        if size > MAX_ANSWER_BYTES:
            raise BridgeError(f"the kernel's answer was too large ({size:,} bytes)")
        return min(header + size - len(self.received), 1 << 20)

    def answer(self) -> bytes:
        return bytes(self.received[kernelside.FRAME.size :])

    def advance(self, channel: socket.socket, wait: float) -> bool:
        """Send and read what the socket (non-blocking) takes and gives within `wait` seconds; whether the answer is
        all read. _HungUp if the kernel side hung up."""
        until = monotonic() + wait
        poller = select.poll()
        while True:
            try:
                if self.unsent:
                    self.unsent = self.unsent[channel.send(self.unsent) :]
                if not self.unsent:
                    missing = self.missing()
                    if missing == 0:
                        return True
                    chunk = channel.recv(missing)
                    if not chunk:
                        raise _HungUp()
                    self.received += chunk
                    continue
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                raise _HungUp() from None
            left = until - monotonic()
            if left <= 0:
                return False
            poller.register(channel, select.POLLOUT if self.unsent else select.POLLIN)
            poller.poll(left * 1000)
            poller.unregister(channel)


def _decoded(text: bytes):
    """An answer's JSON."""
    try:
        return json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError, MemoryError):
        raise BridgeError("the kernel's answer could not be read") from None


async def _read(channel: socket.socket, size: int) -> bytes:
    """Exactly `size` bytes from the socket (_HungUp if it closes first)."""
    loop = asyncio.get_running_loop()
    data = bytearray()
    while len(data) < size:
        chunk = await loop.sock_recv(channel, min(size - len(data), 1 << 20))
        if not chunk:
            raise _HungUp()
        data += chunk
    return bytes(data)


async def _cancelled(*futures) -> None:
    """Cancel the futures not done and let them end; what the done ones raised is taken (never logged as lost)."""
    for future in futures:
        future.cancel()
    for future in futures:
        with contextlib.suppress(BaseException):
            await future


def _error_name(reply) -> str:
    """The name of the error a reply reports, for a message."""
    content = reply.get("content", {}) if isinstance(reply, dict) else {}
    return kernelside.clip(content.get("ename") or content.get("status") or "no reply", NAME_LIMIT)


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
        """The results of `times` calls made in the kernel in one go, and the error that ended them early; the
        kernel's global random states watched meanwhile (used_global_random)."""
        return self._session.call(self.__name__, args, kwargs, times, watch_random=True)

    @property
    def used_global_random(self) -> bool:
        """Whether the calls of the last `repeat` drew from NumPy's global random state or Python's `random` in the
        kernel (a single call is not watched: the checks watch many calls made together)."""
        return self._session.used_global_random

    def __repr__(self) -> str:
        return f"<function {self.__name__} of the notebook>"
