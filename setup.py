"""The optional C reader of NetworkX adjacency dicts (nx_gpusp/_adjacency.c); every
other setting is in pyproject.toml. Where no C compiler is found, the package installs
without it and nx_gpusp.convert reads the dicts in Python."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("nx_gpusp._adjacency", ["nx_gpusp/_adjacency.c"], optional=True)])
