#!/usr/bin/python3
"""NumPy oracle for the storage operations' tests (tests/storage/test_storage_ops.c).

Run as `$PYTHON_NUMPY tests/gen/gen_storage_cases.py > tests/storage_cases.txt` (the build does
it before `make check`).  NumPy computes every value; the storage rules of doc/storage.md
(named-axes broadcasting, output parameters, reductions by letter, domain views, region assignment)
are written out here a second time, in Python, so the library's tests only compare.

A case is a block:
  scase NAME
  call ew FUNC ULPS | call reduce FUNC AXES | call assign INDEX      AXES/INDEX "-" = none
  target SPEC          (assign: the storage assigned into)
  out SPEC             (ew/reduce with out: the storage written)
  storage SPEC | array DTYPE NDIM SHAPE... VALUES... | scalar weak|DTYPE KIND VALUE   operands, in order
  expect ok DTYPE AXES SHAPE... HALO... ALIGNED... ALIGNMENT LAYOUT KIND STATE VALUES...
  expect error CODE NEEDLE
  end
SPEC = DTYPE AXES SHAPE... HALO(lo hi per axis)... ALIGNED... ALIGNMENT LAYOUT KIND STATE DOMAIN VALUES...
AXES "-" is the empty string (0-d).  KIND: host, device, shared, managed.  STATE (managed
pairs): clean, host (host dirty: the values are on the host side, the device side holds
other bytes) or device; "-" otherwise.  DOMAIN 1: the operand is the storage's domain
view.  Values are in C order of the storage's own axes, written as tests/gen/gen_ops_cases.py
writes them.  In an expectation VALUES are those of the result (or of out/target after).
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_ops_cases as ops  # noqa: E402  (NumPy 2's weak scalars, value formats, the function tables)

import numpy as np  # noqa: E402

out = sys.stdout


class Stor:
    """A storage as doc/storage.md describes it: an array plus axes, halo, aligned index,
    alignment (bytes), layout, kind and (managed pairs) which side is newest."""

    def __init__(self, dtype, axes, shape, halo=None, aligned=None, alignment=None, layout="IJK", kind="host",
                 state=None, domain=False, seed=0, values=None):
        self.dtype = np.dtype(dtype)
        self.axes = axes
        self.shape = tuple(shape)
        self.halo = [tuple(h) for h in (halo or [(0, 0)] * len(axes))]
        self.aligned = list(aligned if aligned is not None else [h[0] for h in self.halo])
        self.alignment = alignment or self.dtype.itemsize
        self.layout = layout
        self.kind = kind
        self.state = state or ("clean" if kind == "managed" else "-")
        self.domain = domain
        self.values = values if values is not None else data(self.dtype, self.shape, seed)

    def spec(self):
        return "%s %s %s %s %s %d %s %s %s %d %s" % (
            self.dtype.name, self.axes or "-", ints(self.shape), ints(v for h in self.halo for v in h),
            ints(self.aligned), self.alignment, self.layout, self.kind, self.state, int(self.domain),
            vals(self.values))

    def operand(self):
        """What the operation sees: the storage, or its domain view (no halo, [0,...] the
        first inner point, aligned index moved with it and clipped to [0, extent])."""
        if not self.domain:
            return self
        sl = tuple(slice(lo, n - hi) for (lo, hi), n in zip(self.halo, self.shape))
        v = self.values[sl]
        ai = [min(max(a - lo, 0), m) for a, (lo, _), m in zip(self.aligned, self.halo, v.shape)]
        return Stor(self.dtype, self.axes, v.shape, None, ai, self.alignment, self.layout, self.kind, self.state,
                    False, values=v)


def data(dtype, shape, seed):
    n = int(np.prod(shape))
    i = np.arange(n) * 7 + seed
    k = dtype.kind
    if k == "b":
        v = (i % 5) % 2 == 0
    elif k == "i":
        v = i % 23 - 11
    elif k == "u":
        v = i % 23
    elif k == "f":
        v = (i % 23 - 11) / 4.0
    else:
        v = (i % 23 - 11) / 4.0 + 1j * ((i % 13) - 6) / 2.0
    return np.asarray(v).astype(dtype).reshape(shape)


def ints(seq):
    return " ".join(str(int(v)) for v in seq)


def vals(a):
    a = np.asarray(a)
    return " ".join(ops.fmt(v, a.dtype) for v in a.ravel())


def on_axes(a, letters, res_axes):
    """`a` (dims standing for `letters`) on the result's axes: letters the result lacks
    squeezed (extent 1), the rest in the result's order, extent 1 for the letters it lacks."""
    a = np.asarray(a)
    if a.ndim == 0:
        return a
    ls = list(letters)
    for d in reversed(range(len(ls))):
        if ls[d] not in res_axes:
            assert a.shape[d] == 1
            a = a.squeeze(axis=d)
            del ls[d]
    perm = sorted(range(len(ls)), key=lambda d: res_axes.index(ls[d]))
    a = a.transpose(perm)
    ls = [ls[p] for p in perm]
    return a.reshape([a.shape[ls.index(c)] if c in ls else 1 for c in res_axes])


