"""bench/vision.py keeps its seeds apart: bench figures only on bench seeds, model selection
(--tuning) only on tuning seeds, never on training scenes."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "vision.py"


@pytest.mark.parametrize("args, message", [
    (("--seed", "8600000", "--n", "2"), "bench seeds start at 9000000"),
    (("--tuning", "--seed", "8999990", "--n", "20"), "tuning seeds are 8500000..8999999"),
    (("--tuning", "--seed", "100", "--n", "2"), "tuning seeds are 8500000..8999999"),
])
def test_seeds_outside_their_range_are_refused(args, message):
    result = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
