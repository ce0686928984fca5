"""What the first failing check told an outside entry: its own mistake, a property it breaks, a mistake it does not
make, or nothing.

An entry's first failure is the first failed test of its function in notebook order, the one a learner reads
first. Its diagnosis is judged from what that test recorded: the catalogued mistakes its check named (the engine's
`TestResult.mistakes`, and any catalogued description its message quotes) and the properties of the contract its
message names (`names_property`).
"""

from __future__ import annotations

import re

# the diagnoses, best first; "wrong" is a catalogued mistake the entry does not make
MISTAKE, PROPERTY, WRONG, NEITHER = "mistake", "property", "wrong", "neither"
DIAGNOSES = (MISTAKE, PROPERTY, WRONG, NEITHER)
RIGHT = (MISTAKE, PROPERTY)


def _words(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9_\-+.]+", text.lower()))


def names_property(message: str, pid: str, text: str) -> bool:
    """Whether `message` names the contract property `pid` (defined by `text`, as its hidden tests declare it).

    It does when it carries the id as a tag, "property shift", "[shift]" or "(property: shift)", or when it
    quotes the words of the property's first clause (the definition up to its first colon, semicolon or comma,
    three words at least), case, punctuation and spacing aside.
    """
    lowered = message.lower()
    if re.search(rf"\bpropert(?:y|ies)\W{{1,3}}(?:\w+\W+){{0,3}}?{re.escape(pid)}\b", lowered):
        return True
    if re.search(rf"\[{re.escape(pid)}\]", lowered):
        return True
    clause = _words(re.split(r"[:;,]", text, maxsplit=1)[0])
    return len(clause.split()) >= 3 and clause in _words(message)


def diagnose(message: str, named: list[str], names: tuple[str, ...], breaks: dict[str, str]) -> str:
    """The diagnosis of one first failure: `named` are the catalogued mistakes it named, `names` the ones that
    describe the entry's mistake, `breaks` {property id: its text} for the properties the entry breaks.

    A named mistake among `names` is the mistake; a named mistake that is not is a wrong diagnosis (whatever else
    the message says, it points the learner at code they did not write); else a property it breaks, else neither.
    """
    if any(m in names for m in named):
        return MISTAKE
    if named:
        return WRONG
    if any(names_property(message, pid, text) for pid, text in breaks.items()):
        return PROPERTY
    return NEITHER
