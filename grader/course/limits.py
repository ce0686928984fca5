"""What one grading may use: each cell's seconds, the whole notebook's, its kernel's memory. Their defaults are here.

A course sets them in its nbgrader_config.py, and `check`, `grade` (here or on a cluster's workers) and whatever
else grades for the course read them from there (Course.limits); a command-line option replaces one only when
it is given (Limits.given):

    c.Execute.timeout = 30                  # seconds each cell may run (nbgrader's own setting); --timeout
    c.GradingLimits.notebook_timeout = 300  # seconds the whole notebook may run (0: no limit); --notebook-timeout
    c.GradingLimits.memory = 2048           # megabytes its kernel may use; --memory
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from traitlets import Float, Int, TraitError
from traitlets.config import Config, Configurable

CELL_SECONDS = 30  # nbgrader's own default for c.Execute.timeout
# The notebook's time limit, in cell limits, unless set: an ordinary lesson takes a small part of one cell limit
# in all, and a function of the learner's that runs into the limit in every cell that calls it (up to nine)
# still leaves the rest of the notebook graded.
NOTEBOOK_TIMES = 10
MEMORY_MB = 2048


class GradingLimits(Configurable):
    """The grading's limits nbgrader has no setting for, as a course's nbgrader_config.py sets them."""

    notebook_timeout = Float(
        None,
        allow_none=True,
        min=0,
        help=f"Seconds the whole notebook may run, its kernel's start included; the cells left are not run "
        f"(None: {NOTEBOOK_TIMES} times c.Execute.timeout; 0: no limit).",
    ).tag(config=True)
    memory = Int(MEMORY_MB, min=1, help="Megabytes each grading kernel may use.").tag(config=True)


@dataclass(frozen=True)
class Limits:
    """The limits of one grading, as one value: built once (from the course, then the command line) and handed on."""

    cell_seconds: int | None = CELL_SECONDS  # None: no limit
    notebook_seconds: float | None = None  # None: NOTEBOOK_TIMES × cell_seconds; 0: no limit
    memory_mb: int = MEMORY_MB

    @classmethod
    def from_config(cls, config: Config) -> Limits:
        """The limits a course's nbgrader settings set, each one they leave out at its default; TraitError for a
        setting that is no limit."""
        execute = config.Execute if "Execute" in config else Config()
        cell = execute.get("timeout", CELL_SECONDS)
        if cell is not None and (isinstance(cell, bool) or not isinstance(cell, int)):  # as nbgrader's Integer
            raise TraitError(f"c.Execute.timeout is whole seconds or None, not {cell!r}")
        grading = GradingLimits(config=config)
        return cls(cell, grading.notebook_timeout, grading.memory)

    def given(
        self, cell_seconds: int | None = None, notebook_seconds: float | None = None, memory_mb: int | None = None
    ) -> Limits:
        """These limits with each one given (not None) in its place: the command line's options."""
        return Limits(
            self.cell_seconds if cell_seconds is None else cell_seconds,
            self.notebook_seconds if notebook_seconds is None else notebook_seconds,
            self.memory_mb if memory_mb is None else memory_mb,
        )

    def as_data(self) -> dict:
        """JSON-able data, to cross to a cluster's worker."""
        return dataclasses.asdict(self)

    @classmethod
    def from_data(cls, data: dict) -> Limits:
        """The limits back from as_data's output."""
        return cls(**data)
