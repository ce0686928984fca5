"""A prediction in `make lab`, as a learner meets it: the answer's cell says the guess is committed; a guess changed
after reading the answer is shown as changed, also after the kernel restarts; and `make check` gives it nothing.

Before, a learner could run the answer's cell, read it, change the guess and get the point (lesson 01: 15 of 15)."""

from __future__ import annotations

import re

import nbformat
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.jupyterlab import KERNEL_IDLE, code_cell_count, open_notebook, run_all, save
from tests.support import COURSE, run_cli_here

LESSON = "01_naive_division"
PREDICTION, VARIABLE = "predict_float_sum", "guess_float_sum"  # its answer is "no"


def lesson_guessing(lab, guess: str) -> str:
    """The release with the reference answers, and `guess` for the float-sum prediction, as `<lesson>/guessed.ipynb`."""
    answers = {**COURSE.reference_answers(LESSON), VARIABLE: f'{VARIABLE} = "{guess}"'}
    path = f"{LESSON}/guessed.ipynb"
    nbformat.write(COURSE.learner_notebook(LESSON, answers), lab.root / path)
    return path


def run_cell(page, cell) -> None:
    """Click into the cell and run it with Ctrl+Enter; wait until the kernel is idle again."""
    prompt = cell.locator(".jp-InputPrompt")
    before = prompt.text_content()
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+Enter")
    expect(prompt).not_to_have_text(before or "", timeout=120_000)
    expect(prompt).not_to_have_text("[*]:", timeout=120_000)
    expect(page.locator("#jp-main-statusbar")).to_contain_text(KERNEL_IDLE)


def test_a_guess_changed_after_the_answer_is_shown_as_changed_and_earns_nothing(page, lab):
    path = lesson_guessing(lab, "yes")
    panel = open_notebook(page, lab, path)
    run_all(page, panel, code_cell_count(lab.root / path))
    answer = panel.locator(".jp-CodeCell", has_text=f'reveal("{PREDICTION}"')
    number = re.fullmatch(r"\[(\d+)\]:", answer.locator(".jp-InputPrompt").text_content().strip()).group(1)
    expect(answer.locator(".jp-OutputArea")).to_contain_text(
        f"{PREDICTION}: your guess 'yes' is committed (In [{number}]"
    )
    expect(answer.locator(".jp-OutputArea")).to_contain_text("equal to 1.0? False")
    screenshot(page, "lab-prediction-committed", answer)

    # the learner changes the guess, and runs the guess, its check and the answer again
    guess = panel.locator(".jp-CodeCell", has_text=f"{VARIABLE} = ")  # the guess cell alone sets it
    guess.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+a")
    page.keyboard.type(f'{VARIABLE} = "no"')
    check = panel.locator(".jp-CodeCell", has_text=f'check_guess("{PREDICTION}"')
    for cell in (guess, check, answer):
        run_cell(page, cell)
    changed = f"now 'no', but it was 'yes' when the answer was first shown (In [{number}]"
    expect(answer.locator(".jp-OutputArea")).to_contain_text(changed)
    screenshot(page, "lab-prediction-changed", answer)
    save(page, panel)

    # a restarted kernel finds the first commitment in the saved notebook
    page.get_by_role("menuitem", name="Kernel", exact=True).click()
    page.get_by_role("menuitem", name=re.compile(r"^Restart Kernel…")).click()
    page.locator(".jp-Dialog .jp-mod-accept").click()  # "Restart"
    expect(page.locator("#jp-main-statusbar")).to_contain_text(KERNEL_IDLE, timeout=120_000)
    setup = panel.locator(".jp-CodeCell", has_text="point_at_stubs()")
    for cell in (setup, guess, check, answer):
        run_cell(page, cell)
    expect(answer.locator(".jp-OutputArea")).to_contain_text(changed)

    checked = run_cli_here("check", lab.root / path)
    row = next(line for line in checked.stdout.splitlines() if PREDICTION in line)
    assert checked.returncode == 0 and re.search(r"\b0(\.0)? */ *1\b", row), checked.stdout
    assert "changed after the answer earns nothing" in checked.stdout, checked.stdout
