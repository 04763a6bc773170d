"""The layers are the repository's top-level folders, installed under the one import name `batchlog`
(engine/ as batchlog.engine, and so on): found here, since pyproject.toml alone cannot map a found folder
under another name. Everything else about the distribution is in pyproject.toml."""

from setuptools import find_packages, setup

LAYERS = ("engine", "projections", "cli")

setup(
    package_dir={"batchlog": "batchlog", **{f"batchlog.{layer}": layer for layer in LAYERS}},
    packages=["batchlog", *(f"batchlog.{package}" for package in find_packages(include=[f"{layer}*" for layer in LAYERS]))],
)