def result_axes(stors):
    """The common axes; else the first input holding every letter; else the
    union in "IJK" order."""
    if all(s.axes == stors[0].axes for s in stors):
        return stors[0].axes
    union = set("".join(s.axes for s in stors))
    for s in stors:
        if union <= set(s.axes):
            return s.axes
    return "".join(c for c in "IJK" if c in union)


def fit_alignment(alignment, dtype):
    size = np.dtype(dtype).itemsize
    if alignment % size == 0 or size % alignment == 0:
        return alignment
    return alignment * size // math.gcd(alignment, size)


def output_params(stors, axes, shape, dtype):
    """The output parameters: aligned index the per-axis maximum, alignment the
    lcm, halo such that the domain is the intersection of the domains (an axis an input
    only broadcasts along does not narrow it), layout and kind of the first storage."""
    alignment = 1
    for s in stors:
        alignment = alignment * s.alignment // math.gcd(alignment, s.alignment)
    halo, aligned = [], []
    for c, m in zip(axes, shape):
        lo, hi, ai = 0, m, 0
        for s in stors:
            if c not in s.axes:
                continue
            d = s.axes.index(c)
            ai = max(ai, s.aligned[d])
            if s.shape[d] == m:
                lo = max(lo, s.halo[d][0])
                hi = min(hi, m - s.halo[d][1])
        hi = max(hi, lo)
        halo.append((lo, m - hi))
        aligned.append(min(ai, m))
    first = stors[0]
    return Stor(dtype, axes, shape, halo, aligned, fit_alignment(alignment, dtype), first.layout, first.kind,
                values=np.zeros(shape, dtype))


def written_state(kind, stors, out=None):
    """The state of a managed result: dirty on the side written, the host side when every
    managed input is host dirty (without managed inputs: when out is)."""
    if kind != "managed":
        return "-"
    managed = [s for s in stors if s.kind == "managed"]
    if managed:
        return "host" if all(s.state == "host" for s in managed) else "device"
    return "host" if out is not None and out.state == "host" else "device"


def operand_line(o):
    if isinstance(o, Stor):
        return "storage " + o.spec()
    if isinstance(o, tuple):  # a scalar: (dtype or "weak", kind, text, value)
        return "scalar %s %s %s" % o[:3]
    a = np.asarray(o)
    return "array %s %d %s %s" % (a.dtype.name, a.ndim, ints(a.shape), vals(a))


def expect_ok(r, values):
    values = np.asarray(values)
    out.write("expect ok %s %s %s %s %s %d %s %s %s %s\n" % (
        r.dtype.name, r.axes or "-", ints(r.shape), ints(v for h in r.halo for v in h), ints(r.aligned),
        r.alignment, r.layout, r.kind, r.state, vals(values)))


