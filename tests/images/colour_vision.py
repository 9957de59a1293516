"""Colour-vision arithmetic for the palette checks: simulated colour blindness (Machado,
Oliveira and Fernandes 2009, severity 1.0, applied in linear RGB), CIE76 colour
difference and WCAG 2 contrast."""

from __future__ import annotations

import math
from collections.abc import Sequence

RGB = tuple[int, int, int]
Matrix = tuple[tuple[float, float, float], ...]

# Machado et al. 2009, table of simulation matrices, severity 1.0.
DEFICIENCIES: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(linear: float) -> float:
    c = min(1.0, max(0.0, linear))
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(colour: RGB, deficiency: str) -> tuple[float, float, float]:
    """How `colour` looks under `deficiency` (a key of `DEFICIENCIES`), as sRGB 0..255."""
    linear = [_linear(c) for c in colour]
    rows = DEFICIENCIES[deficiency]
    r, g, b = (_encoded(sum(m * c for m, c in zip(row, linear, strict=True))) for row in rows)
    return r, g, b


def lab(colour: Sequence[float]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(first: Sequence[float], second: Sequence[float]) -> float:
    """CIE76 difference between two sRGB colours: their distance in L*a*b*. (CIEDE2000 weighs
    chroma down; CIE76 is the measure the accessibility review used.)"""
    return math.dist(lab(first), lab(second))


def contrast(first: RGB, second: RGB) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (1 to 21)."""

    def luminance(colour: RGB) -> float:
        r, g, b = (_linear(c) for c in colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
