"""The Python package's benchmarks (make bench): each case times the same library call
from Python and from C (usmarr._usmarr._bench_add, a C loop in the same process on the same
arrays), with NumPy's time for the same operation alongside.  Medians of interleaved rounds.

    python3 python/bench.py [--device SELECTOR] [--repeat N]
"""

import argparse
import statistics
import time

import usmarr
from usmarr import _usmarr

try:
    import numpy
except ImportError:
    numpy = None


def per_call(fn, iterations):
    start = time.perf_counter()
    fn(iterations)
    return (time.perf_counter() - start) / iterations


def case(name, description, bar, at_least, python_fn, c_fn, numpy_fn, iterations, rounds):
    py, c, ref = [], [], []
    python_fn(max(1, iterations // 10))  # warm: kernels compiled, allocations cached
    for r in range(rounds):  # alternating which side goes first: drift favours neither
        if r % 2:
            c.append(c_fn(iterations))
        py.append(per_call(python_fn, iterations))
        if not r % 2:
            c.append(c_fn(iterations))
        if numpy_fn:
            ref.append(per_call(numpy_fn, iterations))
    tp, tc = statistics.median(py), statistics.median(c)
    ratio = tc / tp if at_least else tp / tc
    met = ratio >= bar if at_least else ratio <= bar
    numpy_text = f", NumPy {statistics.median(ref) * 1e6:.2f} us" if ref else ""
    print(f"  {name}: {description}")
    print(f"  Python {tp * 1e6:.2f} us, C {tc * 1e6:.2f} us{numpy_text} (medians of {rounds} x {iterations})")
    print(f"bench: {name} ratio={ratio:.3f} bar={'>=' if at_least else '<='}{bar:g} {'met' if met else 'missed'}",
          flush=True)
    return met


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default=None)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    device = usmarr.get_device(args.device)
    print(f"bench: python {device.platform} / {device.name} ({device.selector})")
    results = []

    a = usmarr.asarray([float(i) for i in range(16)], dtype=usmarr.float32, device=device)
    b = usmarr.asarray([2.0] * 16, dtype=usmarr.float32, device=device)
    ha = numpy.arange(16, dtype=numpy.float32) if numpy else None

    def py_tiny(n):
        for _ in range(n):
            (a + b).finish()

    def np_tiny(n):
        for _ in range(n):
            ha + ha

    results.append(case("python-tiny-add-16", "a + b of two 16-element float32 arrays from Python, end to end "
                        "(+ finish), vs usmarr_add + finish + release from C", 2.0, False, py_tiny,
                        lambda n: _usmarr._bench_add(a, b, n), np_tiny if numpy else None, 2000, args.repeat))

    n = 16 * 1024 * 1024
    big_a = usmarr.ones(n, dtype=usmarr.float32, device=device)
    big_b = usmarr.full(n, 2.0, dtype=usmarr.float32, device=device)
    hb = numpy.ones(n, dtype=numpy.float32) if numpy else None

    def py_big(k):
        for _ in range(k):
            usmarr.add(big_a, big_b).finish()

    def np_big(k):
        for _ in range(k):
            numpy.add(hb, hb)

    results.append(case("python-add-f32-16M", "usmarr.add of two 16M float32 arrays from Python (+ finish) vs "
                        "the same call from C (time ratio C / Python)", 0.95, True, py_big,
                        lambda k: _usmarr._bench_add(big_a, big_b, k), np_big if numpy else None, 5, args.repeat))
    print(f"bench: python {len(results)} cases, {sum(results)} met, {len(results) - sum(results)} missed")


if __name__ == "__main__":
    main()
