"""Synthetic table photos of playing cards, with labels: the training data engine.

``render_scene(seed)`` is deterministic: the same seed gives the same pixels and annotation.
"""

from vision.synth.art import TRAIN_DECKS, SHIPPABLE_DECKS, ArtError, UnknownDeckError
from vision.synth.layouts import LAYOUTS, UnknownLayoutError
from vision.synth.scene import DEFAULT_SIZE, VISIBLE_FRACTION, render_scene, scene_seed

__all__ = [
    "TRAIN_DECKS", "SHIPPABLE_DECKS", "LAYOUTS", "DEFAULT_SIZE", "VISIBLE_FRACTION",
    "render_scene", "scene_seed", "ArtError", "UnknownDeckError", "UnknownLayoutError",
]
