"""Interoperability (doc/python.md): NumPy reads host and shared USM in place, and Intel's
dpctl/dpnp exchanges arrays with usmarr on Intel's CPU OpenCL device.  The dpctl tests skip,
saying why, where dpctl, its Intel device or the library's view of that device is missing."""

import pytest

import usmarr
from dpctl_support import adopt, intel_opencl_device

np = pytest.importorskip("numpy")


def _pointer(a):
    """The address of a's first element, from the USM array interface."""
    iface = a.__sycl_usm_array_interface__
    return iface["data"][0] + iface["offset"] * a.itemsize


def _numpy_from_dlpack(a, copy=None):
    """NumPy's from_dlpack asking for host memory (kDLCPU), as NumPy 2.1+ does with
    device="cpu"; older NumPy calls __dlpack__() without arguments, so it gets a producer
    that passes the request on."""
    if np.lib.NumpyVersion(np.__version__) >= "2.1.0":
        return np.from_dlpack(a, device="cpu", copy=copy)

    class Host:
        def __dlpack__(self, stream=None):
            return a.__dlpack__(dl_device=(1, 0), copy=copy)

        def __dlpack_device__(self):
            return (1, 0)

    return np.from_dlpack(Host())


# ---- NumPy: no copy, and writes seen both ways ----------------------------------------------
@pytest.mark.parametrize("usm_type", ["host", "shared"])
@pytest.mark.parametrize("how", ["array_interface", "dlpack"])
def test_numpy_reads_host_and_shared_usm_in_place(device, usm_type, how, usm_offered):
    if not usm_offered(usm_type):  # the refusal was checked
        return
    a = usmarr.asarray(np.arange(12, dtype=np.float32).reshape(3, 4), usm_type=usm_type)
    view = a[1:, ::-2]  # an offset and a negative stride
    # NumPy asks for kDLCPU (by default usmarr offers USM as kDLOneAPI)
    n = np.asarray(view) if how == "array_interface" else _numpy_from_dlpack(view)
    assert n.ctypes.data == _pointer(view)  # NumPy's data pointer is the USM pointer: no copy
    assert n.strides == (16, -8)
    np.testing.assert_array_equal(n, [[7, 5], [11, 9]])
    if n.flags.writeable:  # (NumPy < 2 marks what it reads through DLPack 0.x read-only)
        n[0, 0] = 70  # NumPy writes, the library reads
        np.testing.assert_array_equal(a.to_numpy()[1], [4, 5, 6, 70])
        assert float(usmarr.sum(a)) == sum(range(12)) - 7 + 70
    a[2, 1] = -9  # the library writes, NumPy's view sees it
    device.finish()
    assert n[1, 1] == -9


def test_numpy_gets_no_view_of_device_usm(device):
    a = usmarr.zeros(4, dtype=usmarr.int32, usm_type="device")
    with pytest.raises(AttributeError, match="not host-accessible"):
        a.__array_interface__
    with pytest.raises(BufferError):
        a.__dlpack__(dl_device=(1, 0), copy=False)
    n = _numpy_from_dlpack(a, copy=True)  # a host copy, asked for
    np.testing.assert_array_equal(n, [0, 0, 0, 0])
    assert n.ctypes.data != _pointer(a)


def test_numpy_copy_requested_is_a_copy(device, usm_offered):
    kind = "shared" if usm_offered("shared") else "device"
    a = usmarr.asarray(np.arange(4, dtype=np.int64), usm_type=kind)
    n = _numpy_from_dlpack(a, copy=True)
    assert n.ctypes.data != _pointer(a)
    a[0] = 99
    a.device.finish()
    np.testing.assert_array_equal(n, [0, 1, 2, 3])


