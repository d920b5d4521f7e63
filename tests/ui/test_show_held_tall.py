"""The show held tall leaves no band empty (issue 48 s4): with a photo the count takes only the
room it needs and the photo the rest; without one, the cards counted are drawn large in what
the combinations leave. Checked along the app's walk (companion.ui.walk) at 800x1280 and on
the phone."""

import pytest
from kivy.metrics import dp

from companion.ui.screens.show import FACES_LEAST
from companion.ui.walk import SIZES

pytestmark = pytest.mark.xdist_group("the-walk")  # one walk for the modules that look along it


def empty_band(show) -> float:
    """The height in the count's column that shows nothing: room no part takes, and the part of
    the combinations' box below its last row."""
    scroller, breakdown = show.ids.scroller, show.ids.breakdown
    count = scroller.parent
    used = sum(c.height for c in count.children) + count.spacing * (len(count.children) - 1)
    unused_list = max(0.0, scroller.height - breakdown.height) if breakdown.children else 0.0
    return count.height - used + unused_list


SEEN: dict = {}  # (state, size) -> the heights measured along the session's walk


def look_along_the_walk(h, name, _primary):
    """At the show's states of the walk (tests/ui/conftest.py's the_walk), held tall and on the phone."""
    if name not in ("show", "show-muggins", "show-29", "show-crib-24"):
        return
    show = h.screen("show")
    for label in ("portrait", "phone"):
        h.resize(SIZES[label])
        h.pump(frames=4)
        SEEN[(name, label)] = {"empty": empty_band(show), "photo": show.ids.photo.height if show.has_photo else None,
                               "faces": show.ids.faces.height, "height": SIZES[label][1]}
    h.resize(SIZES["landscape"])


def test_the_show_held_tall_leaves_no_band_empty(the_walk):
    the_walk.looked(look_along_the_walk)
    seen = SEEN
    assert len(seen) == 8
    for (name, label), got in seen.items():
        assert got["empty"] < dp(24), (name, label, got)
    for label in ("portrait", "phone"):
        with_photo = seen[("show", label)]
        assert with_photo["photo"] > 0.25 * with_photo["height"], with_photo  # the photo takes the rest
        assert seen[("show-muggins", label)]["faces"] >= FACES_LEAST  # the cards counted, drawn large
        assert seen[("show-29", label)]["faces"] >= FACES_LEAST      # even beside a 29's 15 combinations
