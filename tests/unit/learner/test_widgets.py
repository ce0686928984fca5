"""The temperature explorer of lesson 04, without a browser.

Moving the slider (as Python code, or as the front end does with a state update) must
move the bars and the predicted token; the display bundle must hold both the live widget
view and a static PNG with alt text, in a plain process and in a real headless kernel.
"""

import base64
import re

import nbformat
import numpy as np
import pytest
from IPython.core.formatters import format_display_data
from nbclient import NotebookClient

from grader.engine.sandbox import IOPUB_SECONDS
from grader.learner.widgets import WIDGET_VIEW, TemperatureExplorer, temperature_explorer, weights_at
from tests.support import run_apart

TOKENS = ["I", "am", "learning", "to", "Delhi"]
PERCENT_AT_1 = [3.7, 29.8, 13.9, 16.6, 35.9]
LOGITS = np.log(np.array(PERCENT_AT_1) / 100)


@pytest.fixture
def explorer():
    return temperature_explorer(TOKENS, LOGITS)


def test_at_t_1_the_bars_show_the_course_weights_and_delhi_is_predicted(explorer):
    assert explorer.temperature == 1.0
    assert [round(100 * w, 1) for w in explorer.weights] == PERCENT_AT_1
    assert [label.value for label in explorer.percents] == ["3.7%", "29.8%", "13.9%", "16.6%", "35.9%"]
    assert explorer.predicted == "Delhi"
    assert "<b>Delhi</b>" in explorer.prediction.value and "35.9%" in explorer.prediction.value


def test_low_temperature_puts_almost_all_the_mass_on_delhi(explorer):
    before = explorer.prediction.value
    explorer.slider.value = 0.05
    assert explorer.weights[TOKENS.index("Delhi")] > 0.97  # 0.9764: "am" keeps the other 2.4%
    assert explorer.predicted == "Delhi" and "T = 0.05" in explorer.prediction.value
    assert explorer.prediction.value != before
    explorer.slider.value = explorer.slider.base**explorer.slider.min  # the slider's low end, T ≈ 0.04
    assert explorer.temperature < 0.05
    assert explorer.weights[TOKENS.index("Delhi")] > 0.99
    assert explorer.percents[TOKENS.index("Delhi")].value == "99.1%"


def test_high_temperature_is_near_uniform(explorer):
    explorer.slider.value = 5.0
    assert np.all(np.abs(explorer.weights - 0.2) < 0.1), explorer.weights
    assert explorer.predicted == "Delhi" and "T = 5.00" in explorer.prediction.value


def test_the_slider_spans_about_0_05_to_5_on_a_log_scale(explorer):
    low, high = explorer.slider.base**explorer.slider.min, explorer.slider.base**explorer.slider.max
    assert 0.03 < low <= 0.05 and 5 <= high < 5.1
    explorer.slider.value = 100.0  # out of range: clamped, and the bars still follow
    assert explorer.temperature == pytest.approx(high)
    np.testing.assert_allclose(explorer.weights, weights_at(LOGITS, high))


@pytest.mark.parametrize("temperature", [0.07, 0.3, 1.0, 2.5])
def test_a_front_end_state_update_moves_the_bars(explorer, temperature):
    """What happens when a learner drags the slider: the front end sends {"value": T}."""
    explorer.slider.set_state({"value": temperature})
    np.testing.assert_allclose(explorer.weights, weights_at(LOGITS, temperature), rtol=1e-12)
    assert np.isclose(explorer.weights.sum(), 1.0)
    colours = [bar.style.bar_color for bar in explorer.bars]
    assert len(set(colours)) == 2 and colours[TOKENS.index("Delhi")] != colours[0]


def test_the_predicted_token_follows_the_logits():
    explorer = temperature_explorer(["x", "y", "z"], [0.0, 2.0, 1.0], temperature=0.5)
    assert explorer.predicted == "y" and "<b>y</b>" in explorer.prediction.value


def _check_bundle(data):
    assert set(data[WIDGET_VIEW]) >= {"version_major", "model_id"}
    png = base64.b64decode(data["image/png"])
    assert png.startswith(b"\x89PNG")
    alt = re.search(r'<img [^>]*alt="([^"]{40,})"', data["text/html"]).group(1)
    assert all(token in alt for token in TOKENS) and "T = 1" in alt
    return alt


def test_the_display_bundle_holds_the_widget_view_and_a_png_with_alt_text(explorer):
    data, _ = format_display_data(explorer)  # what IPython sends to the front end
    _check_bundle(data)
    assert data[WIDGET_VIEW]["model_id"] == explorer.widget.model_id
    assert data["text/plain"].startswith("[figure]")


def test_a_closed_widget_still_shows_the_static_figure(explorer):
    explorer.widget.close()
    data, _ = format_display_data(explorer)
    assert WIDGET_VIEW not in data and "image/png" in data


def test_tokens_and_logits_must_match():
    with pytest.raises(ValueError):
        TemperatureExplorer(TOKENS, LOGITS[:3])
    with pytest.raises(ValueError):
        weights_at(LOGITS, 0.0)


def test_in_a_headless_kernel_the_output_has_both_views_and_nothing_on_stderr(tmp_path):
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                "import numpy as np\n"
                "from grader.learner.widgets import temperature_explorer\n"
                f"temperature_explorer({TOKENS!r}, np.log(np.array({PERCENT_AT_1!r}) / 100))"
            )
        ]
    )
    client = NotebookClient(
        nb, timeout=60, iopub_timeout=IOPUB_SECONDS, resources={"metadata": {"path": str(tmp_path)}}
    )
    run_apart(client.execute)
    outputs = nb.cells[0].outputs
    assert not [o for o in outputs if o.output_type == "stream" and o.name == "stderr"]
    (shown,) = [o for o in outputs if o.output_type in ("display_data", "execute_result")]
    _check_bundle(shown.data)


def test_an_edited_logit_moves_the_bars_at_the_slider_s_temperature(explorer):
    explorer.slider.value = 0.5
    explorer.logit_fields[0].value = 3.0  # the learner types a logit for "I"
    expected = weights_at(np.array([3.0, *LOGITS[1:]]), 0.5)
    np.testing.assert_allclose(explorer.logits, [3.0, *LOGITS[1:]])
    np.testing.assert_allclose(explorer.weights, expected, rtol=1e-12)
    assert explorer.predicted == "I" and "<b>I</b>" in explorer.prediction.value


def test_a_logit_that_is_not_finite_keeps_the_bars_and_asks_for_a_number(explorer):
    before = explorer.weights.copy()
    explorer.logit_fields[1].value = float("inf")
    np.testing.assert_array_equal(explorer.weights, before)
    assert "finite logit" in explorer.prediction.value
