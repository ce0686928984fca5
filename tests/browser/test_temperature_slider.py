"""Lesson 04's temperature slider, live in JupyterLab: dragging it, or typing a new logit, moves the bars,
the printed weights and the prediction."""

import re

import numpy as np
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.jupyterlab import code_cell_count, open_notebook, run_all, solved_lesson

LESSON = "04_temperature"
TOKENS = {"I", "am", "learning", "to", "Delhi"}


def drawn_explorer(page, panel):
    """The explorer in the run notebook, once its widget is drawn whole.

    ipywidgets draws a box's children as each view is made, in any order, so the box is there before its rows,
    and a row before its field, bar and label: wait for every part a reading takes.
    """
    explorer = panel.locator(".jp-OutputArea-output .widget-vbox").filter(has=page.locator(".noUi-handle"))
    expect(explorer).to_have_count(1)
    rows = explorer.locator(".widget-hbox")
    expect(rows).to_have_count(len(TOKENS))
    for part in (".widget-text input", ".progress-bar", ".widget-hprogress .widget-label", ":scope > .widget-label"):
        expect(rows.locator(part)).to_have_count(len(TOKENS))
    expect(rows.locator(":scope > .widget-label")).to_have_text([re.compile(r"^\d+\.\d%$")] * len(TOKENS))
    expect(explorer.locator(".widget-readout")).to_have_text("1.00")
    expect(explorer.locator(".widget-html-content")).to_contain_text("the predicted token is")
    return explorer


def read_explorer(explorer) -> dict:
    """What the widget shows: T, each token's logit, bar width and label (as fractions), and the prediction line."""
    rows = explorer.locator(".widget-hbox")
    tokens = rows.locator(".widget-hprogress .widget-label").all_text_contents()
    logits = rows.locator(".widget-text input").evaluate_all("fields => fields.map(f => parseFloat(f.value))")
    widths = rows.locator(".progress-bar").evaluate_all("bars => bars.map(b => parseFloat(b.style.width) / 100)")
    labels = [float(text.rstrip("%")) / 100 for text in rows.locator(":scope > .widget-label").all_inner_texts()]
    return {
        "T": float(explorer.locator(".widget-readout").inner_text()),
        "logits": dict(zip(tokens, logits, strict=True)),
        "bars": dict(zip(tokens, widths, strict=False)),
        "labels": dict(zip(tokens, labels, strict=False)),
        "prediction": explorer.locator(".widget-html-content").inner_text(),
    }


def drag_to(page, explorer, end: str) -> None:
    """Drag the slider's handle with the mouse past the left or right end of its track.

    The mouse goes down where Playwright has just found the handle in view and still; cells above
    it may still be laid out (a figure decoded late), which moves everything, so a press that
    missed the handle is let go and made again. noUiSlider marks the handle it holds as the press
    is handled, so whether it took is known at once. The mouse moves only once the slider holds
    the handle; past the end, a later shift of the track changes nothing.
    """
    handle = explorer.locator(".noUi-handle")
    for _ in range(5):
        handle.hover()
        page.mouse.down()
        if "noUi-active" in (handle.get_attribute("class") or "").split():  # noUiSlider's mark of the handle it drags
            break
        page.mouse.up()
    else:
        raise AssertionError("five presses on the slider's handle each missed it: the page kept moving")
    track, held = explorer.locator(".noUi-base").bounding_box(), handle.bounding_box()
    past = track["x"] - 40 if end == "left" else track["x"] + track["width"] + 40
    page.mouse.move(past, held["y"] + held["height"] / 2, steps=8)
    page.mouse.up()
    expect(handle).not_to_have_class(re.compile(r"\bnoUi-active\b"))


def settled(page, explorer, end: str) -> dict:
    """Drag to `end`, wait until the kernel has redrawn the prediction for the new T, and read it."""
    before = explorer.locator(".widget-readout").inner_text()
    drag_to(page, explorer, end)
    readout = explorer.locator(".widget-readout")
    expect(readout).not_to_have_text(before)
    expect(explorer.locator(".widget-html-content")).to_contain_text(f"At T = {readout.inner_text()} ")
    return read_explorer(explorer)


def type_logit(explorer, token: str, logit: float) -> dict:
    """Type a new logit for `token` and press Enter; wait until its printed weight has changed, and read it."""
    before = read_explorer(explorer)
    row = explorer.locator(".widget-hbox").filter(has=explorer.page.get_by_text(token, exact=True))
    field = row.locator(".widget-text input")
    field.fill(f"{logit}")
    field.press("Enter")
    expect(row.locator(":scope > .widget-label")).not_to_have_text(f"{before['labels'][token]:.1%}")
    expect(explorer.locator(".widget-html-content")).not_to_have_text(before["prediction"])
    return read_explorer(explorer)


