#!/usr/bin/env python3
"""Randomized differential test of the Python package usmarr against NumPy 2 (doc/reliability.md,
"Differential testing against NumPy 2").

Each chain draws a dtype, a shape and a view (slices with steps, negative strides, new axes,
transposes, broadcasting) of a random array, made the same way in NumPy and in usmarr, and
then one to four operations drawn from the elementwise functions (with arrays of other
dtypes and Python scalars), reductions, indexing and assignment, sorting and searching, set
functions, linear algebra, statistics, manipulation and storages.  Every operation is a
check: the two results must agree (the same shape and dtype, the same values: bit for bit
where both compute exactly, within a few ulp for the transcendental functions, within the
rounding of another summation order for reductions), or both must raise an exception of the
same kind.  The next operation of the chain starts from usmarr's result, in NumPy and in
usmarr alike, so that every check sees the same inputs.

The differences the library makes on purpose are applied to NumPy's result, or the case is
left out, under a name that the table "Deliberate differences" of doc/reliability.md lists
with its reason; the script reads that table and refuses to run when its own names and the
table's differ.

    fuzz_numpy.py [--seed S] [--count N] [--first K] [--device SELECTOR] [--verbose]

Prints one line, "fuzz-numpy: N chains, M checks, seed S: ok", or one line per chain that
differs with what replays it (the seed, the chain's number and its operations), and exits 1.
"""
import argparse
import os
import random
import re
import sys
import traceback
import warnings

warnings.simplefilter("ignore")
DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "doc", "reliability.md")


def doc_deliberate(path):
    """The names of the table "Deliberate differences" in doc/reliability.md."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    part = text.split("### Deliberate differences", 1)
    if len(part) < 2:
        return set()
    return set(re.findall(r"^\| `([a-z0-9-]+)` \|", re.split(r"^#", part[1], maxsplit=1, flags=re.M)[0], re.M))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200, help="how many chains")
    ap.add_argument("--first", type=int, default=0, help="the first chain's number (replays chain K alone with "
                                                          "--first K --count 1)")
    ap.add_argument("--device", help="a device selector (default: the package's default device)")
    ap.add_argument("--doc", default=DOC, help="doc/reliability.md, whose table lists the deliberate differences")
    ap.add_argument("--verbose", action="store_true", help="print every chain")
    args = ap.parse_args()
    if args.device:
        os.environ["USMARR_DEVICE"] = args.device  # read when usmarr is imported
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import fuzz_numpy_core as core
    import fuzz_numpy_ops as ops
    listed = doc_deliberate(args.doc)
    if listed != core.DELIBERATE:
        print("fuzz-numpy: the deliberate differences of %s and of this script differ: only in the document %s, "
              "only in the script %s" % (args.doc, sorted(listed - core.DELIBERATE), sorted(core.DELIBERATE - listed)))
        return 2
    device = core.xp.get_device().selector
    failures = 0
    for k in range(args.first, args.first + args.count):
        rng = random.Random("%d/%d" % (args.seed, k))
        log = []
        try:
            ops.one_chain(rng, log)
        except Exception as e:  # noqa: BLE001 (a difference, or anything else that went wrong)
            failures += 1
            if failures > 20:
                continue
            what = str(e) if isinstance(e, core.Difference) else "".join(traceback.format_exception_only(e)).strip()
            print("fuzz-numpy: seed %d chain %d on %s (--seed %d --first %d --count 1): %s: %s"
                  % (args.seed, k, device, args.seed, k, " -> ".join(log), what))
        if args.verbose:
            print("chain %d: %s" % (k, " -> ".join(log)))
    print("fuzz-numpy: %d chains (%d to %d), %d checks, seed %d: %s"
          % (args.count, args.first, args.first + args.count - 1, core.CHECKS[0], args.seed,
             "%d differ" % failures if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
