"""The library against CuPy on the same NVIDIA GPU (make bench-gpu, scripts/gpu-check.sh;
doc/benchmarks.md, doc/gpu.md).  One process: the library through its Python package on its
default device (USMARR_DEVICE, else the first GPU), CuPy on CUDA device 0.

Both sides are timed on the device, not on the host: the library's work runs on a queue with
OpenCL profiling (usmarr.Queue(profiling=True), `with queue:`), between two markers whose
profiling end times bound it; CuPy's between two CUDA events on its current stream.  A sample
is the time between the events around --inner calls, divided by --inner, so that the host's
enqueue of one call overlaps the device's run of the one before.  Each case runs 2 warm-ups
and then 9 samples of each side, interleaved; the medians are printed with the ratio CuPy
time / library time (> 1: the library is faster) and the case's bar.  Every result of both
sides is checked against NumPy on the host first.

The streaming cases (marked `stream`) move at least 1 GiB between the device's memory and
its cores per call, so that the kernel dominates every fixed cost; each prints the bytes it
moves (each element read or written once) over the time as a fraction of the device's peak
bandwidth (from a table of known GPUs, else from the device's memory clock and bus width).

    python3 bench/cupy.py [--repeat 9] [--warmup 2] [--inner 4] [--cases name,name] [--scale S]

(--scale S divides the large sizes by S: a trial of the script itself, not a benchmark.)
"""

import argparse
import os
import statistics
import sys

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
STREAM = 256 * M  # float32 elements: 1 GiB an array
STREAM_SIDE = 16384  # float32 (16384, 16384): 1 GiB

# Peak memory bandwidth in bytes per second of the GPUs measured in doc/benchmarks.md, by a
# part of the device's name (the first match wins: the more specific names first).
PEAKS = (("H200", 4.8e12), ("H100 PCIe", 2.0e12), ("H100 NVL", 3.9e12), ("H100", 3.35e12),
         ("A100-SXM4-80GB", 2.039e12), ("A100 80GB PCIe", 1.935e12), ("A100", 1.555e12))
ATTR_MEMORY_CLOCK_KHZ = 36  # cudaDevAttrMemoryClockRate
ATTR_BUS_WIDTH_BITS = 37  # cudaDevAttrGlobalMemoryBusWidth


def peak_bandwidth(names):
    """The device's peak bandwidth (bytes/s) and where it comes from; (None, why) if unknown."""
    for part, peak in PEAKS:
        for name in names:
            if part in name:
                return peak, f"table: {part}"
    try:
        clock = cupy.cuda.runtime.deviceGetAttribute(ATTR_MEMORY_CLOCK_KHZ, 0)
        width = cupy.cuda.runtime.deviceGetAttribute(ATTR_BUS_WIDTH_BITS, 0)
    except Exception as e:  # a runtime without these attributes
        return None, f"unknown ({e})"
    if clock <= 0 or width <= 0:
        return None, "unknown (no memory clock or bus width)"
    return 2.0 * clock * 1e3 * width / 8, f"memory clock {clock / 1e3:g} MHz x {width} bits, double data rate"


def library_time(fn, queue, inner):
    """Milliseconds per call of fn on the device, between two profiled markers of queue."""
    with queue:
        start = queue.marker()
        results = [fn() for _ in range(inner)]
        end = queue.marker()
    end.wait()
    del results
    return start.elapsed_time(end) / inner