def softmax_shown(shown: dict) -> np.ndarray:
    """softmax(logits / T) of the logits and the T the widget shows."""
    z = np.array(list(shown["logits"].values())) / shown["T"]
    evidence = np.exp(z - z.max())
    return evidence / evidence.sum()


def test_dragging_the_temperature_slider_moves_the_bars_and_the_prediction(page, lab):
    path = solved_lesson(lab, LESSON)
    panel = open_notebook(page, lab, path)
    run_all(page, panel, code_cell_count(lab.root / path))
    explorer = drawn_explorer(page, panel)
    explorer.scroll_into_view_if_needed()
    warm = read_explorer(explorer)
    assert warm["T"] == 1.0 and set(warm["bars"]) == TOKENS

    cell = panel.locator(".jp-CodeCell").filter(has=page.locator(".widget-vbox .noUi-handle"))
    cold = settled(page, explorer, "left")
    screenshot(page, f"{LESSON}-slider-cold", cell)
    hot = settled(page, explorer, "right")
    screenshot(page, f"{LESSON}-slider-hot", cell)

    assert cold["T"] < 0.05 and hot["T"] > 4.9
    for shown in (warm, cold, hot):  # each bar is as long as its percentage says
        for token, width in shown["bars"].items():
            assert abs(width - shown["labels"][token]) < 0.0006, (token, shown)
    # Cold: "Delhi" takes almost everything. Hot: every bar near a fifth.
    assert cold["bars"]["Delhi"] > 0.95, cold
    hot_bars = list(hot["bars"].values())
    assert all(0.1 < w < 0.3 for w in hot_bars) and max(hot_bars) - min(hot_bars) < 0.1, hot
    # softmax(logits / T) is the T = 1 weights to the power 1 / T, renormalised.
    warm_weights = np.array(list(warm["labels"].values()))
    for shown in (cold, hot):
        expected = warm_weights ** (1 / shown["T"]) / (warm_weights ** (1 / shown["T"])).sum()
        assert np.allclose(list(shown["bars"].values()), expected, atol=0.01), (shown, expected)
    # The prediction names the top bar, at the slider's T, with its share; both ends still say "Delhi".
    for shown in (cold, hot):
        top = max(shown["bars"], key=shown["bars"].get)
        share = re.search(r"\(([\d.]+)%\)", shown["prediction"]).group(1)
        assert top == "Delhi" and f"predicted token is {top}" in shown["prediction"]
        assert abs(float(share) / 100 - shown["bars"][top]) < 0.0006
    assert cold["prediction"] != hot["prediction"] != warm["prediction"]


def test_typing_a_logit_moves_the_bars_and_the_printed_weights(page, lab):
    path = solved_lesson(lab, LESSON)
    panel = open_notebook(page, lab, path)
    run_all(page, panel, code_cell_count(lab.root / path))
    explorer = drawn_explorer(page, panel)
    explorer.scroll_into_view_if_needed()
    warm = read_explorer(explorer)
    # The fields start at the lesson's logits, the natural logs of the weights at T = 1.
    assert np.allclose(list(warm["logits"].values()), np.log([0.037, 0.298, 0.139, 0.166, 0.359]), atol=1e-3), warm

    raised = type_logit(explorer, "I", 0.5)  # "I" jumps from the smallest logit to the largest
    cell = panel.locator(".jp-CodeCell").filter(has=page.locator(".widget-vbox .noUi-handle"))
    screenshot(page, f"{LESSON}-logit-typed", cell)
    assert raised["T"] == warm["T"] == 1.0 and raised["logits"]["I"] == 0.5
    assert {t: v for t, v in raised["logits"].items() if t != "I"} == {
        t: v for t, v in warm["logits"].items() if t != "I"
    }
    for token, width in raised["bars"].items():  # each bar is as long as its printed weight
        assert abs(width - raised["labels"][token]) < 0.0006, (token, raised)
    assert np.allclose(list(raised["labels"].values()), softmax_shown(raised), atol=0.0006), raised
    assert raised["labels"]["I"] > 0.3 > warm["labels"]["I"]
    assert all(raised["labels"][t] < warm["labels"][t] for t in warm["labels"] if t != "I"), (warm, raised)
    assert "predicted token is I (" in raised["prediction"]

    # The slider still works on the edited logits.
    cold = settled(page, explorer, "left")
    assert cold["logits"] == raised["logits"] and cold["labels"]["I"] > 0.9
    assert np.allclose(list(cold["labels"].values()), softmax_shown(cold), atol=0.0006), cold
