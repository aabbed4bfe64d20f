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
