"""Fixtures and hypothesis profiles, registered for every test; the helpers tests share are in tests/support.py."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import settings

import grader  # noqa: F401  # first: it keeps nbformat's import from compiling a grammar no test needs (grader/__init__.py)
from grader.engine import warmkernel
from tests.support import graded_lessons, once_per_run, prove_everything


def pytest_configure(config):
    """Kernels run beside the property tests, so time per example means nothing; in CI, the same examples every run.

    One kernel zygote for the whole run, started here in pytest's first process before it starts its xdist
    workers: they and every command they start find it in the environment (warmkernel.ensure_zygote), as a
    grading process's children do, instead of each importing a zygote of its own (about a CPU-second each). A test
    about a zygote's own life starts its own (test_warmkernel, test_confinement, test_benchmarks)."""
    settings.register_profile("course", deadline=None)
    settings.register_profile("ci", deadline=None, derandomize=True)
    settings.load_profile("ci" if os.environ.get("CI") else "course")
    warmkernel.ensure_zygote()  # in an xdist worker, the first process's is there already


def pytest_ignore_collect(collection_path, config):
    """Under `-m fast` alone (make test-fast), a test module that names no fast mark is not even imported: importing
    the whole suite to find the fast tests costs each worker more than most of them take to run."""
    if config.getoption("markexpr") == "fast" and collection_path.name.startswith("test_"):
        if collection_path.suffix == ".py" and "pytest.mark.fast" not in collection_path.read_text():
            return True
    return None  # pytest's own rules


@pytest.fixture(scope="session")
def lesson_reports(tmp_path_factory):
    """lesson -> reference / stub / deleted -> Report: every lesson's notebooks graded once per run, in one batch."""
    return graded_lessons(tmp_path_factory)


@pytest.fixture(scope="session")
def proofs(tmp_path_factory) -> dict:
    """Every entry's and mutant's proof, from one run of `grader prove --mutate` shared by all workers."""
    return json.loads((once_per_run(tmp_path_factory, "prove", prove_everything) / "proofs.json").read_text())


# The builds made once per run (tests.support.once_per_run), by the fixture that reads them, and the browser
# tests' JupyterLab and chromium (session fixtures: each worker that ran a test of them would start its own). A
# module whose fixture has a name this common says instead `pytestmark = pytest.mark.xdist_group(<build>)`, as does
# a module whose module-scoped fixture several tests take (each worker would build it again; tests/unit/test_suite.py).
SHARED_BUILDS = {
    "proofs": "prove",
    "lesson_reports": "lesson-reports",
    "source_reports": "source-reports",
    "learner_venv": "learner-install",
    "grader_venv": "grader-install",
    "demo": "demo",
    "demo_class": "demo",
    "lab": "learner-lab-browser",
    "browser": "learner-lab-browser",  # chromium, started once: every browser test but the demo's goes with the lab's
    "hub": "hub",  # tests/hub: the one JupyterHub of a run
}


def shared_build(item) -> str | None:
    """The xdist group of a test: the shared build it reads, or its module's group; None for neither."""
    for fixture, group in SHARED_BUILDS.items():
        if fixture in getattr(item, "fixturenames", ()):
            return group
    marker = item.get_closest_marker("xdist_group")
    return marker.args[0] if marker and marker.args else None


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items):
    """Tests that read one build (a graded class, an installed venv, the `grader prove` run) go to one xdist
    worker (`--dist loadgroup`), so no other worker waits on the build's lock while it could run other tests;
    they come first, so that no large group is left for the end of the run while the other workers idle.
    The tests that read the `grader prove` run are also marked `proof` (`make test-proof` runs them, `make test`
    the rest)."""
    grouped = set()
    for item in items:
        group = shared_build(item)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
            grouped.add(item.nodeid)
        if "proofs" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.proof)
    items.sort(key=lambda item: item.nodeid not in grouped)
