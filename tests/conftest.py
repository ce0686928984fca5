"""Fixtures and hypothesis profiles, registered for every test; the helpers tests share are in tests/support.py."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import settings

from tests.support import grade_every_lesson, once_per_run, prove_everything, read_lesson_reports


def pytest_configure(config):
    """Kernels run beside the property tests, so time per example means nothing; in CI, the same examples every run."""
    settings.register_profile("course", deadline=None)
    settings.register_profile("ci", deadline=None, derandomize=True)
    settings.load_profile("ci" if os.environ.get("CI") else "course")


@pytest.fixture(scope="session")
def lesson_reports(tmp_path_factory):
    """lesson -> reference / stub / deleted -> Report: every lesson's notebooks graded once per run, in one batch."""
    return read_lesson_reports(once_per_run(tmp_path_factory, "lesson-reports", grade_every_lesson))


@pytest.fixture(scope="session")
def proofs(tmp_path_factory) -> dict:
    """Every entry's and mutant's proof, from one run of `grader prove --mutate` shared by all workers."""
    return json.loads((once_per_run(tmp_path_factory, "prove", prove_everything) / "proofs.json").read_text())


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items):
    """The tests that read the one `grader prove` run are marked `proof` (`make test-proof` runs them, `make test`
    the rest), and go to one xdist worker (with --dist loadgroup), so no other worker waits for that run."""
    for item in items:
        if "proofs" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.proof)
            item.add_marker(pytest.mark.xdist_group("prove"))
