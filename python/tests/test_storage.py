"""usmarr.storage: storages as a NumPy duck array over the library's storages.
NumPy is the oracle for values."""

import pytest

import usmarr
import usmarr.storage as gs

np = pytest.importorskip("numpy")


def test_parameters_and_aligned_host_memory(device, usm_offered):
    if not usm_offered("host"):  # host storages need host USM; the refusal was checked
        return
    s = gs.zeros((3, 4, 5), dtype=usmarr.float32, axes="IJK", halo=(1, 1, 0), alignment=64)
    assert s.shape == (3, 4, 5) and s.axes == "IJK" and s.ndim == 3 and s.dtype == usmarr.float32
    assert s.halo == ((1, 1), (1, 1), (0, 0)) and s.aligned_index == (1, 1, 0) and s.alignment == 64
    assert s.kind == "host" and s.sync_state == "none" and s.device is device
    n = np.asarray(s)
    assert n.shape == (3, 4, 5) and not n.any()
    assert n[1:, 1:, 0:].ctypes.data % 64 == 0  # the aligned index starts on the alignment
    assert "axes='IJK'" in repr(s)


def test_storage_copies_and_numpy_writes_are_seen(device, usm_offered):
    if not usm_offered("host"):  # host storages need host USM; the refusal was checked
        return
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    s = gs.storage(host, axes="IJ")
    host[0, 0] = 100  # a copy: the source may change
    n = np.asarray(s)
    np.testing.assert_array_equal(n, np.arange(12).reshape(3, 4))
    n[2, 3] = -1  # a view of the host side: the library sees it
    assert float(np.sum(s).host_array()[()]) == sum(range(11)) - 1


def test_ufuncs_broadcast_by_axis_letters(device, usm_offered):
    if not usm_offered("host"):  # host storages need host USM; the refusal was checked
        return
    a_host = np.arange(6, dtype=np.float32).reshape(2, 3)
    b_host = np.array([1, 10, 100, 1000], dtype=np.float32)
    a, b = gs.storage(a_host, axes="IJ"), gs.storage(b_host, axes="K")
    r = np.add(a, b)
    assert isinstance(r, gs.Storage) and r.axes == "IJK" and r.shape == (2, 3, 4)
    np.testing.assert_array_equal(np.asarray(r), a_host[:, :, None] + b_host)
    np.testing.assert_allclose(np.asarray(np.sqrt(a)), np.sqrt(a_host), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(np.arctan2(a, 1.0)), np.arctan2(a_host, np.float32(1)), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(a * 2 - 1), a_host * 2 - 1)
    np.testing.assert_array_equal(np.asarray(3 - a), 3 - a_host)
    np.testing.assert_array_equal(np.asarray(a < 2), a_host < 2)
    np.testing.assert_allclose(np.asarray(np.mean(a, axis=0)), a_host.mean(axis=0), rtol=1e-6)
    out = gs.zeros((2, 3), dtype=usmarr.float32, axes="IJ")
    assert np.multiply(a, a, out=(out,)) is out
    np.testing.assert_array_equal(np.asarray(out), a_host * a_host)
    a += 1
    np.testing.assert_array_equal(np.asarray(a), a_host + 1)


def test_reductions_name_axes_by_position(device, usm_offered):
    if not usm_offered("host"):  # host storages need host USM; the refusal was checked
        return
    host = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    s = gs.storage(host, axes="IJK")
    r = np.sum(s, axis=1)
    assert r.axes == "IK"
    np.testing.assert_array_equal(np.asarray(r), host.sum(axis=1))
    np.testing.assert_array_equal(np.asarray(np.add.reduce(s)), host.sum(axis=0))  # ufunc.reduce: axis 0
    np.testing.assert_array_equal(np.asarray(np.max(s, axis=(0, 2))), host.max(axis=(0, 2)))
    total = np.sum(s)
    assert total.axes == "" and int(total.host_array()[()]) == host.sum()
    with pytest.raises(TypeError, match="keepdims"):
        np.sum(s, axis=0, keepdims=True)


def test_array_functions_and_views(device, usm_offered):
    if not usm_offered("host"):  # host storages need host USM; the refusal was checked
        return
    host = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    s = gs.storage(host, axes="IJK", halo=((1, 0), (1, 1), (0, 0)))
    c = np.copy(s)
    assert isinstance(c, gs.Storage) and c.halo == s.halo
    t = np.transpose(s)
    assert t.axes == "KJI" and t.shape == (4, 3, 2)
    np.testing.assert_array_equal(np.asarray(t), host.T)
    z = np.zeros_like(s)
    assert isinstance(z, gs.Storage) and z.axes == "IJK" and not np.asarray(z).any()
    d = s.domain_view()
    assert d.shape == (1, 1, 4) and d.halo == ((0, 0), (0, 0), (0, 0))
    np.testing.assert_array_equal(np.asarray(d), host[1:, 1:2, :])
    v = s[1, ::2]
    assert v.axes == "JK" and v.shape == (2, 4)
    np.testing.assert_array_equal(np.asarray(v), host[1, ::2])
    s[0, ..., 1:3] = 7.0
    host[0, ..., 1:3] = 7.0
    np.testing.assert_array_equal(np.asarray(s), host)
    np.testing.assert_array_equal(np.asarray(c), np.arange(24).reshape(2, 3, 4))  # the copy stayed
    with pytest.raises(TypeError):
        np.concatenate([s, s])  # not a library function: no silent host fallback


def test_managed_pair_tracks_the_dirty_side(device):
    try:
        s = gs.zeros((4, 5), dtype=usmarr.float32, axes="IJ", device="gpu")
    except usmarr.UsmarrError as e:
        pytest.skip(f"no device storage on {device}: {e}")
    assert s.kind == "managed" and s.sync_state == "clean"
    np.asarray(s)[1, 2] = 5.0  # a writable host view: host dirty
    assert s.sync_state == "host_dirty"
    r = s + 1  # every managed input host dirty: it runs on the host
    assert r.kind == "managed" and r.sync_state == "host_dirty"
    s.synchronize()  # pushes the host side
    assert s.sync_state == "clean"
    q = s * 2  # runs on the device
    assert q.sync_state == "device_dirty"
    expected = np.zeros((4, 5), dtype=np.float32)
    expected[1, 2] = 5.0
    np.testing.assert_array_equal(np.asarray(q), expected * 2)  # pulled to the host
    assert q.sync_state == "host_dirty"  # a writable host view was handed out
    np.testing.assert_array_equal(np.asarray(r), expected + 1)
    assert "__sycl_usm_array_interface__" in dir(type(r))
    iface = r.__sycl_usm_array_interface__
    assert iface["shape"] == (4, 5) and iface["typestr"] == "<f4"


def test_failures_name_the_argument(device, usm_offered):
    if not usm_offered("host"):  # host storages need host USM; the refusal was checked
        return
    with pytest.raises(usmarr.UsmarrValueError, match="axes"):
        gs.zeros((2, 2), axes="IX")
    with pytest.raises(usmarr.UsmarrValueError, match="halo"):
        gs.zeros((2, 2), axes="IJ", halo=(2, 0))
    with pytest.raises(TypeError, match="unknown keyword"):
        gs.zeros((2, 2), colour="red")
    with pytest.raises(TypeError, match="use empty"):
        gs.Storage(3)
    with pytest.raises(IndexError, match="only integers, slices"):
        gs.zeros((2, 2), axes="IJ")[[0, 1]]
    with pytest.raises(AttributeError, match="no device side"):
        gs.zeros((2,), axes="I").__sycl_usm_array_interface__
