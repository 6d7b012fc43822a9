"""The Balance page's charts: matplotlib's SVG backend, text left as text in the site's Open Sans.

Optional (``pip install 'deckwright[charts]'``): without matplotlib, ``available()`` is false and the page shows
its tables alone. The SVG is deterministic (a fixed hash salt, no date) and its ids carry a prefix, so several
charts can sit inline in one page; inline, the text is set in the site's own web font.
"""
from __future__ import annotations

import io
import re
from functools import lru_cache

from deckwright.generator import TEMPLATES

INK, SOFT, RULE, ACCENT = "#25211b", "#6e6457", "#e0d6c3", "#8c1c13"  # SOFT: the site's --muted
FONT = "Open Sans"


def available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


@lru_cache(maxsize=1)
def _pyplot():
    import matplotlib

    matplotlib.use("svg")
    from matplotlib import font_manager, pyplot

    for path in sorted((TEMPLATES / "fonts" / "open-sans").glob("OpenSans-*.ttf")):
        font_manager.fontManager.addfont(str(path))  # measured with the font the browser will draw
    matplotlib.rcParams.update({
        "svg.fonttype": "none", "svg.hashsalt": "deckwright", "font.family": FONT, "font.size": 10,
        "text.color": INK, "axes.edgecolor": RULE, "axes.labelcolor": SOFT, "xtick.color": SOFT,
        "ytick.color": SOFT, "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True,
        "axes.axisbelow": True, "grid.color": RULE, "grid.linewidth": 0.6, "figure.facecolor": "none",
        "axes.facecolor": "none", "savefig.transparent": True,
    })
    return pyplot


def _svg(figure, prefix: str) -> str:
    pyplot = _pyplot()
    out = io.StringIO()
    figure.savefig(out, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    pyplot.close(figure)
    text = out.getvalue()
    text = text[text.index("<svg"):]  # inline: no XML declaration or doctype
    text = re.sub(r'\bid="', f'id="{prefix}-', text)
    text = re.sub(r'url\(#', f'url(#{prefix}-', text)
    text = re.sub(r'href="#', f'href="#{prefix}-', text)
    text = re.sub(r'<svg ', '<svg role="img" ', text, count=1)
    return re.sub(r'width="[\d.]+pt" height="[\d.]+pt"', 'width="100%"', text, count=1)


def _height(rows: int) -> float:
    return 0.9 + 0.32 * rows


def win_rates(labels: list[str], rates: list[float], lows: list[float], highs: list[float], prefix: str) -> str:
    """A horizontal bar per cell, its 95% interval as an error bar, the rate printed at the bar's end."""
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(6.4, _height(len(labels))))
    y = list(range(len(labels)))[::-1]
    errors = [[r - lo for r, lo in zip(rates, lows)], [hi - r for r, hi in zip(rates, highs)]]
    axes.barh(y, rates, color=ACCENT, alpha=0.85, height=0.6)
    axes.errorbar(rates, y, xerr=errors, fmt="none", ecolor=INK, elinewidth=1, capsize=3)
    for yy, rate, high in zip(y, rates, highs):
        axes.text(high + 0.01, yy, f"{rate:.1%}", va="center", fontsize=9, color=INK)
    axes.set_yticks(y, labels)
    axes.set_xlim(0, 1.12)
    axes.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    axes.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
    axes.grid(axis="y", visible=False)
    axes.set_xlabel("win rate, with its 95% interval (Wilson)")
    return _svg(figure, prefix)


def lengths(labels: list[str], stats: list[dict], prefix: str) -> str:
    """A box per cell: quartiles, median, whiskers from the shortest game to the longest."""
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(6.4, _height(len(labels))))
    boxes = [{"label": label, "q1": s["q1"], "med": s["median"], "q3": s["q3"], "whislo": s["min"],
              "whishi": s["max"], "mean": s["mean"]} for label, s in zip(labels, stats)][::-1]
    axes.bxp(boxes, orientation="horizontal", showmeans=True, showfliers=False, widths=0.55,
             patch_artist=True, boxprops={"facecolor": "#efe8da", "edgecolor": INK},
             medianprops={"color": ACCENT, "linewidth": 2}, whiskerprops={"color": SOFT}, capprops={"color": SOFT},
             meanprops={"marker": "D", "markerfacecolor": INK, "markeredgecolor": INK, "markersize": 4})
    axes.grid(axis="y", visible=False)
    axes.set_xlim(left=0)
    axes.set_xlabel("game length in actions: quartiles, median (red), mean (diamond), shortest to longest")
    return _svg(figure, prefix)
