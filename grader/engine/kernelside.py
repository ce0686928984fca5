"""The half of the grading bridge that runs inside the learner's kernel (see grader.engine.bridge).

During grading the test cells run in the grading process, not in the kernel. This file is
sent to the kernel as source text and gives it two requests: "what are these names?" and
"call this function with these arguments". For each run of test cells the grader sends one
execute request that runs LOADER, which connects to a Unix socket the grader listens on, takes
this file's code from there and runs `Bridge.serve`, which answers these requests until the grader
hangs up: one socket round trip per request instead of a Jupyter execute request each.
Everything crosses as JSON with arrays in NumPy's .npy format (never pickle), so nothing the
learner's code builds can run in the grader. The same Codec decodes on both sides; it needs
only the standard library and NumPy. Whatever the learner's function returns, the answer
stays bounded (MAX_VALUE, MAX_ANSWER).
"""

import base64
import io
import json
import struct
import types
import warnings

import numpy as np

from grader.learner import crashes
from grader.learner.streams import FORMULAS, Formula, OnePass, random_states

MAX_VALUE = 4 * 2**20  # characters of one encoded value: a softmax lesson's largest answers are ~0.5 MB
MAX_ANSWER = 16 * 2**20  # characters of all the results of one request together
NAME_LIMIT = 200  # characters of a class's module or name
MESSAGE_LIMIT = 2000  # characters of an exception's or a warning's message
FRAME = struct.Struct("!Q")  # what precedes each request and answer on the bridge's socket: its length in bytes
DESCRIBE, CALL = b"d", b"c"  # a request's first byte: which of Bridge's methods answers it
# the bit generators a random generator may cross with (a state names its own, and the other side makes one)
BIT_GENERATORS = {
    bits.__name__: bits
    for bits in (np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937, np.random.Philox, np.random.SFC64)
}
# What the grader's execute request runs, in a namespace of its own that holds `namespace` (the notebook's),
# `address` and `token`: it connects, shows the token, takes this file's code as the first frame, runs it
# there and serves. Short, so that IPython's input transforms and ipykernel's cell hash (pure Python) cost
# little; this file's code comes compiled (marshal's form, from the grading process of the same Python: a
# tenth of the time compiling its source took, for each run of test cells).
LOADER = """
import marshal, socket, struct
with socket.socket(socket.AF_UNIX) as channel:
    channel.connect(address)
    channel.sendall(token.encode("ascii"))
    size = struct.unpack("!Q", channel.recv(8, socket.MSG_WAITALL))[0]
    exec(marshal.loads(channel.recv(size, socket.MSG_WAITALL)), globals())
    Bridge(namespace).serve(channel)
"""


class Codec:
    """Plain data to JSON and back: arrays, numbers, strings, lists, tuples, dicts, random generators, streams,
    formulas (a Formula by its name, shape and numbers: the other side builds it from its own list)."""

    array_limit = MAX_VALUE  # bytes of an array sent as data; a larger one is described, not sent

    def encode(self, value, depth=0):
        if depth > 20:
            return ["opaque", {"type": "deeply nested data", "repr": ""}]
        if value is None or type(value) in (bool, int, float, str):
            return ["py", value]
        if type(value) is OnePass:
            return [
                "stream",
                {"reuse_buffer": value.reuse_buffer, "read": value.read},
                [self.encode(c, depth + 1) for c in value.chunks],
            ]
        if type(value) is Formula:
            about = {"name": value.name, "shape": list(value.shape)}
            return ["formula", about, [self.encode(n, depth + 1) for n in value.numbers]]
        if isinstance(value, (np.ndarray, np.generic)):
            return self._array(value)
        if type(value) in (list, tuple):
            return [type(value).__name__, [self.encode(item, depth + 1) for item in value]]
        if type(value) is dict:
            return ["dict", [[self.encode(k, depth + 1), self.encode(v, depth + 1)] for k, v in value.items()]]
        if type(value) is np.random.Generator:
            return ["rng", value.bit_generator.state]
        if isinstance(value, types.ModuleType):
            return ["module", value.__name__]
        if callable(value):
            return ["callable"]
        return ["opaque", {"type": type(value).__name__, "repr": _short(value)}]

    def _array(self, value):
        array = np.asarray(value)
        if array.nbytes > self.array_limit:
            return _too_large(value, f"{array.nbytes:,} bytes", self.array_limit)
        if array.dtype.hasobject:
            return ["opaque", {"type": type(value).__name__, "repr": _short(value)}]
        kind = "scalar" if isinstance(value, np.generic) else "array"
        return [
            kind,
            base64.b64encode(npy_bytes(array)).decode("ascii"),
            {
                "subclass": "" if type(value) is np.ndarray or kind == "scalar" else type(value).__name__,
                "readonly": kind == "array" and not value.flags.writeable,
            },
        ]

    def decode(self, item, opaque=None):
        """The value an encoded item stands for; `opaque` builds a stand-in for anything else."""
        tag = item[0]
        if tag == "py":
            return item[1]
        if tag in ("array", "scalar"):
            array = npy_array(base64.b64decode(item[1]))
            if tag == "scalar":
                return array[()]
            if item[2].get("readonly"):
                array.flags.writeable = False
            return array
        if tag in ("list", "tuple", "iter"):
            items = [self.decode(i, opaque) for i in item[1]]
            return tuple(items) if tag == "tuple" else iter(items) if tag == "iter" else items
        if tag == "dict":
            return {self.decode(k, opaque): self.decode(v, opaque) for k, v in item[1]}
        if tag == "stream":
            stream = OnePass([self.decode(c, opaque) for c in item[2]], item[1].get("reuse_buffer"))
            stream.read = int(item[1].get("read", 0))
            return stream
        if tag == "formula" and item[1].get("name") in FORMULAS:
            return Formula(item[1]["name"], item[1].get("shape", ()), *[self.decode(n) for n in item[2]])
        if tag == "rng":
            bits = BIT_GENERATORS[item[1]["bit_generator"]]()  # by name from this list only: nothing else is called
            bits.state = item[1]
            return np.random.Generator(bits)
        return opaque(item) if opaque is not None else None