def array_letters(a, stors, axes, shape):
    """The two allowed shapes for a plain array (the library's reading of them)."""
    a = np.asarray(a)
    if a.ndim == 0:
        return ""
    if a.shape == tuple(shape):
        return axes
    for s in stors:
        if a.shape == s.shape:
            return s.axes
    l3 = axes if len(axes) == 3 else "IJK"
    assert a.ndim == 3 and all(n == 1 or (c in axes and n == shape[axes.index(c)]) for c, n in zip(l3, a.shape))
    return l3


def ew(name, fn, operands, ulps=0, out_stor=None, error=None):
    """An elementwise case: `fn` (NumPy) over the operands, named-axes broadcast."""
    out.write("scase ew-%s\ncall ew %s %d\n" % (name, fn if isinstance(fn, str) else fn.__name__, ulps))
    if out_stor is not None:
        out.write("out " + out_stor.spec() + "\n")
    for o in operands:
        out.write(operand_line(o) + "\n")
    if error:
        out.write("expect error %s %s\nend\n" % error)
        return
    seen = [o.operand() if isinstance(o, Stor) else o for o in operands]
    stors = [o for o in seen if isinstance(o, Stor)]
    if out_stor is not None:
        out_stor = out_stor.operand()
        axes, shape = out_stor.axes, out_stor.shape
    else:
        axes = result_axes(stors)
        shape = tuple(max(s.shape[s.axes.index(c)] for s in stors if c in s.axes) for c in axes)
    args = []
    for o in seen:
        if isinstance(o, Stor):
            args.append(on_axes(o.values, o.axes, axes))
        elif isinstance(o, tuple):
            args.append(o[3] if o[0] == "weak" else np.dtype(o[0]).type(o[3]))
        else:
            args.append(on_axes(o, array_letters(o, stors, axes, shape), axes))
    with np.errstate(all="ignore"):
        r = np.asarray(call(fn, args))
    if out_stor is not None:
        res = Stor(out_stor.dtype, axes, shape, out_stor.halo, out_stor.aligned, out_stor.alignment,
                   out_stor.layout, out_stor.kind, written_state(out_stor.kind, stors, out_stor))
        expect_ok(res, np.broadcast_to(r, shape).astype(out_stor.dtype))
    else:
        res = output_params(stors, axes, shape, r.dtype)
        res.state = written_state(res.kind, stors)
        expect_ok(res, np.broadcast_to(r, shape))
    out.write("end\n")


def call(fn, args):
    if fn in ops.UNARY:
        return ops.unary(fn, *args)
    if fn in ops.BINARY:
        return ops.binary(fn, *args)
    if fn == "where":
        return np.where(*args)
    if fn == "clip":
        return np.minimum(np.maximum(args[0], args[1]), args[2])
    raise KeyError(fn)


def red(name, fn, s, axes, out_stor=None, error=None):
    """A reduction case: `fn` over the letters `axes` ("-": all)."""
    out.write("scase red-%s\ncall reduce %s %s\n" % (name, fn, axes))
    if out_stor is not None:
        out.write("out " + out_stor.spec() + "\n")
    out.write("storage " + s.spec() + "\n")
    if error:
        out.write("expect error %s %s\nend\n" % error)
        return
    o = s.operand()
    letters = o.axes if axes in ("-", "=") else axes
    dims = tuple(o.axes.index(c) for c in letters)
    with np.errstate(all="ignore"):
        r = np.asarray(ops.reduction(fn, o.values, dims, False))
    kept = [d for d in range(len(o.axes)) if d not in dims]
    raxes = "".join(o.axes[d] for d in kept)
    if out_stor is not None:
        res = Stor(out_stor.dtype, out_stor.axes, out_stor.shape, out_stor.halo, out_stor.aligned,
                   out_stor.alignment, out_stor.layout, out_stor.kind, written_state(out_stor.kind, [o], out_stor))
        expect_ok(res, on_axes(r, raxes, out_stor.axes).astype(out_stor.dtype))
    else:
        res = Stor(r.dtype, raxes, r.shape, [o.halo[d] for d in kept], [o.aligned[d] for d in kept],
                   fit_alignment(o.alignment, r.dtype), o.layout, o.kind, written_state(o.kind, [o]),
                   values=r)
        expect_ok(res, r)
    out.write("end\n")


