"""usmarr.Array: construction, attributes, the USM array interface, text, conversions,
errors.  NumPy is the oracle for values."""

import os
import subprocess
import sys

import pytest

import usmarr

np = pytest.importorskip("numpy")


def test_array_constructor_negative_strides_autocomputes_offset():
    # the constructor: shape (2, 2), strides (2, -1) gives offset 1 in a 4-element block
    a = usmarr.Array((2, 2), dtype="f4", strides=(2, -1))
    assert a.shape == (2, 2) and a.strides == (2, -1) and a.offset == 1
    assert a.dtype == usmarr.float32 and a.usm_type == "device"


def test_array_constructor_over_another_arrays_block_shares_memory():
    base = usmarr.asarray(np.arange(8, dtype=np.int32))
    view = usmarr.Array((4,), dtype=usmarr.int32, buffer=base, strides=(2,), offset=1)
    np.testing.assert_array_equal(view.to_numpy(), [1, 3, 5, 7])
    view[...] = 0
    np.testing.assert_array_equal(base.to_numpy(), [0, 0, 2, 0, 4, 0, 6, 0])


def test_attributes_match_numpy(usm_offered):
    host = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    kind = "shared" if usm_offered("shared") else "device"
    a = usmarr.asarray(host, usm_type=kind)
    assert a.shape == (2, 3, 4) and a.ndim == 3 and a.size == 24 and a.itemsize == 2 and a.nbytes == 48
    assert a.strides == (12, 4, 1)  # elements, as dpctl
    assert a.usm_type == kind and a.c_contiguous and not a.f_contiguous and a.writable
    assert isinstance(a.device, usmarr.Device) and a.device == usmarr.get_device()
    assert len(a) == 2
    np.testing.assert_array_equal(a.mT.to_numpy(), np.swapaxes(host, -1, -2))
    np.testing.assert_array_equal(a[0].T.to_numpy(), host[0].T)


def test_usm_array_interface_has_the_standard_keys():
    a = usmarr.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    d = a.__sycl_usm_array_interface__
    # the SVM backend's memory (NVIDIA's OpenCL) adds "memory": "opencl-svm" (the next test)
    assert set(d) - {"memory"} == {"shape", "typestr", "data", "strides", "offset", "syclobj", "version"}
    assert d.get("memory", "opencl-svm") == "opencl-svm"
    assert d["shape"] == (3, 4) and d["typestr"] == "<f4" and d["strides"] is None
    assert d["offset"] == 0 and d["version"] == 1 and isinstance(d["syclobj"], str)
    assert isinstance(d["data"], tuple) and d["data"][1] is False and d["data"][0] == a._pointer
    v = a[1:, ::-2]
    dv = v.__sycl_usm_array_interface__
    assert dv["strides"] == (4, -2) and dv["offset"] == 7 and dv["data"][0] == d["data"][0]



def test_usm_array_interface_of_svm_memory_says_so():
    # The SVM backend (USMARR_USM_BACKEND=svm, read when a process first opens a device):
    # its memory is OpenCL SVM, not the USM extension's, and the dictionary says so.
    code = (
        "import numpy as np, usmarr\n"
        "a = usmarr.asarray(np.arange(6, dtype=np.float32))\n"
        "d = a.__sycl_usm_array_interface__\n"
        "print(d['memory'], (a + a).to_numpy().tolist())\n"
    )
    env = dict(os.environ, USMARR_USM_BACKEND="svm")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    memory, values = r.stdout.strip().split(" ", 1)
    assert memory == "opencl-svm"
    assert values == "[0.0, 2.0, 4.0, 6.0, 8.0, 10.0]"

def test_usm_array_interface_round_trip_shares_memory():
    class Exporter:
        def __init__(self, a):
            self.a = a
            self.__sycl_usm_array_interface__ = a.__sycl_usm_array_interface__

    a = usmarr.asarray(np.arange(10.0))
    b = usmarr.asarray(Exporter(a[::-3]))
    np.testing.assert_array_equal(b.to_numpy(), np.arange(10.0)[::-3])
    b[0] = -1.0
    assert a.to_numpy()[9] == -1.0


