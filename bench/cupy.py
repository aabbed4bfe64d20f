"""The library against CuPy on the same NVIDIA GPU (make bench-gpu, scripts/gpu-check.sh;
doc/benchmarks.md, doc/gpu.md).  One process: the library through its Python package on its
default device (USMARR_DEVICE, else the first GPU), CuPy on CUDA device 0.  Each case runs
2 warm-ups and then 9 timed runs of each side, interleaved, every run synchronised (the
library's queue finished, CuPy's device synchronised) before the clock stops; the medians
are printed with the ratio CuPy time / library time (> 1: the library is faster) and the
case's bar.  Every result of both sides is checked against NumPy on the host first.

    python3 bench/cupy.py [--repeat 9] [--warmup 2] [--cases name,name] [--scale S]

(--scale S divides the large sizes by S: a trial of the script itself, not a benchmark.)
"""

import argparse
import os
import statistics
import sys
import time

# This file is named cupy.py: its own folder must not stand in for the package
_here = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]

try:
    import numpy as np
except ImportError:
    print("bench: NumPy does not import: nothing to compare", flush=True)
    sys.exit(0)
try:
    import cupy
except ImportError as e:
    print(f"bench: CuPy does not import ({e}): the GPU comparison needs CuPy and an NVIDIA GPU", flush=True)
    sys.exit(0)
import usmarr

M = 1 << 20
N16 = 16 * M
SIDE = 4096


def timed(fn, sync):
    start = time.perf_counter()
    fn()
    sync()
    return time.perf_counter() - start


def close(got, want, rtol, exact):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return f"shape {got.shape}, NumPy {want.shape}"
    if exact:
        return None if np.array_equal(got, want, equal_nan=True) else "differs from NumPy"
    num = np.linalg.norm((got.astype(np.float64) - want.astype(np.float64)).ravel())
    den = np.linalg.norm(want.astype(np.float64).ravel()) or 1.0
    return None if num / den <= rtol else f"relative error {num / den:.2e} > {rtol:g}"