def parse_index(text, shape):
    """NumPy basic index text (integers and slices) -> a tuple."""
    items = []
    for t in text.split(","):
        if ":" in t:
            parts = [int(p) if p else None for p in t.split(":")]
            items.append(slice(*parts))
        else:
            items.append(int(t))
    return tuple(items)


def assign(name, target, index, value, error=None):
    """Region assignment: target[index] = value, as positive(value, out=target[index])."""
    out.write("scase asg-%s\ncall assign %s\ntarget %s\n%s\n" % (name, index, target.spec(), operand_line(value)))
    if error:
        out.write("expect error %s %s\nend\n" % error)
        return
    key = parse_index(index, target.shape) if index != "-" else ()
    region_axes = "".join(c for c, k in zip(target.axes + "", list(key) + [slice(None)] * 3) if not isinstance(k, int))
    t = target.values.copy()
    region = t[key]
    if isinstance(value, Stor):
        v = value.operand()
        src = on_axes(v.values, v.axes, region_axes)
    elif isinstance(value, tuple):
        src = value[3]
    else:
        src = on_axes(value, array_letters(value, [], region_axes, region.shape), region_axes)
    region[...] = np.broadcast_to(src, region.shape)  # NumPy's assignment (unsafe casting)
    res = Stor(target.dtype, target.axes, target.shape, target.halo, target.aligned, target.alignment,
               target.layout, target.kind, written_state(target.kind, [value] if isinstance(value, Stor) else [],
                                                         target))
    expect_ok(res, t)
    out.write("end\n")


def named_broadcasting():
    f8 = "float64"
    ew("ij-plus-k", "add", [Stor(f8, "IJ", (2, 3)), Stor(f8, "K", (4,), seed=5)])
    ew("ik-times-j-union", "multiply", [Stor(f8, "IK", (3, 4)), Stor(f8, "J", (5,), seed=2)])
    ew("kji-plus-ijk-first-holds-all", "add", [Stor(f8, "KJI", (4, 3, 2)), Stor(f8, "IJK", (2, 3, 4), seed=1)])
    ew("ijk-minus-ki", "subtract", [Stor(f8, "IJK", (2, 3, 4)), Stor(f8, "KI", (4, 2), seed=3)])
    ew("k-plus-ijk-second-holds-all", "add", [Stor(f8, "K", (4,)), Stor(f8, "IJK", (2, 3, 4), seed=1)])
    ew("ji-plus-k-extent-1", "add", [Stor(f8, "JI", (3, 2)), Stor(f8, "K", (1,), seed=4)])
    ew("ij-size-1-both-ways", "add", [Stor(f8, "IJ", (2, 1)), Stor(f8, "IJ", (1, 3), seed=9)])
    ew("jk-plus-ik-union-order", "maximum", [Stor(f8, "KJ", (4, 3)), Stor(f8, "IK", (2, 4), seed=6)])
    ew("int8-plus-float32", "add", [Stor("int8", "IJ", (3, 2)), Stor("float32", "K", (2,), seed=1)])
    ew("uint8-plus-int16", "add", [Stor("uint8", "I", (4,)), Stor("int16", "J", (3,), seed=2)])
    ew("complex64-times-float64", "multiply", [Stor("complex64", "J", (3,)), Stor(f8, "IK", (2, 2), seed=8)])
    ew("bool-and-bool", "logical_and", [Stor("bool", "IJ", (2, 3)), Stor("bool", "K", (3,), seed=1)])
    ew("int32-plus-weak-float", "add", [Stor("int32", "IJ", (2, 3)), ("weak", "float", "0x1.8p+0", 1.5)])
    ew("int8-plus-weak-int-stays-int8", "add", [Stor("int8", "JK", (2, 3)), ("weak", "int", "3", 3)])
    ew("float16-sqrt", "sqrt", [Stor("float16", "KI", (3, 2), values=np.arange(6, dtype="float16").reshape(3, 2))],
       ulps=1)
    ew("less-gives-bool", "less", [Stor("int16", "IJ", (2, 3)), Stor("int16", "J", (3,), seed=3)])
    ew("where-three-letters", "where", [Stor("bool", "K", (4,)), Stor(f8, "IJ", (2, 3)), Stor(f8, "J", (3,), seed=7)])
    ew("clip-weak-bounds", "clip", [Stor("float32", "JI", (3, 2)), ("weak", "float", "-0x1p+0", -1.0),
                                    ("weak", "float", "0x1p+0", 1.0)])
    ew("conflicting-k", "add", [Stor(f8, "IK", (2, 4)), Stor(f8, "K", (5,))],
       error=("SHAPE_MISMATCH", "axis K has extent 4 in operands[0] and 5 in operands[1]"))


