"""Experiment-only code: comparisons and measurements that no recipe uses (vision/train/recipes/).
Kept runnable for whoever repeats them; nothing in vision/train outside this folder imports it."""
