"""``python -m companion.ui.screenshots [OUT]`` (``make screenshots``): a PNG of every screen
in every state the walk visits (companion.ui.walk), really rendered headless (SDL offscreen),
at the three sizes a player holds: a 10" tablet landscape 1280x800 (``NAME.png``), portrait
800x1280 (``NAME-portrait.png``) and a phone 720x1280 (``NAME-phone.png``). Each size runs in
its own process: an offscreen window's pixels keep the size it opened with (a resize lays the
widgets out again, which is all the fit test needs, but the picture would not follow). PNGs are
saved with 256 colours: flat screens lose nothing, photos a little, the files stay small."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

from companion.ui.walk import ROOT, SIZES

SUFFIX = {"landscape": "", "portrait": "-portrait", "phone": "-phone"}


def shoot_all(out: Path, orientation: str) -> list[Path]:
    from companion.ui.walk import Walk

    written: list[Path] = []

    def visit(name: str, _primary) -> None:
        path = walk.h.screenshot(out / f"{name}{SUFFIX[orientation]}.png")
        _small_png(path)
        written.append(path)
    walk = Walk(visit, size=SIZES[orientation])
    walk.run()
    return written


def _small_png(path: Path) -> None:
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--one":
        out, orientation = Path(argv[2]), argv[1]
        try:
            written = shoot_all(out, orientation)
        except Exception:  # Kivy routes sys.stderr into its log (off here): the parent reads the real one
            traceback.print_exc(file=sys.__stderr__)
            return 1
        for path in written:
            print(path)
        return 0
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
               KIVY_HOME=tempfile.mkdtemp(prefix="kivy-home-"))
    for orientation in SIZES:
        result = subprocess.run([sys.executable, "-m", "companion.ui.screenshots", "--one", orientation, str(out)],
                                env=env, capture_output=True, text=True, cwd=ROOT)
        if result.returncode:
            tail = (result.stderr or result.stdout).strip().splitlines()[-5:]
            print(f"screenshots ({orientation}) failed:\n" + "\n".join(tail), file=sys.stderr)
            return 1
        print(result.stdout.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