def output_parameters():
    f8 = "float64"
    ew("aligned-index-max", "add", [Stor(f8, "IJK", (4, 5, 6), [(1, 0), (2, 0), (0, 3)], (1, 2, 3)),
                                    Stor(f8, "IJK", (4, 5, 6), [(3, 0), (0, 1), (0, 0)], (3, 1, 0), seed=1)])
    ew("alignment-lcm", "add", [Stor("int8", "IJ", (3, 4), alignment=2), Stor("int8", "J", (4,), alignment=3)])
    ew("alignment-lcm-fitted-to-itemsize", "add",
       [Stor("int8", "IJ", (3, 4), alignment=3), Stor("float32", "J", (4,), alignment=4)])
    ew("alignment-64-and-16", "multiply", [Stor(f8, "IJK", (2, 3, 4), alignment=64),
                                           Stor(f8, "K", (4,), alignment=16)])
    ew("aligned-index-at-the-extent", "add", [Stor(f8, "I", (4,), None, (4,)), Stor(f8, "I", (4,), None, (1,), seed=1)])
    ew("halo-intersection", "add", [Stor(f8, "IJK", (6, 5, 4), [(1, 2), (0, 1), (2, 0)]),
                                    Stor(f8, "IJK", (6, 5, 4), [(2, 0), (1, 1), (0, 0)], seed=2)])
    ew("halo-intersection-across-axes", "add", [Stor(f8, "IJ", (6, 5), [(1, 1), (2, 0)]),
                                                Stor(f8, "JK", (5, 4), [(0, 2), (1, 1)], seed=4)])
    ew("halo-broadcast-axis-does-not-narrow", "add", [Stor(f8, "IJ", (6, 1), [(2, 1), (0, 0)]),
                                                      Stor(f8, "IJ", (6, 5), [(0, 0), (1, 2)], seed=4)])
    ew("halo-disjoint-domains", "add", [Stor(f8, "I", (6,), [(0, 4)]), Stor(f8, "I", (6,), [(4, 0)], seed=1)])
    ew("layout-of-first-storage", "add", [Stor(f8, "IJK", (2, 3, 4), layout="KJI"),
                                          Stor(f8, "IJK", (2, 3, 4), layout="IJK", seed=3)])
    ew("layout-of-first-storage-not-first-operand", "add",
       [np.arange(6.0).reshape(2, 3), Stor(f8, "IJ", (2, 3), layout="JIK")])
    ew("kind-of-first-storage-device", "add", [Stor(f8, "IJ", (2, 3), kind="device"),
                                               Stor(f8, "K", (2,), kind="managed")])
    ew("kind-of-first-storage-shared", "subtract", [Stor(f8, "K", (3,), kind="shared"),
                                                    Stor(f8, "IJ", (2, 2), kind="host")])
    ew("domain-views", "add", [Stor(f8, "IJK", (6, 5, 4), [(1, 2), (1, 1), (0, 1)], (1, 1, 0), domain=True),
                               Stor(f8, "K", (5,), [(1, 1)], (1,), domain=True, seed=3)])
    ew("domain-view-aligned-index-past-the-domain", "negative", [Stor(f8, "I", (6,), [(1, 2)], (5,), domain=True)])
    ew("domain-view-and-full", "multiply", [Stor(f8, "IJ", (6, 5), [(1, 1), (2, 0)], domain=True),
                                            Stor(f8, "IJ", (4, 3), [(1, 0), (0, 1)], seed=3)])


