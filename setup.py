"""Only here to list the two data-only packages that pyproject.toml maps from the
repository top (templates/, campaigns/): setuptools' package discovery cannot mix
found packages with mapped ones in pyproject.toml alone."""
from setuptools import find_packages, setup

setup(packages=find_packages(include=["pbp", "pbp.*"]) + ["pbp.templates", "pbp.campaigns"])
