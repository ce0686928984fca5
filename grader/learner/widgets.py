"""A temperature slider over next-token logits (lesson 04).

`temperature_explorer(tokens, logits)` returns a `TemperatureExplorer`. Displayed in
JupyterLab it is a live widget: a log-scale slider for the temperature T, one editable
logit per token (type a number, press Enter), one bar per token that follows both, its
weight printed beside it, and the predicted (most likely) token named. Where no
widget front end runs (a notebook executed headless by nbclient or nbgrader, or viewed on
GitHub) the same output shows a static figure of the weights at a few temperatures, with
alt text. Both come from one display bundle: JupyterLab prefers the widget view, other
viewers fall back to the image.

The weights are computed here, from the logits, never by a learner's function, so the
explorer works before the lesson's exercises are solved.
"""

from __future__ import annotations

import html
from functools import cached_property

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure

from grader.learner.figures import PALETTE, FigureWithAlt, displayed, show

# The slider moves the exponent of T in base 10: T from 10**-1.4 ≈ 0.04 to 10**0.7 ≈ 5.
LOWEST_EXPONENT, HIGHEST_EXPONENT = -1.4, 0.7
SNAPSHOTS = (0.1, 1.0, 5.0)
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def weights_at(logits, temperature: float) -> np.ndarray:
    """softmax(logits / T) for one row of logits and T > 0 (shifted by the max, so it never overflows)."""
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError(f"the temperature must be a finite number > 0, got {temperature}")
    z = np.asarray(logits, dtype=float) / temperature
    evidence = np.exp(z - z.max())
    return evidence / evidence.sum()


class TemperatureExplorer:
    """Next-token weights at a temperature chosen with a slider; see the module docstring."""

    def __init__(self, tokens, logits, temperature: float = 1.0, snapshots=SNAPSHOTS):
        self.tokens = [str(token) for token in tokens]
        given = np.asarray(logits, dtype=float)
        if given.shape != (len(self.tokens),) or not np.all(np.isfinite(given)):
            raise ValueError("give one finite logit per token")
        self.snapshots = tuple(float(t) for t in snapshots)
        self.slider = widgets.FloatLogSlider(
            value=temperature,
            base=10,
            min=LOWEST_EXPONENT,
            max=HIGHEST_EXPONENT,
            step=0.01,
            description="temperature T",
            readout_format=".2f",
            continuous_update=True,
            style={"description_width": "8em"},
            layout=widgets.Layout(width="32em"),
        )
        self.bars = [
            widgets.FloatProgress(
                value=0.0,
                min=0.0,
                max=1.0,
                description=token,
                style={"description_width": "8em"},
                layout=widgets.Layout(width="28em"),
            )
            for token in self.tokens
        ]
        self.logit_fields = [
            widgets.FloatText(
                value=float(logit),
                step=0.1,
                description="logit",
                description_allow_html=False,
                tooltip=f"the logit of {token!r}: type a number and press Enter",
                style={"description_width": "3em"},
                layout=widgets.Layout(width="10em"),
            )
            for token, logit in zip(self.tokens, given, strict=True)
        ]
        self.percents = [widgets.Label() for _ in self.tokens]
        self.prediction = widgets.HTML()
        rows = [
            widgets.HBox([field, bar, percent])
            for field, bar, percent in zip(self.logit_fields, self.bars, self.percents, strict=True)
        ]
        self.widget = widgets.VBox([self.slider, *rows, self.prediction])
        self.slider.observe(self._update, names="value")
        for field in self.logit_fields:
            field.observe(self._update, names="value")
        self._update()

    @property
    def temperature(self) -> float:
        return float(self.slider.value)

    @property
    def logits(self) -> np.ndarray:
        """The logits as the fields show them now (the learner may have edited them)."""
        return np.array([field.value for field in self.logit_fields], dtype=float)

    @property
    def weights(self) -> np.ndarray:
        """The weights the bars show now."""
        return np.array([bar.value for bar in self.bars])

    @property
    def predicted(self) -> str:
        """The token with the largest weight at the slider's temperature."""
        return self.tokens[int(np.argmax(self.weights))]

    def _update(self, change=None) -> None:
        if not np.all(np.isfinite(self.logits)):  # the bars keep the last weights that had a meaning
            self.prediction.value = "Give every token a finite logit to see its weight."
            return
        weights = weights_at(self.logits, self.temperature)
        top = int(np.argmax(weights))
        for index, (bar, percent) in enumerate(zip(self.bars, self.percents, strict=False)):
            bar.value = float(weights[index])
            bar.style.bar_color = PALETTE[1] if index == top else PALETTE[0]
            percent.value = f"{weights[index]:.1%}"
        self.prediction.value = (
            f"At T = {self.temperature:.2f} the predicted token is "
            f"<b>{html.escape(self.tokens[top])}</b> ({weights[top]:.1%})."
        )

    @cached_property
    def static(self) -> FigureWithAlt:
        """Bars of the weights at each snapshot temperature, for viewers without widgets."""
        fig = Figure(figsize=(3.3 * len(self.snapshots), 3.4), layout="constrained")
        axes = fig.subplots(1, len(self.snapshots), sharey=True, squeeze=False)[0]
        described = []
        for ax, temperature in zip(axes, self.snapshots, strict=False):
            weights = weights_at(self.logits, temperature)
            top = int(np.argmax(weights))
            colours = [PALETTE[1] if i == top else PALETTE[0] for i in range(len(weights))]
            ax.bar_label(ax.bar(self.tokens, weights, color=colours), labels=[f"{w:.1%}" for w in weights], fontsize=7)
            ax.set_title(f"T = {temperature:g}: predicted token {self.tokens[top]!r}", fontsize=10)
            ax.set(xlabel="next token", ylim=(0, 1.08))
            ax.tick_params(axis="x", labelrotation=30)
            described.append(
                f"at T = {temperature:g}, "
                + ", ".join(f"{token} {w:.1%}" for token, w in zip(self.tokens, weights, strict=False))
            )
        axes[0].set_ylabel("weight")
        fig.suptitle("Next-token weights at a few temperatures (run the cell in JupyterLab for the slider)", fontsize=9)
        alt = (
            f"{len(self.snapshots)} bar charts of the next-token weights of {', '.join(self.tokens)}, "
            f"with the most likely token in orange: " + "; ".join(described) + "."
        )
        return show(fig, alt=alt)

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = displayed(self.static)
        live = self.widget._repr_mimebundle_() if self.widget.comm is not None else None  # None once closed
        live = live or {}
        if WIDGET_VIEW in live:
            bundle[WIDGET_VIEW] = live[WIDGET_VIEW]
        return bundle


def temperature_explorer(tokens, logits, temperature: float = 1.0) -> TemperatureExplorer:
    """A slider for T and a field per logit over the next-token `logits` of `tokens`; display it (last line)."""
    return TemperatureExplorer(tokens, logits, temperature)