def mixing_types():
    f8 = "float64"
    ew("array-of-storage-shape", "add", [Stor(f8, "IJ", (2, 3)), np.arange(6.0).reshape(2, 3)])
    ew("array-first-of-storage-shape", "subtract", [np.arange(6.0).reshape(3, 2), Stor(f8, "JI", (3, 2))])
    ew("array-3d-size-1-broadcast", "add", [Stor(f8, "IJK", (2, 3, 4)), np.arange(8.0).reshape(2, 1, 4)])
    ew("array-3d-on-kji", "multiply", [Stor(f8, "KJI", (4, 3, 2)), np.arange(4.0).reshape(4, 1, 1)])
    ew("array-of-result-shape", "where",
       [Stor("bool", "K", (4,)), Stor(f8, "IJ", (2, 3)), np.arange(24.0).reshape(2, 3, 4)])
    ew("array-of-one-storage-shape-in-union", "where",
       [Stor("bool", "K", (4,)), Stor(f8, "IJ", (2, 3)), np.arange(6.0).reshape(2, 3)])
    ew("array-3d-onto-2d-result", "add", [Stor(f8, "IJ", (2, 3)), np.arange(6.0).reshape(2, 3, 1)])
    ew("array-0d", "add", [Stor("float32", "IJ", (2, 3)), np.array(2.5, "float32")])
    ew("array-with-out-shape", "add", [Stor(f8, "K", (4,)), np.arange(24.0).reshape(2, 3, 4)],
       out_stor=Stor(f8, "IJK", (2, 3, 4)))
    ew("array-bad-shape", "add", [Stor(f8, "IJ", (2, 3)), np.arange(6.0).reshape(3, 2)],
       error=("SHAPE_MISMATCH", "array of shape (3, 2), which is neither the storage's shape (2, 3)"))
    ew("array-3d-bad-extent", "add", [Stor(f8, "IJK", (2, 3, 4)), np.arange(6.0).reshape(2, 3, 1).repeat(2, 2)],
       error=("SHAPE_MISMATCH", "(2, 3, 2)"))
    ew("array-0-storages", "add", [np.arange(3.0), np.arange(3.0)],
       error=("INVALID_ARGUMENT", "no operand is a storage"))


def with_out():
    f8 = "float64"
    ew("out-ijk", "add", [Stor(f8, "IJ", (2, 3)), Stor(f8, "K", (4,))], out_stor=Stor(f8, "IJK", (2, 3, 4)))
    ew("out-kji", "add", [Stor(f8, "IJ", (2, 3)), Stor(f8, "K", (4,), seed=2)], out_stor=Stor(f8, "KJI", (4, 3, 2)))
    ew("out-ij-squeezes-k-of-1", "subtract", [Stor(f8, "IJK", (2, 3, 1)), Stor(f8, "JI", (3, 2), seed=1)],
       out_stor=Stor(f8, "IJ", (2, 3)))
    ew("out-float32-same-kind", "multiply", [Stor(f8, "I", (3,)), Stor(f8, "J", (2,))],
       out_stor=Stor("float32", "IJ", (3, 2), [(1, 1), (0, 0)], alignment=16, layout="KJI", kind="managed"))
    ew("out-in-domain-view", "add", [Stor(f8, "J", (3,)), Stor(f8, "I", (2,))],
       out_stor=Stor(f8, "IJ", (4, 5), [(1, 1), (1, 1)], domain=True))
    ew("out-wrong-extent", "add", [Stor(f8, "IJ", (2, 3)), Stor(f8, "K", (4,))],
       out_stor=Stor(f8, "IJK", (2, 3, 5)), error=("SHAPE_MISMATCH", "axis K has extent 4 in operands[1] and 5 in out"))
    ew("out-cannot-cast", "add", [Stor(f8, "IJ", (2, 3)), Stor(f8, "K", (4,))], out_stor=Stor("int32", "IJK", (2, 3, 4)),
       error=("CASTING", "the float64 result cannot be cast to out's int32"))
    ew("out-lacks-letter", "add", [Stor(f8, "IJ", (2, 3)), Stor(f8, "K", (4,))],
       out_stor=Stor(f8, "IJ", (2, 3)), error=("SHAPE_MISMATCH", "axis K of extent 4, which out (axes \"IJ\") lacks"))


