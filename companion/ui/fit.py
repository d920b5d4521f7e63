"""Does a screen fit its window? Findings, as data, for what a player would see wrong on a
tablet or a phone: a widget (partly) outside the window, a primary action that needs a
scroll, text clipped by its box, text under the minimum size, text whose colour is too close
to what lies behind it.

The rules, for every widget the player can see (opacity above 0 all the way up, a size):
- ``outside``: its box lies within the window (a ScrollView's content may run past its
  viewport: it scrolls; the ScrollView itself must fit).
- ``primary``: the screen's primary action lies wholly in the window and not in a ScrollView.
- ``list``: a ScrollView shows at least one whole row of the list it holds.
- ``clipped``: a label's (or button's) text, laid out without limits at the width it wraps
  to, fits its box: nothing shortened with "...", no line dropped, no hint text cut off.
- ``small``: text (every size a [size=..] markup tag sets too) is at least ``MIN_SP``.
  No label is exempt. Texts drawn straight on a canvas (a card's name on the photo, the
  board's "D", the chart's figures) are pictures, not labels, and are not checked here.
- ``contrast``: WCAG 2 AA for normal text, 4.5:1, between the text colour (each
  [color=..] tag too; a text input's text or its hint) and the colour behind it, found from
  the canvas instructions under the label (its own background, then its parents'),
  blended through any transparency. Disabled controls are exempt, as WCAG 1.4.3 exempts
  inactive components (a greyed-out keypad is meant to look off).
Everything is measured from the widgets and the theme's colours, not from pixels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MIN_SP = 15
MIN_CONTRAST = 4.5
SLACK = 1.0  # px: rounding in layouts


@dataclass(frozen=True)
class Finding:
    rule: str       # outside | primary | list | clipped | small | contrast
    widget: str     # what it is, in words (class and text)
    detail: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.widget}: {self.detail}"


# --- colours ---------------------------------------------------------------------------------------
def luminance(rgb) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(float(c)) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def over(top, alpha: float, under) -> tuple[float, float, float]:
    return tuple(t * alpha + u * (1 - alpha) for t, u in zip(top[:3], under[:3]))


def parse_colour(text: str):
    """A markup colour: #rgb, #rrggbb or #rrggbbaa."""
    text = text.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    try:
        values = [int(text[i:i + 2], 16) / 255 for i in range(0, len(text), 2)]
    except ValueError:
        return None
    return tuple(values[:3]) + ((values[3],) if len(values) > 3 else (1.0,)) if len(values) >= 3 else None


_TEXTURE_MEANS: dict[int, tuple[float, float, float, float]] = {}


def texture_mean(texture):
    """The mean RGBA of a texture (a button's image); white for none."""
    if texture is None:
        return (1.0, 1.0, 1.0, 1.0)
    key = id(texture)
    if key not in _TEXTURE_MEANS:
        try:
            import numpy as np

            data = np.frombuffer(texture.pixels, dtype=np.uint8).reshape(-1, 4) / 255.0
            _TEXTURE_MEANS[key] = tuple(float(v) for v in data.mean(axis=0))
        except Exception:
            _TEXTURE_MEANS[key] = (1.0, 1.0, 1.0, 1.0)
    return _TEXTURE_MEANS[key]


def _fills(canvas, point, skip_texture=None):
    """The fills (rgba) of ``canvas`` that cover ``point``, in drawing order."""
    from kivy.graphics import BorderImage, Color, Rectangle, RoundedRectangle

    out, colour = [], None  # a fill with no colour set in its own canvas is a transition's, not a background
    if canvas is None:
        return out
    for instruction in canvas.children:
        if isinstance(instruction, Color):
            colour = tuple(instruction.rgba)
        elif isinstance(instruction, (Rectangle, RoundedRectangle, BorderImage)) and colour is not None:
            if skip_texture is not None and isinstance(instruction, Rectangle) and instruction.texture is not None \
                    and (instruction.texture.id == skip_texture.id or tuple(instruction.size) == tuple(skip_texture.size)):
                continue  # the label's own text
            (x, y), (w, h) = instruction.pos, instruction.size
            if x <= point[0] <= x + w and y <= point[1] <= y + h:
                tex = texture_mean(instruction.texture)
                out.append((colour[0] * tex[0], colour[1] * tex[1], colour[2] * tex[2], colour[3] * tex[3]))
    return out


