"""Where photos come from, behind one small interface (desktop camera, Android, tests, demo).

``FrameSource``: ``start()`` / ``stop()``, ``frame()`` -> the newest BGR frame (a copy) or None,
``frame_id`` (grows with each new frame) and ``still()`` -> the photo to count when the player
shoots (a path to an encoded file, or BGR pixels). ``FakeCamera`` plays files (the sample
photos in the demo and the tests); ``KivyCamera`` wraps Kivy's core camera (OpenCV or
GStreamer provider on a desktop). ``open_camera`` picks one, or None when there is no camera.
"""

from __future__ import annotations

import glob
import os
import sys
import threading
import time
from pathlib import Path
from typing import Sequence

import numpy as np

def sample_photos(folder: Path | str | None = None) -> list[str]:
    """The photos of ``folder`` (default: the sample photos, from a checkout or the package)."""
    from companion.paths import sample_images

    folder = Path(folder) if folder else sample_images()
    return sorted(str(p) for p in folder.glob("*.jpg"))


class FrameSource:
    name = "camera"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self.frame_id = 0
        self.error: str | None = None

    def start(self) -> bool:
        return True

    def stop(self) -> None:
        pass

    def _set_frame(self, frame: np.ndarray) -> None:
        with self._lock:
            self._frame = frame
            self.frame_id += 1

    def frame(self) -> np.ndarray | None:
        with self._lock:
            return None if self._frame is None else self._frame

    def still(self):
        """What the shutter takes: BGR pixels of the newest frame (or None)."""
        frame = self.frame()
        return None if frame is None else frame.copy()


class FakeCamera(FrameSource):
    """A camera that shows photo files: the demo's and the tests' camera. ``show(path)`` points
    it at one photo; ``next()`` moves to the next file; ``still()`` gives the file itself."""

    name = "sample photos"

    def __init__(self, paths: Sequence[str] | None = None, streaming: bool = False) -> None:
        super().__init__()
        self.streaming = streaming  # every frame() is a new frame, as from a video camera (bench)
        self.paths = list(paths) if paths else sample_photos()
        if not self.paths:
            raise ValueError("the fake camera needs at least one photo file")
        self.index = 0
        self._cache: dict[str, np.ndarray] = {}
        self._load()

    def _load(self) -> None:
        import cv2

        path = self.paths[self.index]
        if path not in self._cache:
            image = cv2.imread(path, cv2.IMREAD_COLOR)
            if image is None:
                raise ValueError(f"{path}: not a readable photo")
            self._cache[path] = image
        self._set_frame(self._cache[path])

    @property
    def current(self) -> str:
        return self.paths[self.index]

    def show(self, path: str) -> None:
        if path not in self.paths:
            self.paths.append(path)
        self.index = self.paths.index(path)
        self._load()

    def next(self) -> None:
        self.index = (self.index + 1) % len(self.paths)
        self._load()

    def frame(self):
        if self.streaming:
            with self._lock:
                self.frame_id += 1
        return super().frame()

    def still(self):
        return self.current


# The frame sizes asked of the camera, largest first. The shutter keeps a preview frame, so its
# size is the photo's: on the bench's renders (300 scenes, models v10) a 1280x720 frame reads 91.5 %
# of the cards and 94.8 % of a show photo's, a 1920x1080 one 95.4 % and 98.0 % (docs/APP.md). A
# camera (Kivy's Android provider) that cannot give a size refuses to start with it: the next is tried.
RESOLUTIONS: tuple[tuple[int, int], ...] = ((1920, 1080), (1280, 720))


class KivyCamera(FrameSource):
    """Kivy's core camera, at the first of ``resolutions`` it starts with (``resolution``: the
    size asked of it then). Frames are copied from its texture on the UI thread, at most
    ``max_fps`` a second (the live view needs no more, and each copy costs a GL read)."""

    name = "camera"

    def __init__(self, index: int = 0, resolutions: Sequence[tuple[int, int]] = RESOLUTIONS,
                 max_fps: float = 12.0) -> None:
        super().__init__()
        if not resolutions:
            raise ValueError("the camera needs at least one resolution to ask for")
        self.index, self.resolutions, self.max_fps = index, tuple(resolutions), max_fps
        self.resolution = self.resolutions[0]
        self._camera = None
        self._last = 0.0

    def start(self) -> bool:
        try:
            from kivy.core.camera import Camera as CoreCamera
        except Exception as exc:  # no camera provider at all
            return self._failed(str(exc))
        if self._camera is not None:
            try:
                self._camera.start()
                return True
            except Exception as exc:  # the device went away while stopped
                self._camera = None
                return self._failed(str(exc))
        failures = []
        for resolution in self.resolutions:
            try:
                camera = CoreCamera(index=self.index, resolution=resolution, stopped=True)
                camera.bind(on_texture=self._on_texture)
                camera.start()
            except Exception as exc:  # no device, device busy, a size it cannot give
                failures.append(f"{resolution[0]}x{resolution[1]}: {exc}")
                continue
            self._camera, self.resolution, self.error = camera, resolution, None
            return True
        return self._failed("; ".join(failures))

    def _failed(self, reason: str) -> bool:
        self.error = f"the camera did not start ({reason}): pick a photo file instead"
        return False

    def stop(self) -> None:
        if self._camera is not None:
            try:
                self._camera.stop()
            except Exception:
                pass

    @property
    def texture(self):
        """The camera's own texture, for the preview (None until it delivers)."""
        return self._camera.texture if self._camera is not None else None

    def _on_texture(self, camera) -> None:
        now = time.monotonic()
        if now - self._last < 1.0 / self.max_fps or camera.texture is None:
            return
        self._last = now
        texture = camera.texture
        rgba = np.frombuffer(texture.pixels, np.uint8).reshape(texture.height, texture.width, 4)
        self._set_frame(np.ascontiguousarray(rgba[::-1, :, 2::-1]))  # GL rows bottom-up, RGBA -> BGR


def has_camera_device() -> bool:
    """A camera may be there: on Linux a /dev/video* node; elsewhere assume so and let start() tell."""
    if sys.platform.startswith("linux") and "ANDROID_ARGUMENT" not in os.environ:
        return bool(glob.glob("/dev/video*"))
    return True


def open_camera(demo: bool = False) -> FrameSource | None:
    """The camera to use: the sample photos in the demo, Kivy's camera when a device is there, else None."""
    if demo:
        return FakeCamera()
    return KivyCamera() if has_camera_device() else None
