"""bench/vision.py keeps its seeds apart: bench figures only on bench seeds, model selection
(--tuning) only on tuning seeds, never on training scenes."""

import argparse
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "vision.py"


@pytest.mark.parametrize("args, message", [
    (("--seed", "8600000", "--n", "2"), "bench seeds start at 9000000"),
    (("--tuning", "--seed", "8999990", "--n", "20"), "tuning seeds are 8500000..8999999"),
    (("--tuning", "--seed", "100", "--n", "2"), "tuning seeds are 8500000..8999999"),
    (("--size", "4000", "--n", "2"), "--size must be WIDTHxHEIGHT, each 320-8000 px (e.g. 4000x3000), got '4000'"),
    (("--size", "100x80", "--n", "2"), "--size must be WIDTHxHEIGHT"),
])
def test_seeds_outside_their_range_are_refused(args, message):
    result = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


MODELS_SPEED = BENCH.parent / "models_speed.py"


@pytest.mark.parametrize("args, message", [
    (("--models", "no/such/folder"), "no/such/folder: no models.json (not a model folder)"),
    (("--models", "models", "--seed", "8500000"), "bench seeds start at 9000000"),
    (("--models", "models", "--n", "0"), "--n must be at least 1"),
])
def test_models_speed_refuses_bad_arguments_in_one_line(args, message):
    result = subprocess.run([sys.executable, str(MODELS_SPEED), *args], capture_output=True, text=True, timeout=120,
                            cwd=BENCH.parents[1])
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_models_speed_times_both_folders_on_the_same_photos():
    result = subprocess.run([sys.executable, str(MODELS_SPEED), "--models", "models", "--n", "2"], capture_output=True,
                            text=True, timeout=300, cwd=BENCH.parents[1])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("candidate (models): median ") and "over 2 photos" in lines[0]
    assert lines[1].startswith("peer (") and lines[2].startswith("ratio of medians, candidate / peer: ")


def test_a_render_size_is_the_photo_size_the_bench_reads(bench_module):
    """``--size`` renders the bench's scenes at a camera's size (the speed line names it)."""
    vision_bench = bench_module("vision")
    args = argparse.Namespace(n=1, seed=None, tuning=False, mix="v4", show_share=1.0, decks="kennard", workers=1,
                              size="640x480")
    decks, seeds = vision_bench.check_args(args, argparse.ArgumentParser())
    assert args.size == (640, 480) and seeds == [vision_bench.FIRST_BENCH_SEED]
    jpeg, _annotation = vision_bench._render((vision_bench.scene_plan(seeds, "v4", 1.0)[0], decks, "v4", args.size))
    assert cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (480, 640)
