"""The journey tests (`make test-journey`, marker `journey`): the docs' commands typed as written in a fresh clone,
and what the user then looks at, in a terminal or in Chromium (tests/journey/newcomer.py: the clone, its venv, the
terminal)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.browser.conftest import chromium  # noqa: F401 (Debian's chromium, or a skip that fails in CI)
from tests.journey.newcomer import clone_of_head, venv_in

SCREEN = {"width": 1280, "height": 800}  # the first screen a screenshot keeps


@pytest.fixture
def clone(tmp_path) -> Iterator[Path]:
    """A fresh clone of this checkout's HEAD, with this checkout's venv in it."""
    with venv_in(clone_of_head(tmp_path / "softmax")) as venv:
        yield venv.parent


@pytest.fixture
def page(chromium):  # noqa: F811 (the fixture imported above)
    """A tab of headless chromium (without its sandbox as root) that may write to the clipboard, as a learner's
    copy and paste does."""
    flags = ["--disable-dev-shm-usage"] + (["--no-sandbox"] if os.geteuid() == 0 else [])
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), headless=True, args=flags)
        context = browser.new_context(viewport=SCREEN)
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        context.set_default_timeout(60_000)
        yield context.new_page()
        browser.close()
