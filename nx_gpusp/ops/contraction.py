"""Kernel table for kernels/contraction.cu (the steps of a contraction round,
solvers/sssp/contraction.py) and its NumPy twin.

Arcs are int64 arrays (tails, heads, weights), kept distinct and sorted by (tail, head);
masks are bool arrays. On a GPU every step is one of these kernels, built ahead of time
with the other families, and the sorts are distance_order's radix sort: none of CuPy's
own routines (which CuPy compiles with NVRTC at first use: 66 of them, ~37 s, for the
same rounds written with CuPy's array operations). Every step is exact integer work and
every sort stable, so both build the same hierarchy."""

import numpy as np

from ..graph import merge_parallel_arcs
from .base import CudaKernelTable, NumpyTwin, gather_arcs, scalar

__all__ = ["CudaOps", "NumpyOps", "arc_weights"]

HUB = np.iinfo(np.int64).max  # the priority of a vertex left to the core
TIE_BITS = 32  # a priority: edge difference * 2**TIE_BITS + the vertex's seeded tie rank
LIGHTEST_NONE = np.iinfo(np.int64).max // 2  # no in-arc (witness search: no path ends there)
FILTER_BITS = 5  # the host's witness search: 2**5 filter bits per arc (~3% false hits),
FILTER_MAX_BITS = 24  # at most 2**24 (a byte each)
SCAN_THREADS = 256  # contraction.cu: CH_THREADS
SCAN_TILE = SCAN_THREADS * 8  # contraction.cu: CH_TILE
SCAN_TOTALS_THREADS = 1024  # contraction.cu: CH_TOTALS_THREADS
_NULL = scalar(0, np.uint64)  # a null pointer argument


def _i64(value):
    return scalar(value, np.int64)


