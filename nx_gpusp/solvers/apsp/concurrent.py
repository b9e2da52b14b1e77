"""apsp-concurrent: the APSP paper's tuned concurrent kernels (Ortega-Arranz et al.
2013). ``streams`` sources are in flight at once, each running its own single-source
frontier rounds on its own CUDA stream (so their small kernels overlap), with the
relaxation kernels launched at ``block_size`` threads per block (the paper's best: 4
streams, 96 threads). Each source's rounds are the batched-frontier kernels with a
batch of one; a group of ``streams`` sources is yielded when all of them finish.
"""

import contextlib

import numpy as np

from ...methods import method
from . import SourceBatch
from .batched import FrontierBatch
from .potentials import refuse_negative_cycles

__all__ = ["apsp_concurrent"]


def _streams(ex, count):
    if ex.is_cuda:
        return [ex.xp.cuda.Stream(non_blocking=True) for _ in range(count)]
    return [contextlib.nullcontext() for _ in range(count)]


@method(name="apsp-concurrent", problem="all-pairs",
        summary="one single-source frontier run per source, several sources as concurrent "
                "kernels on separate CUDA streams",
        paper="Ortega-Arranz et al. 2013, APSP with tuned concurrent kernels",
        negative_weights=True,
        options={"streams": (4, "sources in flight, one CUDA stream each"),
                 "block_size": (96, "threads per block of the relaxation kernels")})
def apsp_concurrent(ex, graph, sources, *, cutoff=None, want_pred=True, streams=4,
                    block_size=96):
    if streams < 1 or block_size < 1:
        raise ValueError("gpusp apsp-concurrent: streams and block_size must be positive")
    refuse_negative_cycles(ex, graph)
    sources = np.asarray(sources, dtype=np.int64)
    lanes = _streams(ex, int(streams))
    for start in range(0, len(sources), len(lanes)):
        group = sources[start:start + len(lanes)]
        runs = []
        for lane, s in zip(lanes, group):
            with lane:
                runs.append(FrontierBatch(ex, graph, [s], cutoff=cutoff, want_pred=want_pred,
                                          block=int(block_size)))
        active = list(zip(lanes, runs))
        while active:
            for lane, run in active:  # queue one round on every stream...
                with lane:
                    run.launch_round()
            still = []
            for lane, run in active:  # ...then wait for each stream's frontier size
                with lane:
                    if run.end_round():
                        still.append((lane, run))
            active = still
        if ex.is_cuda:
            for lane in lanes:
                lane.synchronize()
        xp = ex.xp
        done = [run.finish() for run in runs]
        yield SourceBatch(group, xp.concatenate([r.dist for r in done]),
                          xp.concatenate([r.pred for r in done]) if want_pred else None)
