"""Settings survive bad files; ``crib app`` without a display says so in one line."""

import json
import os
import subprocess
import sys

from companion.ui import settings as store


def test_bad_settings_fall_back_one_by_one(tmp_path):
    (tmp_path / store.SETTINGS_FILE).write_text(json.dumps({"brightness": 42, "preset": "pub", "sound": "loud",
                                                            "players": ["Zoe", "Yan"], "unknown": 1}))
    s = store.load(tmp_path)
    assert (s.brightness, s.preset, s.sound, s.players) == (4, "pub", True, ("Zoe", "Yan"))
    store.save(tmp_path, s)
    assert store.load(tmp_path) == s
    (tmp_path / store.SETTINGS_FILE).write_text("{not json")
    assert store.load(tmp_path) == store.Settings()


def test_the_flag_threshold_is_the_models_own_until_the_player_sets_one(tmp_path):
    assert store.Settings().confirm_below is None  # the recogniser then takes the models' calibration
    for saved, read in ((None, None), (0.7, 0.7), (0.997, 0.997), (0.02, None), (1.0, None), ("high", None)):
        (tmp_path / store.SETTINGS_FILE).write_text(json.dumps({"confirm_below": saved}))
        assert store.load(tmp_path).confirm_below == read, saved


def test_crib_app_without_a_display_is_one_line():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    out = subprocess.run([sys.executable, "-m", "companion", "app"], env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "make screenshots" in out.stderr and "Traceback" not in out.stderr


def test_buildozer_spec_has_run_time_dependencies_only():
    import configparser
    from pathlib import Path

    spec = configparser.ConfigParser()
    spec.read(Path(__file__).resolve().parents[2] / "buildozer.spec")
    requirements = {r.split("==")[0].strip() for r in spec["app"]["requirements"].split(",")}
    assert {"python3", "kivy", "numpy", "opencv", "pillow", "pyserial", "plyer"} <= requirements
    assert not requirements & {"torch", "torchvision", "ultralytics", "onnx", "onnxruntime", "onnxslim"}
    assert "CAMERA" in spec["app"]["android.permissions"]


def test_a_failed_screenshot_walk_says_why(tmp_path):
    # Kivy routes sys.stderr into its log, which `make screenshots` turns off: the walk's error
    # must still reach the parent, which prints the child's stderr tail
    child = ("import sys, kivy.logger\n"
             "from companion.ui import screenshots\n"
             "def broken(out, orientation): raise RuntimeError('the review screen never opened')\n"
             "screenshots.shoot_all = broken\n"
             f"sys.exit(screenshots.main(['--one', 'landscape', {str(tmp_path)!r}]))\n")
    env = dict(os.environ, KIVY_LOG_MODE="KIVY", KIVY_NO_CONSOLELOG="1", KIVY_NO_ARGS="1",
               KIVY_HOME=str(tmp_path / "kivy"))
    out = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "RuntimeError: the review screen never opened" in out.stderr.strip().splitlines()[-1]
