#!/bin/sh
# make bench-peers: runs bench/peers.py (the library against dpnp on the same OpenCL device)
# with a Python that has dpnp.  usage: peers.sh SRCDIR BUILDDIR PYTHON [peers.py arguments]
# PEERS_PYTHON=<python with dpnp> uses that one; else BUILDDIR/bench/peers-venv, which
# PEERS_INSTALL=yes creates (python -m venv, pip install dpnp: ~3 GB from PyPI).
set -eu
srcdir=$1 builddir=$2 python=$3
shift 3
venv=$builddir/bench/peers-venv
if [ -z "${PEERS_PYTHON:-}" ]; then
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import dpnp' 2>/dev/null; then
    if [ "${PEERS_INSTALL:-}" != yes ]; then
      echo "bench-peers: no dpnp in $venv; 'make bench-peers PEERS_INSTALL=yes' installs it there" \
           "(dpnp and dpctl from PyPI, ~3 GB), or set PEERS_PYTHON to a Python that has dpnp" >&2
      exit 1
    fi
    echo "bench-peers: installing dpnp into $venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check dpnp
  fi
  PEERS_PYTHON=$venv/bin/python
fi
PYTHONPATH="$builddir/python${PYTHONPATH:+:$PYTHONPATH}" \
LD_LIBRARY_PATH="$builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  exec "$PEERS_PYTHON" "$srcdir/bench/peers.py" "$@"
