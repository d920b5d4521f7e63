"""Training of the two recognition models (detector, classifier) and their ONNX export."""
