"""Reading the count aloud: plyer's text to speech on Android, espeak-ng on a desktop when it
is installed; otherwise there is no voice and the Speak button is not shown."""

from __future__ import annotations

import shutil
import subprocess
from typing import Callable


def speaker() -> Callable[[str], None] | None:
    try:
        from kivy.utils import platform
    except ImportError:
        platform = ""
    if platform == "android":
        try:
            from plyer import tts

            return lambda text: tts.speak(message=text)
        except Exception:
            return None
    exe = shutil.which("espeak-ng") or shutil.which("espeak")
    if exe is None:
        return None

    def say(text: str) -> None:  # returns at once; the voice runs on its own
        subprocess.Popen([exe, "-s", "150", text], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return say
