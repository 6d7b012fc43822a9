"""The figures of a simulation, as pure functions of counts: Wilson intervals and quartiles of a histogram."""
from __future__ import annotations

import math

Z95 = 1.959963984540054  # the standard normal quantile for a two-sided 95% interval


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: (low, high); (0, 1) when there are no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def histogram_quantile(histogram: dict[int, int], q: float) -> float:
    """The ``q`` quantile of the values a histogram ({value: count}) counts, interpolated linearly between
    order statistics as ``statistics.quantiles(method="inclusive")`` does."""
    total = sum(histogram.values())
    if total == 0:
        return 0.0
    position = q * (total - 1)  # 0-based index into the sorted values
    below, fraction = int(position), position - int(position)
    low = _value_at(histogram, below)
    return float(low) if fraction == 0 else low + fraction * (_value_at(histogram, below + 1) - low)


def _value_at(histogram: dict[int, int], index: int) -> int:
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if index < seen:
            return value
    raise IndexError(index)


def histogram_mean(histogram: dict[int, int]) -> float:
    total = sum(histogram.values())
    return sum(v * n for v, n in histogram.items()) / total if total else 0.0
