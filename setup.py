"""Packages beyond what pyproject.toml can say: the repository keeps the shipped recognition models
in the top-level models/ folder and the sample photos in sample_images/, and the package carries
them as vision/models/ and companion/sample_images/ (pyproject.toml's package finder cannot map a
folder into another package). Which files go in: pyproject.toml's package-data. Everything else
about the package is in pyproject.toml."""

from setuptools import find_namespace_packages, setup

setup(
    packages=[*find_namespace_packages(include=["companion*", "vision*", "hardware*"]),
              "vision.models", "companion.sample_images"],
    package_dir={"vision.models": "models", "companion.sample_images": "sample_images"},
)
