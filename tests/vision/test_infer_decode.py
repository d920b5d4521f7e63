"""Decoding photos (EXIF, reduced-scale JPEG, modes, precise errors) and the two model runtimes."""

import io

import cv2
import numpy as np
import pytest
from PIL import Image

from infer_fixtures import tiny_cnn
from vision.decode import (EmptyImageError, ImageNotFoundError, NotAFileError, NotAnImageError,
                           TruncatedImageError, decode_photo, photo_from_array, read_photo)
from vision.runtime import ModelFileError, OnnxModel


# ---- runtimes -----------------------------------------------------------------------------------

@pytest.mark.parametrize("shape,declared", [((1, 3, 96, 96), [1, 3, 96, 96]), ((5, 3, 64, 64), ["n", 3, 64, 64])])
def test_onnxruntime_and_opencv_compute_the_same(tmp_path, shape, declared):
    path = tmp_path / "tiny.onnx"
    tiny_cnn(path, declared, 52)
    batch = np.random.default_rng(3).random(shape, dtype=np.float32)
    a = OnnxModel(path, "onnxruntime").run(batch)
    b = OnnxModel(path, "opencv").run(batch)
    assert a.shape == b.shape == (shape[0], 52)
    assert np.allclose(a, b, atol=1e-4)


def test_bad_model_files_are_precise_errors(tmp_path):
    with pytest.raises(ModelFileError, match="not found"):
        OnnxModel(tmp_path / "missing.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not an onnx model")
    for backend in ("onnxruntime", "opencv"):
        with pytest.raises(ModelFileError, match="cannot load model"):
            OnnxModel(junk, backend)


# ---- decoding -----------------------------------------------------------------------------------

def _jpeg(image: np.ndarray, **kwargs) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, "JPEG", quality=92, **kwargs)
    return buffer.getvalue()


def test_exif_orientation_is_applied():
    rgb = np.zeros((40, 80, 3), np.uint8)
    rgb[:, :40] = (255, 0, 0)  # left half red
    exif = Image.Exif()
    exif[0x0112] = 6  # stored rotated: display = rotate 90 degrees clockwise
    photo = decode_photo(_jpeg(rgb, exif=exif), "rotated.jpg")
    assert photo.pixels.shape == (80, 40, 3) and (photo.width, photo.height) == (40, 80)
    top, bottom = photo.pixels[5, 20], photo.pixels[75, 20]
    assert top[2] > 200 and top[0] < 60  # BGR: red on top after the rotation
    assert bottom[2] < 60


def test_large_jpeg_is_decoded_at_reduced_scale_with_the_scale_recorded():
    big = np.full((3024, 4032, 3), 128, np.uint8)
    photo = decode_photo(_jpeg(big), "big.jpg")
    assert photo.scale == 2.0 and photo.pixels.shape == (1512, 2016, 3)
    assert (photo.width, photo.height) == (4032, 3024)


@pytest.mark.parametrize("mode", ["L", "RGBA", "P"])
def test_png_modes_decode_to_bgr(mode):
    image = Image.new("RGB", (30, 20), (10, 200, 30)).convert(mode)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    photo = decode_photo(buffer.getvalue(), "x.png")
    assert photo.pixels.shape == (20, 30, 3) and photo.pixels.dtype == np.uint8


def test_bad_inputs_raise_precise_one_line_errors(tmp_path):
    good = _jpeg(np.random.default_rng(0).integers(0, 255, (200, 300, 3), dtype=np.uint8))
    cases = {
        "missing.jpg": (None, ImageNotFoundError),
        "empty.jpg": (b"", EmptyImageError),
        "text.jpg": (b"hello, not an image\n", NotAnImageError),
        "truncated.jpg": (good[: len(good) // 2], TruncatedImageError),
    }
    for name, (data, error) in cases.items():
        path = tmp_path / name
        if data is not None:
            path.write_bytes(data)
        with pytest.raises(error) as info:
            read_photo(path)
        assert "\n" not in str(info.value) and name in str(info.value)
    with pytest.raises(NotAFileError, match="directory"):
        read_photo(tmp_path)
    with pytest.raises(EmptyImageError):
        photo_from_array(np.zeros((0, 10, 3), np.uint8))
    assert read_photo(_write(tmp_path / "ok.jpg", good)).pixels.shape == (200, 300, 3)
    png = cv2.imencode(".png", np.random.default_rng(1).integers(0, 255, (50, 50, 3), dtype=np.uint8))[1].tobytes()
    with pytest.raises(TruncatedImageError):
        decode_photo(png[: len(png) // 2], "cut.png")


def _write(path, data):
    path.write_bytes(data)
    return path
