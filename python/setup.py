"""Builds the extension module against an installed libusmarr found by pkg-config:
    pip install ./python
(PKG_CONFIG_PATH selects another installation).  The sources are python.mk's
PYTHON_SOURCES, the Autotools build's list."""

import os
import subprocess

from setuptools import Extension, setup


def pkg_config(*flags):
    try:
        out = subprocess.check_output(["pkg-config", *flags, "usmarr"], text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"usmarr: pkg-config does not find libusmarr ({e}); install the library first "
                         "(scripts/setup.sh, or make install) or set PKG_CONFIG_PATH") from e
    return out.split()


cflags = pkg_config("--cflags")
libs = pkg_config("--libs")
libdirs = [f[2:] for f in libs if f.startswith("-L")]


def make_sources():
    """The extension's sources as python.mk lists them for the Autotools build (PYTHON_SOURCES),
    relative to this directory: one list for both builds."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "python.mk")) as f:
        text = f.read().replace("\\\n", " ")
    for line in text.splitlines():
        name, _, value = line.partition("=")
        if name.strip() == "PYTHON_SOURCES":
            return [path.removeprefix("python/") for path in value.split()]
    raise SystemExit("usmarr: python.mk has no PYTHON_SOURCES")


sources = make_sources()

setup(
    ext_modules=[
        Extension(
            "usmarr._usmarr",
            sources=[path for path in sources if path.endswith(".c")],
            depends=[path for path in sources if path.endswith(".h")],
            include_dirs=[f[2:] for f in cflags if f.startswith("-I")],
            extra_compile_args=["-std=gnu11"] + [f for f in cflags if not f.startswith("-I")],
            library_dirs=libdirs,
            libraries=[f[2:] for f in libs if f.startswith("-l")],
            runtime_library_dirs=libdirs,
            define_macros=[("Py_LIMITED_API", "0x030B0000")],
            py_limited_api=True,
        )
    ],
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
