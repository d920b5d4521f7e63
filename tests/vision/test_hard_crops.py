"""vision.train.experiments.hard_crops: the crops a reader finds hard, and the easy ones kept."""

import numpy as np
import pytest

from vision.train.experiments import hard_crops


def _reader(logits_by_mean):
    """A stand-in reader: each crop's mean brightness picks its row of logits."""
    def run(batch):
        means = np.round(batch.mean(axis=(1, 2, 3)) * 255).astype(int)
        return np.stack([logits_by_mean[m] for m in means])
    return run


def _crops(*values):
    return np.stack([np.full((8, 8, 3), v, np.uint8) for v in values])


def _logits(card, p):
    """52 logits whose softmax gives ``card`` probability ``p`` and shares the rest evenly."""
    rest = (1 - p) / 51
    out = np.full(52, np.log(rest))
    out[card] = np.log(p)
    return out


def test_wrong_or_unsure_crops_are_hard():
    reader = _reader({10: _logits(3, 0.99), 20: _logits(3, 0.6), 30: _logits(7, 0.95), 40: _logits(5, 0.95)})
    crops, labels = _crops(10, 20, 30, 40), np.array([3, 3, 3, 5])
    # sure and right; right but unsure; wrong; sure and right
    assert hard_crops.hard_mask(reader, crops, labels, sure=0.9).tolist() == [False, True, True, False]
    assert hard_crops.hard_mask(reader, crops, labels, sure=0.5).tolist() == [False, False, True, False]


def test_a_share_of_the_easy_crops_is_kept():
    reader = _reader({10: _logits(3, 0.99), 20: _logits(7, 0.99)})
    crops = _crops(*([10] * 200 + [20] * 10))
    labels = np.full(210, 3)
    hard, easy = hard_crops.split(reader, crops, labels, easy_share=0.25, seed=1)
    assert hard.tolist() == list(range(200, 210))
    assert set(easy) <= set(range(200)) and 30 <= len(easy) <= 70
    assert hard_crops.split(reader, crops, labels, easy_share=0.0)[1].size == 0


def test_the_command_says_what_is_wrong(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        hard_crops.main([str(tmp_path / "missing.npz"), "--out", str(tmp_path / "m")])
    assert stop.value.code == 2 and "missing.npz: no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        hard_crops.main([str(tmp_path / "x.npz"), "--out", str(tmp_path / "m"), "--sure", "1.5"])
    assert "--sure must be in (0, 1]" in capsys.readouterr().err


def test_the_command_splits_a_crop_set_with_the_shipped_reader(tmp_path, capsys):
    crops = np.random.default_rng(0).integers(0, 255, (6, 80, 80, 3), dtype=np.uint8)  # noise: no card is sure
    np.savez(tmp_path / "r.npz", crops=crops, labels=np.arange(6))
    hard_crops.main([str(tmp_path / "r.npz"), "--out", str(tmp_path / "m"), "--easy", "1"])
    hard, easy = np.load(tmp_path / "m_hard.npz"), np.load(tmp_path / "m_easy.npz")
    assert len(hard["labels"]) + len(easy["labels"]) == 6 and len(hard["labels"]) >= 5
    assert hard["crops"].shape[1:] == (80, 80, 3)
    assert "6 crops: hard" in capsys.readouterr().out
