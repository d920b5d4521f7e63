"""Experiment-only code: comparisons, measurements and older pipelines that no recipe uses
(vision/train/recipes/), among them the one-shot pipeline of models v4 (``one_shot``: CI's smoke
training). Kept runnable for whoever repeats them; nothing in vision/train outside this folder
imports it, and ``crib train`` does not offer it."""
