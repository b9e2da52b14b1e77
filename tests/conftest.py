"""Shared fixtures: every correctness test runs on the NumPy twin ("cpu") and, where a
GPU is present, on CUDA ("cuda", marker ``gpu``; skipped — and reported as skipped —
without one)."""

import os
from pathlib import Path

import networkx as nx
import pytest

import nx_gpusp.solvers  # noqa: F401  (registers every method: modules parametrise over them)
from nx_gpusp.executor import cuda_available

DATA = Path(os.environ.get("NX_GPUSP_DATA", Path(__file__).resolve().parents[1].parent / "shared" / "data"))

DEVICES = [
    pytest.param("cpu", id="cpu"),
    pytest.param("cuda", id="cuda", marks=[
        pytest.mark.gpu,
        pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")]),
]


@pytest.fixture(params=DEVICES)
def device(request):
    """Run the test with nx.config.backends.gpusp.device set to cpu, then cuda."""
    cfg = nx.config.backends.gpusp
    old = cfg.device
    cfg.device = request.param
    nx.config.warnings_to_ignore.add("cache")
    try:
        yield request.param
    finally:
        cfg.device = old


@pytest.fixture
def data_dir():
    if not DATA.is_dir():
        pytest.skip(f"real graphs not found at {DATA} (set NX_GPUSP_DATA)")
    return DATA


@pytest.fixture(scope="module")
def real():
    """``real(name, **load_options)``: a real graph through nx_gpusp.datasets.load, loaded
    once per test module; the test skips where the data set is not found."""
    from nx_gpusp import datasets

    cache = {}

    def get(name, **kw):
        key = (name, tuple(sorted(kw.items())))
        if key not in cache:
            try:
                cache[key] = datasets.load(name, **kw)
            except FileNotFoundError as exc:
                pytest.skip(str(exc))
        return cache[key]

    return get


def pytest_report_header(config):
    return f"nx_gpusp: CUDA {'available' if cuda_available() else 'NOT available (gpu tests skip)'}; data={DATA}"