def managed_pairs():
    f8 = "float64"
    m = dict(kind="managed")
    ew("host-dirty-pair", "add", [Stor(f8, "IJ", (3, 4), state="host", **m), Stor(f8, "K", (2,), state="host", **m)])
    ew("host-dirty-and-clean", "add", [Stor(f8, "IJ", (3, 4), state="host", **m),
                                       Stor(f8, "K", (2,), state="clean", **m)])
    ew("device-dirty-pair", "multiply", [Stor(f8, "IJ", (3, 4), state="device", **m),
                                         Stor(f8, "IJ", (3, 4), state="host", seed=2, **m)])
    ew("host-dirty-and-host-storage", "subtract", [Stor(f8, "IJ", (3, 4), kind="host"),
                                                   Stor(f8, "J", (4,), state="host", **m)])
    ew("managed-out-host-dirty", "add", [Stor(f8, "I", (3,), state="host", **m), Stor(f8, "J", (4,), kind="host")],
       out_stor=Stor(f8, "IJ", (3, 4), state="device", **m))
    red("host-dirty-sum", "sum", Stor(f8, "IJK", (2, 3, 4), state="host", **m), "K")
    red("device-dirty-max", "max", Stor(f8, "IJK", (2, 3, 4), state="device", **m), "IJ")


def reductions():
    f8 = "float64"
    h = [(1, 0), (0, 1), (1, 1)]
    red("sum-over-k", "sum", Stor(f8, "IJK", (3, 4, 5), h, (1, 2, 3), alignment=32), "K")
    red("sum-over-j-layout-kji-aligned", "sum", Stor(f8, "IJK", (3, 5, 6), h, alignment=64, layout="KJI"), "J")
    red("max-over-ik", "max", Stor(f8, "IJK", (3, 4, 5), h), "IK")
    red("sum-all-null", "sum", Stor("int32", "IJK", (2, 3, 4)), "-")
    red("mean-all-empty-string", "mean", Stor("float32", "KJ", (3, 4)), "=")
    red("argmax-over-j-of-kji", "argmax", Stor(f8, "KJI", (4, 3, 2), [(0, 0), (1, 1), (0, 1)]), "J")
    red("int8-sum-gives-int64", "sum", Stor("int8", "JK", (3, 4), alignment=4), "J")
    red("all-over-i", "all", Stor("bool", "IJ", (3, 2)), "I")
    red("min-order-of-letters-irrelevant", "min", Stor(f8, "IJK", (2, 3, 4)), "KI")
    red("domain-view-sum", "sum", Stor(f8, "IJK", (5, 4, 6), [(1, 1), (1, 0), (2, 2)], domain=True), "I")
    red("out-permuted", "sum", Stor(f8, "IJK", (2, 3, 4)), "K", out_stor=Stor(f8, "JI", (3, 2)))
    red("unknown-letter", "sum", Stor(f8, "IJ", (2, 3)), "K",
        error=("INVALID_ARGUMENT", "'K', which is not an axis of the storage (axes \"IJ\")"))
    red("repeated-letter", "sum", Stor(f8, "IJ", (2, 3)), "II", error=("INVALID_ARGUMENT", "repeats 'I'"))
    red("out-wrong-extent", "sum", Stor(f8, "IJK", (2, 3, 4)), "K", out_stor=Stor(f8, "JI", (4, 2)),
        error=("SHAPE_MISMATCH", "out has extent 4 on axis J, the result 3"))
    red("out-wrong-axes", "sum", Stor(f8, "IJK", (2, 3, 4)), "K", out_stor=Stor(f8, "IK", (2, 4)),
        error=("SHAPE_MISMATCH", "out has axes \"IK\" where the result has \"IJ\""))