def background(widget, window_clear=(0, 0, 0, 1)):
    """The colour behind ``widget``'s middle: its own fills under its text, then its parents'."""
    layers = []  # nearest first: (rgba, opacity)
    wx, wy = widget.to_window(*widget.center)
    node, own = widget, True
    while node is not None:
        parent = node.parent if node.parent is not node else None
        space = parent.to_widget(wx, wy) if parent is not None else (wx, wy)
        opacity = effective_opacity(node)
        # a text input draws its lines of text on its canvas: only its background counts
        canvases = [node.canvas.before] if own and not hasattr(node, "texture") else [node.canvas.before, node.canvas]
        found = []
        for canvas in canvases:
            found.extend(_fills(canvas, space, skip_texture=getattr(widget, "texture", None) if own else None))
        for fill in reversed(found):
            layers.append((fill, opacity))
            if fill[3] * opacity >= 0.999:
                return _composite(layers, window_clear)
        own = False
        node = parent
    return _composite(layers, window_clear)


def _composite(layers, base):
    colour = tuple(base[:3])
    for fill, opacity in reversed(layers):
        colour = over(fill, fill[3] * opacity, colour)
    return colour


# --- the widget tree -------------------------------------------------------------------------------
def effective_opacity(widget) -> float:
    value, node = 1.0, widget
    while node is not None:
        value *= node.opacity
        node = node.parent if node.parent is not node else None
    return value


def seen(widget) -> bool:
    return widget.width > 0.5 and widget.height > 0.5 and effective_opacity(widget) > 0.01


def in_scroll(widget):
    """The ScrollView ``widget`` scrolls inside, if any."""
    from kivy.uix.scrollview import ScrollView

    node = widget.parent
    while node is not None and node is not node.parent:
        if isinstance(node, ScrollView):
            return node
        node = node.parent
    return None


def describe(widget) -> str:
    text = getattr(widget, "text", "") or getattr(widget, "hint_text", "")
    ident = next((k for k, v in _ids(widget).items() if v is widget), "")
    words = " ".join(str(text).split())
    return f"{type(widget).__name__}{'#' + ident if ident else ''} {words[:60]!r}"


def _ids(widget) -> dict:
    node = widget.parent
    while node is not None and node is not node.parent:
        ids = getattr(node, "ids", None)
        if ids and widget in ids.values():
            return ids
        node = node.parent
    return {}


def box(widget):
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    return x0, y0, x1, y1


# --- the checks ---------------------------------------------------------------------------------------
def check(roots, window_size, primary=()) -> list[Finding]:
    """Every finding on the widgets under ``roots`` (the app's root and any open popup) in a
    window of ``window_size``; ``primary``: the widgets of the screen's primary action."""
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.textinput import TextInput

    width, height = window_size
    findings: list[Finding] = []
    for root in roots:
        for widget in root.walk(restrict=True):
            if isinstance(widget, ScrollView) and widget.children and widget.width > 0.5 \
                    and effective_opacity(widget) > 0.01 and not _hidden_screen(widget):
                findings.extend(_list(widget))  # a list squeezed to no height is not seen, and that is the fault
            if not seen(widget) or _hidden_screen(widget):
                continue
            if in_scroll(widget) is None:
                x0, y0, x1, y1 = box(widget)
                if x0 < -SLACK or y0 < -SLACK or x1 > width + SLACK or y1 > height + SLACK:
                    findings.append(Finding("outside", describe(widget),
                                            f"box ({x0:.0f}, {y0:.0f})-({x1:.0f}, {y1:.0f}) in a {width}x{height} window"))
            if isinstance(widget, Label) and str(widget.text).strip():
                findings.extend(_label(widget))
            elif isinstance(widget, TextInput):
                findings.extend(_text_input(widget))
    for widget in primary:
        if widget is None or not seen(widget):
            findings.append(Finding("primary", describe(widget) if widget is not None else "?", "not shown"))
            continue
        x0, y0, x1, y1 = box(widget)
        if in_scroll(widget) is not None:
            findings.append(Finding("primary", describe(widget), "inside a scrolling list"))
        elif x0 < -SLACK or y0 < -SLACK or x1 > width + SLACK or y1 > height + SLACK:
            findings.append(Finding("primary", describe(widget), "not wholly in the window"))
    return findings


def _list(scroll) -> list[Finding]:
    """A scrolling list shows at least one whole row of what it holds (a list squeezed to
    nothing hides its rows: the show's combinations once did, held tall)."""
    content = scroll.children[0]
    rows = [c for c in content.children if c.height > 0.5 and c.opacity > 0]
    if not rows:
        return []
    needed = min(content.height, min(c.height for c in rows))
    if scroll.height + SLACK < needed:
        return [Finding("list", describe(scroll), f"shows {scroll.height:.0f} px of a list whose rows are "
                                                  f"{needed:.0f} px tall")]
    return []


