"""Card recognition: synthetic data, training, ONNX inference and layout of cards into hands."""
