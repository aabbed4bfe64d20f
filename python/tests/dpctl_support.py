"""What the dpctl tests share (python/tests/test_interop.py, python/tests_numpy2/test_dpctl.py):
the dpctl device of Intel's OpenCL platform, and a usmarr Device over dpctl's cl_context."""

import ctypes
import ctypes.util

import pytest

import usmarr

_GET_NATIVE_CONTEXT = ("_ZN4sycl3_V110get_nativeILNS0_7backendE1ENS0_7contextEEENS0_14backend_traits"
                       "IXT_EE11return_typeIT0_EERKS7_")  # sycl::get_native<backend::opencl>(const context &)


def intel_opencl_device(dpctl):
    """The dpctl device of Intel's OpenCL platform (Intel's CPU runtime), or pytest.skip."""
    found = [d for d in dpctl.get_devices() if "Intel" in d.sycl_platform.name and d.backend.name == "opencl"]
    if not found:
        pytest.skip("dpctl sees no OpenCL device of an Intel platform (Intel's CPU runtime)")
    return found[0]


def adopt(dpctl, queue):
    """A usmarr Device over the cl_context of dpctl's SYCL context (the one dpctl uses for
    the filter selector of its device).  dpctl has no Python call for native handles: this
    calls SYCL's get_native<opencl>(context), which dpctl's interface library exports."""
    lib = ctypes.CDLL(dpctl.__path__[0] + "/libDPCTLSyclInterface.so")
    try:
        get_native = getattr(lib, _GET_NATIVE_CONTEXT)
    except AttributeError:
        pytest.skip("this dpctl exports no sycl::get_native<opencl>(context): no cl_context to adopt")
    get_native.restype, get_native.argtypes = ctypes.c_void_p, [ctypes.c_void_p]
    cl_context = get_native(queue.sycl_context.addressof_ref())  # retained for us
    opencl = ctypes.CDLL(ctypes.util.find_library("OpenCL") or "libOpenCL.so.1")
    opencl.clGetContextInfo.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_size_t, ctypes.c_void_p,
                                        ctypes.c_void_p]
    opencl.clReleaseContext.argtypes = [ctypes.c_void_p]
    devices = (ctypes.c_void_p * 1)()
    assert opencl.clGetContextInfo(cl_context, 0x1081, ctypes.sizeof(devices), devices, None) == 0
    try:
        return usmarr.adopt_device(cl_context, devices[0])
    finally:
        opencl.clReleaseContext(cl_context)  # the Device holds its own reference
