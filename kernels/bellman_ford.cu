// Bellman-Ford on CSR (Bodra & Khairnar 2025, "Accelerating and analyzing performance of
// shortest path algorithms on GPU using CUDA platform"), variants vertex, strided and
// strided+flag: the round's kernels (bf_relax, bf_record_predecessors, bf_update) are in
// bellman_ford.cuh, which harish.cu shares (it relaxes with relax_out_arcs and records
// predecessors with bf_record_predecessors).
#include "bellman_ford.cuh"
