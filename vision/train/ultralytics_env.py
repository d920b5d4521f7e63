"""Ultralytics set up to run offline: no telemetry, no font or weight downloads."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
)


def offline_ultralytics(config_dir: Path):
    """Import ultralytics with its settings in ``config_dir`` and a local font as Arial.ttf."""
    config_dir = Path(config_dir).resolve()
    font_dir = config_dir / "Ultralytics"
    font_dir.mkdir(parents=True, exist_ok=True)
    target = font_dir / "Arial.ttf"
    if not target.exists():
        source = next((Path(p) for p in FONT_CANDIDATES if Path(p).exists()), None)
        if source is None:
            import matplotlib  # ships DejaVuSans

            source = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
        shutil.copy(source, target)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    import ultralytics

    return ultralytics