def assignments():
    f8 = "float64"
    assign("region-from-ij", Stor(f8, "IJK", (4, 5, 6)), "1:3,:,0", Stor(f8, "IJ", (2, 5), seed=3))
    assign("region-from-k-broadcast", Stor(f8, "IJK", (4, 5, 6)), "1:3,1:4,:", Stor(f8, "K", (6,), seed=1))
    assign("region-from-ji-transposed", Stor("int32", "IJ", (4, 5)), "1:,::2", Stor("int32", "JI", (3, 3), seed=2))
    assign("scalar-into-managed", Stor(f8, "IJ", (3, 4), kind="managed", state="host"), "1,:",
           ("weak", "float", "0x1.4p+1", 2.5))
    assign("scalar-into-device-dirty", Stor("int16", "IJ", (3, 4), kind="managed", state="device"), ":,2",
           ("weak", "int", "7", 7))
    assign("array-of-region-shape", Stor("float32", "IJK", (3, 4, 2)), "0,1:3", np.arange(4.0).reshape(2, 2))
    assign("float-into-int-truncates", Stor("int32", "I", (5,)), "1:4", Stor(f8, "I", (3,), seed=1))
    assign("bool-storage", Stor("bool", "IJ", (2, 3)), "-", Stor("bool", "J", (3,), seed=1))
    assign("domain-of-halo-storage", Stor(f8, "IJK", (4, 4, 3), [(1, 1), (1, 1), (0, 0)]), "1:-1,1:-1,:",
           Stor(f8, "IJK", (4, 4, 3), [(1, 1), (1, 1), (0, 0)], domain=True, seed=5))
    assign("value-conflicting-letter", Stor(f8, "IJ", (3, 4)), "-", Stor(f8, "J", (3,)),
           error=("SHAPE_MISMATCH", "axis J has extent 3 in operands[0] and 4 in out"))


def every_function():
    """Every function of the elementwise table through the storage path (named-axes
    broadcast operands); the test checks that each name the dispatcher lists has a case."""
    for name in list(ops.UNARY) + list(ops.BINARY) + ["where", "clip"]:
        dt = "float64"
        if name.startswith("bitwise") or name.endswith("shift"):
            dt = "int32"
        elif name.startswith("logical"):
            dt = "bool"
        def mk(axes, shape, seed):
            s = Stor(dt, axes, shape, seed=seed)
            if dt == "float64":
                n = int(np.prod(shape))
                s.values = (0.05 + ((np.arange(n) * 7 + seed) % 17) / 20.0).reshape(shape)
            elif dt == "int32":
                s.values = ((np.arange(int(np.prod(shape))) * 5 + seed) % 8).astype("int32").reshape(shape)
            return s
        if name == "where":
            operands = [Stor("bool", "K", (2,)), mk("IJ", (3, 4), 1), mk("J", (4,), 2)]
        elif name == "clip":
            operands = [mk("IJ", (3, 4), 1), mk("K", (2,), 2), mk("J", (4,), 3)]
            operands[2].values = operands[2].values + 0.5
        elif name in ops.UNARY:
            operands = [mk("KI", (2, 3), 1)]
        else:
            operands = [mk("IJ", (3, 4), 1), mk("K", (2,), 2)]
        ew("every-" + name, name, operands, ulps=16)


def main():
    named_broadcasting()
    output_parameters()
    mixing_types()
    with_out()
    managed_pairs()
    reductions()
    assignments()
    every_function()


if __name__ == "__main__":
    main()
