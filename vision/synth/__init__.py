"""Synthetic table photos of playing cards, with labels: the training data engine.

``render_scene(seed)`` is deterministic: the same seed gives the same pixels and annotation.
``mix="v2"`` (default) is the data models v2 were trained on; ``mix="v3"`` adds the KDE decks,
the layouts players make and the looks of phone photos.
"""

from vision.synth.art import TRAIN_DECKS, SHIPPABLE_DECKS, ArtError, UnknownDeckError
from vision.synth.layouts import LAYOUTS, SHOW_LAYOUTS_MORE, UnknownLayoutError
from vision.synth.scene import DEFAULT_SIZE, MIXES, VISIBLE_FRACTION, render_scene, scene_seed

__all__ = [
    "TRAIN_DECKS", "SHIPPABLE_DECKS", "LAYOUTS", "SHOW_LAYOUTS_MORE", "DEFAULT_SIZE", "VISIBLE_FRACTION", "MIXES",
    "render_scene", "scene_seed", "ArtError", "UnknownDeckError", "UnknownLayoutError",
]
