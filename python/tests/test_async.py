"""Queues and events (doc/python.md, "Queues and events"): two queues ordered by a marker
while a user event holds the first, `with queue:` and the thread's current queue, events
over integer handles, profiling, and the refusals of bad handles and types."""

import threading

import pytest

import usmarr

np = pytest.importorskip("numpy")


def _held_queue(device):
    """A new queue and the unsignalled user event its work waits for."""
    q = usmarr.Queue(device)
    gate = usmarr.Event.user(device)
    q.wait([gate])
    return q, gate


def test_two_queues_ordered_by_a_marker_while_a_user_event_holds_the_first(device):
    host = np.linspace(-4.0, 4.0, 1000, dtype=np.float32)
    host[:4] = [np.nan, np.inf, -np.inf, -0.0]
    a = usmarr.asarray(host, device=device)
    c = usmarr.full(host.shape, 7.0, dtype=usmarr.float32, device=device)  # allocated before: q2 takes no block
    device.finish()
    q1, gate = _held_queue(device)
    q2 = usmarr.Queue(device)
    with q1:
        b = usmarr.exp(a) + 1
        written = q1.marker()
    q2.wait([written])
    with q2:
        usmarr.multiply(b, 2, out=c)
        done = q2.marker()
    # Every call above returned while the gate held q1: nothing waited on the host.
    assert not written.done and not done.done
    gate.set()
    done.wait()
    assert written.done and done.done
    with np.errstate(over="ignore"):
        want = (np.exp(host) + np.float32(1)) * np.float32(2)
    with q2:
        got = c.to_numpy()
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    np.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True)


def test_queue_wait_takes_integer_handles_and_later_work_waits(device):
    a = usmarr.asarray(np.arange(64, dtype=np.int32), device=device)
    device.finish()
    gate = usmarr.Event.user(device)
    q = usmarr.Queue(device)
    q.wait([gate.cl_event])
    with q:
        b = a * 3
    after = q.marker()
    assert not after.done
    gate.set()
    q.synchronize()
    assert after.done
    with q:
        np.testing.assert_array_equal(b.to_numpy(), np.arange(64, dtype=np.int32) * 3)


def test_with_queue_sets_and_restores_the_current_queue(device):
    own = usmarr.Queue.current(device)
    q1, q2 = usmarr.Queue(device), usmarr.Queue(device)
    assert own != q1 and q1 != q2
    with q1 as entered:
        assert entered is q1
        assert usmarr.Queue.current(device) == q1
        with q2:
            assert usmarr.Queue.current(device) == q2
        assert usmarr.Queue.current(device) == q1
    assert usmarr.Queue.current(device) == own


def test_with_queue_restores_the_previous_queue_on_an_exception(device):
    own = usmarr.Queue.current(device)
    q1, q2 = usmarr.Queue(device), usmarr.Queue(device)
    with pytest.raises(KeyError):
        with q1:
            with q2:
                raise KeyError("inside")
    assert usmarr.Queue.current(device) == own
    with q1:
        with pytest.raises(ZeroDivisionError):
            with q2:
                1 / 0
        assert usmarr.Queue.current(device) == q1


def test_the_current_queue_belongs_to_one_thread(device):
    own = usmarr.Queue.current(device)
    q = usmarr.Queue(device)
    seen = []
    with q:
        t = threading.Thread(target=lambda: seen.append(usmarr.Queue.current(device)))
        t.start()
        t.join()
    assert seen == [own]


def test_adopted_queue_is_the_same_cl_queue(device):
    q = usmarr.Queue(device)
    adopted = usmarr.Queue(device, cl_queue=q.cl_queue)
    assert adopted == q and hash(adopted) == hash(q) and adopted.cl_queue == q.cl_queue
    assert adopted.device == device
    a = usmarr.asarray(np.array([1.5, -0.0, np.inf]), device=device)
    device.finish()
    with adopted:
        b = -a
    q.synchronize()
    with q:
        got = b.to_numpy()
    np.testing.assert_array_equal(got, [-1.5, 0.0, -np.inf])
    assert not np.signbit(got[1])


def test_event_wraps_an_integer_handle_and_shares_its_state(device):
    gate = usmarr.Event.user(device)
    other = usmarr.Event(gate.cl_event)
    copy = usmarr.Event(gate)
    assert other.cl_event == gate.cl_event == copy.cl_event
    assert not other.done
    gate.set()
    other.wait()
    assert other.done and copy.done
    del gate
    assert other.done  # the wrapper holds its own reference


def test_elapsed_time_between_profiled_markers(device):
    q = usmarr.Queue(device, profiling=True)
    a = usmarr.ones(1 << 16, device=device)
    device.finish()
    with q:
        start = q.marker()
        b = a + a
        end = q.marker()
    ms = start.elapsed_time(end)
    assert 0.0 <= ms < 60_000.0
    assert end.elapsed_time(start) == -ms
    with q:
        assert float(usmarr.sum(b)) == 2.0 * (1 << 16)


