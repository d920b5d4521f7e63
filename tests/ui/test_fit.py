"""Every screen fits the tablets and the phone players hold (issue 36): the scripted walk
(companion.ui.walk) visits each screen in each state that matters, and at 1280x800, 800x1280
and 720x1280 the fit check (companion.ui.fit) finds no widget outside the window, no primary
action behind a scroll, no clipped text, no text under 15 sp and no contrast under 4.5:1."""

import pytest
from kivy.metrics import dp

pytestmark = pytest.mark.xdist_group("the-walk")  # one walk for the modules that look along it


FOUND: dict[str, list[str]] = {}  # {"state at size": [finding, ...]} over the session's walk


def look_along_the_walk(h, name, primary):
    """At each state of the walk (tests/ui/conftest.py's the_walk), the fit check at each size."""
    from companion.ui import fit
    from companion.ui.walk import SIZES

    for label, size in SIZES.items():
        h.resize(size)
        h.pump(frames=3)
        roots = [h.app.root] + ([h.popup()] if h.popup() is not None else [])
        problems = fit.check(roots, size, primary())
        if problems:
            FOUND[f"{name} at {label} {size[0]}x{size[1]}"] = [str(p) for p in problems]
    h.resize(SIZES["landscape"])


def test_every_screen_fits_each_size(the_walk):
    visited = the_walk.looked(look_along_the_walk)
    assert {"home-tour", "home", "new_game", "table-deal", "discard", "pegging", "pegging-go", "show-claim",
            "show-muggins", "capture", "review", "show", "history", "settings", "game-over",
            "pegging-points", "show-29", "show-crib-24"} <= set(visited)  # the longest show: a 29 hand, a 24 crib
    assert FOUND == {}


def test_the_fit_check_finds_each_kind_of_fault(start_app):
    """Each rule can fail: a button below the window's edge, a primary action in a scrolling
    list, a label too small for its text, text at 14 sp, grey text on grey."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.widget import Widget

    from companion.ui import fit

    h = start_app()
    root = Widget(size=(400, 300))
    below = Button(text="Start", pos=(10, -40), size=(200, 56))
    tight = Label(text="a label much too long for its box", font_size=dp(20), pos=(10, 100), size=(60, 30))
    tiny = Label(text="small print", font_size=dp(14), pos=(10, 200), size=(300, 40))
    faint = Button(text="faint", pos=(220, 10), size=(150, 56), background_normal="",
                   background_color=(0.5, 0.5, 0.5, 1), color=(0.62, 0.62, 0.62, 1))
    scroll = ScrollView(pos=(220, 200), size=(150, 90))
    inner = BoxLayout(size_hint_y=None, height=200)
    in_scroll = Button(text="Go")
    inner.add_widget(in_scroll)
    scroll.add_widget(inner)
    for widget in (below, tight, tiny, faint, scroll):
        root.add_widget(widget)
    h.window.add_widget(root)
    h.pump(frames=3)
    try:
        found = fit.check([root], (400, 300), primary=[in_scroll])
    finally:
        h.window.remove_widget(root)
    rules = {(f.rule, f.widget.split()[0]) for f in found}
    assert {("outside", "Button"), ("clipped", "Label"), ("small", "Label"), ("contrast", "Button"),
            ("primary", "Button")} <= rules
    assert all(f.rule != "contrast" or "faint" in f.widget for f in found)  # light text on felt passes


def test_contrast_is_measured_as_wcag_says():
    from companion.ui import fit

    assert round(fit.contrast((0, 0, 0), (1, 1, 1)), 1) == 21.0
    assert round(fit.contrast((0.4627, 0.4627, 0.4627), (1, 1, 1)), 1) == 4.5  # #767676 on white: AA's edge
    assert fit.contrast((0.5, 0.5, 0.5), (0.5, 0.5, 0.5)) == 1.0