# ---- dpctl / dpnp ------------------------------------------------------------------------
def _dpctl_intel():
    """(dpctl, dpnp.tensor, the dpctl device of Intel's OpenCL platform), or pytest.skip."""
    try:
        import dpctl
    except ImportError as e:
        pytest.skip(f"dpctl is not installed ({e})")
    try:
        import dpnp.tensor as dpt
    except ImportError:
        try:
            import dpctl.tensor as dpt
        except ImportError as e:
            pytest.skip(f"neither dpnp.tensor nor dpctl.tensor is importable ({e})")
    return dpctl, dpt, intel_opencl_device(dpctl)


def _usmarr_device(dpctl_device):
    try:
        return usmarr.get_device(dpctl_device.filter_string)
    except usmarr.UsmarrError as e:
        pytest.skip(f"usmarr cannot use {dpctl_device.filter_string}: {e}")


def test_dpctl_and_usmarr_contexts_differ_so_pointers_are_refused():
    """Evidence: without adoption, each side's USM belongs to its own cl_context, and
    neither side accepts the other's pointer in place."""
    dpctl, dpt, dev = _dpctl_intel()
    ud = _usmarr_device(dev)
    q = dpctl.SyclQueue(dev)
    x = dpt.arange(6, dtype="f4", sycl_queue=q, usm_type="shared")
    with pytest.raises(usmarr.UsmarrValueError, match="not USM of this context"):
        usmarr.asarray(x, device=ud, copy=False)
    with pytest.raises(usmarr.UsmarrValueError, match="not USM of this context"):
        usmarr.from_dlpack(x, device=ud, copy=False)
    u = usmarr.arange(6, dtype=usmarr.float32, device=ud, usm_type="shared")
    if u.device is not usmarr.get_device(dev.filter_string):
        pytest.skip("an adopted dpctl context already answers this selector in this process")
    with pytest.raises(ValueError, match="not bound to SyclContext"):
        dpt.asarray(u)
    with pytest.raises(BufferError, match="not bound to default sycl context"):
        dpt.from_dlpack(u)


@pytest.mark.parametrize("usm_type", ["shared", "device"])
@pytest.mark.parametrize("how", ["interface", "dlpack"])
def test_dpctl_to_usmarr_copies_correctly_across_contexts(usm_type, how):
    dpctl, dpt, dev = _dpctl_intel()
    ud = _usmarr_device(dev)
    q = dpctl.SyclQueue(dev)
    host = np.arange(24, dtype=np.int32).reshape(4, 6)
    x = dpt.asarray(host, sycl_queue=q, usm_type=usm_type)[::-1, 1::2]  # negative stride, offset
    u = usmarr.asarray(x, device=ud) if how == "interface" else usmarr.from_dlpack(x, device=ud)
    assert u.device is ud and u.dtype == usmarr.int32
    np.testing.assert_array_equal(u.to_numpy(), host[::-1, 1::2])
    assert _pointer(u) != x.__sycl_usm_array_interface__["data"][0]
    x[...] = 0  # the copy is independent
    np.testing.assert_array_equal(dpt.asnumpy(x), np.zeros((4, 3), np.int32))
    np.testing.assert_array_equal(u.to_numpy(), host[::-1, 1::2])


def test_usmarr_to_dpctl_copies_through_numpy():
    """dpctl refuses usmarr's pointers (its context does not own them); the copy path is a
    NumPy view of host-readable USM (no copy) that dpctl copies onto its queue."""
    dpctl, dpt, dev = _dpctl_intel()
    ud = _usmarr_device(dev)
    q = dpctl.SyclQueue(dev)
    u = usmarr.asarray(np.arange(10, dtype=np.float32), device=ud, usm_type="shared")[::3]
    x = dpt.asarray(np.asarray(u), sycl_queue=q)
    np.testing.assert_array_equal(dpt.asnumpy(x), [0, 3, 6, 9])


