"""Sliver crops (issue 39, item 3): indices partly covered by the card above join the reader's
crops when asked, and nothing else moves."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from vision.classes import CARD_INDEX
from vision.synth import VISIBLE_FRACTION, render_scene
from vision.train.crops_data import scene_crops

TIGHT_FAN = dict(seed=106, layout="fan", mix="v4", size=(640, 480))  # a tight fan: six indices 45-48 % shown


def test_index_shares_add_a_share_and_change_nothing_else():
    image, plain = render_scene(TIGHT_FAN["seed"], layout="fan", mix="v4", size=TIGHT_FAN["size"])
    same_image, shared = render_scene(TIGHT_FAN["seed"], layout="fan", mix="v4", size=TIGHT_FAN["size"],
                                      index_shares=True)
    assert np.array_equal(image, same_image)
    stripped = copy.deepcopy(shared)
    for card in stripped["cards"]:
        for index in card["indices"]:
            shown = index.pop("shown")
            assert 0.0 <= shown <= 1.0
            assert index["visible"] == (shown >= VISIBLE_FRACTION)
    assert stripped == plain
    assert sum(0.4 <= i["shown"] < VISIBLE_FRACTION for c in shared["cards"] for i in c["indices"]) == 6


def _rows(crops):
    return [c.tobytes() for c in crops]


def test_sliver_crops_are_added_beside_the_same_visible_crops():
    kwargs = dict(per_index=2, size=TIGHT_FAN["size"], mix="v4", layout="fan")
    crops, labels = scene_crops(TIGHT_FAN["seed"], **kwargs)
    more, more_labels = scene_crops(TIGHT_FAN["seed"], slivers=0.4, **kwargs)
    _, annotation = render_scene(TIGHT_FAN["seed"], layout="fan", mix="v4", size=TIGHT_FAN["size"], index_shares=True)
    slivers = [CARD_INDEX[c["card"]] for c in annotation["cards"] for i in c["indices"]
               if 0.4 <= i["shown"] < VISIBLE_FRACTION]
    assert len(more) == len(crops) + 2 * len(slivers)
    added = list(_rows(more))
    for row in _rows(crops):  # every visible crop is still there, the same pixels
        added.remove(row)
    kept = {row: label for row, label in zip(_rows(more), more_labels)}
    assert sorted(kept[row] for row in added) == sorted(slivers * 2)
    assert scene_crops(TIGHT_FAN["seed"], slivers=0.99 * VISIBLE_FRACTION, **kwargs)[0].shape[0] == len(crops)
    alone, alone_labels = scene_crops(TIGHT_FAN["seed"], slivers=0.4, visible=False, **kwargs)
    assert sorted(_rows(alone)) == sorted(added) and sorted(alone_labels) == sorted(slivers * 2)


@pytest.mark.parametrize("share", ["0", "0.6", "0.9", "-0.1"])
def test_the_command_refuses_a_sliver_share_that_is_not_one(share, tmp_path, capsys):
    from vision.train.crops_data import main

    with pytest.raises(SystemExit) as stop:
        main(["--out", str(tmp_path / "c.npz"), "--scenes", "1", "--seed", "1", "--slivers", share])
    assert stop.value.code == 2
    assert "--slivers must be between 0 and 0.6" in capsys.readouterr().err


def test_slivers_alone_need_a_share(tmp_path, capsys):
    from vision.train.crops_data import main

    with pytest.raises(SystemExit) as stop:
        main(["--out", str(tmp_path / "c.npz"), "--scenes", "1", "--seed", "1", "--slivers-only"])
    assert stop.value.code == 2 and "--slivers-only needs --slivers SHARE" in capsys.readouterr().err
