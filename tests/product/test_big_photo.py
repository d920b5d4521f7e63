"""A very big photo (issue 36 section 3): a 12000x8000 PNG is read within a memory bound, said in
one line, with no library warning on screen (Pillow's DecompressionBombWarning printed before,
and reading it took 1.2 GB)."""

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from vision.decode import MAX_WHOLE_PIXELS, TooBigImageError, read_photo

ROOT = Path(__file__).resolve().parents[2]
# What the child process may reach at most (its imports take about 150 MB; reading the PNG whole
# would add 288 MB for the pixels alone, and took 1.2 GB in all).
MEMORY_BOUND_MB = 400


def flat_png(path: Path, width: int, height: int) -> Path:
    """A flat grey PNG written row by row (a few hundred kB, never the whole picture in memory)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    squeeze, row, parts = zlib.compressobj(9), b"\x00" + b"\x80" * (3 * width), []
    for _ in range(height):
        parts.append(squeeze.compress(row))
    parts.append(squeeze.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(parts))
                     + chunk(b"IEND", b""))
    return path


@pytest.fixture(scope="module")
def big_png(tmp_path_factory):
    return flat_png(tmp_path_factory.mktemp("big") / "huge.png", 12000, 8000)


# The peak is the child's own VmHWM: ru_maxrss would also count the parent's pages when the child
# was forked (Linux keeps the forked copy's peak across exec), which reads 900+ MB under a full suite.
CHILD = """
import sys, warnings
warnings.simplefilter("default")  # any warning a library gives would be printed
from vision.decode import ImageInputError, read_photo
try:
    read_photo(sys.argv[1])
except ImageInputError as exc:
    print(exc)
from pathlib import Path
print(next(int(line.split()[1]) for line in Path("/proc/self/status").read_text().splitlines()
           if line.startswith("VmHWM:")) // 1024)
"""


def test_a_12000_by_8000_png_is_refused_in_one_line_within_a_memory_bound_and_no_warning(big_png):
    done = subprocess.run([sys.executable, "-c", CHILD, str(big_png)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    said, peak_mb = done.stdout.strip().splitlines()
    assert done.returncode == 0 and done.stderr == ""  # no DecompressionBombWarning, no traceback
    assert said == (f"{big_png}: 12000x8000 pixels (96 million) is too big to read: a PNG is read whole, at most "
                    f"50 million pixels (a JPEG of any size is read reduced); save it smaller, e.g. 4000 pixels "
                    f"on its long side")
    assert int(peak_mb) < MEMORY_BOUND_MB


def test_crib_recognize_says_it_in_one_line_exit_2(big_png):
    done = subprocess.run([sys.executable, "-W", "default", "-m", "companion", "recognize", str(big_png)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [f"crib recognize: error: {big_png}: 12000x8000 pixels (96 million) is "
                                                f"too big to read: a PNG is read whole, at most 50 million pixels (a "
                                                f"JPEG of any size is read reduced); save it smaller, e.g. 4000 pixels "
                                                f"on its long side"]


def test_a_png_under_the_limit_is_still_read(tmp_path):
    photo = read_photo(flat_png(tmp_path / "fine.png", 400, 300))
    assert (photo.width, photo.height, photo.scale) == (400, 300, 1.0)
    assert MAX_WHOLE_PIXELS >= 8000 * 6000  # a 48 MP phone photo is read


def test_the_refusal_is_an_image_input_error_in_the_library(big_png):
    with pytest.raises(TooBigImageError, match="12000x8000 pixels"):
        read_photo(big_png)