class CudaOps(CudaKernelTable):
    source = "contraction.cu"
    plain = ("ch_scan_tile_sums", "ch_select", "ch_count", "ch_priority",
             "ch_neighbour_min", "ch_choose", "ch_touch", "ch_set_level", "ch_upward",
             "ch_keys", "ch_product", "ch_inverse", "ch_renumber", "ch_join", "ch_run_starts",
             "ch_dedup", "ch_merge", "ch_offsets", "ch_witness", "ch_scatter_min")
    instances = ("ch_tile_sums<long long>", "ch_tile_sums<unsigned char>",
                 "ch_scan<long long>", "ch_scan<unsigned char>",
                 "ch_take<long long, long long>", "ch_take<long long, int>",
                 "ch_take<unsigned char, long long>", "ch_take<unsigned char, int>")

    # -- primitives ---------------------------------------------------------------
    def _empty(self, size, dtype=np.int64):
        return self.cp.empty(int(size), dtype=dtype)

    def _zeros(self, size, dtype=np.int64):
        return self.ex.ops("array_ops").full(int(size), 0, dtype)

    def _scan(self, values):
        """Inclusive int64 sums of ``values`` (int64 or bool)."""
        m = len(values)
        out = self._empty(m)
        if not m:
            return out
        t = "unsigned char" if values.dtype == np.bool_ else "long long"
        tiles = -(-m // SCAN_TILE)
        sums = self._empty(tiles)
        self.kernel(f"ch_tile_sums<{t}>")((tiles,), (SCAN_THREADS,),
                                           (values, _i64(m), sums))
        self.kernel("ch_scan_tile_sums")((1,), (SCAN_TOTALS_THREADS,), (sums, _i64(tiles)))
        self.kernel(f"ch_scan<{t}>")((tiles,), (SCAN_THREADS,), (values, _i64(m), sums, out))
        return out

    def _last(self, scanned):
        """The last entry of an inclusive scan (its total) as a Python int; 0 if empty."""
        return int(self.ex.to_host(scanned[-1:])[0]) if len(scanned) else 0

    def _pick(self, mask, pos, arrays, keep):
        total = self._last(pos)
        size = total if keep else len(mask) - total
        outs = []
        for arr in arrays:  # None: the entries' indices
            out = self._empty(size)
            self.launch("ch_select", len(mask), (mask, pos, _i64(len(mask)),
                                                 scalar(int(keep), np.int32),
                                                 _NULL if arr is None else arr, out))
            outs.append(out)
        return tuple(outs)

    def _indices(self, mask):
        return self._pick(mask, self._scan(mask), (None,), True)[0]

    def _argsort(self, keys):
        """A stable argsort (int32) of int64 keys below int64's maximum (which
        distance_order leaves out as unreached): its radix sort, over the bits the keys'
        range needs."""
        return self.ex.ops("distance_order").distance_order(keys)

    def _counts(self, x, k):
        out = self._zeros(k)
        self.launch("ch_count", len(x), (x, _i64(len(x)), out))
        return out

    def _dedup_sorted(self, key, weights, k):
        m = len(key)
        first = self._empty(m, np.bool_)
        self.launch("ch_run_starts", m, (key, _i64(m), first))
        pos = self._scan(first)
        runs = self._last(pos)
        out = [self._empty(runs) for _ in range(3)]
        self.launch("ch_dedup", m, (key, weights, _i64(m), first, pos, _i64(k), *out))
        return tuple(out)

    def _sorted_arcs(self, key, weights, k):
        """The arcs of ``key`` (tail * k + head, any order), one per key at its least
        weight, sorted."""
        order = self._argsort(key)
        return self._dedup_sorted(self.take(key, order), self.take(weights, order), k)

    def _mask(self, kernel, size, args):
        out = self._empty(size, np.bool_)
        self.launch(kernel, size, (*args, out))
        return out

    # -- the steps ----------------------------------------------------------------
    def select(self, mask, arrays, keep=True):
        """The entries of each array (int64, mask's length) where ``mask`` is ``keep``,
        in order."""
        return self._pick(mask, self._scan(mask), arrays, keep)

    def split(self, mask, arrays):
        """(select(mask, arrays), select(mask, arrays, keep=False))."""
        pos = self._scan(mask)
        return self._pick(mask, pos, arrays, True), self._pick(mask, pos, arrays, False)

    def take(self, src, index):
        """src[index] (int64 values or a bool mask; int32 or int64 index)."""
        out = self._empty(len(index), src.dtype)
        value = "unsigned char" if src.dtype == np.bool_ else "long long"
        self.launch(f"ch_take<{value}, {'int' if index.dtype == np.int32 else 'long long'}>",
                    len(index), (src, index, _i64(len(index)), out))
        return out

    def keys(self, tails, heads, k):
        """tails * k + heads."""
        out = self._empty(len(tails))
        self.launch("ch_keys", len(tails), (tails, heads, _i64(len(tails)), _i64(k), out))
        return out

    def arcs(self, tails, heads, weights, k):
        """The arcs with one (tail, head) each, at its least weight, sorted by (tail,
        head)."""
        return self._sorted_arcs(self.keys(tails, heads, k), weights, k)

    def independent_set(self, a, b, tie, pair_limit):
        """(chosen, in-degrees, out-degrees, chosen count, their in x out pairs): the
        vertices whose priority (edge difference in x out - in - out, ties by the rank
        ``tie``; a hub past ``pair_limit`` pairs never) is below every neighbour's."""
        k, m = len(tie), len(a)
        din, dout = self._counts(b, k), self._counts(a, k)
        priority, lowest = self._empty(k), self._empty(k)
        self.launch("ch_priority", k, (din, dout, tie, _i64(k), _i64(pair_limit),
                                       scalar(TIE_BITS, np.int32), _i64(HUB), priority,
                                       lowest))
        self.launch("ch_neighbour_min", m, (a, b, _i64(m), priority, lowest))
        chosen = self._empty(k, np.bool_)
        totals = self._zeros(2, np.uint64)
        self.launch("ch_choose", k, (priority, lowest, din, dout, _i64(k), chosen, totals))
        count, work = (int(v) for v in self.ex.to_host(totals))
        return chosen, din, dout, count, work

    def touching(self, chosen, a, b):
        """Which arcs have a chosen end."""
        return self._mask("ch_touch", len(a), (chosen, a, b, _i64(len(a))))

    def set_levels(self, level, ids, chosen, value):
        """level[ids[chosen]] = value."""
        self.launch("ch_set_level", len(ids), (chosen, ids, _i64(len(ids)), level,
                                               _i64(value)))

    def shortcuts(self, chosen, a, b, w, din, dout, k):
        """Every in-arc (u, v) joined with every out-arc (v, x) of each chosen v, u != x,
        at their summed weight, one per (u, x) (the least), sorted by (u, x); ``din``,
        ``dout``: the vertices' degrees in the arcs (a, b)."""
        into = self._indices(self.take(chosen, b))
        into = self.take(into, self._argsort(self.take(b, into)))  # by head, then tail
        out = self._indices(self.take(chosen, a))  # by tail: the arcs are sorted
        verts = self._indices(chosen)
        cin, cout = self.take(din, verts), self.take(dout, verts)
        nv = len(verts)
        pairs = self._empty(nv)
        self.launch("ch_product", nv, (cin, cout, _i64(nv), pairs))
        pair_end = self._scan(pairs)
        total = self._last(pair_end)
        key, c, keep = self._empty(total), self._empty(total), self._empty(total, np.bool_)
        self.launch("ch_join", total, (
            pair_end, _i64(nv), _i64(total), cin, cout, self._scan(cin), self._scan(cout),
            into, out, a, b, w, _i64(k), key, c, keep))
        return self._sorted_arcs(*self.select(keep, (key, c)), k)

    def witnessed(self, u, x, c, a, b, w, k, fanout):
        """Which candidate shortcuts (u, x, c) an arc (u, x) or (u of at most ``fanout``
        out-arcs) a path u -> y -> x of the arcs (a, b, w) makes unneeded (length <= c)."""
        count, m = len(u), len(a)
        if not count or not m:
            return self._zeros(count, np.bool_)
        key = self.keys(a, b, k)
        ptr = self.offsets(a, k + 1)
        lightest = self.ex.ops("array_ops").full(k, LIGHTEST_NONE, np.int64)
        self.scatter_min(lightest, b, w)
        return self._mask("ch_witness", count, (
            u, x, c, _i64(count), key, b, w, _i64(m), ptr, lightest, _i64(k), _i64(fanout)))

    def merge(self, arcs, new, k):
        """The arcs (a, b, w) and the ``new`` ones (both sorted by (tail, head)) merged,
        one per (tail, head) at its least weight."""
        (a, b, w), (u, x, c) = arcs, new
        ka, kn = self.keys(a, b, k), self.keys(u, x, k)
        ma, mn = len(ka), len(kn)
        key, weight = self._empty(ma + mn), self._empty(ma + mn)
        self.launch("ch_merge", ma + mn, (ka, w, _i64(ma), kn, c, _i64(mn), key, weight))
        return self._dedup_sorted(key, weight, k)

    def renumber(self, chosen, arrays):
        """Each vertex of the arrays numbered among the vertices not chosen (none of
        them is chosen)."""
        pos = self._scan(chosen)
        outs = []
        for arr in arrays:
            out = self._empty(len(arr))
            self.launch("ch_renumber", len(arr), (arr, _i64(len(arr)), pos, out))
            outs.append(out)
        return tuple(outs)

    def offsets(self, sorted_keys, count):
        """ptr[v], v < count: the first entry of ``sorted_keys`` (int64) that is >= v."""
        ptr = self._empty(count)
        self.launch("ch_offsets", count, (sorted_keys, _i64(len(sorted_keys)), _i64(count),
                                          ptr))
        return ptr

    def level_order(self, level, top):
        """(order: the vertices by level, stable, int32; level_ptr: on the host, where
        each level 0..top starts in it, then its end; pos: each vertex's place in it,
        int64)."""
        n = len(level)
        order = self._argsort(level)
        ptr = self.ex.to_host(self.offsets(self.take(level, order), top + 1))
        pos = self._empty(n)
        self.launch("ch_inverse", n, (order, _i64(n), pos))
        return order, np.append(ptr, n).astype(np.int64), pos

    def upward(self, level, a, b):
        """Which arcs climb (tail's level below the head's)."""
        return self._mask("ch_upward", len(a), (a, b, _i64(len(a)), level))

    def by_position(self, pos, tails, heads, weights, n):
        """(ptr over positions int64, tails int32, weights int64) of the arcs keyed by
        their head's position (stable: in the order given)."""
        keys = self.take(pos, heads)
        order = self._argsort(keys)
        ptr = self.offsets(self.take(keys, order), n + 1)
        tails = self.ex.ops("array_ops").astype(self.take(tails, order), np.int32)
        return ptr, tails, self.take(weights, order)

    def concatenate(self, parts):
        """The int64 arrays ``parts`` one after another (device-to-device copies)."""
        out = self._empty(sum(len(p) for p in parts))
        at = 0
        for p in parts:
            if len(p):
                out[at:at + len(p)].data.copy_from_device_async(p.data, p.nbytes)
            at += len(p)
        return out

    def scatter_min(self, target, index, values):
        """target[index[i]] = min(itself, values[i]) for every i, in place."""
        self.launch("ch_scatter_min", len(index), (target, index, values, _i64(len(index))))



def arc_weights(key, weights, t, h, k):
    """(found, weight) of the arcs (t, h) among the arcs of sorted, distinct ``key``
    (tail * k + head): a binary search of the keys (NumPy)."""
    if not len(key):
        return np.zeros(len(t), dtype=bool), np.zeros(len(t), dtype=weights.dtype)
    q = t * k + h
    at = np.minimum(np.searchsorted(key, q), len(key) - 1)
    return key[at] == q, weights[at]


def _key_hash(key, bits):
    """Multiplicative hashing of int64 keys to ``bits`` bits."""
    return ((key.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits)
            ).astype(np.int64)


class NumpyOps(NumpyTwin):
    def _dedup_sorted(self, key, weights, k):
        if not len(key):
            return key, key, weights
        first = np.ones(len(key), dtype=bool)
        first[1:] = key[1:] != key[:-1]
        starts = np.flatnonzero(first)
        weights = np.minimum.reduceat(weights, starts)
        key = key[starts]
        return key // k, key % k, weights

    def select(self, mask, arrays, keep=True):
        mask = mask if keep else ~mask
        return tuple(arr[mask] for arr in arrays)

    def split(self, mask, arrays):
        return self.select(mask, arrays), self.select(mask, arrays, keep=False)

    def take(self, src, index):
        return src[index]

    def keys(self, tails, heads, k):
        return tails * k + heads

    def arcs(self, tails, heads, weights, k):
        return merge_parallel_arcs(k, tails, heads, weights)

    def independent_set(self, a, b, tie, pair_limit):
        k = len(tie)
        din, dout = _counts(b, k), _counts(a, k)
        pairs = din * dout
        priority = np.where(pairs <= pair_limit, ((pairs - din - dout) << TIE_BITS) + tie,
                            HUB)
        lowest = np.full(k, HUB, dtype=np.int64)
        np.minimum.at(lowest, a, priority[b])
        np.minimum.at(lowest, b, priority[a])
        chosen = priority < lowest
        return chosen, din, dout, int(chosen.sum()), int(pairs[chosen].sum())

    def touching(self, chosen, a, b):
        return chosen[a] | chosen[b]

    def set_levels(self, level, ids, chosen, value):
        level[ids[chosen]] = value

    def shortcuts(self, chosen, a, b, w, din, dout, k):
        into = np.flatnonzero(chosen[b])
        into = into[np.argsort(b[into], kind="stable")]  # by head, then tail
        out = np.flatnonzero(chosen[a])  # by tail already: the arcs are sorted
        verts = np.flatnonzero(chosen)
        cin, cout = din[verts], dout[verts]
        ends = np.zeros(len(verts) + 1, dtype=np.int64)  # each vertex's pairs
        np.cumsum(cin * cout, out=ends[1:])
        owner, pair = gather_arcs(ends, np.arange(len(verts)))
        if not len(owner):
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        within = pair - ends[owner]
        first_in = np.cumsum(cin) - cin
        first_out = np.cumsum(cout) - cout
        i = into[first_in[owner] + within // cout[owner]]
        o = out[first_out[owner] + within % cout[owner]]
        u, x, c = a[i], b[o], w[i] + w[o]
        keep = u != x
        return self.arcs(u[keep], x[keep], c[keep], k)

    def witnessed(self, u, x, c, a, b, w, k, fanout):
        if not len(u) or not len(a):
            return np.zeros(len(u), dtype=bool)
        key = a * k + b
        found, direct = arc_weights(key, w, u, x, k)
        done = found & (direct <= c)
        ptr = np.searchsorted(a, np.arange(k + 1))
        # a hub's paths are not searched (a shortcut more)
        searched = np.flatnonzero(~done & (ptr[u + 1] - ptr[u] <= fanout))
        owner, arc = gather_arcs(ptr, u[searched])
        owner = searched[owner]
        # y -> x can close a witness only where w(u, y) + (x's lightest in-arc) <= c
        lightest = np.full(k, LIGHTEST_NONE, dtype=np.int64)
        np.minimum.at(lightest, b, w)
        near = w[arc] + lightest[x[owner]] <= c[owner]
        owner, arc = owner[near], arc[near]
        # most (y, x) are no arc: a bit per hashed key rules them out before the search
        bits = min(max(16, len(key).bit_length() + FILTER_BITS), FILTER_MAX_BITS)
        present = np.zeros(1 << bits, dtype=bool)
        present[_key_hash(key, bits)] = True
        maybe = np.flatnonzero(present[_key_hash(b[arc] * k + x[owner], bits)])
        owner, arc = owner[maybe], arc[maybe]
        found, second = arc_weights(key, w, b[arc], x[owner], k)
        hit = found & (w[arc] + second <= c[owner])
        done[owner[hit]] = True
        return done

    def merge(self, arcs, new, k):
        (a, b, w), (u, x, c) = arcs, new
        ka, kn = a * k + b, u * k + x
        m = len(ka) + len(kn)
        key, weight = np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64)
        at_old = np.arange(len(ka)) + np.searchsorted(kn, ka, side="left")
        at_new = np.arange(len(kn)) + np.searchsorted(ka, kn, side="right")
        key[at_old], weight[at_old] = ka, w
        key[at_new], weight[at_new] = kn, c
        return self._dedup_sorted(key, weight, k)

    def renumber(self, chosen, arrays):
        number = np.cumsum(~chosen) - 1
        return tuple(number[arr] for arr in arrays)

    def offsets(self, sorted_keys, count):
        return np.searchsorted(sorted_keys, np.arange(count))

    def level_order(self, level, top):
        n = len(level)
        order = np.argsort(level, kind="stable").astype(np.int32)
        ptr = np.searchsorted(level[order], np.arange(top + 1))
        pos = np.empty(n, dtype=np.int64)
        pos[order] = np.arange(n)
        return order, np.append(ptr, n).astype(np.int64), pos

    def upward(self, level, a, b):
        return level[a] < level[b]

    def by_position(self, pos, tails, heads, weights, n):
        keys = pos[heads]
        order = np.argsort(keys, kind="stable")
        ptr = np.searchsorted(keys[order], np.arange(n + 1))
        return ptr, tails[order].astype(np.int32), weights[order].astype(np.int64)

    def concatenate(self, parts):
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)

    def scatter_min(self, target, index, values):
        np.minimum.at(target, index, values)


def _counts(x, k):
    """How many times each of 0..k-1 occurs in ``x`` (int64)."""
    if not len(x):
        return np.zeros(k, dtype=np.int64)
    return np.bincount(x, minlength=k).astype(np.int64, copy=False)