# .npy headers, as NumPy writes and reads them, kept per distinct header: the arrays a bridge sends have a few shapes
# and dtypes, and a header (written from a dict's repr, read by ast.literal_eval) was most of the time np.save and
# np.load took for a small array. Kept only for C-ordered arrays of plain dtypes, with the data straight after.
PLAIN_KINDS = "biufc"  # booleans, integers, floats, complex: a dtype's str says all of it ("<f8")
NPY_HEADERS_KEPT = 256  # distinct headers each side keeps, oldest dropped first
NPY_HEADER_BYTES = 512  # bytes of the longest header kept (np.save writes 128 for an array of a plain dtype)
NPY_VERSION_1 = b"\x93NUMPY\x01\x00"  # the start of a .npy file of version 1.0, whose header's length follows
_headers_written: dict = {}  # (dtype.str, shape) -> what np.save wrote before the data
_headers_read: dict = {}  # what np.load read before the data -> (dtype, shape, count) as NumPy's own reader read it


def _keep(kept, key, value):
    if len(kept) >= NPY_HEADERS_KEPT:
        del kept[next(iter(kept))]
    kept[key] = value


def npy_bytes(array):
    """np.save's bytes of `array` (never pickle), in C order."""
    key = (array.dtype.str, array.shape) if array.dtype.kind in PLAIN_KINDS else None
    header = _headers_written.get(key) if key is not None else None
    if header is not None:
        return header + array.tobytes(order="C")
    buffer = io.BytesIO()
    copy = np.array(array, copy=True, order="C")
    np.save(buffer, copy, allow_pickle=False)
    data = buffer.getvalue()
    if key is not None:
        _keep(_headers_written, key, data[: len(data) - copy.nbytes])
    return data


def npy_array(data):
    """np.load's array from .npy bytes (never pickle; a ValueError for bytes it refuses): an array of its own,
    writable."""
    end = 10 + int.from_bytes(data[8:10], "little") if data[:8] == NPY_VERSION_1 else 0
    known = _headers_read.get(data[:end]) if 10 < end <= min(len(data), NPY_HEADER_BYTES) else None
    if known is not None:
        dtype, shape, count = known
        return np.frombuffer(data, dtype=dtype, count=count, offset=end).copy().reshape(shape)
    array = np.load(io.BytesIO(data), allow_pickle=False)
    if 10 < end <= min(len(data), NPY_HEADER_BYTES):
        stream = io.BytesIO(data[:end])
        np.lib.format.read_magic(stream)
        shape, fortran_order, dtype = np.lib.format.read_array_header_1_0(stream)
        if not fortran_order and dtype.kind in PLAIN_KINDS and array.size > 0 and stream.tell() == end:
            _keep(_headers_read, data[:end], (dtype, shape, array.size))
    return array


