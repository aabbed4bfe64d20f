#!/usr/bin/env python3
"""NumPy reference timings for bench/bench_index.c (prints `seconds=<median>`).
usage: numpy_index.py take|extract|concat|getitem-rows [repeat]"""
import sys

import numpy as np
from numpy_timing import median_time


def main():
    case = sys.argv[1]
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    rng = np.random.default_rng(1)
    if case == "take":
        src = rng.random(16 << 20, dtype=np.float32)
        idx = rng.integers(0, src.size, 1 << 20)
        s = median_time(lambda: np.take(src, idx), repeat)
    elif case == "extract":
        src = rng.random(16 << 20, dtype=np.float32)
        mask = rng.random(src.size) < 0.5
        s = median_time(lambda: np.extract(mask, src), repeat)
    elif case == "concat":
        parts = [rng.random(4 << 20, dtype=np.float32) for _ in range(4)]
        s = median_time(lambda: np.concatenate(parts), repeat)
    elif case == "getitem-rows":
        src = rng.random((4 << 20, 16), dtype=np.float32)
        idx = rng.integers(0, src.shape[0], 1 << 20)
        s = median_time(lambda: src[idx, 2:14], repeat)
    else:
        sys.exit("unknown case " + case)
    print("seconds=%.6f" % s)


if __name__ == "__main__":
    main()
