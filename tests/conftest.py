"""Suite-wide set-up.

Kivy's headless rendering (tests/ui) uses Mesa's llvmpipe, which loads LLVM; torch imports
triton lazily (tests/vision compares with ultralytics), and triton's own bundled LLVM segfaults
when it loads into a process where Mesa's already is (reproduced: tests/ui then
tests/vision/test_infer_models.py). Triton only compiles GPU kernels, which these CPU tests never
use, so the suite runs without it: torch treats a triton that cannot be imported as absent.
"""

import sys

if "triton" not in sys.modules:
    sys.modules["triton"] = None  # `import triton` raises ImportError in this process
