"""A photo too blurred to read surely is said in the app as in the CLI: the review opens with the
advice to take another photo, even where the cards read need no check."""

import cv2

from tests.ui.conftest import SAMPLES


def test_a_blurred_photo_opens_the_review_with_the_advice(start_app, tmp_path):
    blurred = tmp_path / "blurred.jpg"
    pixels = cv2.GaussianBlur(cv2.imread(str(SAMPLES / "hand_starter_spread.jpg")), (0, 0), 6)
    cv2.imwrite(str(blurred), pixels)
    h = start_app()
    h.app.go("capture", purpose="show")
    h.wait()
    h.screen("capture")._recognize(str(blurred))
    h.wait(lambda: h.current == "review", timeout=60, what="the review of a blurred photo")
    review = h.screen("review")
    first = review.ids.problems.text.splitlines()[0]
    assert "blurred" in first and "another photo" in first


def test_a_sharp_photo_gives_no_advice(start_app):
    h = start_app()
    h.app.go("capture", purpose="show")
    h.wait()
    h.screen("capture")._recognize(str(SAMPLES / "hand_starter_spread.jpg"))
    h.wait(lambda: h.current in ("review", "show"), timeout=60, what="the sample read")
    context = h.screen(h.current).context
    assert context["quality"].advice is None