def _hidden_screen(widget) -> bool:
    from kivy.uix.screenmanager import Screen

    node = widget
    while node is not None and node is not node.parent:
        if isinstance(node, Screen) and node.manager is not None and node.manager.current_screen is not node:
            return True
        node = node.parent
    return False


_SIZE_TAG = re.compile(r"\[size=([0-9.]+)(sp|dp|px|pt)?\]")
_COLOUR_TAG = re.compile(r"\[color=([#0-9a-fA-F]+)\]")


def _metric(value: str, unit: str | None) -> float:
    from kivy.metrics import dp, pt, sp

    number = float(value)
    return {"sp": sp, "dp": dp, "pt": pt}.get(unit or "px", lambda v: v)(number)


def _sizes(label) -> list[float]:
    sizes = [float(label.font_size)]
    if getattr(label, "markup", False):
        sizes += [_metric(v, u) for v, u in _SIZE_TAG.findall(label.text)]
    return sizes


def _label(label) -> list[Finding]:
    from kivy.metrics import sp

    out = []
    smallest = min(_sizes(label))
    if smallest < sp(MIN_SP) - 0.01:
        out.append(Finding("small", describe(label), f"text at {smallest:.1f} px, under {sp(MIN_SP):.1f} ({MIN_SP} sp)"))
    need_w, need_h = needed(label)
    if need_w > label.width + SLACK or need_h > label.height + SLACK:
        out.append(Finding("clipped", describe(label),
                           f"text needs {need_w:.0f}x{need_h:.0f}, its box is {label.width:.0f}x{label.height:.0f}"))
    if not label.disabled:
        behind = background(label)
        alpha = (label.color[3] if len(label.color) > 3 else 1.0) * effective_opacity(label)
        colours = [tuple(label.color)]
        if getattr(label, "markup", False):
            colours += [c for c in (parse_colour(v) for v in _COLOUR_TAG.findall(label.text)) if c]
        for colour in colours:
            ratio = contrast(over(colour, alpha * (colour[3] if len(colour) > 3 else 1.0), behind), behind)
            if ratio < MIN_CONTRAST - 0.005:
                out.append(Finding("contrast", describe(label),
                                   f"{ratio:.2f}:1 ({_hex(colour)} on {_hex(behind)}), under {MIN_CONTRAST}:1"))
    return out


def _hex(colour) -> str:
    return "#" + "".join(f"{round(float(c) * 255):02x}" for c in colour[:3])


def needed(label) -> tuple[float, float]:
    """The size ``label``'s text takes laid out whole: wrapped at its wrapping width, every
    line kept, nothing shortened."""
    core = label._label
    options = dict(core.options)
    text = options.pop("text", label.text)
    wrap = label.text_size[0] if label.text_size and label.text_size[0] is not None else None
    options.update(text_size=(wrap, None), shorten=False, max_lines=0)
    probe = type(core)(text=text, **options)
    probe.refresh()
    texture = probe.texture
    return (texture.width, texture.height) if texture is not None else (0.0, 0.0)


def _text_input(field) -> list[Finding]:
    from kivy.core.text import Label as CoreLabel
    from kivy.metrics import sp

    out = []
    text = field.text or field.hint_text
    if not str(text).strip():
        return out
    if float(field.font_size) < sp(MIN_SP) - 0.01:
        out.append(Finding("small", describe(field), f"text at {float(field.font_size):.1f} px, under {MIN_SP} sp"))
    probe = CoreLabel(text=str(text), font_size=field.font_size, font_name=field.font_name)
    probe.refresh()
    pad_l, pad_t, pad_r, pad_b = field.padding if len(field.padding) == 4 else (field.padding * 2)[:4]
    room_w, room_h = field.width - pad_l - pad_r, field.height - pad_t - pad_b
    if not field.multiline and (probe.texture.width > room_w + SLACK or probe.texture.height > room_h + SLACK):
        out.append(Finding("clipped", describe(field), f"{'text' if field.text else 'hint'} needs "
                                                       f"{probe.texture.width:.0f} px, the field shows {room_w:.0f}"))
    if not field.disabled:
        behind = background(field)
        colour = field.foreground_color if field.text else field.hint_text_color
        alpha = (colour[3] if len(colour) > 3 else 1.0) * effective_opacity(field)
        ratio = contrast(over(colour, alpha, behind), behind)
        if ratio < MIN_CONTRAST - 0.005:
            out.append(Finding("contrast", describe(field),
                               f"{ratio:.2f}:1 ({_hex(colour)} on {_hex(behind)}), under {MIN_CONTRAST}:1"))
    return out
