"""The outside corpus: implementations of the graded functions taken from public repositories, code nobody on
the team wrote, each with its verdict by the contract (docs/COURSE.md), to measure the tests and their messages
on real code (`python -m grader prove --entries grader/proof/outside/corpus.py`).

Each lesson has a module `lesson_NN.py` naming its `LESSON` and holding `OUTSIDE`, a list of `OutsideEntry`.
An entry's source is the original's body, bugs included, with only its name and signature adapted to the graded
function's (and, where the original used another library's alias, that alias pointed at NumPy); `note` says
what was adapted. Its verdict was judged by hand, reading the code against the contract; `names` are the
catalogued misconceptions that describe its mistake, `breaks` the contract's properties it breaks.

These are small test fixtures with their origin and licence recorded; like the alternatives, they live in the
proof room, which no learner's kernel sees.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from grader.learner import hints

VERDICTS = ("correct", "wrong")
# what `licence` says when the repository's stored copy holds no LICENSE file: the code is public but not licensed
# for reuse; these entries are kept as small test fixtures that quote it with its origin
NO_LICENCE = "no LICENSE file found in the repository"


@dataclass(frozen=True)
class OutsideEntry:
    """One public implementation of `function`, adapted in name and signature only, and its verdict."""

    id: str
    function: str
    source: str
    origin: str  # the file's address: https://github.com/OWNER/REPO/blob/COMMIT/PATH (HEAD when no commit is known)
    verdict: str  # "correct" or "wrong", by the contract, judged by hand
    mistake: str = ""  # for a wrong one: what it does wrong, in words
    names: tuple[str, ...] = ()  # the catalogued misconceptions that describe its mistake
    breaks: tuple[str, ...] = ()  # the contract's properties it breaks
    note: str = ""  # what was adapted besides the name and the signature, and anything else worth knowing
    licence: str = ""  # the repository's licence, as its LICENSE file says, or NO_LICENCE

    @property
    def description(self) -> str:
        """What prove's tables show for it: its mistake, or that it is correct."""
        return self.mistake or "correct by the contract"

    @property
    def kind(self) -> str:
        """prove's kind: a wrong entry must lose points like a misconception, a correct one keep full marks."""
        return "misconception" if self.verdict == "wrong" else "alternative"

    @property
    def repository(self) -> str:
        """OWNER/REPO, read from the origin."""
        return "/".join(self.origin.split("/")[3:5])


def github(repo: str, path: str, commit: str = "") -> str:
    """The address of `path` in `repo` at `commit` (or at HEAD when the index gave no commit)."""
    return f"https://github.com/{repo}/blob/{commit or 'HEAD'}/{path}"


@functools.cache
def lessons() -> dict:
    """Lesson id -> its module of outside entries, in course order."""
    return hints.lesson_modules(__name__, __path__)


def corpus(lesson: str | None = None) -> list[OutsideEntry]:
    """Every outside entry, optionally of one lesson."""
    return [e for lid, module in lessons().items() if lesson in (None, lid) for e in module.OUTSIDE]


def lesson_of(entry: OutsideEntry) -> str:
    """The lesson whose module holds `entry`."""
    for lid, module in lessons().items():
        if entry in module.OUTSIDE:
            return lid
    raise KeyError(entry.id)