def cupy_time(fn, inner):
    """Milliseconds per call of fn on the device, between two CUDA events."""
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    start.record()
    results = [fn() for _ in range(inner)]
    end.record()
    end.synchronize()
    del results
    return cupy.cuda.get_elapsed_time(start, end) / inner


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
        self.queue = usmarr.Queue(self.device, profiling=True)
        self.rng = np.random.default_rng(7)
        self.failed = 0
        self.peak = None

    def case(self, name, lib_fn, cupy_fn, want, bar=1.0, rtol=1e-5, exact=False, traffic=0):
        """traffic: the bytes one call moves (a streaming case), 0 for the others."""
        if self.args.cases and name not in self.args.cases:
            return
        checks = []
        for side, fn, to_host in (("library", lib_fn, lambda r: r.to_numpy()),
                                  ("CuPy", cupy_fn, cupy.asnumpy)):
            r = fn()
            problem = close(to_host(r), want, rtol, exact)
            if problem:
                checks.append(f"{side} {problem}")
            del r
        self.device.finish()  # the operands' uploads and the checks are done before any marker
        inner = self.args.inner
        for _ in range(self.args.warmup):
            library_time(lib_fn, self.queue, inner)
            cupy_time(cupy_fn, inner)
        lib, cp = [], []
        for i in range(self.args.repeat):  # interleaved, alternating who goes first
            if i % 2:
                cp.append(cupy_time(cupy_fn, inner))
            lib.append(library_time(lib_fn, self.queue, inner))
            if not i % 2:
                cp.append(cupy_time(cupy_fn, inner))
        tl, tc = statistics.median(lib), statistics.median(cp)
        if tl <= 0 or tc <= 0:
            checks.append(f"a device time of zero (library {tl:g} ms, CuPy {tc:g} ms): no profiling data")
            tl, tc = tl if tl > 0 else float("nan"), tc if tc > 0 else float("nan")
        ratio = tc / tl
        met = ratio >= bar and not checks
        self.failed += bool(checks)
        stream = ""
        if traffic:
            gl, gc = traffic / tl / 1e6, traffic / tc / 1e6  # GB/s
            stream = f" stream={traffic / (1 << 30):.2f}GiB library={gl:.0f}GB/s cupy={gc:.0f}GB/s"
            if self.peak:
                stream += f" peak_fraction library={gl * 1e9 / self.peak:.3f} cupy={gc * 1e9 / self.peak:.3f}"
        print(f"bench: {name} library={tl:.4f}ms cupy={tc:.4f}ms ratio={ratio:.3f} bar=>={bar:g} "
              f"{'met' if met else 'missed'}{stream} check={'ok' if not checks else '; '.join(checks)}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--inner", type=int, default=4, help="calls between the two events of one sample")
    parser.add_argument("--cases", type=lambda s: set(s.split(",")), default=None)
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()
    if args.repeat < 1 or args.warmup < 0 or args.inner < 1 or args.scale < 1:
        parser.error("--repeat, --inner and --scale must be at least 1, --warmup at least 0")
    global M, N16, SIDE, STREAM, STREAM_SIDE
    root = int(args.scale ** 0.5)
    M, N16, SIDE = M // args.scale, N16 // args.scale, SIDE // root
    STREAM, STREAM_SIDE = STREAM // args.scale, STREAM_SIDE // root
    b = Bench(args)
    try:  # NVIDIA's OpenCL profiles markers; a driver that does not cannot be timed this way
        with b.queue:
            first = b.queue.marker()
        b.queue.marker().elapsed_time(first)
    except usmarr.UsmarrError as e:
        print(f"bench: the library's queue markers carry no profiling times on this device ({e}): "
              "no device timing", flush=True)
        return 1
    props = cupy.cuda.runtime.getDeviceProperties(0)
    gpu = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    driver = cupy.cuda.runtime.driverGetVersion()
    dev = b.device
    b.peak, peak_source = peak_bandwidth((gpu, dev.name))
    peak_text = f"{b.peak / 1e12:.3g}TB/s" if b.peak else "unknown"
    print(f"bench: gpu={gpu!r} cuda_driver={driver // 1000}.{driver % 1000 // 10} cupy={cupy.__version__} "
          f"library_device={dev.name!r} ({dev.platform}, {dev.selector}) peak={peak_text} ({peak_source}) "
          f"timing=device events, {args.inner} call(s) a sample", flush=True)
    rng = b.rng

    def both(host):
        return usmarr.asarray(host, device=dev), cupy.asarray(host)

    f4 = 4  # bytes of a float32
    ha = rng.standard_normal(STREAM, dtype=np.float32)
    hb = rng.standard_normal(STREAM, dtype=np.float32)
    la, ca = both(ha)
    lb, cb = both(hb)
    b.case("add-256M-float32", lambda: la + lb, lambda: ca + cb, ha + hb, exact=True, traffic=3 * f4 * STREAM)
    b.case("exp-256M-float32", lambda: usmarr.exp(la), lambda: cupy.exp(ca), np.exp(ha), rtol=1e-6,
           traffic=2 * f4 * STREAM)
    b.case("copy-1GiB", lambda: la.copy(), lambda: ca.copy(), ha, exact=True, traffic=2 * f4 * STREAM)
    b.case("sum-all-256M", lambda: usmarr.sum(la), lambda: cupy.sum(ca), ha.astype(np.float64).sum(), rtol=1e-4,
           traffic=f4 * STREAM)

    hm = rng.standard_normal((STREAM_SIDE, STREAM_SIDE), dtype=np.float32)
    lm, cm = both(hm)
    square = f4 * STREAM_SIDE * STREAM_SIDE
    b.case("transpose-16384sq-to-C", lambda: usmarr.permute_dims(lm, (1, 0)).copy(order="C"),
           lambda: cupy.ascontiguousarray(cm.T), np.ascontiguousarray(hm.T), exact=True, traffic=2 * square)
    b.case("slice-2-3-to-C", lambda: lm[::2, ::3].copy(order="C"), lambda: cupy.ascontiguousarray(cm[::2, ::3]),
           np.ascontiguousarray(hm[::2, ::3]), exact=True)
    hrow = rng.standard_normal(STREAM_SIDE, dtype=np.float32)
    lrow, crow = both(hrow)
    b.case("add-row-16384sq", lambda: lm + lrow, lambda: cm + crow, hm + hrow, exact=True, traffic=2 * square)
    b.case("sum-axis0-16384sq", lambda: usmarr.sum(lm, axis=0), lambda: cupy.sum(cm, axis=0),
           hm.astype(np.float64).sum(axis=0), rtol=1e-5, traffic=square)
    b.case("sum-axis1-16384sq", lambda: usmarr.sum(lm, axis=1), lambda: cupy.sum(cm, axis=1),
           hm.astype(np.float64).sum(axis=1), rtol=1e-5, traffic=square)
    del hm, lm, cm

    parts = np.split(ha, 4)
    lparts = [usmarr.asarray(p, device=dev) for p in parts]
    cparts = [cupy.asarray(p) for p in parts]
    b.case("concat-4x64M", lambda: usmarr.concat(lparts), lambda: cupy.concatenate(cparts), ha, exact=True,
           traffic=2 * f4 * STREAM)
    del lparts, cparts
    hc = rng.standard_normal(STREAM, dtype=np.float32)
    lc, cc = both(hc)

    @usmarr.fuse
    def lib_fused(a, b, c):
        return a * b + usmarr.exp(c)

    @cupy.fuse()
    def cupy_fused(a, b, c):
        return a * b + cupy.exp(c)

    want = (ha.astype(np.float64) * hb + np.exp(hc.astype(np.float64))).astype(np.float32)
    b.case("fused-a*b+exp(c)-256M", lambda: lib_fused(la, lb, lc), lambda: cupy_fused(ca, cb, cc), want,
           rtol=1e-6, traffic=4 * f4 * STREAM)
    b.case("evaluate-a*b+exp(c)-256M", lambda: usmarr.evaluate("a * b + exp(c)", {"a": la, "b": lb, "c": lc}),
           lambda: cupy_fused(ca, cb, cc), want, rtol=1e-6, traffic=4 * f4 * STREAM)
    del want, hc, lc, cc

    @usmarr.fuse
    def lib_dot(a, b):
        return usmarr.sum(a * b)

    @cupy.fuse()
    def cupy_dot(a, b):
        return cupy.sum(a * b)

    b.case("fused-sum(a*b)-256M", lambda: lib_dot(la, lb), lambda: cupy_dot(ca, cb),
           (ha.astype(np.float64) * hb).sum(), rtol=1e-4, traffic=2 * f4 * STREAM)
    del ha, hb, la, lb, ca, cb

    # The other cases: gathers, scans, sorts, searches, linear algebra, a tiny call
    ha = rng.standard_normal(N16, dtype=np.float32)
    la, ca = both(ha)
    hidx = rng.integers(0, N16, M, dtype=np.int64)
    lidx, cidx = both(hidx)  # in range: NumPy's, CuPy's (wrap) and the library's wrap agree
    b.case("take-1M-of-16M", lambda: usmarr.take(la, lidx, mode="wrap"), lambda: cupy.take(ca, cidx), ha[hidx],
           exact=True)
    hmask = rng.random(N16) < 0.5
    lmask, cmask = both(hmask)
    b.case("mask-50pc-16M", lambda: la[lmask], lambda: ca[cmask], ha[hmask], exact=True)
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
    ht = rng.standard_normal(16, dtype=np.float32)
    lt, ct = both(ht)
    b.case("add-16", lambda: lt + lt, lambda: ct + ct, ht + ht, exact=True)
    print(f"bench: done, {b.failed} case(s) with a wrong result", flush=True)
    return 1 if b.failed else 0


if __name__ == "__main__":
    sys.exit(main())
