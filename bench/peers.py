"""The library against its peer on the same device (make bench-peers): Intel's dpnp over
dpctl, which runs on Intel's CPU OpenCL runtime through its SYCL runtime.  Both run in this
one process, on the same OpenCL device, with the same inputs; each case times the
library's call (through the usmarr package, C calls only) and dpnp's, in interleaved
rounds, each call followed by a wait, and prints dpnp time / library time.

    python bench/peers.py [--platform Intel] [--repeat N] [--filter S]

It needs dpnp and dpctl importable (make bench-peers installs them into a private virtual
environment when asked, doc/benchmarks.md) and the build tree's usmarr package.
"""

import argparse
import statistics
import time

import dpctl
import dpnp
import usmarr

N16M = 16 * 1024 * 1024
SIDE = 4096


def timed(fn, iterations):
    start = time.perf_counter()
    for _ in range(iterations):
        fn()
    return (time.perf_counter() - start) / iterations


def run_case(name, description, ours, theirs, iterations, rounds, bar=1.0):
    ours()
    theirs()  # warm: kernels compiled, allocations cached on both sides
    mine, peer = [], []
    for r in range(rounds):  # alternate which goes first, so drift favours neither
        if r % 2:
            peer.append(timed(theirs, iterations))
        mine.append(timed(ours, iterations))
        if not r % 2:
            peer.append(timed(theirs, iterations))
    tm, tp = statistics.median(mine), statistics.median(peer)
    ratio = tp / tm
    met = ratio >= bar
    print(f"  {name}: {description}")
    print(f"  usmarr {tm * 1e3:.3f} ms, dpnp {tp * 1e3:.3f} ms (medians of {rounds} x {iterations})")
    print(f"bench: peers-{name} ratio={ratio:.3f} bar=>={bar:g} {'met' if met else 'missed'}", flush=True)
    return met


def pick_devices(platform):
    theirs = [d for d in dpctl.get_devices(backend="opencl", device_type="cpu") if platform in d.sycl_platform.name]
    if not theirs:
        raise SystemExit(f"bench-peers: dpctl finds no OpenCL CPU device of a platform named '{platform}'")
    ours = [d for d in usmarr.devices() if platform in d.platform and d.name == theirs[0].name]
    if not ours:
        raise SystemExit(f"bench-peers: usmarr finds no device '{theirs[0].name}' of a platform named '{platform}'")
    return ours[0], dpctl.SyclQueue(theirs[0])


def cases(dev, q):
    """(name, description, usmarr call, dpnp call, iterations) for each case."""
    f32 = usmarr.float32

    def both(shape, fill):
        return usmarr.full(shape, fill, dtype=f32, device=dev), dpnp.full(shape, fill, dtype="float32", sycl_queue=q)

    a, da = both(N16M, 1.5)
    b, db = both(N16M, 2.0)
    c, dc = both(N16M, 0.0)
    m, dm = both((SIDE, SIDE), 0.5)
    row, drow = both((SIDE,), 0.25)
    sq_out, dsq_out = both((SIDE, SIDE), 0.0)
    sl_out, dsl_out = both((SIDE // 2, (SIDE + 2) // 3), 0.0)
    mask = usmarr.greater(usmarr.remainder(usmarr.arange(N16M, dtype=usmarr.int32, device=dev), 3), 0)
    dmask = dpnp.greater(dpnp.remainder(dpnp.arange(N16M, dtype="int32", sycl_queue=q), 3), 0)
    t, dt = both(16, 1.0)
    u, du = both(16, 2.0)

    def set_transpose():
        sq_out[...] = m.T
        sq_out.finish()

    def dset_transpose():
        dsq_out[...] = dm.T
        q.wait()

    def set_slice():
        sl_out[...] = m[::2, ::3]
        sl_out.finish()

    def dset_slice():
        dsl_out[...] = dm[::2, ::3]
        q.wait()

    return [
        ("add-f32-16M", "a + b of two 16M float32 arrays, new result",
         lambda: usmarr.add(a, b).finish(), lambda: dpnp.add(da, db).sycl_queue.wait(), 5),
        ("add-f32-16M-out", "a + b of two 16M float32 arrays into an existing out (the kernels alone)",
         lambda: usmarr.add(a, b, out=c).finish(), lambda: dpnp.add(da, db, out=dc).sycl_queue.wait(), 5),
        ("exp-f32-16M", "exp of a 16M float32 array, new result",
         lambda: usmarr.exp(a).finish(), lambda: dpnp.exp(da).sycl_queue.wait(), 5),
        ("exp-f32-16M-out", "exp of a 16M float32 array into an existing out (the kernels alone)",
         lambda: usmarr.exp(a, out=c).finish(), lambda: dpnp.exp(da, out=dc).sycl_queue.wait(), 5),
        ("add-broadcast-4096x4096", "(4096, 4096) + (4096,) float32",
         lambda: usmarr.add(m, row).finish(), lambda: dpnp.add(dm, drow).sycl_queue.wait(), 5),
        ("transpose-4096", "out[...] = a.T, 4096^2 float32", set_transpose, dset_transpose, 3),
        ("slice-2-3-4096", "out[...] = a[::2, ::3], 4096^2 float32", set_slice, dset_slice, 5),
        ("sum-axis0-4096", "sum over axis 0 of a 4096^2 float32",
         lambda: usmarr.sum(m, axis=0).finish(), lambda: dpnp.sum(dm, axis=0).sycl_queue.wait(), 5),
        ("sum-axis1-4096", "sum over axis 1 of a 4096^2 float32",
         lambda: usmarr.sum(m, axis=1).finish(), lambda: dpnp.sum(dm, axis=1).sycl_queue.wait(), 5),
        ("sum-all-16M", "sum of all 16M float32",
         lambda: usmarr.sum(a).finish(), lambda: dpnp.sum(da).sycl_queue.wait(), 5),
        ("extract-16M", "a[mask] of 16M float32, two thirds kept",
         lambda: a[mask].finish(), lambda: da[dmask].sycl_queue.wait(), 3),
        ("tiny-add-16", "a + b of two 16-element float32 arrays (latency)",
         lambda: (t + u).finish(), lambda: (dt + du).sycl_queue.wait(), 200),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--platform", default="Intel", help="part of the OpenCL platform name (default Intel)")
    parser.add_argument("--repeat", type=int, default=7, help="rounds behind each median (default 7)")
    parser.add_argument("--filter", default="", help="only the cases whose name contains this")
    args = parser.parse_args()
    dev, q = pick_devices(args.platform)
    print(f"bench: peers usmarr {usmarr.__version__} on {dev.platform} / {dev.name} ({dev.selector}); "
          f"dpnp {dpnp.__version__}, dpctl {dpctl.__version__} on {q.sycl_device.sycl_platform.name} / "
          f"{q.sycl_device.name}")
    results = [run_case(name, text, ours, theirs, iterations, args.repeat)
               for name, text, ours, theirs, iterations in cases(dev, q) if args.filter in name]
    print(f"bench: peers {len(results)} cases, {sum(results)} met, {len(results) - sum(results)} missed")


if __name__ == "__main__":
    main()
