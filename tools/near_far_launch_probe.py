"""Developer probe: where a near-far run's time goes, launch by launch (CUDA only).

Every method of the near-far kernel table that launches (the team rounds, grid rounds,
the dense phase (all its rounds in one launch), set-up and conversions) is wrapped so that
each call is timed between two CUDA events and synchronised; one run per source after
a warm-up run, lengths only. Prints each run's total, its statistics and the time of
every launch in order (``block``: a team launch, ``dense``: the dense phase; a run
queues one after each team launch, which returns at once where the hand-over's verdict
is to go on in near-far).

Usage: python tools/near_far_launch_probe.py [--workload W]... [--sources N]
"""

import argparse

from nx_gpusp import bench
from nx_gpusp.algorithms.common import configured_executor
from nx_gpusp.methods import get_method

LAUNCHING = ("init_state", "block_rounds", "grid_round", "hand_over", "narrow",
             "dense_phase", "widen")


def timed_calls(ops, log):
    """Wrap the launching methods of ``ops``' class; each call appends (name, ms)."""
    import cupy as cp

    cls = type(ops)
    for name in LAUNCHING:
        original = getattr(cls, name)

        def wrapper(self, *args, _original=original, _name=name, **kwargs):
            start, end = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            out = _original(self, *args, **kwargs)
            end.record()
            end.synchronize()
            log.append((_name, cp.cuda.get_elapsed_time(start, end)))
            return out

        setattr(cls, name, wrapper)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workload", action="append", choices=sorted(bench.WORKLOADS))
    parser.add_argument("--sources", type=int, default=4)
    args = parser.parse_args()
    ex = configured_executor()
    if ex.kind != "cuda":
        parser.error("needs CUDA (CUDA events time the launches)")
    log = []
    timed_calls(ex.ops("near_far"), log)
    solver = get_method("sssp", "near-far").solver
    for workload in args.workload or ["rmat-20"]:
        graph = bench.WORKLOADS[workload][0].build()
        graph.on(ex)
        for source in bench.pick_sources(graph, args.sources):
            solver(ex, graph, [source], want_pred=False)  # warm-up
            log.clear()
            result = solver(ex, graph, [source], want_pred=False)
            total = sum(ms for _, ms in log)
            print(f"{workload} source {source}: {total:.3f} ms in launches; {result.stats}")
            print("   ", " ".join(f"{name.split('_')[0]}:{ms:.3f}" for name, ms in log),
                  flush=True)


if __name__ == "__main__":
    main()
