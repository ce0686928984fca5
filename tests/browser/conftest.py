"""A real JupyterLab, started by `make lab` on a throw-away copy, driven by Debian's chromium.

Each xdist worker starts its own server and browser once and shares them among its tests. The
learner's tests share one loaded JupyterLab tab too (booting JupyterLab's JavaScript was half of
each test's CPU): every test gets it with no document open, no dialog and no kernel running.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.error import URLError

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect, sync_playwright

from grader.course import RELEASE, SOLUTIONS, workspace
from tests.support import COURSE

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = COURSE.root / "artifacts" / "browser"
# What `make lab` needs to run outside the repository.
LAB_FILES = ("Makefile", "requirements.txt", "pyproject.toml", "nbgrader_config.py")
# Kernels answer slowly when other test workers share the cores (a quarter of a core each, say); an expectation
# returns as soon as it holds, so a long limit costs a passing test nothing.
expect.set_options(timeout=60_000)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    """A running Jupyter server: its address, token, the folder it serves and its log."""

    process: subprocess.Popen
    base: str
    token: str
    root: Path
    log: Path

    def url(self, path: str) -> str:
        return f"{self.base}/{path.lstrip('/')}{'&' if '?' in path else '?'}token={self.token}"

    def api(self, path: str, method: str = "GET"):
        """The server's REST API; a DELETE of a session answers once its kernel has stopped, slowly on busy cores."""
        request = urllib.request.Request(self.url(path), method=method)
        with urllib.request.urlopen(request, timeout=60) as response:
            body = response.read()
        return json.loads(body) if body else None

    def stop_kernels(self) -> None:
        """Shut down every notebook session, so kernels do not pile up between tests."""
        for session in self.api("api/sessions"):
            self.api(f"api/sessions/{session['id']}", method="DELETE")

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)


def lab_environment(home: Path) -> dict[str, str]:
    """The environment for a test server: its own JupyterLab settings and workspaces.

    The user's ~/.jupyter stays untouched, and a saved workspace cannot reopen notebooks
    of an earlier test. The news pop-up is turned off so it never covers a button.
    """
    settings = home / "lab-settings"
    notification = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notification.parent.mkdir(parents=True, exist_ok=True)
    notification.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    return {
        **os.environ,
        "JUPYTERLAB_SETTINGS_DIR": str(settings),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "lab-workspaces"),
    }


def lab_tree(folder: Path) -> Path:
    """Give `folder` what `make lab` needs; `.venv` is a link to the repository's."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in LAB_FILES:
        shutil.copy2(COURSE.root / name, folder / name)
    (folder / ".venv").symlink_to(COURSE.root / ".venv")
    (folder / SOLUTIONS).mkdir(exist_ok=True)  # a course directory has one: `make lab`'s workspace step looks
    return folder


def make_lab(folder: Path, target: str = "lab") -> Server:
    """`make <target> HEADLESS=1` in `folder` on a free port with a random token; wait (up to 120 s) until it answers.

    `make lab` serves the learner's working folder (work/), `make lab-instructor` the course directory.
    """
    served = folder / workspace.DEFAULT_FOLDER if target == "lab" else folder
    return started_by_make(["make", target], folder, served, folder / "jupyter-lab.log", cwd=folder)


def started_by_make(command: list[str], home: Path, served: Path, log: Path, cwd: Path | None = None) -> Server:
    """`command` (a make command line, run in `cwd`, default this process's) headless on a free port with a random
    token, its lab settings under `home` and its output in `log`; wait (up to 120 s) until the server answers. `-o`
    tells make to take the linked venv as it is: a test must never rebuild it."""
    port, token = free_port(), secrets.token_hex(16)
    options = ["--no-print-directory", "-o", ".venv/.installed", "HEADLESS=1", f"PORT={port}", f"TOKEN={token}"]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [*command, *options],
            cwd=cwd,
            env=lab_environment(home),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(process, f"http://127.0.0.1:{port}", token, served, log)
    deadline = time.monotonic() + 120
    while True:
        try:
            server.api("api/status")
            return server
        except (URLError, ConnectionError, TimeoutError):
            try:  # ask again in half a second, unless the command ends before
                process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                if time.monotonic() < deadline:
                    continue
            server.stop()
            pytest.fail(f"`{' '.join(command)}` did not start Jupyter:\n{log.read_text()[-3000:]}")


def require_chromium(path: Path = CHROMIUM) -> Path:
    """`path` if it exists; else skip the test, or fail it in CI, where a skip would hide that nothing ran."""
    if not path.exists():
        message = f"{path} is missing: install Debian's chromium (apt-get install chromium) to run the browser tests"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Asked for first by every browser test, so a missing chromium skips (or fails) before any work."""
    return require_chromium()


@pytest.fixture(scope="session")
def lab(tmp_path_factory, chromium) -> Server:
    """JupyterLab as `make lab` starts it, on a throw-away copy of the repository's notebooks/ (copied to work/)."""
    folder = lab_tree(tmp_path_factory.mktemp("lab"))
    shutil.copytree(COURSE.root / RELEASE, folder / RELEASE)
    server = make_lab(folder)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser(chromium):
    """Headless chromium; as root it runs only without its sandbox, and containers have a small /dev/shm."""
    flags = ["--disable-dev-shm-usage"] + (["--no-sandbox"] if os.geteuid() == 0 else [])
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), headless=True, args=flags)
        yield browser
        browser.close()


