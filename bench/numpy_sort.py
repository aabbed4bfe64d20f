#!/usr/bin/env python3
"""NumPy reference timings for bench/bench_sort.c (prints `seconds=<median>`).
usage: numpy_sort.py sort|argsort|sort-rows|searchsorted|unique [repeat]"""
import sys

import numpy as np
from numpy_timing import median_time


def main():
    case = sys.argv[1]
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    rng = np.random.default_rng(1)
    if case == "sort":
        a = rng.random(16 << 20, dtype=np.float32)
        s = median_time(lambda: np.sort(a), repeat)
    elif case == "argsort":
        a = rng.random(4 << 20, dtype=np.float32)
        s = median_time(lambda: np.argsort(a, kind="stable"), repeat)
    elif case == "sort-rows":
        a = rng.random((4096, 1024), dtype=np.float32)
        s = median_time(lambda: np.sort(a, axis=-1), repeat)
    elif case == "searchsorted":
        a = np.sort(rng.random(16 << 20, dtype=np.float32))
        v = rng.random(1 << 20, dtype=np.float32)
        s = median_time(lambda: np.searchsorted(a, v), repeat)
    elif case == "unique":
        a = rng.integers(0, 1000, 16 << 20).astype(np.int32)
        s = median_time(lambda: np.unique(a), repeat)
    else:
        sys.exit("unknown case " + case)
    print("seconds=%.6f" % s)


if __name__ == "__main__":
    main()
