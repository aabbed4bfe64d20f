"""dpctl and usmarr exchange arrays in place, each ordered after the other's queue, with no
wait written in the test.

Run by python/run-sklearn-tests.sh in the tests' NumPy 2 environment, where
scripts/numpy2-dpctl.sh installs dpctl from PyPI, on Intel's CPU OpenCL runtime as dpctl
sees it through OCL_ICD_VENDORS.  usmarr adopts the cl_context of dpctl's SYCL context for
the device, so both read the same USM.  dpctl 0.22 has no array type of its own (dpctl.tensor
moved to dpnp, not installed here): its arrays are USM blocks of dpctl.memory, written by an
OpenCL kernel dpctl builds and submits, and given the array interface dpctl.tensor's arrays
give, their queue as `syclobj`.  NumPy 2 is the oracle."""

import ctypes
import os
import sys
import threading

import pytest

np = pytest.importorskip("numpy")
dpctl = pytest.importorskip("dpctl", reason="dpctl is not installed (scripts/numpy2-dpctl.sh installs it)")

import dpctl.memory as dpm  # noqa: E402
import dpctl.program as dpp  # noqa: E402
import usmarr  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from dpctl_support import adopt, intel_opencl_device  # noqa: E402

N = 4096
SPINS = 1_000_000  # long enough that a reader who does not wait reads the block unwritten
PRODUCE = """kernel void produce(global float *x, int spins) {
    size_t i = get_global_id(0);
    float v = 0.0f;
    for (int k = 0; k < spins; k++)
        v = v * 0.5f + (float)(i % 7);   /* converges to 2 * (i % 7) exactly */
    x[i] = i == 1 ? -0.0f : i == 2 ? INFINITY : i == 3 ? NAN : v + (float)i;
}"""


def _expected():
    i = np.arange(N)
    want = (2 * (i % 7) + i).astype(np.float32)
    want[1:4] = [-0.0, np.inf, np.nan]
    return want


class _DpctlArray:
    """A dpctl USM block as a float32 vector, with the interface dpctl.tensor's arrays give."""

    def __init__(self, memory, queue):
        self.memory = memory
        pointer = memory.__sycl_usm_array_interface__["data"][0]
        self.__sycl_usm_array_interface__ = {"data": (pointer, False), "shape": (N,), "strides": None,
                                             "typestr": "|f4", "version": 1, "syclobj": queue}


@pytest.fixture
def dpctl_queue_and_device():
    dev = intel_opencl_device(dpctl)
    q = dpctl.SyclQueue(dev, property="in_order")
    return q, adopt(dpctl, q)


def test_dpctl_kernel_output_read_by_usmarr_without_waits(dpctl_queue_and_device):
    q, ad = dpctl_queue_and_device
    memory = dpm.MemoryUSMDevice(4 * N, queue=q)
    kernel = dpp.create_program_from_source(q, PRODUCE).get_sycl_kernel("produce")
    q.submit_async(kernel, [memory, ctypes.c_int(SPINS)], [N])  # not waited for
    x = usmarr.asarray(_DpctlArray(memory, q), device=ad, copy=False)  # syclobj is q: ordered after it
    y = x * 2 - 1
    want = _expected()
    got = y.to_numpy()
    np.testing.assert_array_equal(got, want * np.float32(2) - np.float32(1))
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want * np.float32(2) - np.float32(1)))
    np.testing.assert_array_equal(x.to_numpy(), want)


def test_usmarr_output_read_by_dpctl_without_waits(dpctl_queue_and_device):
    q, ad = dpctl_queue_and_device
    host = np.array([1.5, -0.0, np.inf, -np.inf, np.nan, 1e-40, -7.0, 3.25], dtype=np.float32)
    a = usmarr.asarray(host, device=ad, usm_type="device")
    own = usmarr.Queue.current(ad)
    gate = usmarr.Event.user(ad)
    own.wait([gate])  # the device's queue is held: the result below is not written yet
    b = usmarr.negative(a) * 3
    timer = threading.Timer(0.3, gate.set)
    timer.start()
    shared = dpm.as_usm_memory(b)  # the export waits for b's writes (its syclobj is a selector)
    got = np.empty_like(host)
    q.memcpy(got, shared, got.nbytes)  # dpctl's own queue, knowing nothing of usmarr's
    timer.join()
    want = -host * np.float32(3)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_array_written_on_a_usmarr_queue_is_refused_by_dpctl(dpctl_queue_and_device):
    """Its syclobj is a usmarr.Queue, which dpctl cannot read (doc/python.md)."""
    q, ad = dpctl_queue_and_device
    a = usmarr.arange(8, dtype=usmarr.float32, device=ad)
    mine = usmarr.Queue(ad)
    with mine:
        b = a + 0.5
    assert b.__sycl_usm_array_interface__["syclobj"] == mine
    with pytest.raises(ValueError, match="syclobj"):
        dpm.as_usm_memory(b)
    assert isinstance(a.__sycl_usm_array_interface__["syclobj"], str)
    dpm.as_usm_memory(a)  # the device's queue: a selector, which dpctl reads