def test_elapsed_time_needs_profiling(device):
    q = usmarr.Queue(device)
    start, end = q.marker(), q.marker()
    with pytest.raises(usmarr.UsmarrError, match="profiling"):
        start.elapsed_time(end)


@pytest.mark.parametrize("handle, error", [(0, ValueError), (-1, ValueError), (2**64, ValueError),
                                           ("1", TypeError), (1.5, TypeError), (True, TypeError),
                                           (None, TypeError)])
def test_event_refuses_bad_handles(handle, error):
    with pytest.raises(error, match="cl_event"):
        usmarr.Event(handle)


@pytest.mark.parametrize("handle, error", [(0, ValueError), (-5, ValueError), (2**70, ValueError),
                                           ("q", TypeError), (2.0, TypeError)])
def test_queue_refuses_bad_handles(device, handle, error):
    with pytest.raises(error, match="cl_queue"):
        usmarr.Queue(device, cl_queue=handle)


def test_queue_refuses_bad_arguments(device):
    q = usmarr.Queue(device)
    with pytest.raises(ValueError, match="profiling"):
        usmarr.Queue(device, cl_queue=q.cl_queue, profiling=True)
    with pytest.raises(TypeError, match="device"):
        usmarr.Queue(3.5)
    with pytest.raises(usmarr.UsmarrError):
        usmarr.Queue("opencl:cpu:99")
    gate = usmarr.Event.user(device)
    with pytest.raises(TypeError, match="sequence"):
        q.wait(gate)  # one event, not a sequence of them
    with pytest.raises(TypeError, match="sequence"):
        q.wait(7)
    with pytest.raises(ValueError, match=r"events\[1\]"):
        q.wait([gate, 0])
    with pytest.raises(TypeError, match=r"events\[0\]"):
        q.wait(["event"])
    q.wait([])  # nothing to wait for
    gate.set()
    q.synchronize()


def test_event_refuses_bad_uses(device):
    q = usmarr.Queue(device)
    marker = q.marker()
    with pytest.raises(TypeError, match="usmarr.Event"):
        marker.elapsed_time(3)
    with pytest.raises(ValueError, match="user event"):
        marker.set()
    gate = usmarr.Event.user(device)
    gate.set()
    with pytest.raises(usmarr.UsmarrError, match="set once"):
        gate.set()
    with pytest.raises(TypeError, match="device"):
        usmarr.Event.user(device=1.5)


# ---- __dlpack__(stream=...) and from_dlpack -----------------------------------------------
def _written_on_held_queue(device):
    """An array written on a queue held by an unsignalled user event: (array, queue, gate,
    the NumPy oracle of its values)."""
    host = np.array([1.5, -0.0, np.inf, -np.inf, np.nan, 1e-40, -7.0], dtype=np.float32)
    a = usmarr.asarray(host, device=device)
    device.finish()
    q, gate = _held_queue(device)
    with q:
        b = a * 2
    return b, q, gate, host * np.float32(2)


def _check_values(device, b, want):
    got = b.to_numpy()
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_dlpack_stream_none_waits_for_the_writes(device):
    b, q, gate, want = _written_on_held_queue(device)
    written = q.marker()
    timer = threading.Timer(0.2, gate.set)
    timer.start()
    capsule = b.__dlpack__(stream=None)  # returns once the gate is set and the writes are done
    assert written.done
    timer.join()
    assert capsule is not None
    _check_values(device, b, want)


def test_dlpack_stream_minus_one_orders_nothing(device):
    b, q, gate, want = _written_on_held_queue(device)
    written = q.marker()
    b.__dlpack__(stream=-1)  # would never return if it waited for the held queue
    assert not written.done
    gate.set()
    q.synchronize()
    _check_values(device, b, want)


def test_dlpack_stream_queue_makes_that_queue_wait(device):
    b, q, gate, want = _written_on_held_queue(device)
    consumer = usmarr.Queue(device)
    b.__dlpack__(stream=consumer)
    after = consumer.marker()
    assert not after.done  # the consumer's queue waits for the held writes
    gate.set()
    after.wait()
    with consumer:
        got = b.to_numpy()
    np.testing.assert_array_equal(got, want)


# ---- the USM array interface's syclobj: the queue that last wrote the array ----------------
class _Interface:
    """An object exposing exactly another array's USM array interface (a foreign producer)."""

    def __init__(self, iface):
        self.__sycl_usm_array_interface__ = iface


def test_syclobj_is_the_queue_that_last_wrote_the_array(device):
    a = usmarr.asarray(np.arange(6, dtype=np.float32), device=device)
    assert a.__sycl_usm_array_interface__["syclobj"] == device.selector  # the device's own queue
    q2, q3 = usmarr.Queue(device), usmarr.Queue(device)
    with q2:
        b = a + 1  # written on a second queue
    obj = b.__sycl_usm_array_interface__["syclobj"]
    assert isinstance(obj, usmarr.Queue) and obj == q2 and obj != q3
    assert b[1:].__sycl_usm_array_interface__["syclobj"] == q2  # a view: its block's queue
    assert a.__sycl_usm_array_interface__["syclobj"] == device.selector  # read on q2 only
    b.__dlpack__(stream=q3)  # recorded for q3: q3 is the last writer now
    assert b.__sycl_usm_array_interface__["syclobj"] == q3
    q3.synchronize()
    np.testing.assert_array_equal(b.to_numpy(), np.arange(6, dtype=np.float32) + 1)


