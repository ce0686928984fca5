"""The lab a learner gets from `make lab`: it opens at lesson 01, shows none of the instructor's nbgrader tools,
and an untouched lesson closes without asking to be saved; and the browser tests' open_notebook returns a long
lesson with all its cells in the page, even when the browser is slow."""

import re
import shutil

import nbformat
import pytest
from playwright.sync_api import expect

from grader.course import RELEASE
from tests.browser.conftest import lab_tree, make_lab, screenshot
from tests.browser.jupyterlab import KERNEL_IDLE, KernelInfoWatch, open_notebook, solved_lesson
from tests.support import COURSE

FIRST = COURSE.lesson_ids()[0]
CREATE_ASSIGNMENT = "Nbgrader Create Assignment"


def test_make_lab_lands_on_lesson_01(fresh_page, lab):
    page = fresh_page
    page.goto(lab.url(""))  # the address `make lab` prints, less its path: where the server sends a browser
    expect(page).to_have_url(re.compile(rf"/lab/tree/{FIRST}/{FIRST}\.ipynb"))
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    expect(panel).to_contain_text("Lesson 01")
    expect(page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")).to_contain_text(f"{FIRST}.ipynb")
    expect(page.locator("#jp-main-statusbar")).to_contain_text(KERNEL_IDLE, timeout=120_000)
    screenshot(page, "lab-learner-lesson-01")


def test_the_learner_sees_no_instructor_tools(page, lab):
    open_notebook(page, lab, f"{FIRST}/{FIRST}.ipynb")
    # No Create Assignment sidebar (its tab in the right-hand bar has this title).
    expect(page.get_by_title(CREATE_ASSIGNMENT)).to_have_count(0)
    # The Validate button, which is the learner's, is there.
    expect(page.get_by_role("button", name="Validate")).to_be_visible()
    # The Nbgrader menu keeps the learner's Assignment List only: no Formgrader, no Course List.
    page.get_by_role("menuitem", name="Nbgrader", exact=True).click()
    menu = page.locator(".lm-Menu")
    expect(menu.get_by_text("Assignment List", exact=True)).to_be_visible()
    screenshot(page, "lab-learner-nbgrader-menu")
    for tool in ("Formgrader", "Formgrader (local)", "Course List"):
        expect(menu.get_by_text(tool, exact=True)).to_have_count(0)
    page.keyboard.press("Escape")


def test_an_untouched_lesson_closes_without_a_save_prompt(page, lab):
    lesson = COURSE.lesson_ids()[2]
    before = (lab.root / lesson / f"{lesson}.ipynb").read_bytes()
    kernel_info = KernelInfoWatch(page)
    open_notebook(page, lab, f"{lesson}/{lesson}.ipynb")
    tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
    expect(tab).to_contain_text(f"{lesson}.ipynb")
    kernel_info.wait()  # the kernel's info has reached the notebook, which would mark it changed then
    expect(tab).not_to_have_class(re.compile(r"\bjp-mod-dirty\b"))
    screenshot(page, "lab-learner-untouched-lesson")
    tab.locator(".lm-TabBar-tabCloseIcon").click()
    expect(page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab", has_text=f"{lesson}.ipynb")).to_have_count(0)
    expect(page.locator(".jp-Dialog")).to_have_count(0)
    screenshot(page, "lab-learner-closed-without-prompt")
    assert (lab.root / lesson / f"{lesson}.ipynb").read_bytes() == before


def test_a_long_lesson_is_all_in_the_page_once_opened_even_by_a_slow_browser(page, lab):
    """open_notebook waits for every cell: JupyterLab adds a long notebook's cells a few at a time, and a run
    judged by the prompts in the page was over too soon (with the page's CPU six times slower, 6 of lesson 04's
    74 cells were there when its kernel was idle)."""
    path = solved_lesson(lab, "04_temperature")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 6})
    try:
        panel = open_notebook(page, lab, path)
        assert panel.locator(".jp-Cell").count() == len(nbformat.read(lab.root / path, as_version=4).cells)
    finally:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        cdp.detach()


@pytest.fixture
def instructor_lab(tmp_path, chromium):
    folder = lab_tree(tmp_path / "course")
    shutil.copytree(COURSE.root / RELEASE, folder / RELEASE)
    server = make_lab(folder, target="lab-instructor")
    yield server
    server.stop()


def test_make_lab_instructor_shows_the_instructor_tools(tab, instructor_lab):
    """The same checks as the learner's, turned round: the tools are there, so their absence above means something."""
    tab.goto(instructor_lab.url(f"lab/tree/{RELEASE}/{FIRST}/{FIRST}.ipynb?reset"))
    expect(tab.get_by_title(CREATE_ASSIGNMENT)).to_have_count(1)
    tab.get_by_role("menuitem", name="Nbgrader", exact=True).click()
    menu = tab.locator(".lm-Menu")
    for tool in ("Assignment List", "Course List", "Formgrader"):
        expect(menu.get_by_text(tool, exact=True)).to_be_visible()
    screenshot(tab, "lab-instructor-nbgrader-menu")
    tab.keyboard.press("Escape")
    instructor_lab.stop_kernels()
