"""The "Driving the board" example of docs/BOARD-USE.md (moved there from the README) runs as printed: the
snippet is taken from the document."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_driving_the_board_example_prints_what_the_guide_says(firmware_builds):
    section = (ROOT / "docs" / "BOARD-USE.md").read_text().split("### Driving the board", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    after = section[section.index(code) + len(code) + len("```"):]
    output = re.search(r"```\n(.*?)```", after, re.S).group(1)
    assert "BoardDriver" in code and "BoardState" in code
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout == output
