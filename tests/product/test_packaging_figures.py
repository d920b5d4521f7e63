"""``make figures`` (bench/figures.py, issue 36 §5) rewrites only the README's figures block: the
text between its two markers; without them it writes nothing and says so in one line, before
any measuring. The measuring itself is a bench (minutes), not a test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def figures(bench_module):
    return bench_module("figures")


def _readme(figures, inside: str) -> str:
    return f"# Title\n\ntext before\n{figures.BEGIN}\n{inside}{figures.END}\n\ntext after\n"


def test_the_block_between_the_markers_is_rewritten_and_nothing_else(figures, tmp_path):
    path = tmp_path / "README.md"
    path.write_text(_readme(figures, "```\nold samples line\n```\n"))
    new = "```\ncrib samples: new line\n```\n\nhow much it varies\n"
    assert figures.rewrite(path, new) == _readme(figures, new)


def test_the_previous_real_photos_line_is_kept_where_the_real_photos_are_not_here(figures, tmp_path):
    path = tmp_path / "README.md"
    real = "real validation photos (431, never trained on): recall 98.18 %"
    path.write_text(_readme(figures, f"```\nold samples line\n{real}\n```\n"))
    rewritten = figures.rewrite(path, "```\ncrib samples: new\n{real}\n```\n")
    assert rewritten == _readme(figures, f"```\ncrib samples: new\n{real}\n```\n")


def test_a_readme_without_the_markers_is_one_line_and_left_alone(tmp_path):
    path = tmp_path / "README.md"
    path.write_text("# Title\n\n<!-- end figures -->\n")
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "figures.py"), "--readme", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == (f"make figures: {path}: no figures block (the lines <!-- begin figures (make figures) --> "
                          "and <!-- end figures -->); nothing written\n")
    assert path.read_text() == "# Title\n\n<!-- end figures -->\n"


def test_a_card_reported_under_some_kernels_only_is_named(figures):
    runs = [{"a.jpg": frozenset({"KS", "JS"}), "b.jpg": frozenset({"5H"})},
            {"a.jpg": frozenset({"JS"}), "b.jpg": frozenset({"5H"})}]
    assert figures.flips(runs) == ["a.jpg KS"]
    assert figures.flips(runs[:1]) == []
    assert figures.spread([134, 135, 135]) == "134 to 135" and figures.spread([17, 17]) == "17"


def test_the_readme_has_the_figures_block(figures):
    """The block make figures writes is in the README, in order."""
    figures.block_of((ROOT / "README.md").read_text(), ROOT / "README.md")
