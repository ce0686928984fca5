"""Figures for the lessons: a colour-blind-safe palette and images that carry alt text."""

from __future__ import annotations

import base64
import html
import io

# Okabe & Ito's palette, distinguishable with every common colour-vision deficiency.
OKABE_ITO = {
    "orange": "#E69F00",
    "sky blue": "#56B4E9",
    "bluish green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
    "black": "#000000",
}
PALETTE = [OKABE_ITO[name] for name in ("blue", "orange", "bluish green", "vermillion", "reddish purple", "sky blue")]


class FigureWithAlt:
    """A rendered matplotlib figure that shows as an image with alt text in Jupyter."""

    def __init__(self, png: bytes, alt: str):
        self.png, self.alt = png, alt

    def _repr_mimebundle_(self, include=None, exclude=None):
        data = base64.b64encode(self.png).decode("ascii")
        tag = f'<img src="data:image/png;base64,{data}" alt="{html.escape(self.alt, quote=True)}"/>'
        return {"text/html": tag, "image/png": data, "text/plain": f"[figure] {self.alt}"}


def show(fig, alt: str) -> FigureWithAlt:
    """Render `fig` to PNG, close it (so Jupyter does not draw it twice) and attach `alt`."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return FigureWithAlt(buffer.getvalue(), alt)
