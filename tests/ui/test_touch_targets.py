"""Every button, toggle, spinner, text box and checkbox on every screen (both popups' keys too)
is a touch target of at least 48 dp, at the tablet's size."""

from kivy.metrics import dp
from kivy.uix.button import Button
from kivy.uix.checkbox import CheckBox
from kivy.uix.textinput import TextInput

from companion.game import GameSession

from tests.ui.conftest import SAMPLES

TARGETS = (Button, CheckBox, TextInput)


def small_targets(root) -> list[str]:
    out = []
    for widget in root.walk(restrict=True):
        if not isinstance(widget, TARGETS) or widget.opacity == 0 or widget.width == 0 or widget.height == 0:
            continue
        if min(widget.width, widget.height) < dp(48) - 0.5:
            out.append(f"{type(widget).__name__} {getattr(widget, 'text', '')!r} {widget.size}")
    return out


def test_every_touch_target_is_at_least_48_dp(start_app):
    from companion.ui.camera import FakeCamera
    from companion.ui.widgets.picker import CardPicker

    h = start_app(camera=FakeCamera([str(SAMPLES / "hand_starter_papers.jpg")]))
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0)
    h.wait()
    for move, args in ((GameSession.discard, ()), (GameSession.cut, ("AD",)), (GameSession.lay, ("8S",))):
        h.companion.act(move, *args)
    h.wait()
    problems = {}
    for name in ("home", "new_game", "table", "pegging", "show", "discard", "history", "settings", "capture"):
        h.app.go(name)
        h.wait()
        h.pump(frames=3)
        problems[name] = small_targets(h.screen(name))
    picker = CardPicker("a card", lambda code: None, actions=[("Leave out", lambda: None)])
    picker.open()
    h.pump(0.3, frames=5)
    problems["picker"] = small_targets(picker)
    picker.dismiss()
    assert {k: v for k, v in problems.items() if v} == {}