def fresh_context(browser):
    """A browser context of its own (no cookies or storage of another test, or of another person)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(90_000)  # an action waits for its element: as long as an expectation, and a load
    return context


@pytest.fixture
def tab(browser):
    """A fresh browser tab, in a context of its own."""
    context = fresh_context(browser)
    yield context.new_page()
    context.close()


@pytest.fixture
def fresh_page(tab, lab):
    """A fresh tab for the learners' JupyterLab, for a test of how the lab starts; afterwards every kernel the
    test started is shut down."""
    yield tab
    lab.stop_kernels()


class LabWindow:
    """One tab of the learners' JupyterLab, loaded once and kept from test to test.

    Between tests every document is closed (unsaved changes discarded) and every kernel shut
    down; if that fails, the tab is dropped and the next test loads JupyterLab afresh.
    """

    def __init__(self, browser, lab: Server):
        self.browser, self.lab = browser, lab
        self.context = self.page = None

    def ready(self):
        """The tab, showing JupyterLab with only its Launcher open; loaded now if need be."""
        if self.page is not None and self.clean():
            return self.page
        self.drop()
        self.context = fresh_context(self.browser)
        self.page = self.context.new_page()
        self.page.goto(self.lab.url(f"lab/workspaces/{WORKSPACE}?reset"))
        self.page.locator("#jp-main-statusbar").wait_for()  # the shell is attached once every plugin is active
        self.page.locator("#jupyterlab-splash").wait_for(state="detached")  # the splash goes once it is restored
        expect(self.page.locator(DOCUMENT_TAB)).to_have_count(1)  # what a reset workspace opens: the Launcher
        assert self.clean(), "JupyterLab opened with more than its Launcher"
        return self.page

    def clean(self) -> bool:
        """Whether the tab is still there with no dialog and no document open."""
        try:
            return not self.page.locator(DIALOG).count() and not open_documents(self.page).count()
        except PlaywrightError:
            return False

    def clear(self) -> None:
        """Close every document, then shut down every kernel; drop the tab if it will not come clean."""
        try:
            if self.page is not None:
                close_all_documents(self.page)
        except (PlaywrightError, AssertionError):
            self.drop()
        finally:
            self.lab.stop_kernels()

    def drop(self) -> None:
        if self.context is not None:
            self.context.close()
        self.context = self.page = None


# The shared tab's workspace of its own: JupyterLab saves the tab's layout there, and the default workspace,
# which `make lab`'s address opens, never holds a notebook of another test.
WORKSPACE = "tests"
DIALOG = ".jp-Dialog"
DOCUMENT_TAB = ".lm-DockPanel-tabBar .lm-TabBar-tab"
LAUNCHER = "Launcher"  # the tab JupyterLab shows whenever its main area has nothing else


def open_documents(page):
    """The main area's tabs but the Launcher."""
    return page.locator(DOCUMENT_TAB).filter(has_not_text=LAUNCHER)


def close_all_documents(page) -> None:
    """Close whatever a test left open (a dialog, a menu) and every document, as a learner would: Escape,
    File > Close All Tabs, and Discard for each notebook with unsaved changes."""
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    if not open_documents(page).count():
        return
    page.get_by_role("menuitem", name="File", exact=True).click()
    page.get_by_role("menuitem", name="Close All Tabs", exact=True).click()
    discard = page.locator(DIALOG).get_by_role("button", name="Discard")
    for _ in range(20):
        # wait until only the Launcher is left, or a dialog asks whether to save a notebook
        page.wait_for_function(
            """([tab, dialog, launcher]) => document.querySelector(dialog)
                || [...document.querySelectorAll(tab)].every(t => t.textContent.trim() === launcher)""",
            arg=[DOCUMENT_TAB, DIALOG, LAUNCHER],
            polling=100,
            timeout=30_000,
        )
        if not discard.count():
            break
        discard.click()
        expect(page.locator(DIALOG)).to_have_count(0)
    expect(page.locator(DIALOG)).to_have_count(0)
    expect(open_documents(page)).to_have_count(0)


@pytest.fixture(scope="session")
def lab_window(browser, lab):
    window = LabWindow(browser, lab)
    yield window
    window.drop()


@pytest.fixture
def page(lab_window):
    """The learners' JupyterLab, loaded, with no document open and no kernel running; left so afterwards."""
    yield lab_window.ready()
    lab_window.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that fails leaves what its tab showed then, as artifacts/browser/failed-<test>.png, and its
    report the end of the learners' lab's log: a failure seen once in many runs is read there."""
    report = yield
    if not (report.failed and call.when == "call"):
        return report
    tab = next((item.funcargs[name] for name in ("page", "tab", "fresh_page") if name in item.funcargs), None)
    if tab is not None:
        try:
            report.sections.append(
                ("screenshot", str(screenshot(tab, "failed-" + re.sub(r"[^\w.-]+", "-", item.name))))
            )
        except PlaywrightError:
            pass  # the tab is gone
    if isinstance(item.funcargs.get("lab"), Server):
        report.sections.append(("the lab's log, its end", item.funcargs["lab"].log.read_text(errors="replace")[-5000:]))
    return report


def screenshot(page, name: str, element=None, folder: Path = ARTIFACTS) -> Path:
    """Save what the browser shows now (or just `element`) as <folder>/<name>.png (artifacts/browser/ unless told)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    (element or page).screenshot(path=str(path))
    return path