class Bench:
    def __init__(self, args):
        self.args = args
        self.device = usmarr.get_device(None)
        self.rng = np.random.default_rng(7)
        self.failed = 0

    def case(self, name, lib_fn, cupy_fn, want, bar=1.0, rtol=1e-5, exact=False):
        if self.args.cases and name not in self.args.cases:
            return
        lib_sync = self.device.finish
        cupy_sync = cupy.cuda.Device().synchronize
        checks = []
        for side, fn, to_host in (("library", lib_fn, lambda r: r.to_numpy()),
                                  ("CuPy", cupy_fn, cupy.asnumpy)):
            r = fn()
            problem = close(to_host(r), want, rtol, exact)
            if problem:
                checks.append(f"{side} {problem}")
        for _ in range(self.args.warmup):
            timed(lib_fn, lib_sync)
            timed(cupy_fn, cupy_sync)
        lib, cp = [], []
        for i in range(self.args.repeat):  # interleaved, alternating who goes first
            if i % 2:
                cp.append(timed(cupy_fn, cupy_sync))
            lib.append(timed(lib_fn, lib_sync))
            if not i % 2:
                cp.append(timed(cupy_fn, cupy_sync))
        tl, tc = statistics.median(lib) * 1e3, statistics.median(cp) * 1e3
        ratio = tc / tl
        met = ratio >= bar and not checks
        self.failed += bool(checks)
        print(f"bench: {name} library={tl:.4f}ms cupy={tc:.4f}ms ratio={ratio:.3f} bar=>={bar:g} "
              f"{'met' if met else 'missed'} check={'ok' if not checks else '; '.join(checks)}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--cases", type=lambda s: set(s.split(",")), default=None)
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()
    global M, N16, SIDE
    M, N16, SIDE = M // args.scale, N16 // args.scale, SIDE // int(args.scale ** 0.5)
    b = Bench(args)
    props = cupy.cuda.runtime.getDeviceProperties(0)
    gpu = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    driver = cupy.cuda.runtime.driverGetVersion()
    dev = b.device
    print(f"bench: gpu={gpu!r} cuda_driver={driver // 1000}.{driver % 1000 // 10} cupy={cupy.__version__} "
          f"library_device={dev.name!r} ({dev.platform}, {dev.selector})", flush=True)
    rng = b.rng

    def both(host):
        return usmarr.asarray(host, device=dev), cupy.asarray(host)

    ha = rng.standard_normal(N16, dtype=np.float32)
    hb = rng.standard_normal(N16, dtype=np.float32)
    la, ca = both(ha)
    lb, cb = both(hb)
    b.case("add-16M-float32", lambda: la + lb, lambda: ca + cb, ha + hb, exact=True)
    b.case("exp-16M-float32", lambda: usmarr.exp(la), lambda: cupy.exp(ca), np.exp(ha), rtol=1e-6)
    b.case("copy-64MiB", lambda: la.copy(), lambda: ca.copy(), ha, exact=True)

    hm = rng.standard_normal((SIDE, SIDE), dtype=np.float32)
    lm, cm = both(hm)
    b.case("transpose-4096sq-to-C", lambda: usmarr.permute_dims(lm, (1, 0)).copy(order="C"),
           lambda: cupy.ascontiguousarray(cm.T), np.ascontiguousarray(hm.T), exact=True)
    b.case("slice-2-3-to-C", lambda: lm[::2, ::3].copy(order="C"), lambda: cupy.ascontiguousarray(cm[::2, ::3]),
           np.ascontiguousarray(hm[::2, ::3]), exact=True)
    hrow = rng.standard_normal(SIDE, dtype=np.float32)
    lrow, crow = both(hrow)
    b.case("add-row-4096sq", lambda: lm + lrow, lambda: cm + crow, hm + hrow, exact=True)
    b.case("sum-axis0-4096sq", lambda: usmarr.sum(lm, axis=0), lambda: cupy.sum(cm, axis=0),
           hm.astype(np.float64).sum(axis=0), rtol=1e-5)
    b.case("sum-axis1-4096sq", lambda: usmarr.sum(lm, axis=1), lambda: cupy.sum(cm, axis=1),
           hm.astype(np.float64).sum(axis=1), rtol=1e-5)
    b.case("sum-all-16M", lambda: usmarr.sum(la), lambda: cupy.sum(ca), ha.astype(np.float64).sum(), rtol=1e-4)

    hidx = rng.integers(0, N16, M, dtype=np.int64)
    lidx, cidx = both(hidx)  # in range: NumPy's, CuPy's (wrap) and the library's wrap agree
    b.case("take-1M-of-16M", lambda: usmarr.take(la, lidx, mode="wrap"), lambda: cupy.take(ca, cidx), ha[hidx],
           exact=True)
    hmask = rng.random(N16) < 0.5
    lmask, cmask = both(hmask)
    b.case("mask-50pc-16M", lambda: la[lmask], lambda: ca[cmask], ha[hmask], exact=True)
    parts = [rng.standard_normal(4 * M, dtype=np.float32) for _ in range(4)]
    lparts = [usmarr.asarray(p, device=dev) for p in parts]
    cparts = [cupy.asarray(p) for p in parts]
    b.case("concat-4x4M", lambda: usmarr.concat(lparts), lambda: cupy.concatenate(cparts), np.concatenate(parts),
           exact=True)
    hbits = (rng.random(N16) < 0.5).astype(np.float32)  # sums of 0 and 1 below 2^24: exact in float32
    lbits, cbits = both(hbits)
    b.case("cumulative_sum-16M", lambda: usmarr.cumulative_sum(lbits), lambda: cupy.cumsum(cbits),
           np.cumsum(hbits), exact=True)
    b.case("sort-16M-float32", lambda: usmarr.sort(la), lambda: cupy.sort(ca), np.sort(ha), exact=True)
    h4 = rng.integers(0, 1000, 4 * M).astype(np.float32)  # ties: stability shows
    l4, c4 = both(h4)
    b.case("argsort-4M-stable", lambda: usmarr.argsort(l4, stable=True), lambda: cupy.argsort(c4),
           np.argsort(h4, kind="stable"), exact=True)
    hr = rng.standard_normal((SIDE, 1024), dtype=np.float32)
    lr, cr = both(hr)
    b.case("sort-rows-4096x1024", lambda: usmarr.sort(lr, axis=-1), lambda: cupy.sort(cr, axis=-1),
           np.sort(hr, axis=-1), exact=True)
    hsorted = np.sort(ha)
    lsorted, csorted = both(hsorted)
    hkeys = rng.standard_normal(M, dtype=np.float32)
    lkeys, ckeys = both(hkeys)
    b.case("searchsorted-1M-into-16M", lambda: usmarr.searchsorted(lsorted, lkeys),
           lambda: cupy.searchsorted(csorted, ckeys), np.searchsorted(hsorted, hkeys), exact=True)
    hint = rng.integers(0, 1 << 20, N16, dtype=np.int32)
    lint, cint = both(hint)
    b.case("unique_values-16M-int32", lambda: usmarr.unique_values(lint), lambda: cupy.unique(cint),
           np.unique(hint), exact=True)
    hA = rng.standard_normal((SIDE // 2, SIDE // 2), dtype=np.float32)
    hB = rng.standard_normal((SIDE // 2, SIDE // 2), dtype=np.float32)
    lA, cA = both(hA)
    lB, cB = both(hB)
    b.case("matmul-2048sq-float32", lambda: usmarr.matmul(lA, lB), lambda: cupy.matmul(cA, cB),
           hA.astype(np.float64) @ hB.astype(np.float64), bar=0.5, rtol=1e-5)
    hbA = rng.standard_normal((1024, 16, 16), dtype=np.float32)
    hbB = rng.standard_normal((1024, 16, 16), dtype=np.float32)
    lbA, cbA = both(hbA)
    lbB, cbB = both(hbB)
    b.case("matmul-batched-1024x16x16", lambda: usmarr.matmul(lbA, lbB), lambda: cupy.matmul(cbA, cbB),
           hbA.astype(np.float64) @ hbB.astype(np.float64), rtol=1e-5)
    hc = rng.standard_normal(N16, dtype=np.float32)
    lc, cc = both(hc)

    @usmarr.fuse
    def lib_fused(a, b, c):
        return a * b + usmarr.exp(c)

    @cupy.fuse()
    def cupy_fused(a, b, c):
        return a * b + cupy.exp(c)

    want = (ha.astype(np.float64) * hb + np.exp(hc.astype(np.float64))).astype(np.float32)
    b.case("fused-a*b+exp(c)-16M", lambda: lib_fused(la, lb, lc), lambda: cupy_fused(ca, cb, cc), want,
           rtol=1e-6)
    b.case("evaluate-a*b+exp(c)-16M", lambda: usmarr.evaluate("a * b + exp(c)", {"a": la, "b": lb, "c": lc}),
           lambda: cupy_fused(ca, cb, cc), want, rtol=1e-6)

    @usmarr.fuse
    def lib_dot(a, b):
        return usmarr.sum(a * b)

    @cupy.fuse()
    def cupy_dot(a, b):
        return cupy.sum(a * b)

    b.case("fused-sum(a*b)-16M", lambda: lib_dot(la, lb), lambda: cupy_dot(ca, cb),
           (ha.astype(np.float64) * hb).sum(), rtol=1e-4)
    ht = rng.standard_normal(16, dtype=np.float32)
    lt, ct = both(ht)
    b.case("add-16", lambda: lt + lt, lambda: ct + ct, ht + ht, exact=True)
    print(f"bench: done, {b.failed} case(s) with a wrong result", flush=True)
    return 1 if b.failed else 0


if __name__ == "__main__":
    sys.exit(main())