def test_read_only_interface_gives_read_only_array():
    a = usmarr.asarray(np.arange(4.0))

    class ReadOnly:
        pass

    ro = ReadOnly()
    d = dict(a.__sycl_usm_array_interface__)
    d["data"] = (d["data"][0], True)
    ro.__sycl_usm_array_interface__ = d
    ro.keep = a
    b = usmarr.asarray(ro)
    assert not b.writable
    with pytest.raises(usmarr.UsmarrValueError, match="read-only"):
        b[0] = 1.0


def test_repr_like_numpy_and_str_from_the_library():
    host = np.array([[1.5, -2.0], [3.25, 4.0]], dtype=np.float32)
    a = usmarr.asarray(host)
    assert repr(a) == "A" + repr(host)[1:]
    ints = np.arange(-3, 9).reshape(3, 4)
    assert str(usmarr.asarray(ints)) == str(ints)
    assert repr(usmarr.asarray([True, False])) == "Array([ True, False])"


def test_scalar_conversions():
    assert float(usmarr.asarray(2.5)) == 2.5
    assert int(usmarr.asarray(7, dtype=usmarr.int8)) == 7
    assert complex(usmarr.asarray(1 + 2j)) == 1 + 2j
    assert bool(usmarr.asarray([0])) is False
    assert [0, 1, 2][usmarr.asarray(2)] == 2
    assert usmarr.asarray(3.0, dtype=usmarr.float16).item() == 3.0
    with pytest.raises(TypeError):
        bool(usmarr.asarray([1, 2]))
    with pytest.raises(TypeError):
        [0][usmarr.asarray(0.0)]


def test_errors_carry_the_library_description_and_detail():
    a = usmarr.zeros((2, 3))
    with pytest.raises(usmarr.UsmarrValueError) as info:
        usmarr.reshape(a, (4, 2))
    e = info.value
    assert isinstance(e, ValueError) and isinstance(e, usmarr.UsmarrError)
    assert e.code == -20010 and e.name == "USMARR_ERROR_SHAPE_MISMATCH"
    assert str(e).startswith(usmarr.strerror(e.code) + ": ")
    assert "(2, 3)" in e.detail and "(4, 2)" in e.detail
    with pytest.raises(IndexError, match="out of bounds"):
        a[5]
    with pytest.raises(usmarr.UsmarrRuntimeError):
        usmarr.get_device("opencl:gpu:99")
    with pytest.raises(TypeError, match="not understood"):
        usmarr.zeros(3, dtype="U8")