def test_syclobj_queue_orders_an_importer_without_waiting(device):
    b, q, gate, want = _written_on_held_queue(device)
    iface = b.__sycl_usm_array_interface__  # a queue's writes: returns while the gate holds them
    assert iface["syclobj"] == q
    consumer = usmarr.Queue(device)
    with consumer:
        c = usmarr.asarray(_Interface(iface), copy=False) * 1  # the importer's queue waits for q
        done = consumer.marker()
    assert not done.done
    gate.set()
    done.wait()
    with consumer:
        got = c.to_numpy()
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_syclobj_selector_waits_for_the_writes_on_the_devices_queue(device):
    host = np.array([2.5, -0.0, np.inf, np.nan, -3.0], dtype=np.float32)
    a = usmarr.asarray(host, device=device)
    device.finish()
    own = usmarr.Queue.current(device)  # the device's own queue, held by a user event
    gate = usmarr.Event.user(device)
    own.wait([gate])
    b = -a
    written = own.marker()
    timer = threading.Timer(0.2, gate.set)
    timer.start()
    iface = b.__sycl_usm_array_interface__  # a selector orders no consumer: the host waits
    assert written.done and iface["syclobj"] == device.selector
    timer.join()
    _check_values(device, b, -host)


@pytest.mark.parametrize("stream, error, match", [
    (0, ValueError, "must be -1"), (1, ValueError, "must be -1"), (2, ValueError, "must be -1"),
    (2**80, ValueError, "must be -1"), ("queue", TypeError, "usmarr.Queue"), (1.5, TypeError, "usmarr.Queue"),
    (True, TypeError, "usmarr.Queue"), (object(), TypeError, "usmarr.Queue")])
def test_dlpack_stream_refuses_bad_values(device, stream, error, match):
    a = usmarr.ones(4, device=device)
    with pytest.raises(error, match=match):
        a.__dlpack__(stream=stream)


def test_dlpack_stream_queue_of_another_device_is_refused(device):
    others = [d for d in usmarr.devices() if d != device]
    if not others:
        pytest.skip("one USM device only: no queue of another device")
    a = usmarr.ones(4, device=device)
    with pytest.raises(ValueError, match="another device"):
        a.__dlpack__(stream=usmarr.Queue(others[0]))


def _stand_in_sycl_queue(backend):
    """A stand-in with dpctl.SyclQueue's type name, module and backend, counting its waits."""
    cls = type("SyclQueue", (), {"__module__": "dpctl._sycl_queue"})
    q = cls()
    q.backend = type("backend_type", (), {"name": backend})()
    q.waits = 0

    def wait():
        q.waits += 1
    q.wait = wait
    return q


def test_dlpack_stream_sycl_queue_of_opencl_waits_and_others_are_refused(device):
    b, q, gate, want = _written_on_held_queue(device)
    written = q.marker()
    timer = threading.Timer(0.2, gate.set)
    timer.start()
    b.__dlpack__(stream=_stand_in_sycl_queue("opencl"))
    assert written.done
    timer.join()
    with pytest.raises(BufferError, match="only an OpenCL queue"):
        b.__dlpack__(stream=_stand_in_sycl_queue("level_zero"))


def test_from_dlpack_waits_for_a_dpctl_producer_queue(device):
    host = np.array([3.0, -0.0, np.nan, -np.inf], dtype=np.float32)
    a = usmarr.asarray(host, device=device)

    class Producer:  # a dpctl array's protocol: __dlpack__, __dlpack_device__ and sycl_queue
        sycl_queue = _stand_in_sycl_queue("opencl")

        def __dlpack__(self, **kwargs):
            assert self.sycl_queue.waits == 1  # the producer's queue was waited for first
            return a.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return a.__dlpack_device__()

    p = Producer()
    got = usmarr.from_dlpack(p, device=device)
    assert p.sycl_queue.waits == 1
    np.testing.assert_array_equal(got.to_numpy(), host)
    np.testing.assert_array_equal(np.signbit(got.to_numpy()), np.signbit(host))


def test_dlpack_stream_with_real_dpctl(device):
    dpctl = pytest.importorskip("dpctl", reason="dpctl is not installed: the stand-in tests above cover the calls")
    queues = [dpctl.SyclQueue(d) for d in dpctl.get_devices() if d.backend.name == "opencl"]
    if not queues:
        pytest.skip("dpctl sees no OpenCL device")
    a = usmarr.ones(8, device=device)
    a.__dlpack__(stream=queues[0])  # an OpenCL queue: the writes are complete on return
