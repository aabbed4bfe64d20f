#!/usr/bin/env python3
"""NumPy reference timings for bench/bench (called by it; prints `seconds=<median>`).
usage: numpy_ref.py astype|transpose|slice [repeat]"""
import sys

import numpy as np
from numpy_timing import median_time


def main():
    case = sys.argv[1]
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    if case == "astype":
        a = np.full(16 << 20, 3.75, dtype=np.float64)
        s = median_time(lambda: a.astype(np.float32), repeat)
    elif case == "transpose":
        a = np.full((4096, 4096), 0.5, dtype=np.float32)
        out = np.empty((4096, 4096), dtype=np.float32)
        s = median_time(lambda: np.copyto(out, a.T), repeat)
    elif case == "slice":
        a = np.full((4096, 4096), 0.5, dtype=np.float32)
        out = np.empty((2048, 1366), dtype=np.float32)
        s = median_time(lambda: np.copyto(out, a[::2, ::3]), repeat)
    else:
        sys.exit("unknown case " + case)
    print("seconds=%.6f" % s)


if __name__ == "__main__":
    main()
