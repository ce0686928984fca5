"""A failing check in JupyterLab under chromium: the notebook and nbgrader's Validate dialog show its message.

The message (expected, got, largest error, likely mistake, hint) is on screen where the
learner looks, with no line of the grader's source; when the learner's own code raised,
its frames are shown, and still none of the grader's.
"""

from __future__ import annotations

import nbformat
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from grader.proof import catalogue
from tests.browser.conftest import screenshot
from tests.browser.jupyterlab import code_cell_count, open_notebook, run_all
from tests.support import COURSE, assert_no_grader_frame, plain

LESSON = "01_naive_division"
WHOLE_ARRAY = next(m for m in catalogue.misconceptions("naive_normalize") if m.id == "naive_sums_whole_array")
# is_distribution, with a bug one call down: `limit` was never defined.
BUGGY_IS_DISTRIBUTION = """\
def is_distribution(weights, atol=1e-8):
    return rows_sum_to_one(np.asarray(weights, dtype=float), atol)


def rows_sum_to_one(w, atol):
    return bool(np.all(np.abs(w.sum(axis=-1) - 1) <= atol)) and w.min() >= limit
"""
ERROR_OUTPUT = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'


def learner_notebook(lab) -> str:
    """Lesson 01 with a wrong naive_normalize (a catalogued mistake) and a buggy is_distribution, in the lab."""
    path = f"{LESSON}/messages.ipynb"
    reference = COURSE.reference_answers(LESSON)
    guesses = {guess: reference[guess] for guess in COURSE.predictions(LESSON).values()}  # every guess written
    answers = {**guesses, "naive_normalize": WHOLE_ARRAY.source.strip(), "is_distribution": BUGGY_IS_DISTRIBUTION}
    nbformat.write(COURSE.learner_notebook(LESSON, answers), lab.root / path)
    return path


# Whether `text` (within `root`) is drawn inside the window and inside every box that clips it.
ON_SCREEN = """([root, text]) => {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const at = node.textContent.indexOf(text);
            if (at < 0) continue;
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + text.length);
            const box = range.getBoundingClientRect();
            const inside = (outer) => box.top >= outer.top && box.bottom <= outer.bottom
                && box.left >= outer.left && box.right <= outer.right;
            if (!inside({top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth})) return false;
            // the body's overflow applies to the window, checked above (its own box is 0 px tall)
            for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) {
                const style = getComputedStyle(up);
                if (style.overflow !== 'visible' && !inside(up.getBoundingClientRect())) return false;
            }
            return true;
        }
        return false;
    }"""


def on_screen(page, container, text: str) -> bool:
    """Whether `text` (within `container`) is on screen, or comes on screen while JupyterLab lays the page out."""
    try:
        page.wait_for_function(ON_SCREEN, arg=[container.element_handle(), text], timeout=30_000)
    except PlaywrightTimeoutError:
        return False
    return True


def assert_the_wrong_answer_s_message(text: str) -> None:
    said = plain(text)
    assert "CheckFailed: naive_normalize(np.array([[1., 3.], [2., 2.]])) is not right: largest error 0.375" in said, (
        text
    )
    assert "expected: [[0.25, 0.75], [0.5 , 0.5 ]]" in said and "got: [[0.125, 0.375], [0.25 , 0.25 ]]" in said
    assert f"likely mistake: {WHOLE_ARRAY.description} hint: {WHOLE_ARRAY.hint}" in said
    assert "Traceback" not in text
    assert_no_grader_frame(text)


def test_a_wrong_answer_shows_its_message_alone_in_the_notebook(page, lab):
    path = learner_notebook(lab)
    panel = open_notebook(page, lab, path)
    run_all(page, panel, code_cell_count(lab.root / path))
    failure = panel.locator(ERROR_OUTPUT)
    expect(failure).to_have_count(1)  # JupyterLab stops at the first failing cell
    expect(failure).to_contain_text("CheckFailed")  # the output box is there before its text is
    failure.scroll_into_view_if_needed()
    assert_the_wrong_answer_s_message(failure.text_content() or "")  # inner_text is "" until JupyterLab draws it
    for text in ("largest error 0.375", "likely mistake:", "hint: sum over the last axis only"):
        assert on_screen(page, failure, text), text
    screenshot(page, f"{LESSON}-check-message-wrong-answer")


