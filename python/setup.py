"""Builds the extension module against an installed libusmarr found by pkg-config:
    pip install ./python
(PKG_CONFIG_PATH selects another installation)."""

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
sources = ["src/module.c", "src/array.c", "src/convert.c", "src/dlpack.c", "src/index.c", "src/functions.c",
           "src/creation.c", "src/bench.c", "src/storage.c",
           "src/sort.c", "src/linalg.c", "src/stats.c", "src/utilities.c"]

setup(
    ext_modules=[
        Extension(
            "usmarr._usmarr",
            sources=sources,
            depends=["src/module.h"],
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
