"""Training of the two recognition models (detector, classifier) and their ONNX export.

``crib train`` replays recipes (``recipe``, ``recipes/*.toml``): the shipped models' every stage,
with its data, seeds, start, epochs, rate, size and threads stated in the recipe, which is the one
source of what made them (``models.json``'s provenance is resolved from it). The code's training
defaults are each the one home of a tool's own setting, and no recipe relies on them for a rate
or a schedule:

- ``detector.DetectorRecipe``: how the detector trains (model, augmentation, optimizer, warm-up,
  threads, input size, batch, cache) and the from-start schedule (lr0 0.0025 -> x0.05);
  ``recipe.Stage`` takes its size, batch and cache as defaults;
- ``real_mix``: the real-photo continuation's command line (``CONTINUATION``: 25 epochs at 0.001
  -> x0.1, ``SYNTH_IMAGES``, and the rendered sets' seeds ``SYNTH_SEED``, ``SYNTH_VAL_SEED``, which
  recipes' data and ``gpu_run`` take as defaults);
- ``gpu_run.DeviceRun``: the fine-tune on a lent GPU (lr0 0.0004 -> x0.1, renders, batch 64);
- ``train_reader.READER_RECIPE`` and ``REAL_REPEAT``: the reader's optimiser settings;
- ``experiments.one_shot``: the models-v4 one-shot pipeline (an experiment since recipes; CI's
  smoke training), its two fine-tune stages and its continuations' rates.
"""