def test_operators_and_weak_scalars():
    x = np.arange(1, 7, dtype=np.int8).reshape(2, 3)
    a = usmarr.asarray(x)
    assert (a + 1).dtype == usmarr.int8  # weak Python scalar
    assert (a * 1.5).dtype == usmarr.float64
    np.testing.assert_array_equal((a + a).to_numpy(), x + x)
    np.testing.assert_array_equal((10 - a).to_numpy(), 10 - x)
    np.testing.assert_array_equal((a // 2).to_numpy(), x // 2)
    np.testing.assert_array_equal((a % 4).to_numpy(), x % 4)
    np.testing.assert_array_equal((a << 1).to_numpy(), x << 1)
    np.testing.assert_array_equal((-a).to_numpy(), -x)
    np.testing.assert_array_equal((~a).to_numpy(), ~x)
    np.testing.assert_array_equal((a > 3).to_numpy(), x > 3)
    np.testing.assert_array_equal((a == a[0]).to_numpy(), x == x[0])
    np.testing.assert_allclose((a / 2).to_numpy(), x / 2)
    np.testing.assert_array_equal((a ** 2).to_numpy(), x ** 2)
    np.testing.assert_array_equal((a @ a.T).to_numpy(), x @ x.T)
    b = a.copy()
    b += 1
    b *= 2
    np.testing.assert_array_equal(b.to_numpy(), (x + 1) * 2)
    with pytest.raises(TypeError):
        b += 1.5  # float64 does not cast to int8 in place


def test_to_device_and_usm_types(usm_offered):
    kind = "host" if usm_offered("host") else "shared" if usm_offered("shared") else "device"
    a = usmarr.arange(5, usm_type=kind)
    assert a.usm_type == kind
    b = a.to_device(a.device, usm_type="device")
    assert b.usm_type == "device" and b.device == a.device
    np.testing.assert_array_equal(b.to_numpy(), np.arange(5))
    assert a.to_device(a.device) is not None


def test_asarray_from_buffers_sequences_and_copies():
    np.testing.assert_array_equal(usmarr.asarray(memoryview(b"\x01\x02")).to_numpy(), [1, 2])
    assert usmarr.asarray([[1, 2], [3, 4]]).dtype == usmarr.int64
    assert usmarr.asarray([1, 2.5]).dtype == usmarr.float64
    assert usmarr.asarray([True, False]).dtype == usmarr.bool
    assert usmarr.asarray([1j]).dtype == usmarr.complex128
    assert usmarr.asarray([2 ** 64 - 1], dtype=usmarr.uint64).to_numpy()[0] == 2 ** 64 - 1
    assert usmarr.asarray([]).shape == (0,)
    host = np.arange(6, dtype=np.float32).reshape(2, 3)[:, ::-1]
    np.testing.assert_array_equal(usmarr.asarray(host).to_numpy(), host)
    a = usmarr.asarray(host)
    assert usmarr.asarray(a) is a  # no copy, no conversion: the input itself, as NumPy's
    assert usmarr.asarray(a, dtype=a.dtype, copy=False) is a
    assert usmarr.astype(a, a.dtype, copy=False) is a  # the standard: the input array is returned
    assert a.astype(a.dtype, copy=False) is a
    for b in (usmarr.astype(a, a.dtype), usmarr.asarray(a, copy=True), usmarr.astype(a, usmarr.float64, copy=False)):
        assert b is not a
    c = usmarr.asarray(a, copy=True)
    c[0, 0] = 99
    assert a.to_numpy()[0, 0] == host[0, 0]
    with pytest.raises(ValueError):
        usmarr.asarray(a, dtype=usmarr.int32, copy=False)
    with pytest.raises(ValueError, match="ragged"):
        usmarr.asarray([[1, 2], [3]])
    np.testing.assert_array_equal(usmarr.asarray([np.float32(1), 2]).to_numpy(), [1, 2])


def test_axis_errors_are_value_and_index_errors():
    # the array API standard asks for IndexError, NumPy's AxisError is both
    x = usmarr.zeros(3)
    for call in (lambda: usmarr.expand_dims(x, axis=2), lambda: usmarr.expand_dims(x, axis=-3),
                 lambda: usmarr.squeeze(usmarr.zeros((1, 3)), axis=2), lambda: usmarr.flip(x, axis=1)):
        with pytest.raises(usmarr.UsmarrAxisError) as info:
            call()
        assert isinstance(info.value, IndexError) and isinstance(info.value, ValueError)
        assert "out of bounds" in str(info.value)
    assert usmarr.expand_dims(x, axis=-2).shape == (1, 3)


def test_cumulative_sum_include_initial():
    host = np.arange(1, 7, dtype=np.int32).reshape(2, 3)
    r = usmarr.cumulative_sum(usmarr.asarray(host), axis=1, include_initial=True)
    np.testing.assert_array_equal(r.to_numpy(), [[0, 1, 3, 6], [0, 4, 9, 15]])
    empty = usmarr.cumulative_sum(usmarr.zeros(0, dtype=usmarr.uint8), axis=0, include_initial=True)
    assert empty.shape == (1,) and int(empty[0]) == 0


class _Foreign:
    """A USM array interface as dpctl writes it: '|' byte order for every type, and a SYCL
    object (here a stand-in with dpctl's attributes) as syclobj."""

    def __init__(self, a):
        iface = dict(a.__sycl_usm_array_interface__)
        iface["typestr"] = "|" + iface["typestr"][1:]
        device = type("SyclDevice", (), {"filter_string": a.device.selector})()
        iface["syclobj"] = type("SyclQueue", (), {"sycl_device": device})()
        self.__sycl_usm_array_interface__ = iface
        self.keep = a


def test_usm_interface_as_dpctl_writes_it_is_read_in_place():
    # on a device other than the default one where there is one: syclobj picks it
    other = [d for d in usmarr.devices() if d is not usmarr.get_device()]
    a = usmarr.asarray(np.arange(6, dtype=np.float32), device=other[0] if other else None)
    b = usmarr.asarray(_Foreign(a[1::2]), copy=False)
    assert b.dtype == usmarr.float32 and b.device is a.device
    assert b.__sycl_usm_array_interface__["data"][0] == a.__sycl_usm_array_interface__["data"][0]
    np.testing.assert_array_equal(b.to_numpy(), [1, 3, 5])


def test_asarray_copy_false_of_host_memory_refuses_and_leaves_it_alone():
    np = pytest.importorskip("numpy")
    h = np.arange(6, dtype=np.int16)
    for host in (h, [1, 2], (3.0,), memoryview(b"ab")):
        with pytest.raises(ValueError, match=r"asarray\(copy=False\) of .* needs a copy"):
            usmarr.asarray(host, copy=False)
    assert h.tolist() == [0, 1, 2, 3, 4, 5]
    a = usmarr.asarray(h)  # copy=None copies
    assert a._pointer != h.__array_interface__["data"][0] and a.to_numpy().tolist() == h.tolist()


def test_eye_diagonal_beyond_int64_is_all_zeros():
    np.testing.assert_array_equal(usmarr.eye(3, 4, k=2**63).to_numpy(), np.zeros((3, 4)))
    np.testing.assert_array_equal(usmarr.eye(2, k=-(2**70)).to_numpy(), np.zeros((2, 2)))
    np.testing.assert_array_equal(usmarr.eye(3, k=1).to_numpy(), np.eye(3, k=1))
    with pytest.raises(TypeError):
        usmarr.eye(2, k=1.5)


def test_tensordot_of_zero_size_operands():
    x1 = usmarr.zeros((0, 3), dtype=usmarr.int32)
    x2 = usmarr.zeros((0, 0), dtype=usmarr.int32)
    r = usmarr.tensordot(x1, x2, axes=0)
    assert r.shape == np.tensordot(np.zeros((0, 3)), np.zeros((0, 0)), axes=0).shape
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = np.arange(12, dtype=np.int32).reshape(3, 4)
    np.testing.assert_array_equal(usmarr.tensordot(usmarr.asarray(a), usmarr.asarray(b), axes=1).to_numpy(),
                                  np.tensordot(a, b, axes=1))
    z = usmarr.tensordot(usmarr.zeros((2, 0)), usmarr.zeros((0, 4)), axes=1)
    np.testing.assert_array_equal(z.to_numpy(), np.zeros((2, 4)))


@pytest.mark.parametrize("args", [(1291, -9007199254740995, -2251799813685571), (2**62, 2**62 + 10, 3),
                                  (-2**63, -2**63 + 5), (0, 2**60, 2**58), (5, 2**60, -1), (2**53 + 1, 2**53 + 4)])
def test_arange_of_int64_beyond_2_to_the_53_is_exact(args):
    # the library takes doubles; the binding computes these as arange(n) * step + start in int64
    got, expected = usmarr.arange(*args).to_numpy(), np.arange(*args)
    assert got.dtype == expected.dtype == np.int64
    np.testing.assert_array_equal(got, expected)
    with pytest.raises(ValueError, match="step"):
        usmarr.arange(2**60, 2**61, 0)


def test_conversions_numpy2_refuses_raise_its_exception_classes():
    i8 = usmarr.asarray(np.array([1, -2, 3], np.int8))
    with pytest.raises(OverflowError, match="value=300 is out of bounds for int8"):
        usmarr.full(3, 300, dtype=usmarr.int8)
    with pytest.raises(OverflowError, match="out of bounds for uint16"):
        usmarr.zeros(2, dtype=usmarr.uint16).fill(-1)
    for dtype in (usmarr.int32, usmarr.float32, usmarr.float64):
        with pytest.raises(TypeError, match="is complex and cannot be converted"):
            usmarr.full(2, 1 + 2j, dtype=dtype)
        with pytest.raises(TypeError, match="is complex and cannot be converted"):
            usmarr.zeros(2, dtype=dtype).fill(1j)
    assert usmarr.full(2, 1j, dtype=usmarr.bool).to_numpy().tolist() == [True, True]  # its truth, as NumPy's
    for exponent in (-1, usmarr.asarray(np.array([2, -1, 0], np.int8))):
        with pytest.raises(ValueError, match="negative integer powers are not allowed"):
            usmarr.pow(i8, exponent)
    with pytest.raises(ValueError):
        i8 ** -2
    assert (i8 ** usmarr.asarray(np.array([2, 1, 0], np.uint8))).to_numpy().tolist() == [1, -2, 1]


def test_weak_integers_out_of_range_where_the_function_computes_in_floating_point():
    u8 = usmarr.asarray(np.array([1, 200], np.uint8))
    r = usmarr.logaddexp(2147483647, u8)  # NumPy 2: float16, inf
    assert r.dtype == usmarr.float16 and np.isinf(r.to_numpy()).all()
    r = usmarr.hypot(2 ** 64 - 1, usmarr.asarray(np.array([1, 2], np.uint16)))
    assert r.dtype == usmarr.float32 and r.to_numpy()[0] == np.float32(2 ** 64)
    with pytest.raises(OverflowError):
        usmarr.add(u8, 300)  # uint8 receives it
    assert usmarr.clip(u8, -5, 100).to_numpy().tolist() == [1, 100]  # NumPy 2's clip


def test_array_api_version_and_the_2025_12_additions():
    assert usmarr.__array_api_version__ == "2024.12"
    for shapes, want in [((), ()), (((2, 3),), (2, 3)), (((5, 1, 4), (3, 1)), (5, 3, 4)), (((0,), (1,)), (0,)),
                         (((1, 0), (3, 1)), (3, 0)), (((), (2,), (4, 1)), (4, 2)), (([2, 1], (1, 7)), (2, 7))]:
        assert usmarr.broadcast_shapes(*shapes) == want == np.broadcast_shapes(*shapes)
    for bad in (((2,), (3,)), ((2, 3), (4, 1, 2))):
        with pytest.raises(ValueError, match="shape mismatch"):
            usmarr.broadcast_shapes(*bad)
    with pytest.raises(ValueError, match="negative"):
        usmarr.broadcast_shapes((2, -1))
    with pytest.raises(TypeError):
        usmarr.broadcast_shapes((2.5,))
    a, b = usmarr.ones((2, 1)), usmarr.ones(3)
    views = usmarr.broadcast_arrays(a, b)  # 2024.12's list (2025.12 and NumPy 2 return a tuple)
    assert isinstance(views, list) and [v.shape for v in views] == [(2, 3), (2, 3)]
    assert isinstance(usmarr.__array_namespace_info__().devices(), list)
    x = usmarr.asarray(np.array([0.0, -0.0, 1.0, np.inf], np.float32))
    got = usmarr.nextafter(x, usmarr.asarray(np.array([-0.0, 1.0, 2.0, 0.0], np.float32))).to_numpy()
    want = np.array([-0.0, np.float32(1.4e-45), 1.0000001, np.finfo(np.float32).max], np.float32)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", ["f4", "f8", "i1", "f2", "c8"])
def test_backward_views_of_views_copy_and_compute_as_numpy(dtype):
    # inner strides -1, -2, -3 (rows of 16-vectors read forwards, lanes reversed), an outer
    # one reversed, both, views of views, offsets that are no multiple of 16, odd lengths;
    # special values travel bit for bit
    rng = np.random.default_rng(5)
    host = (rng.standard_normal((67, 301)) * 100).astype(dtype)
    if host.dtype.kind == "f":
        host.flat[[0, 7, 300, 1000, 5000]] = [np.nan, np.inf, -np.inf, -0.0, np.finfo(host.dtype).tiny / 4]
    a = usmarr.asarray(host)
    views = [lambda x: x[::-1, ::-1], lambda x: x[::-1], lambda x: x[:, ::-1], lambda x: x[:, ::-2],
             lambda x: x[3:, 290:4:-3], lambda x: x[::-1][5:, 1:][::2, ::-1], lambda x: x[:, ::-1][:, 7:][::-1],
             lambda x: x.reshape(-1)[::-1], lambda x: x.reshape(-1)[-2::-2]]
    for v in views:
        want = np.ascontiguousarray(v(host))
        got = usmarr.asarray(v(a), copy=True).to_numpy()
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
    if dtype in ("f4", "f8"):
        for v in views[:3]:
            with np.errstate(invalid="ignore"):
                np.testing.assert_array_equal((a + v(a)).to_numpy(), host + v(host))
