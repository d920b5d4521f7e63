"""The live view over the preview, Speak, an overclaim corrected on the show, history with its
export, and settings saved and applied to the board."""

import json
import os
import stat

import pytest

from companion.game import GameSession

from tests.ui.conftest import SAMPLES

PHOTO = str(SAMPLES / "hand_starter_papers.jpg")


def played_to_the_show(h):
    """A deal played through the session to the show (the cards as in the deal walk)."""
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0)
    h.wait()
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "AD")
    h.play_out({0: ["2C", "3D", "4S", "7H"], 1: ["8S", "8D", "TC", "JS"]})


def test_the_live_view_names_the_cards_over_the_preview(start_app):
    from companion.ui.camera import FakeCamera

    h = start_app(camera=FakeCamera([PHOTO]))
    h.app.go("capture", purpose="show")
    capture = h.screen("capture")
    h.wait(lambda: capture.live_line.startswith("Live:"), timeout=60, what="a live result")
    labels = {box["label"] for box in capture.ids.preview.boxes}
    assert {"9♥", "6♦", "5♣", "A♦"} <= labels or {"9H", "6D", "5C", "AD"} <= labels
    h.wait(lambda: "frames/s" in capture.live_line, timeout=60, what="a second live result")
    h.tap(capture.ids.live)  # off: the names go
    assert not capture.live_on and capture.ids.preview.boxes == [] and capture.live is None


def test_speak_reads_the_count_aloud(start_app, tmp_path, monkeypatch):
    said = tmp_path / "said.txt"
    fake = tmp_path / "bin" / "espeak-ng"
    fake.parent.mkdir()
    fake.write_text(f"#!/bin/sh\nshift 2\necho \"$@\" >> {said}\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    h = start_app()
    played_to_the_show(h)
    h.app.go("show")
    show = h.screen("show")
    assert show.can_speak and show.total == 2
    h.tap(show.ids.speak)
    for _ in range(100):
        if said.exists() and said.read_text().strip():
            break
        h.pump(0.05)
    assert said.read_text().strip() == "A pair is two"  # the spoken count ends with its total: said once


def test_no_voice_no_speak_button(start_app, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    h = start_app()
    played_to_the_show(h)
    h.app.go("show")
    show = h.screen("show")
    assert not show.can_speak and show.ids.speak.disabled and show.ids.speak.opacity == 0


def test_an_overclaim_is_corrected_on_the_show(start_app):
    h = start_app()
    played_to_the_show(h)
    h.app.go("show")
    show = h.screen("show")
    before = h.companion.view.scores[1]
    for key in "12":  # two digits: claimed as the second is tapped
        h.tap(next(b for b in show.ids.keypad.children if b.text == key))
    h.wait()
    assert "claimed 12 of 2: 10 too many, corrected" in show.last
    assert h.companion.view.scores[1] == before + 2  # the peg goes to what the cards are worth


def test_history_charts_and_export(start_app):
    h = start_app()
    played_to_the_show(h)
    h.app.go("history")
    h.wait()
    history = h.screen("history")
    assert history.ids.averages.groups == ["Ann", "Ben"]
    assert dict(history.ids.averages.series)["pegging"][1] > 0
    export = next(w for w in history.ids.games.walk() if getattr(w, "text", "") == "Export")
    h.tap(export)
    h.wait()
    path = h.app.message.split(" saved to ")[1]
    data = json.loads(open(path).read())
    assert data["players"] == ["Ann", "Ben"] and data["entries"][0]["type"] == "new-game"
    assert [e["type"] for e in data["entries"]].count("lay") == 8
    from companion.game.transfer import read_export

    assert len(read_export(path)) == len(data["entries"])  # the file reads back whole


def test_settings_are_saved_and_the_board_follows(start_app, firmware):
    from companion.ui import settings as store

    h = start_app()
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0, board="none")
    h.wait()
    h.app.go("settings")
    h.wait()
    screen = h.screen("settings")
    screen.ids.board.text = "sim"
    screen.ids.brightness.value = 7
    screen.ids.confidence.value = 3  # three nines: asks about cards under 99.9 %
    h.tap(screen.ids.save)
    h.wait(lambda: "board sim://2-track" in h.app.message, what="the board reconnected")
    saved = store.load(h.companion.folder)
    assert (saved.board, saved.brightness, saved.confirm_below) == ("sim", 7, 0.999)
    driver = h.companion.sync.driver
    assert driver.wait_connected(30)
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "JD")
    h.wait()
    deadline = 100
    while (driver.shown is None or driver.shown.pegs[0][0] != 2) and deadline:
        h.pump(0.05)
        deadline -= 1
    assert driver.shown.pegs[0][0] == 2 and driver.shown.brightness == 7