@pytest.mark.parametrize("how", ["interface", "dlpack"])
def test_zero_copy_both_ways_with_dpctls_adopted_context(how):
    dpctl, dpt, dev = _dpctl_intel()
    q = dpctl.SyclQueue(dev)
    ad = adopt(dpctl, q)
    assert ad.selector == dev.filter_string
    # dpctl -> usmarr: the same pointer, writes seen both ways
    x = dpt.arange(8, dtype="f4", sycl_queue=q, usm_type="shared")
    u = usmarr.asarray(x, device=ad, copy=False) if how == "interface" else \
        usmarr.from_dlpack(x, device=ad, copy=False)
    assert _pointer(u) == x.__sycl_usm_array_interface__["data"][0]
    # writes through the alias after the exchange are ordered by hand, as with CuPy's
    # streams: the two sides' queues are different queues of one context
    u[2] = -1.5
    ad.finish()
    assert float(dpt.asnumpy(x)[2]) == -1.5
    x[3] = 30.0
    q.wait()
    assert float(u[3]) == 30.0
    # usmarr -> dpctl: an array of the adopted context, whose selector dpctl maps to the
    # same SYCL context
    # (dpctl 0.22 refuses negative strides in any USM array interface, even its own arrays':
    # "can not accommodate the requested array"; through DLPack it takes them.)
    v = usmarr.asarray(np.arange(6, dtype=np.int64).reshape(2, 3), device=ad, usm_type="device")
    v = v[:, ::-1] if how == "dlpack" else v[:, 1:]
    y = dpt.asarray(v) if how == "interface" else dpt.from_dlpack(v)
    assert _pointer(y) == _pointer(v)
    np.testing.assert_array_equal(dpt.asnumpy(y), [[2, 1, 0], [5, 4, 3]] if how == "dlpack" else [[1, 2], [4, 5]])
    y[0, 0] = 77
    y.sycl_queue.wait()
    assert int(v[0, 0]) == 77


def test_adopt_device_refuses_null_handles():
    with pytest.raises(ValueError, match="non-null"):
        usmarr.adopt_device(0, 0)
    with pytest.raises(TypeError):
        usmarr.adopt_device("context", 1)


def test_zero_copy_both_ways_with_dpctl_memory_alone():
    """dpctl 0.22 from PyPI has no dpctl.tensor (it moved to dpnp): its USM memory objects
    (dpctl.memory, with __sycl_usm_array_interface__) still exchange with usmarr in place
    once usmarr adopts the cl_context dpctl uses for the device."""
    try:
        import dpctl
        import dpctl.memory as dpm
    except ImportError as e:
        pytest.skip(f"dpctl is not installed ({e})")
    q = dpctl.SyclQueue(intel_opencl_device(dpctl))
    ad = adopt(dpctl, q)
    # dpctl -> usmarr: dpctl's allocation, read in place (dpctl.memory exports data=(ptr, True),
    # which the USM array interface reads as read-only).
    m = dpm.MemoryUSMShared(6 * 4, queue=q)
    m.copy_from_host(np.arange(6, dtype=np.float32).view(np.uint8))
    u = usmarr.asarray(m, device=ad, copy=False)
    assert _pointer(u) == m.__sycl_usm_array_interface__["data"][0] and u.shape == (24,)
    assert not u.writable
    np.testing.assert_array_equal(u.to_numpy().view(np.float32), np.arange(6, dtype=np.float32))
    m.copy_from_host(np.full(6, 2.5, np.float32).view(np.uint8))  # dpctl writes, usmarr reads
    np.testing.assert_array_equal(u.to_numpy().view(np.float32), np.full(6, 2.5, np.float32))
    # usmarr -> dpctl: the adopted context's array, shared by dpctl and written by both.
    a = usmarr.arange(5, dtype=usmarr.int32, usm_type="shared", device=ad)
    mm = dpm.as_usm_memory(a)  # the export waits for the writes on the device's queue
    assert mm.__sycl_usm_array_interface__["data"][0] == _pointer(a)
    got = np.empty(5, np.int32)
    mm.copy_to_host(got.view(np.uint8))
    np.testing.assert_array_equal(got, [0, 1, 2, 3, 4])
    mm.copy_from_host(np.full(5, -3, np.int32).view(np.uint8))
    np.testing.assert_array_equal(a.to_numpy(), [-3] * 5)
