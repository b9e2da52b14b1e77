"""``get_info`` for the ``networkx.backend_info`` entry point.

Static on purpose: NetworkX calls it at the end of its own import, so it imports nothing
heavy (no CuPy, no solvers); the configuration is NetworkX's typed Config. Each
function's documentation is generated from its ``networkx_algorithm`` decorator and the
method registry into nx_gpusp/_info_data.py (tools/gen_info.py); tests/test_interface.py
checks that file against the functions the backend really registers.
"""

from ._info_data import FUNCTIONS
from .config import OPTIONS, default_config, warm_up_at_import

__all__ = ["get_info", "FUNCTIONS"]


def get_info():
    config = default_config()
    if warm_up_at_import(config):
        from .executor import start_cuda_warm_up

        start_cuda_warm_up(config.device)
    return {
        "backend_name": "gpusp",
        "project": "nx-gpusp",
        "package": "nx_gpusp",
        "url": "https://example.invalid/nx-gpusp",
        "short_summary": "Shortest paths on NVIDIA GPUs (CUDA via CuPy).",
        "description": "GPU shortest paths: Dijkstra family, Bellman-Ford with negative "
                       "weights, Floyd-Warshall, with every method of the papers selectable.",
        "functions": {name: {"additional_docs": info["additional_docs"],
                             "additional_parameters": dict(info["additional_parameters"])}
                      for name, info in FUNCTIONS.items()},
        "default_config": config,
        "config_docs": {name: doc for name, (_default, doc) in OPTIONS.items()},
    }