def test_an_error_in_the_learner_s_code_shows_the_message_and_the_learner_s_frames(page, lab):
    path = learner_notebook(lab)
    panel = open_notebook(page, lab, path)
    run_all(page, panel, code_cell_count(lab.root / path))  # stops at naive_normalize's check
    answer = panel.locator(".jp-CodeCell").filter(has_text="def rows_sum_to_one")
    answer.locator(".jp-InputPrompt").click()  # selects the cell
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run Selected Cell and All Below", exact=True).click()
    failure = panel.locator(ERROR_OUTPUT).filter(has_text="NameError")
    expect(failure).to_have_count(1, timeout=120_000)
    failure.scroll_into_view_if_needed()  # JupyterLab renders only the cells in view
    expect(failure).to_contain_text("Where your code raised the NameError:")
    text = failure.text_content() or ""  # the DOM text, whether or not JupyterLab has laid the cell out
    message, _, frames = text.partition("Where your code raised the NameError:")
    assert (
        "CheckFailed: is_distribution(np.array([0.25, 0.5 , 0.25])) raised NameError: name 'limit' is not defined"
        in plain(message)
    )
    assert "in is_distribution(weights, atol)" in frames and "in rows_sum_to_one(w, atol)" in frames
    assert "w.min() >= limit" in frames
    assert_no_grader_frame(text)
    failure.scroll_into_view_if_needed()
    assert on_screen(page, failure, "name 'limit' is not defined")
    screenshot(page, f"{LESSON}-check-message-learner-error")


def test_the_validate_dialog_shows_each_failing_check_s_message(page, lab):
    panel = open_notebook(page, lab, learner_notebook(lab))
    panel.locator(".validate-button").get_by_text("Validate").click()
    dialog = page.locator(".jp-Dialog").filter(has_text="Validation Results")
    expect(dialog).to_be_visible(timeout=120_000)
    message = dialog.locator("#validation-message")
    expect(message).to_contain_text("The following cell failed:")
    errors = message.locator(".jp-RenderedText pre").filter(has_text="CheckFailed")
    expect(errors).to_have_count(4)  # each function's public cell and its details cell, whose visible lines repeat it
    wrong, raised = errors.nth(0), errors.filter(has_text="NameError").first
    assert_the_wrong_answer_s_message(wrong.inner_text())
    # the dialog shows the failing cell's source (its checks, one per line) above its message
    wrong.scroll_into_view_if_needed()
    for text in ("largest error 0.375", "likely mistake:", "hint: sum over the last axis only"):
        assert on_screen(page, message, text), text
    screenshot(page, f"{LESSON}-validate-check-messages")
    said = plain(raised.inner_text())
    assert "raised NameError: name 'limit' is not defined" in said and "in rows_sum_to_one(w, atol)" in said
    assert_no_grader_frame(message.inner_text())
    raised.scroll_into_view_if_needed()
    assert on_screen(page, message, "Where your code raised the NameError")
    screenshot(page, f"{LESSON}-validate-check-messages-learner-error")


# Lesson 03's softmax, wrong in ways no catalogued mistake names: a crash on one row, rows that do not sum to 1.
UNCATALOGUED_SOFTMAX = {
    "crash": """\
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
""",
    "property": """\
def softmax(scores):
    e = np.exp(np.asarray(scores, dtype=float))
    return e / (e.sum(axis=-1, keepdims=True) + 1)
""",
}
EXPLAINED = {
    "crash": (
        "why: `scores` was one row (a float64 array of shape (4,))",
        "your line that raised it: e = np.exp(x - x.max(axis=1, keepdims=True))",
    ),
    "property": (
        "broken property (value): the weights of each row sum to 1.",
        "softmax(np.array([1., 2.])) returned [0.2447, 0.6652]",
    ),
}


def test_a_crash_and_a_broken_property_are_explained_on_screen(page, lab):
    lesson = "03_shared_denominator"
    reference = COURSE.reference_answers(lesson)
    guesses = {guess: reference[guess] for guess in COURSE.predictions(lesson).values()}
    for kind, code in UNCATALOGUED_SOFTMAX.items():
        path = f"{lesson}/{kind}.ipynb"
        nbformat.write(COURSE.learner_notebook(lesson, {**reference, **guesses, "softmax": code}), lab.root / path)
        panel = open_notebook(page, lab, path)
        run_all(page, panel, code_cell_count(lab.root / path))
        failure = panel.locator(ERROR_OUTPUT)
        expect(failure).to_have_count(1)
        expect(failure).to_contain_text("CheckFailed")
        failure.scroll_into_view_if_needed()
        said = plain(failure.text_content() or "")
        assert all(text in said for text in EXPLAINED[kind]), said
        assert said.count("hint:") == 1 and "likely mistake" not in said
        assert_no_grader_frame(failure.text_content() or "")
        for text in EXPLAINED[kind]:
            assert on_screen(page, failure, text.split(": ")[0]), text
        screenshot(page, f"{lesson}-check-message-{kind}")
