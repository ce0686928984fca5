"""What a learner does in JupyterLab, as browser actions: open a notebook, run it, save it."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
from playwright.sync_api import expect

from tests.support import COURSE

RUN_ALL_SECONDS = 180  # a lesson's kernel work, on two cores shared with other test workers
STOPPED_SECONDS = 3  # how long no cell may be running or queued before a run counts as stopped at an error
KERNEL_IDLE = re.compile(r"Python 3 \(ipykernel\) \| Idle")


def solved_lesson(lab, lesson: str) -> str:
    """Write the release with every exercise filled in with the reference code, as `<lesson>/solved.ipynb`
    in the server's copy of notebooks/; return that path."""
    path = f"{lesson}/solved.ipynb"
    nbformat.write(COURSE.learner_notebook(lesson, COURSE.reference_answers(lesson)), lab.root / path)
    return path


def open_notebook(page, lab, path: str):
    """Open `path` with File > Open from Path… in the loaded JupyterLab and wait until its kernel is idle; return
    the notebook panel.

    The status bar names the kernel only once it is connected; the toolbar's indicator says
    "idle" even before the kernel starts, and cells run then are silently skipped.
    """
    assert (lab.root / path).is_file(), path
    page.get_by_role("menuitem", name="File", exact=True).click()
    page.get_by_role("menuitem", name="Open from Path…", exact=True).click()
    dialog = page.locator(".jp-Dialog")
    dialog.get_by_role("textbox").fill(path)
    dialog.get_by_role("button", name="Open", exact=True).click()
    current = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
    expect(current).to_contain_text(Path(path).name)
    expect(page.locator("#jp-main-statusbar")).to_contain_text(KERNEL_IDLE, timeout=120_000)
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")


def run_all(page, panel, code_cells: int) -> None:
    """Run > Run All Cells; wait until all `code_cells` cells show an execution count, or the run stopped at an error.

    After an error JupyterLab drops the cells still queued (their prompts go from [*] back to
    [ ]), so waiting for all of them would only time out; the caller's checks then report the
    error itself. (A failed check shows its message alone, no "Traceback", so the prompts tell.)
    Between two cells no prompt may show [*] for a moment, so the run counts as stopped only when
    none has for STOPPED_SECONDS.
    """
    panel.evaluate("panel => { panel.quietSince = null; }")  # a new run: nothing seen yet
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(
        """([panel, wanted, wait]) => {
        const prompts = [...panel.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim());
        const counted = prompts.filter(prompt => /^\\[\\d+\\]:$/.test(prompt)).length;
        const quiet = counted > 0 && !prompts.includes('[*]:');
        if (!quiet) panel.quietSince = null;
        else if (!panel.quietSince) panel.quietSince = Date.now();
        return counted === wanted || (quiet && Date.now() - panel.quietSince >= wait);
    }""",
        arg=[panel.element_handle(), code_cells, STOPPED_SECONDS * 1000],
        polling=500,
        timeout=RUN_ALL_SECONDS * 1000,
    )
    expect(page.locator("#jp-main-statusbar")).to_contain_text(KERNEL_IDLE)


def save(page, panel) -> None:
    """Ctrl+S, then wait until the notebook's tab no longer marks unsaved changes."""
    tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
    dirty = re.compile(r"\bjp-mod-dirty\b")
    expect(tab).to_have_class(dirty)  # it ran, so there is something to save
    panel.locator(".jp-Notebook").click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+s")
    expect(tab).not_to_have_class(dirty)


def code_cell_count(path: Path) -> int:
    """The code cells JupyterLab will number when run: those with some code in them."""
    nb = nbformat.read(path, as_version=4)
    return sum(1 for cell in nb.cells if cell.cell_type == "code" and cell.source.strip())
