"""The Python API example of docs/RECOGNITION.md (moved there from the README) runs as printed: the snippet
is taken from the document itself."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _snippet_and_output(heading: str) -> tuple[str, str]:
    text = (ROOT / "docs" / "RECOGNITION.md").read_text()
    section = text.split(heading, 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    after = section[section.index(code) + len(code) + len("```"):]  # past the code block
    output = re.search(r"```\n(.*?)```", after, re.S).group(1)
    return code, output


def test_counting_a_photo_example_prints_what_the_guide_says():
    code, output = _snippet_and_output("### Counting a photo")
    assert "count_show" in code and "recognize" in code
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout == output
