// Bellman-Ford with a work queue (CUDA SSSP paper, zh, section 4.2 "queue" and 4.3
// LLL/SLF), processed in batches on the GPU.
//
// The queue is a circular array of n slots, queue[pos mod n] for head <= pos < tail;
// counters[0] = head and counters[1] = tail are unbounded int64 positions (head moves
// down when SLF pushes to the front). in_queue[v] != 0 while v sits in the queue, so
// every vertex is in it at most once and n slots suffice. The host takes a batch out of
// the queue (nx_gpusp/solvers/sssp/bf_queue.py), then queue_relax_batch relaxes it:
// one thread per batch vertex (grid-stride), reading the current dist[u] (a label-
// correcting pass, not a snapshot), atomic minimum into dist; a vertex it lowers that is
// not queued is enqueued at the back, or with slf at the front when its new label is
// below slf_ref (the mean label of the batch: the batch plays the sequential queue's head).
//
// Arguments: CSR (indptr int64, indices int32, weights T); batch[batch_size] int32;
// dist[n]; in_queue[n] int32; queue[n] int32; counters[2] int64; slf (0/1); slf_ref;
// cutoff (candidates above it are not relaxed); relaxations[1] uint64 += arcs scanned.
#include "arc_visitors.cuh"

template <typename T>
__global__ void queue_relax_batch(const long long* __restrict__ indptr,
                                  const int* __restrict__ indices,
                                  const T* __restrict__ weights,
                                  const int* __restrict__ batch, int batch_size, T* dist,
                                  int* in_queue, int* queue, int n, long long* counters,
                                  int slf, double slf_ref, T cutoff,
                                  unsigned long long* relaxations) {
    for (long long i = global_thread_id(); i < batch_size; i += grid_stride()) {
        const int u = batch[i];
        const T du = dist[u];
        const long long begin = indptr[u], end = indptr[u + 1];
        atomicAdd(relaxations, static_cast<unsigned long long>(end - begin));
        for_arcs(begin, end, 1, [&](long long e) {
            const int v = indices[e];
            const T cand = du + weights[e];
            if (cand > cutoff || !(cand < dist[v])) return;
            const T old = atomic_min(&dist[v], cand);
            if (!(cand < old) || atomicExch(&in_queue[v], 1) != 0) return;
            long long pos;
            if (slf && static_cast<double>(cand) < slf_ref) {
                pos = static_cast<long long>(atomicAdd(
                          reinterpret_cast<unsigned long long*>(&counters[0]),
                          static_cast<unsigned long long>(-1LL))) - 1;
            } else {
                pos = static_cast<long long>(atomicAdd(
                    reinterpret_cast<unsigned long long*>(&counters[1]), 1ULL));
            }
            queue[((pos % n) + n) % n] = v;
        });
    }
}