def bounded(encoded, value, limit=MAX_VALUE):
    """`encoded` (the encoding of `value`), or a stand-in when it takes more than `limit` characters as JSON."""
    size = len(json.dumps(encoded))
    return encoded if size <= limit else _too_large(value, f"{size:,} characters encoded", max(limit, 0))


def _too_large(value, size, limit=MAX_VALUE):
    return [
        "opaque",
        {
            "type": clip(type(value).__name__, NAME_LIMIT),
            "too_large": True,
            "repr": f"too large to compare ({size}, more than the {limit:,} allowed)",
        },
    ]


def _short(value):
    try:
        return clip(repr(value), 200)
    except Exception:
        return "<no repr>"


def clip(text, limit=MESSAGE_LIMIT):
    """`text` in about `limit` characters; a clipped text says so."""
    text = str(text)
    return text if len(text) <= limit else f"{text[:limit]} [... clipped: {len(text) - limit:,} more characters]"


def _message(thing):
    try:
        return clip(str(thing))
    except Exception:
        return "<a message that could not be read>"


def describe_error(error):
    """An exception as data: its classes (module, name), innermost first, its message, and the learner's line that
    raised it (function, line number, text, file: plain strings and a number, see grader.learner.crashes)."""
    try:
        where = crashes.raised_at(error)
    except Exception:  # a traceback that cannot be read: the message shows no line
        where = None
    return {"classes": _classes(type(error)), "message": _message(error), "where": where and list(where)}


def _classes(cls):
    """(module, qualified name, name) of a class and its first bases, innermost first, names clipped."""
    return [
        [clip(getattr(c, "__module__", ""), NAME_LIMIT), clip(c.__qualname__, NAME_LIMIT), clip(c.__name__, NAME_LIMIT)]
        for c in cls.__mro__[:20]
    ]


class Bridge(Codec):
    """The kernel's side: answer the grader's requests about the notebook's namespace."""

    def __init__(self, namespace):
        self.namespace = namespace

    def serve(self, channel):
        """Answer the grader's requests on `channel` (a connected Unix socket) until the grader hangs up."""
        while True:
            request = receive_frame(channel)
            if request is None:
                return
            answer = (self.describe if request[:1] == DESCRIBE else self.call)(request[1:].decode())
            channel.sendall(frame(answer.encode()))

    def describe(self, request):
        """What each requested name holds now: data (encoded), a function, a module, or nothing."""
        found = {}
        for name in json.loads(request):
            if name in self.namespace:
                try:
                    found[name] = bounded(self.encode(self.namespace[name]), self.namespace[name])
                except Exception as error:
                    found[name] = ["opaque", {"type": type(error).__name__, "repr": "could not be read"}]
        return json.dumps(found)

    def call(self, request):
        """Call a function of the notebook `times` times; report results, error, warnings, arguments after."""
        request = json.loads(request)
        fn = self.namespace.get(request["name"])
        args = [self.decode(a) for a in request["args"]]
        kwargs = {k: self.decode(v) for k, v in request["kwargs"].items()}
        results, raised, left = [], None, MAX_ANSWER
        watched = request.get("watch_random") is True  # only when asked: reading the states takes ~80 us
        random_before = random_states() if watched else None
        with warnings.catch_warnings(record=True) as caught, np.errstate(**request["errstate"]):
            warnings.simplefilter("always")
            try:
                for _ in range(request["times"]):
                    value = fn(*args, **kwargs)
                    results.append(bounded(self.encode(value), value, min(MAX_VALUE, left)))
                    left -= len(json.dumps(results[-1]))
            except BaseException as error:  # the learner's error (or the grader's interrupt), as data
                raised = describe_error(error)
        warned = [{"classes": _classes(w.category), "message": _message(w.message)} for w in caught[:20]]
        return json.dumps(
            {
                "results": results,
                "raised": raised,
                "warnings": warned,
                "global_random": watched and random_states() != random_before,
                "args": [bounded(self.encode(a), a) for a in args],
                "kwargs": {k: bounded(self.encode(v), v) for k, v in kwargs.items()},
            }
        )


def frame(data):
    """`data` as it goes on the bridge's socket: its length, then itself."""
    return FRAME.pack(len(data)) + data


def receive_frame(channel):
    """The next request on the socket; None once the grader has hung up."""
    header = _exactly(channel, FRAME.size)
    return None if header is None else _exactly(channel, FRAME.unpack(header)[0])


def _exactly(channel, size):
    data = bytearray()
    while len(data) < size:
        chunk = channel.recv(min(size - len(data), 1 << 20))
        if not chunk:
            return None
        data += chunk
    return bytes(data)
