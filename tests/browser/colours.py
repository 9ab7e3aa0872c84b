"""Colours as the browser computes them: WCAG contrast, and whether a colour reads as red."""

import colorsys
import re

# For each element: its text colour, the opaque background behind its text (its own or the nearest
# ancestor's that is not transparent, translucent ones laid over it), the background around it (its
# parent's) and its border colour, as [r, g, b] in 0-255.
PAINT = """els => els.map(e => {
  const rgba = (c) => { const m = c.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m[3] ?? 1]; };
  const behind = (start) => {
    const layers = [];
    for (let n = start; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let bg = [255, 255, 255];
    for (const [r, g, b, a] of layers.reverse())
      bg = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)];
    return bg;
  };
  const style = getComputedStyle(e);
  return { fg: rgba(style.color).slice(0, 3), bg: behind(e), around: behind(e.parentElement),
           border: rgba(style.borderLeftColor).slice(0, 3), text: e.textContent.trim().slice(0, 40) };
})"""

# Every colour painted on the page: text (where an element has text of its own), backgrounds, borders,
# and SVG fills and strokes, for visible elements.
PAINTED = """() => {
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    if (!e.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    const s = getComputedStyle(e);
    const cls = typeof e.className === 'string' ? e.className : e.className.baseVal;
    const name = e.tagName.toLowerCase() + (cls ? '.' + cls.trim().split(/\\s+/).join('.') : '');
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (own) out.push([name, 'color', s.color, e.textContent.trim().slice(0, 30)]);
    if (!s.backgroundColor.endsWith(', 0)') && s.backgroundColor !== 'transparent')
      out.push([name, 'background', s.backgroundColor, '']);
    for (const side of ['Top', 'Right', 'Bottom', 'Left'])
      if (parseFloat(s[`border${side}Width`]) > 0 && s[`border${side}Style`] !== 'none')
        out.push([name, 'border', s[`border${side}Color`], '']);
    if (e instanceof SVGElement) {
      if (s.fill.startsWith('rgb')) out.push([name, 'fill', s.fill, e.textContent.trim().slice(0, 30)]);
      if (s.stroke.startsWith('rgb')) out.push([name, 'stroke', s.stroke, '']);
    }
  }
  return out;
}"""


def luminance(rgb: list[float]) -> float:
    """WCAG relative luminance of an sRGB colour given as 0-255 components."""

    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: list[float], b: list[float]) -> float:
    """WCAG contrast ratio of two colours, from 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def parse(css: str) -> list[float]:
    """The r, g, b of a computed `rgb(...)` or `rgba(...)` colour."""
    return [float(x) for x in re.findall(r"[\d.]+", css)[:3]]


def is_red(css: str) -> bool:
    """Whether a computed colour reads as red: a hue within 15 degrees of red, clearly coloured."""
    r, g, b = parse(css)
    hue, _, _ = colorsys.rgb_to_hls(r / 255, g / 255, b / 255)
    chroma = (max(r, g, b) - min(r, g, b)) / 255
    return chroma > 0.08 and (hue * 360 <= 15 or hue * 360 >= 345)
