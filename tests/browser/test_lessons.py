"""Every lesson in JupyterLab under chromium: it runs clean, draws its figures, and nbgrader validates it."""

import re

import nbformat
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.jupyterlab import code_cell_count, open_notebook, run_all, save, solved_lesson
from tests.support import COURSE

EXPECT_WARNING = "expect-warning"
# A small window: chromium's work grows with the area it draws, and these runs are most of the browser tests'
# CPU (chromium took 14 % less for the nine lessons at 1000x700 than at the tab's 1400x1000, measured).
SMALL_WINDOW = {"width": 1000, "height": 700}


@pytest.fixture
def small_window(page):
    """The shared JupyterLab tab at SMALL_WINDOW for one test; its own size again afterwards."""
    size = page.viewport_size
    page.set_viewport_size(SMALL_WINDOW)
    yield
    page.set_viewport_size(size)


@pytest.mark.usefixtures("small_window")
@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_solved_lesson_runs_clean_and_draws_its_figures(page, lab, lesson):
    path = solved_lesson(lab, lesson)
    panel = open_notebook(page, lab, path)
    run_all(page, panel, code_cell_count(lab.root / path))
    outputs = panel.locator(".jp-OutputArea-output")
    errors = outputs.filter(has_text=re.compile("Traceback|CheckFailed"))
    assert errors.count() == 0, errors.first.inner_text()[-3000:]
    figures = outputs.locator("img")
    expect(figures).not_to_have_count(0)  # a figure was drawn
    for figure in figures.all():
        figure.scroll_into_view_if_needed()
        # it renders: loaded, and wider than an icon (a broken image is neither)
        page.wait_for_function("img => img.complete && img.naturalWidth > 100", arg=figure.element_handle())
        assert len(figure.get_attribute("alt") or "") > 20, "a figure has no alt text"
    figures.first.scroll_into_view_if_needed()
    screenshot(page, f"{lesson}-run-all")
    # What JupyterLab saved: no error anywhere, and stderr only where a warning is the point.
    save(page, panel)
    nb = nbformat.read(lab.root / path, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code" and cell.source.strip()]
    assert all(cell.execution_count for cell in code), "the saved notebook lacks the run"
    for cell in code:
        kinds = {out.output_type for out in cell.outputs}
        assert "error" not in kinds, cell.source
        if EXPECT_WARNING not in cell.metadata.get("tags", []):
            assert not [out for out in cell.outputs if out.get("name") == "stderr"], cell.source


VALIDATED = "01_naive_division"  # the quickest lesson to validate; nbgrader's button works the same on each


def validate(page, panel):
    """Click nbgrader's Validate button and return the results dialog once it appears."""
    panel.locator(".validate-button").get_by_text("Validate").click()
    dialog = page.locator(".jp-Dialog").filter(has_text="Validation Results")
    expect(dialog).to_be_visible(timeout=120_000)
    return dialog.locator("#validation-message")


def test_validate_passes_a_solved_lesson(page, lab):
    panel = open_notebook(page, lab, solved_lesson(lab, VALIDATED))
    message = validate(page, panel)
    expect(message).to_have_text("Success! Your notebook passes all the tests.")
    screenshot(page, f"{VALIDATED}-validate-solved")


def test_release_stub_fails_with_our_check_message_when_run_and_when_validated(page, lab):
    path = f"{VALIDATED}/{VALIDATED}.ipynb"
    panel = open_notebook(page, lab, path)
    run_all(page, panel, code_cell_count(lab.root / path))
    failure = panel.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    expect(failure).to_have_count(1)  # JupyterLab stops at the first failing cell
    expect(failure).to_contain_text("CheckFailed")
    # the first failing cell checks the first thing left to write: a guess (a prediction comes first) or a stub
    expect(failure).to_contain_text("not written yet")
    failure.scroll_into_view_if_needed()
    screenshot(page, f"{VALIDATED}-stub-run-all")
    message = validate(page, panel)
    expect(message).to_contain_text("The following cell failed:")
    expect(message).to_contain_text("not written yet (it still raises NotImplementedError)")
    expect(message).not_to_contain_text("Success")
    message.get_by_text("not written yet").first.scroll_into_view_if_needed()
    screenshot(page, f"{VALIDATED}-validate-stub")
