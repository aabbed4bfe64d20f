"""Shared fixtures of the Python suite: the device (the library's default, or
USMARR_DEVICE), and whether NumPy (the oracle) is there."""

import os

import pytest

import usmarr


def _device():
    try:
        return usmarr.get_device()
    except usmarr.UsmarrError as e:
        return e


DEVICE = _device()


def pytest_collection_modifyitems(config, items):
    if not isinstance(DEVICE, Exception):
        return
    if os.environ.get("USMARR_REQUIRE_DEVICE") == "1":
        raise pytest.UsageError(f"USMARR_REQUIRE_DEVICE=1 but no USM device: {DEVICE}")
    skip = pytest.mark.skip(reason=f"no USM device: {DEVICE}")
    for item in items:
        item.add_marker(skip)


@pytest.fixture
def device():
    return DEVICE


@pytest.fixture
def fp64():
    return not isinstance(DEVICE, Exception) and DEVICE.has_fp64


def _usm_offered(kind):
    """Whether the device under test offers USM of `kind` ("host", "shared").  Where it does
    not (NVIDIA's OpenCL through the SVM backend has device USM only; USMARR_USM_KINDS=device
    hides the others), it first checks the refusal, as the C suite's test_kind_offered does:
    a UsmarrRuntimeError that names the kind and the device's capability query."""
    try:
        usmarr.zeros(1, usm_type=kind)
        return True
    except usmarr.UsmarrRuntimeError as e:
        message = str(e)
        assert f"offers no {kind} USM" in message and "_CAPABILITIES_INTEL is 0x0" in message, message
        return False


@pytest.fixture
def usm_offered():
    return _usm_offered
