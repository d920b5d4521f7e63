"""The tablet app's speed, headless (SDL offscreen, real rendering), each against a peer
measured in the same run:

    python bench/app.py [--repeat 5] [--live-seconds 8]

1. Cold start to the home screen (a fresh interpreter: imports, window, every screen built,
   the game list read) -- target <= 3 s. Peer: a bare Kivy app showing one label.
2. Photo to scored show: the shutter pressed on the crib's photo (the sample photo as the
   camera), recognition, the count (nothing is flagged on this photo, so the review is not
   needed), the show screen drawn with the breakdown -- target <= 1 s (median). Peer: ``count_show`` on the same photo alone.
3. Live view: named preview frames per second (a camera that delivers a new frame every time
   one is asked for; ``Recognizer.preview``), on 16:9 frames as the app asks the camera for (the
   crib photo's middle at 1280x720) and on the 4:3 photo itself -- target >= 5 frames/s and >= 2x its peer:
   ``Recognizer.recognize`` (the shutter's whole recognition) in a loop on the same frame, one
   thread, nothing else running.
4. The same in the running app: the capture screen's live view, frames named per second over
   ``--live-seconds``, against the same app whose live view runs the whole recognition (in turn,
   twice each, in one app) -- target >= 2x. Under a virtual display:
   ``xvfb-run -a env SDL_VIDEODRIVER=x11 python bench/app.py --live-only``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

CRIB_PHOTO = str(ROOT / "sample_images" / "hand_starter_spread_large.jpg")  # KD 3D JD 4S + starter 6S, none flagged (models v4)
ANN, BEN = ["2C", "3H", "4H", "7H"], ["8S", "8D", "TC", "JS"]  # none in the crib photo

COLD_APP = """
import time, tempfile, sys
from companion.ui.headless import Headless
h = Headless(tempfile.mkdtemp())
h.wait(lambda: h.current == "home" and h.screen("home").ids.new_game.text)
print("READY", time.time())
h.close()
"""
COLD_PEER = """
import time, os
from kivy.base import EventLoop
from kivy.uix.label import Label
from kivy.core.window import Window
EventLoop.ensure_window()
Window.add_widget(Label(text="Crib Companion"))
EventLoop.idle()
print("READY", time.time())
"""


def cold(code: str) -> float:
    started = time.time()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env=dict(os.environ))
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("READY")), None)
    if line is None:
        raise SystemExit(f"cold start failed: {out.stderr.strip().splitlines()[-1:]}")
    return float(line.split()[1]) - started


def photo_to_show(repeat: int) -> list[float]:
    from companion.game import GameSession
    from companion.ui.camera import FakeCamera
    from companion.ui.headless import Headless

    h = Headless(Path(tempfile.mkdtemp()), camera=FakeCamera([CRIB_PHOTO]))
    h.wait()
    h.companion.recognizer()  # the models load once per app, at its first photo: not what is timed
    times = []
    try:
        for _ in range(repeat):
            h.companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0)
            h.wait()
            h.companion.act(GameSession.discard)
            h.companion.act(GameSession.cut, "6S")  # the photo's starter
            h.play_out({0: list(ANN), 1: list(BEN)})
            h.companion.act(GameSession.show)
            h.companion.act(GameSession.show)
            h.wait()
            h.app.go("capture", purpose="show")
            h.wait()
            show = h.screen("show")
            started = time.perf_counter()
            h.tap(h.screen("capture").ids.shoot)
            counted = lambda: h.current == "show" and show.total is not None  # noqa: E731
            while not counted() and h.current != "review" and time.perf_counter() - started < 30:
                h.pump(frames=1)  # frame by frame: stop at the first frame that has the count
            if h.current == "review":  # a card to check on this photo: the player taps Count
                h.tap(h.screen("review").ids.count)
                h.wait(counted, what="show")
            h.pump(frames=1)  # the show drawn
            times.append(time.perf_counter() - started)
            h.screen("capture").stop_live()
    finally:
        h.close()
    return times


def photo_peer(repeat: int) -> list[float]:
    from companion.photo import count_show
    from vision import Recognizer

    recognizer = Recognizer()
    count_show(CRIB_PHOTO, recognizer=recognizer)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        count_show(CRIB_PHOTO, recognizer=recognizer)
        times.append(time.perf_counter() - started)
    return times


def wide_frame() -> str:
    """The crib photo as the tablet's camera gives it: 16:9 (the app asks for 1920x1080, else
    1280x720), cut from the middle of the 4:3 photo at 1280x720; a JPEG in a temporary folder."""
    import cv2

    image = cv2.imread(CRIB_PHOTO)
    height, width = image.shape[:2]
    top = (height - width * 9 // 16) // 2
    path = Path(tempfile.mkdtemp(prefix="bench-live-")) / "crib_16x9.jpg"
    cv2.imwrite(str(path), image[top:top + width * 9 // 16], [cv2.IMWRITE_JPEG_QUALITY, 95])
    return str(path)


def live(seconds: float, photo: str = CRIB_PHOTO, rounds: int = 3) -> tuple[float, float]:
    """The live view's named frames a second and its peer's, in turn ``rounds`` times (``seconds``
    each in all): a shared machine's load falls on both alike."""
    import cv2

    from companion.ui.background import direct_deliver
    from companion.ui.camera import FakeCamera
    from companion.ui.live import LiveView
    from vision import Recognizer

    recognizer = Recognizer()
    frame = cv2.imread(photo)
    recognizer.recognize(frame)
    live_frames = live_time = peer_frames = peer_time = 0.0
    for _ in range(rounds):
        results = []
        view = LiveView(FakeCamera([photo], streaming=True), results.append, direct_deliver, Recognizer)
        view.start()
        while not results:
            time.sleep(0.05)
        first, started = len(results), time.perf_counter()
        time.sleep(seconds / rounds)
        live_frames += len(results) - first
        live_time += time.perf_counter() - started
        view.stop()
        started = time.perf_counter()
        while time.perf_counter() - started < seconds / rounds:
            recognizer.recognize(frame)
            peer_frames += 1
        peer_time += time.perf_counter() - started
    return live_frames / live_time, peer_frames / peer_time


