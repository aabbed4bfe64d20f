"""The timing loop of the NumPy reference scripts (bench/numpy_*.py), which import it
from their own directory."""
import time


def median_time(fn, repeat):
    """The median of `repeat` timed calls of fn(), after one warm-up call, in seconds."""
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]
