"""Developer probe: where a single-source call waits for the host (CUDA only).

Unlike ``near_far_launch_probe.py``, nothing is synchronised: each wrapped step of a
call (the near-far and tree kernel tables' methods, ``to_host``, ``to_host_async``'s
copy and its wait, the solver's set-up and the hand-over's allocations) records, on
entry and on exit, the host clock and a CUDA event. A row prints ``step>`` / ``step<`` as ``host ms / GPU ms`` since the
call began: where the GPU's time of reaching a step is close to the host's, the GPU had
run out of work and was waiting for the host. The call is the race's (``auto``, as a
NetworkX call runs it: lengths, or with ``--paths`` the tight-arc tree as well), after
two warm-up calls per source.

Usage: python tools/host_timeline_probe.py [--workload W]... [--sources N | --source V...]
       [--paths]
"""

import argparse
import time

from nx_gpusp import bench
from nx_gpusp.algorithms.common import configured_executor
from nx_gpusp.methods import get_method
from nx_gpusp.solvers.sssp import near_far as near_far_solver

NEAR_FAR = ("init_state", "block_rounds", "grid_round", "hand_over", "narrow", "widen",
            "dense_phase", "heavy_rows", "clear_heavy_rows", "unset_keys", "key_predecessors")
TREE = ("no_preds", "unclaimed_preds", "tight_arc_parents", "tight_in_arc_parents",
        "tree_unclaimed", "tree_finish")
SOLVER = ("dense_rounds", "_scratch", "_initial_state", "_hand_over_space")


def wrap_steps(ex, marks):
    """Wrap every step named above; each call appends (name>, host time, event) on
    entry and (name<, ...) on exit to ``marks``."""
    import cupy as cp

    def mark(name):
        event = cp.cuda.Event()
        event.record()
        marks.append((name, time.perf_counter(), event))

    def wrap(owner, attr):
        original = getattr(owner, attr)

        def step(*args, **kwargs):
            mark(attr + ">")
            out = original(*args, **kwargs)
            mark(attr + "<")
            return out

        setattr(owner, attr, step)

    def wrap_async(owner, attr):  # the copy queued, and the wait of the function it returns
        original = getattr(owner, attr)

        def queue(*args, **kwargs):
            mark(attr + ">")
            wait = original(*args, **kwargs)
            mark(attr + "<")

            def waited():
                mark("wait>")
                out = wait()
                mark("wait<")
                return out

            return waited

        setattr(owner, attr, queue)

    for owner, names in ((ex.ops("near_far"), NEAR_FAR), (ex.ops("tree"), TREE),
                         (near_far_solver, SOLVER), (ex, ("to_host", "require_bytes"))):
        for name in names:
            wrap(owner, name)
    wrap_async(ex, "to_host_async")
    return mark


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workload", action="append", choices=sorted(bench.WORKLOADS))
    parser.add_argument("--sources", type=int, default=4)
    parser.add_argument("--source", type=int, action="append",
                        help="this vertex (repeatable) instead of --sources seeded ones")
    parser.add_argument("--paths", action="store_true")
    args = parser.parse_args()
    ex = configured_executor()
    if ex.kind != "cuda":
        parser.error("needs CUDA (CUDA events time the steps)")
    import cupy as cp

    marks = []
    mark = wrap_steps(ex, marks)
    for workload in args.workload or ["random-pred-1M"]:
        graph = next(c for c in bench.WORKLOADS[workload] if c.problem == "sssp").build()
        method = get_method("sssp", bench.AUTO["sssp"](graph, False))
        run = bench.kernel_runner("sssp", method, graph, ex, as_called=True,
                                  want_pred=args.paths)
        for source in args.source or bench.pick_sources(graph, args.sources):
            run(source)
            run(source)
            marks.clear()
            ex.synchronize()
            mark("start")
            t0 = time.perf_counter()
            run(source)
            wall = (time.perf_counter() - t0) * 1e3
            _, host0, event0 = marks[0]
            steps = " ".join(f"{name}:{(host - host0) * 1e3:.3f}/"
                             f"{cp.cuda.get_elapsed_time(event0, event):.3f}"
                             for name, host, event in marks)
            print(f"{workload} source={source} wall={wall:.3f} ms | {steps}", flush=True)


if __name__ == "__main__":
    main()