APP_LIVE = """
import sys, tempfile, time
from companion.ui.camera import FakeCamera
from companion.ui.headless import Headless
import vision

seconds = float(sys.argv[1])
h = Headless(tempfile.mkdtemp(), camera=FakeCamera([sys.argv[2]], streaming=True))
h.wait()
preview = vision.Recognizer.preview
whole = lambda self, frame, name="preview": self.recognize(frame, name)  # the live view before issue 56
rates = {"preview": [], "whole": []}
for turn in ("preview", "whole", "preview", "whole"):
    vision.Recognizer.preview = preview if turn == "preview" else whole
    h.app.go("capture", purpose="show")
    capture = h.screen("capture")
    h.wait(lambda: capture.live is not None and capture.live.frames >= 2, timeout=120, what="live frames")
    first, started = capture.live.frames, time.perf_counter()
    h.pump(seconds)
    rates[turn].append((capture.live.frames - first) / (time.perf_counter() - started))
    capture.stop_live()
    h.app.go("home")
    h.wait()
h.close()
print("RATES", sum(rates["preview"]) / 2, sum(rates["whole"]) / 2)
"""


def live_in_app(seconds: float, photo: str = CRIB_PHOTO) -> tuple[float, float]:
    """The capture screen's live view in a running app: frames named a second with ``preview``, and
    with the whole recognition (the peer), in one app in turn."""
    out = subprocess.run([sys.executable, "-c", APP_LIVE, str(seconds), photo], capture_output=True, text=True,
                         cwd=ROOT, timeout=60 + 8 * seconds, env=dict(os.environ))
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("RATES")), None)
    if line is None:
        raise SystemExit(f"live view in the app failed: {out.stderr.strip().splitlines()[-1:]}")
    preview, whole = map(float, line.split()[1:])
    return preview, whole


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--live-seconds", type=float, default=8.0)
    parser.add_argument("--live-only", action="store_true", help="the live view's two measures only")
    args = parser.parse_args()
    if args.live_only:
        report_live(args.live_seconds)
        return 0

    app_cold = statistics.median(cold(COLD_APP) for _ in range(3))
    peer_cold = statistics.median(cold(COLD_PEER) for _ in range(3))
    print(f"cold start to home: {app_cold:.2f} s (target <= 3 s) | peer bare Kivy label {peer_cold:.2f} s | "
          f"ratio {app_cold / peer_cold:.2f}")

    app_photo = photo_to_show(args.repeat)
    peer_photo = photo_peer(args.repeat)
    m_app, m_peer = statistics.median(app_photo), statistics.median(peer_photo)
    print(f"photo to scored show: median {m_app:.3f} s, worst {max(app_photo):.3f} s (target <= 1 s) | "
          f"peer count_show alone {m_peer:.3f} s | ratio {m_app / m_peer:.2f}")

    report_live(args.live_seconds)
    return 0


def report_live(seconds: float) -> None:
    for label, photo in (("16:9 frames, as the app asks the camera", wide_frame()), ("the 4:3 photo", CRIB_PHOTO)):
        fps, peer_fps = live(seconds, photo)
        print(f"live view, {label}: {fps:.1f} named frames/s (target >= 5) | peer recognize() loop "
              f"{peer_fps:.1f} /s | ratio {fps / peer_fps:.2f} (target >= 2)")
        app_fps, app_whole = live_in_app(seconds, photo)
        print(f"live view in the app, {label}: {app_fps:.1f} frames/s | the same app with the whole "
              f"recognition {app_whole:.1f} /s | ratio {app_fps / app_whole:.2f} (target >= 2)")


if __name__ == "__main__":
    sys.exit(main())