def test_a_camera_frame_comes_out_upright_in_bgr(start_app):
    """KivyCamera copies its texture (RGBA, rows bottom-up) into BGR rows top-down, as recognition
    reads photos; texture_from_bgr is the way back."""
    import numpy as np

    from companion.ui.camera import KivyCamera
    from companion.ui.widgets.photo_view import texture_from_bgr

    start_app()
    image = np.zeros((6, 8, 3), np.uint8)
    image[0, :] = (255, 0, 0)      # top row blue
    image[:, -1] = (0, 0, 255)     # right column red
    image[5, 0] = (0, 255, 0)      # bottom-left green

    class FakeCore:
        texture = texture_from_bgr(image)

    camera = KivyCamera()
    camera._on_texture(FakeCore())
    assert camera.frame_id == 1 and np.array_equal(camera.frame(), image)


def test_a_renege_in_the_play_and_its_penalty(start_app):
    h = start_app()
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0)
    h.wait()
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "AD")
    h.wait()
    h.app.go("pegging")
    pegging = h.screen("pegging")
    h.tap(pegging.card_buttons["8S"])
    h.tap(pegging.card_buttons["7H"])
    h.wait()
    assert "+2 (fifteen)" in pegging.ids.plays.text and "fifteen for 2" in pegging.ids.last.text
    h.tap(pegging.ids.go)   # Ben says go at 15: questioned, and Ben insists: a renege
    h.wait(lambda: h.popup() is not None, what="the go questioned")
    h.tap(h.popup().buttons[1])
    h.wait(lambda: h.popup() is None, what="the question closed")
    texts = [w.text for w in pegging.ids.offers.walk() if hasattr(w, "text")]
    assert any(t.startswith("Renege: Ben said go") for t in texts)
    before = h.companion.view.scores[0]
    h.tap(next(w for w in pegging.ids.offers.walk() if getattr(w, "text", "") == "Ann pegs 2"))
    h.wait()
    assert h.companion.view.scores[0] == before + 2
    assert not any(getattr(w, "text", "").startswith("Renege") for w in pegging.ids.offers.walk())


class _CoreCameraRefusing:
    """A stand-in for Kivy's core camera that refuses some sizes, as Android's provider does."""

    refused: set = set()
    made: list = []

    def __init__(self, index, resolution, stopped):
        if tuple(resolution) in self.refused:
            raise RuntimeError(f"setParameters failed for {resolution}")
        self.resolution, self.started, self.bound = tuple(resolution), False, None
        _CoreCameraRefusing.made.append(self)

    def bind(self, on_texture):
        self.bound = on_texture

    def start(self):
        self.started = True

    def stop(self):
        self.started = False


@pytest.fixture
def refusing_core_camera(monkeypatch):
    import kivy.core.camera

    _CoreCameraRefusing.made = []
    monkeypatch.setattr(kivy.core.camera, "Camera", _CoreCameraRefusing)
    return _CoreCameraRefusing


def test_the_camera_is_asked_for_1920x1080_first(refusing_core_camera):
    from companion.ui.camera import KivyCamera

    refusing_core_camera.refused = set()
    camera = KivyCamera()
    assert camera.start() and camera.resolution == (1920, 1080) and camera.error is None
    core = refusing_core_camera.made[-1]
    assert core.resolution == (1920, 1080) and core.started and core.bound == camera._on_texture


def test_a_camera_that_cannot_give_1920x1080_starts_at_1280x720(refusing_core_camera):
    from companion.ui.camera import KivyCamera

    refusing_core_camera.refused = {(1920, 1080)}
    camera = KivyCamera()
    assert camera.start() and camera.resolution == (1280, 720) and camera.error is None
    assert [c.resolution for c in refusing_core_camera.made] == [(1280, 720)]
    camera.stop()
    assert camera.start() and len(refusing_core_camera.made) == 1  # started again, not made again


def test_a_camera_that_gives_no_size_says_so_in_words(refusing_core_camera):
    from companion.ui.camera import KivyCamera

    refusing_core_camera.refused = {(1920, 1080), (1280, 720)}
    camera = KivyCamera()
    assert not camera.start()
    assert camera.error.startswith("the camera did not start (1920x1080: setParameters failed")
    assert "1280x720: setParameters failed" in camera.error and camera.error.endswith("pick a photo file instead")
    with pytest.raises(ValueError):
        KivyCamera(resolutions=())
