#!/usr/bin/python3
"""NumPy oracle for the view and indexing tests (tests/index/test_view.c, tests/index/test_index.c).

Run as `$PYTHON_NUMPY tests/gen/gen_index_cases.py > tests/index_cases.txt` (the build does it
before `make check`).  NumPy, never the library, computes every expected result; the tests
only read this file.

Every case starts from a block of BLOCK int32 elements holding 0, 1, 2, ... (so an
element's value is its position in the block) and an array over it, then applies a chain
of operations.  Line formats:

  case NAME
  base NDIM SHAPE... STRIDES... OFFSET BLOCK WRITABLE      strides/offset in elements
  op index TEXT                                           basic indexing, NumPy syntax
  op reshape ORDER NDIM SHAPE...                          ORDER is C, F or A
  op permute N AXES...                                    N = -1: reverse (transpose)
  op swapaxes A B
  op moveaxis N SRC... DST...
  op expand N AXES...
  op squeeze N AXES...                                    N = -1: every extent-1 axis
  op flip N AXES...                                       N = -1: every axis
  op broadcast NDIM SHAPE...
  expect error CODE                                       the last op fails: USMARR_ERROR_CODE
  expect ok NDIM SHAPE... STRIDES... OFFSET C F WRITABLE SHARES N VALUES...
      C, F, WRITABLE: NumPy's flags (0/1); SHARES: 1 when the result is a view of the
      block, 0 when a copy, -1 when empty (not compared); STRIDES (on axes of extent > 1)
      and OFFSET are compared when the result is not empty; VALUES in C order.
  end
"""
import random
import sys

import numpy as np
from numpy.lib.stride_tricks import as_strided

AxisError = np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError  # NumPy 2 moved it

out = sys.stdout
rng = random.Random(20261121)


def shares(result, buf):
    if result.size == 0:
        return -1
    return int(np.shares_memory(result, buf))


def layout(a, buf):
    strides = [s // 4 for s in a.strides]
    offset = (a.__array_interface__["data"][0] - buf.__array_interface__["data"][0]) // 4
    return strides, offset


def emit_base(a, buf):
    strides, offset = layout(a, buf)
    out.write("base %d %s %s %d %d %d\n" % (a.ndim, " ".join(map(str, a.shape)), " ".join(map(str, strides)),
                                            offset, buf.size, int(a.flags.writeable)))


def emit_result(r, buf):
    strides, offset = layout(r, buf) if shares(r, buf) == 1 else ([s // 4 for s in r.strides], 0)
    vals = r.ravel(order="C")
    out.write("expect ok %d %s %s %d %d %d %d %d %d %s\n" % (
        r.ndim, " ".join(map(str, r.shape)), " ".join(map(str, strides)), offset,
        int(r.flags.c_contiguous), int(r.flags.f_contiguous), int(r.flags.writeable), shares(r, buf),
        vals.size, " ".join(map(str, vals.tolist()))))


def code_of(op, exc):
    if isinstance(exc, IndexError) and not isinstance(exc, AxisError):
        return "INDEX"
    if isinstance(exc, AxisError):
        return "INVALID_ARGUMENT"
    if op == "reshape":
        return "SHAPE_MISMATCH" if "cannot reshape" in str(exc) else "INVALID_ARGUMENT"
    if op == "broadcast":
        return "SHAPE_MISMATCH"
    if op in ("squeeze", "expand", "moveaxis", "permute"):
        return "INVALID_ARGUMENT"
    raise exc


def apply(a, op):
    kind = op[0]
    if kind == "index":
        r = eval("a[%s]" % op[1]) if op[1].strip() else a[()]
        if not isinstance(r, np.ndarray):
            # NumPy returns a scalar where every axis gets an integer; the library (like
            # dpctl) returns a 0-d view, which is what NumPy gives with a trailing '...'.
            text = op[1].strip()
            r = eval("a[%s...]" % (text + ("" if not text or text.endswith(",") else ", ")))
        return r
    if kind == "reshape":
        return a.reshape(op[2], order=op[1])
    if kind == "permute":
        return a.transpose() if op[1] is None else a.transpose(op[1])
    if kind == "swapaxes":
        return np.swapaxes(a, op[1], op[2])
    if kind == "moveaxis":
        return np.moveaxis(a, op[1], op[2])
    if kind == "expand":
        return np.expand_dims(a, tuple(op[1]))
    if kind == "squeeze":
        return np.squeeze(a) if op[1] is None else np.squeeze(a, tuple(op[1]))
    if kind == "flip":
        if a.ndim == 0:
            return a[...]  # np.flip of a 0-d array returns a scalar; the library a 0-d view
        return np.flip(a) if op[1] is None else np.flip(a, tuple(op[1]))
    if kind == "broadcast":
        return np.broadcast_to(a, op[1])
    raise ValueError(kind)


def op_text(op):
    kind = op[0]
    ints = lambda xs: " ".join(map(str, xs))
    if kind == "index":
        return "op index %s" % op[1]
    if kind == "reshape":
        return "op reshape %s %d %s" % (op[1], len(op[2]), ints(op[2]))
    if kind == "permute":
        return "op permute -1" if op[1] is None else "op permute %d %s" % (len(op[1]), ints(op[1]))
    if kind == "swapaxes":
        return "op swapaxes %d %d" % (op[1], op[2])
    if kind == "moveaxis":
        return "op moveaxis %d %s %s" % (len(op[1]), ints(op[1]), ints(op[2]))
    if kind in ("expand", "squeeze", "flip"):
        if op[1] is None:
            return "op %s -1" % kind
        return "op %s %d %s" % (kind, len(op[1]), ints(op[1]))
    if kind == "broadcast":
        return "op broadcast %d %s" % (len(op[1]), ints(op[1]))
    raise ValueError(kind)


def case(name, base_shape, base_index, ops, writable=True, transpose=False):
    n = int(np.prod(base_shape)) if base_shape else 1
    buf = np.arange(max(n, 1), dtype=np.int32)
    big = buf[:n].reshape(base_shape)
    a = eval("big[%s]" % base_index) if base_index else big
    if transpose:
        a = a.T
    if not writable:
        a = a.view()
        a.flags.writeable = False
    out.write("case %s\n" % name)
    emit_base(a, buf)
    for i, op in enumerate(ops):
        out.write(op_text(op) + "\n")
        try:
            a = apply(a, op)
        except Exception as exc:  # the chain stops at the first failure
            out.write("expect error %s\nend\n" % code_of(op[0], exc))
            return
    emit_result(a, buf)
    out.write("end\n")


# ---- hand-written cases: every rule of doc/indexing.md ---------------------------
def fixed():
    case("negative_step", (10,), "", [("index", "::-2")])
    case("negative_step_2d", (4, 5), "", [("index", "::-1, 3:0:-2")])
    case("slice_clipping", (6,), "", [("index", "-100:100")])
    case("slice_clip_negative_step", (6,), "", [("index", "100:-100:-3")])
    case("empty_slice", (6,), "", [("index", "4:2")])
    case("empty_slice_negative_step", (6,), "", [("index", "2:4:-1")])
    case("empty_slice_then_view", (3, 4), "", [("index", "1:1"), ("index", "..., ::-1")])
    case("zero_size_dim", (0, 3), "", [("index", "..., 1")])
    case("zero_size_dim_slice", (2, 0, 3), "", [("index", "1, :, ::-1")])
    case("zero_d_result", (3, 4), "", [("index", "2, -1")])
    case("zero_d_of_zero_d", (), "", [("index", "")])
    case("zero_d_ellipsis", (), "", [("index", "...")])
    case("zero_d_newaxis", (), "", [("index", "None, None")])
    case("newaxis_everywhere", (2, 3), "", [("index", "None, :, None, ..., None")])
    case("ellipsis_middle", (2, 3, 4, 5), "", [("index", "1, ..., ::2")])
    case("ellipsis_empty", (2, 3), "", [("index", "0, ..., 1")])
    case("trailing_comma", (4, 3), "", [("index", "1,")])
    case("views_of_views_of_views", (6, 7, 8), "", [("index", "1:, ::-2"), ("index", "::2, ..., 1:7:3"),
                                                    ("index", "-1, None, ::-1")])
    case("read_only_inherited", (5, 4), "", [("index", "::2"), ("index", "1")], writable=False)
    case("int_out_of_range", (3, 4), "", [("index", "1, 4")])
    case("int_out_of_range_negative", (3, 4), "", [("index", "-4")])
    case("int_on_zero_extent", (0,), "", [("index", "0")])
    case("too_many_indices", (3, 4), "", [("index", "1, 2, 3")])
    case("too_many_with_ellipsis", (3,), "", [("index", "..., 1, 2")])
    case("huge_slice_bounds", (7,), "", [("index", "-9223372036854775808:9223372036854775807:3")])
    case("min_step", (7,), "", [("index", "::-9223372036854775808")])
    # reshape: view or copy exactly as NumPy decides
    case("reshape_contiguous", (2, 3, 4), "", [("reshape", "C", (4, -1))])
    case("reshape_f_of_c", (2, 3, 4), "", [("reshape", "F", (6, 4))])
    case("reshape_transposed_copies", (3, 4), "", [("permute", None), ("reshape", "C", (12,))])
    case("reshape_transposed_f_view", (3, 4), "", [("permute", None), ("reshape", "F", (12,))])
    case("reshape_strided_view", (4, 6), "", [("index", ":, ::2"), ("reshape", "C", (2, 2, 3))])
    case("reshape_strided_copy", (4, 6), "", [("index", ":, ::2"), ("reshape", "C", (12,))])
    case("reshape_split_noncontig", (6, 8), "", [("index", "::2, 1:5"), ("reshape", "C", (3, 2, 2))])
    case("reshape_merge_needs_copy", (6, 8), "", [("index", "::2, 1:5"), ("reshape", "C", (6, 2))])
    case("reshape_size1_axes", (1, 5, 1, 3), "", [("index", "..., ::-1"), ("reshape", "C", (5, 1, 3, 1))])
    case("reshape_negative_strides_view", (4, 6), "", [("index", "::-1, ::-2"), ("reshape", "C", (2, 2, 3))])
    case("reshape_negative_strides_copy", (4, 6), "", [("index", "::-1, ::-2"), ("reshape", "C", (12,))])
    case("reshape_order_a_f", (3, 4), "", [("permute", None), ("reshape", "A", (2, 6))])
    case("reshape_zero_size", (0, 4), "", [("reshape", "C", (2, 0, -1))])
    case("reshape_zero_size_ambiguous", (0, 4), "", [("reshape", "C", (0, -1))])
    case("reshape_to_0d", (1, 1), "", [("reshape", "C", ())])
    case("reshape_from_0d", (), "", [("reshape", "C", (1, -1, 1))])
    case("reshape_bad_size", (2, 3), "", [("reshape", "C", (4, 2))])
    case("reshape_bad_infer", (2, 3), "", [("reshape", "C", (4, -1))])
    case("reshape_negative", (2, 3), "", [("reshape", "C", (-2, -3))])
    case("reshape_of_broadcast", (3,), "", [("broadcast", (4, 3)), ("reshape", "C", (2, 6))])
    case("reshape_of_broadcast_view", (3,), "", [("broadcast", (4, 3)), ("reshape", "C", (2, 2, 3))])
    # axes
    case("transpose_3d", (2, 3, 4), "", [("permute", None)])
    case("permute", (2, 3, 4), "", [("permute", (1, -1, 0))])
    case("permute_repeated", (2, 3, 4), "", [("permute", (1, 1, 0))])
    case("permute_out_of_range", (2, 3), "", [("permute", (0, 2))])
    case("swapaxes", (2, 3, 4), "1:, ::-1", [("swapaxes", 0, -1)])
    case("swapaxes_bad", (2, 3), "", [("swapaxes", 0, 2)])
    case("moveaxis", (2, 3, 4, 5), "", [("moveaxis", (0, 1), (-1, 0))])
    case("moveaxis_repeated", (2, 3, 4), "", [("moveaxis", (0, 0), (1, 2))])
    case("expand_dims", (2, 3), "", [("expand", (0, -1, 2))])
    case("expand_dims_0d", (), "", [("expand", (0,))])
    case("expand_dims_bad", (2, 3), "", [("expand", (4,))])
    case("expand_dims_repeated", (2, 3), "", [("expand", (1, 1))])
    case("squeeze_all", (1, 3, 1, 2, 1), "", [("squeeze", None)])
    case("squeeze_some", (1, 3, 1, 2, 1), "", [("squeeze", (0, -1))])
    case("squeeze_not_one", (1, 3, 1), "", [("squeeze", (1,))])
    case("squeeze_to_0d", (1, 1), "", [("squeeze", None)])
    case("flip_all", (3, 4), "", [("flip", None)])
    case("flip_axis", (3, 4, 2), "1:, ::2", [("flip", (1,))])
    case("flip_empty", (0, 4), "", [("flip", None)])
    case("flip_bad_axis", (3, 4), "", [("flip", (2,))])
    case("broadcast_to", (3, 1), "", [("broadcast", (2, 3, 4))])
    case("broadcast_to_same", (3, 4), "", [("broadcast", (3, 4))])
    case("broadcast_to_zero", (1, 4), "", [("broadcast", (0, 4))])
    case("broadcast_to_0d", (), "", [("broadcast", (2, 2))])
    case("broadcast_to_bad", (3, 4), "", [("broadcast", (4, 3))])
    case("broadcast_to_fewer_dims", (3, 4), "", [("broadcast", (4,))])
    case("chain_all_views", (4, 5, 6), "::-1", [("permute", (2, 0, 1)), ("index", "1:5, None, ..., ::-2"),
                                               ("squeeze", (1,)), ("flip", (0,)), ("expand", (1,)),
                                               ("swapaxes", 0, 3), ("reshape", "C", (-1,))])


# ---- random chains --------------------------------------------------------------------
def rand_slice(n):
    parts = []
    for _ in range(3):
        r = rng.random()
        if r < 0.35:
            parts.append("")
        elif r < 0.9:
            parts.append(str(rng.randint(-n - 2, n + 2)))
        else:
            parts.append(str(rng.choice([-100, 100, -2**40, 2**40])))
    if parts[2] == "0":
        parts[2] = rng.choice(["-1", "2"])
    if rng.random() < 0.4:
        return "%s:%s" % (parts[0], parts[1])
    return "%s:%s:%s" % tuple(parts)


def rand_index(a):
    items = []
    dims = list(a.shape)
    k = 0
    ellipsis = False
    while k < len(dims) or (rng.random() < 0.1 and len(items) < 6):
        r = rng.random()
        if r < 0.12:
            items.append("None")
            continue
        if r < 0.2 and not ellipsis:
            items.append("...")
            ellipsis = True
            k = len(dims) - sum(1 for x in items if x not in ("None", "...")) + 0
            k = max(k, 0)
            # what's left after the ellipsis
            rest = rng.randint(0, max(0, len(dims) - sum(1 for x in items if x not in ("None", "..."))))
            for _ in range(rest):
                items.append(rand_slice(3))
            break
        if k >= len(dims):
            items.append(str(rng.randint(-3, 3)))  # too many indices
            break
        n = dims[k]
        if r < 0.45:
            items.append(str(rng.randint(-n - 1, n) if rng.random() < 0.15 else rng.randint(-n, max(n - 1, -n))))
        else:
            items.append(rand_slice(n))
        k += 1
        if rng.random() < 0.15:
            break
    return ", ".join(items)


def rand_shape_for(size, ndim):
    # a random factorisation of size into ndim extents
    shape = [1] * ndim
    for p in factor(size):
        shape[rng.randrange(ndim)] *= p
    if size == 0:
        shape[rng.randrange(ndim)] = 0
    return shape


def factor(n):
    fs, p = [], 2
    while n > 1 and p * p <= n:
        while n % p == 0:
            fs.append(p)
            n //= p
        p += 1
    if n > 1:
        fs.append(n)
    return fs


def rand_op(a):
    r = rng.random()
    nd = a.ndim
    if r < 0.35:
        return ("index", rand_index(a))
    if r < 0.6:
        nnd = rng.randint(0, 4)
        if nnd == 0:
            shape = [] if a.size == 1 else [a.size]
        else:
            shape = rand_shape_for(a.size, nnd)
        if shape and rng.random() < 0.3 and a.size:
            shape[rng.randrange(len(shape))] = -1
        if rng.random() < 0.05:
            shape = shape + [2]
        return ("reshape", rng.choice("CCCFA"), tuple(shape))
    if r < 0.67:
        if rng.random() < 0.3:
            return ("permute", None)
        p = list(range(nd))
        rng.shuffle(p)
        return ("permute", tuple(x - nd if rng.random() < 0.3 else x for x in p))
    if r < 0.72 and nd:
        return ("swapaxes", rng.randrange(-nd, nd), rng.randrange(-nd, nd))
    if r < 0.77 and nd:
        k = rng.randint(1, nd)
        return ("moveaxis", tuple(rng.sample(range(nd), k)), tuple(rng.sample(range(nd), k)))
    if r < 0.83:
        k = rng.randint(1, 2)
        return ("expand", tuple(rng.sample(range(-(nd + k), nd + k), k)))
    if r < 0.88:
        ones = [i for i in range(nd) if a.shape[i] == 1]
        if ones and rng.random() < 0.6:
            return ("squeeze", tuple(rng.sample(ones, rng.randint(1, len(ones)))))
        return ("squeeze", None)
    if r < 0.94:
        if rng.random() < 0.3 or not nd:
            return ("flip", None)
        return ("flip", tuple(rng.sample(range(nd), rng.randint(1, nd))))
    shape = list(a.shape)
    for i in range(len(shape)):
        if shape[i] == 1 and rng.random() < 0.5:
            shape[i] = rng.randint(0, 3)
    if rng.random() < 0.5:
        shape = [rng.randint(1, 3)] + shape
    if rng.random() < 0.1 and shape:
        shape[-1] += 1
    return ("broadcast", tuple(shape))


def randoms(count):
    for i in range(count):
        nd = rng.randint(0, 4)
        shape = tuple(rng.randint(0 if rng.random() < 0.1 else 1, 6) for _ in range(nd))
        base_index = ""
        if nd and rng.random() < 0.6:
            base_index = ", ".join(rng.choice([":", "::-1", "1:", "::2", ":-1", "::-2"]) for _ in range(nd))
        transpose = rng.random() < 0.3
        big = np.empty(shape)
        a = eval("big[%s]" % base_index) if base_index else big
        if transpose:
            a = a.T
        ops = []
        for _ in range(rng.randint(1, 4)):
            op = rand_op(a)
            ops.append(op)
            try:
                a = apply(a, op)
            except Exception:
                break
            if a.ndim > 8 or a.size > 2000:
                break
        case("random_%d" % i, shape, base_index, ops, writable=rng.random() < 0.85, transpose=transpose)


fixed()
randoms(400)


# ---- copies and advanced indexing (tests/index/test_manip.c) ------------------------------------
# mcase NAME
# input DTYPE NDIM SHAPE... N VALUES... | TEXT     base array of VALUES (C order), then [TEXT]
#                                                  (TEXT "T": the transpose)
# op concat|stack AXIS                             AXIS: an integer or "none"
# op roll N SHIFTS... AXES...|none
# op repeat N REPEATS... AXIS|none
# op tile N REPS...
# op take|take_along AXIS|none MODE                inputs: a, indices (MODE raise, wrap, clip)
# op put AXIS|none MODE                            inputs: a, indices, values; result: a after
# op extract                                       inputs: condition, a
# op place                                         inputs: a, mask, values; result: a after
# op nonzero                                       one "expect ok" line per dimension
# expect ok DTYPE NDIM SHAPE... N VALUES...  |  expect error CODE
# end

def fmt(v):
    if isinstance(v, (bool, np.bool_)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    return str(int(v))


def minput(arr, text=""):
    base = arr if arr.base is None else arr.copy()
    vals = base.ravel(order="C")
    out.write("input %s %d %s %d %s | %s\n" % (base.dtype.name, base.ndim, " ".join(map(str, base.shape)),
                                                vals.size, " ".join(fmt(v) for v in vals.tolist()), text))
    if text == "T":
        return base.T
    return eval("base[%s]" % text) if text else base


def mexpect(r):
    r = np.asarray(r)
    vals = r.ravel(order="C")
    out.write("expect ok %s %d %s %d %s\n" % (r.dtype.name, r.ndim, " ".join(map(str, r.shape)), vals.size,
                                              " ".join(fmt(v) for v in vals.tolist())))


def norm_mode(ind, n, mode):
    ind = np.asarray(ind, dtype=np.int64)
    if mode == "wrap":
        return ind % n if n else ind
    if mode == "clip":
        return np.clip(ind, 0, n - 1)
    return ind


def mcase(name, inputs, opline, fn, error=None):
    """inputs: list of (array, view_text).  fn(*views) -> result or list of results."""
    out.write("mcase %s\n" % name)
    views = [minput(a, t) for a, t in inputs]
    out.write("op %s\n" % opline)
    try:
        r = fn(*views)
    except Exception as exc:
        if error is None:
            raise
        out.write("expect error %s\nend\n" % error)
        return
    assert error is None, "%s: NumPy did not fail" % name
    for x in (r if isinstance(r, list) else [r]):
        mexpect(x)
    out.write("end\n")


def ar(shape, dtype="int32", start=0):
    n = int(np.prod(shape)) if shape else 1
    return (np.arange(start, start + n) % 127).astype(dtype).reshape(shape)


def axis_arg(axis):
    return "none" if axis is None else str(axis)


def manip_cases():
    # concat
    mcase("concat_axis0", [(ar((2, 3)), ""), (ar((4, 3), start=50), "")], "concat 0",
          lambda a, b: np.concatenate([a, b], 0))
    mcase("concat_axis_last_strided", [(ar((3, 4)), "::-1, ::2"), (ar((3, 5), start=20), ":, 1:"),
                                       (ar((3, 1), start=90), "")], "concat -1",
          lambda a, b, c: np.concatenate([a, b, c], -1))
    mcase("concat_promotes", [(ar((2, 2), "int8"), ""), (ar((1, 2), "float32", 7), "")], "concat 0",
          lambda a, b: np.concatenate([a, b], 0))
    mcase("concat_none", [(ar((2, 3)), "T"), (ar((4,), start=9), "")], "concat none",
          lambda a, b: np.concatenate([a, b], axis=None))
    mcase("concat_empty_piece", [(ar((0, 3)), ""), (ar((2, 3)), "")], "concat 0",
          lambda a, b: np.concatenate([a, b], 0))
    mcase("concat_bad_shape", [(ar((2, 3)), ""), (ar((2, 4)), "")], "concat 0",
          lambda a, b: np.concatenate([a, b], 0), error="SHAPE_MISMATCH")
    mcase("concat_bad_ndim", [(ar((2, 3)), ""), (ar((3,)), "")], "concat 0",
          lambda a, b: np.concatenate([a, b], 0), error="SHAPE_MISMATCH")
    mcase("concat_0d", [(ar(()), ""), (ar(()), "")], "concat 0",
          lambda a, b: np.concatenate([a, b], 0), error="INVALID_ARGUMENT")
    mcase("concat_bad_axis", [(ar((2, 3)), "")], "concat 2", lambda a: np.concatenate([a], 2),
          error="INVALID_ARGUMENT")
    # stack
    mcase("stack_axis1", [(ar((2, 3)), ""), (ar((2, 3), start=10), "::-1")], "stack 1",
          lambda a, b: np.stack([a, b], 1))
    mcase("stack_last", [(ar((4,)), ""), (ar((4,), start=5), ""), (ar((4,), "int16", 9), "")], "stack -1",
          lambda a, b, c: np.stack([a, b, c], -1))
    mcase("stack_0d", [(ar(()), ""), (ar((), start=3), "")], "stack 0", lambda a, b: np.stack([a, b], 0))
    mcase("stack_bad", [(ar((2, 3)), ""), (ar((3, 2)), "")], "stack 0", lambda a, b: np.stack([a, b], 0),
          error="SHAPE_MISMATCH")
    mcase("stack_bad_axis", [(ar((2,)), "")], "stack 3", lambda a: np.stack([a], 3), error="INVALID_ARGUMENT")
    # roll
    mcase("roll_flat", [(ar((3, 4)), "")], "roll 1 5 none", lambda a: np.roll(a, 5))
    mcase("roll_flat_strided", [(ar((3, 4)), "::-1, ::2")], "roll 2 -7 3 none", lambda a: np.roll(a, (-7, 3)))
    mcase("roll_axes", [(ar((3, 4, 5)), "")], "roll 2 1 -2 0 2", lambda a: np.roll(a, (1, -2), (0, 2)))
    mcase("roll_repeated_axis", [(ar((6,)), "")], "roll 2 4 5 0 0", lambda a: np.roll(a, (4, 5), (0, 0)))
    mcase("roll_big_shift", [(ar((2, 5)), "T")], "roll 1 1000000007 1", lambda a: np.roll(a, 1000000007, 1))
    mcase("roll_empty", [(ar((0, 3)), "")], "roll 1 2 1", lambda a: np.roll(a, 2, 1))
    mcase("roll_0d", [(ar((), start=4), "")], "roll 1 3 none", lambda a: np.roll(a, 3))
    mcase("roll_bad_axis", [(ar((2, 3)), "")], "roll 1 1 2", lambda a: np.roll(a, 1, 2), error="INVALID_ARGUMENT")
    # repeat
    mcase("repeat_scalar", [(ar((2, 3)), "")], "repeat 1 3 1", lambda a: np.repeat(a, 3, 1))
    mcase("repeat_scalar_strided", [(ar((4, 3)), "::-2")], "repeat 1 2 0", lambda a: np.repeat(a, 2, 0))
    mcase("repeat_none", [(ar((2, 3)), "T")], "repeat 1 2 none", lambda a: np.repeat(a, 2))
    mcase("repeat_counts", [(ar((3, 2)), "")], "repeat 3 2 0 3 0", lambda a: np.repeat(a, [2, 0, 3], 0))
    mcase("repeat_zero", [(ar((3,)), "")], "repeat 1 0 0", lambda a: np.repeat(a, 0, 0))
    mcase("repeat_bad_count", [(ar((3,)), "")], "repeat 2 1 2 0", lambda a: np.repeat(a, [1, 2], 0),
          error="SHAPE_MISMATCH")
    mcase("repeat_negative", [(ar((3,)), "")], "repeat 1 -1 0", lambda a: np.repeat(a, -1, 0),
          error="INVALID_ARGUMENT")
    # rows of 64 elements or more: a copy per repeat into every r-th slice of the result
    mcase("repeat_long_rows", [(ar((5, 70), "float32"), "")], "repeat 1 2 0", lambda a: np.repeat(a, 2, 0))
    mcase("repeat_long_rows_strided", [(ar((6, 140)), "::-2, ::2")], "repeat 1 3 0", lambda a: np.repeat(a, 3, 0))
    mcase("repeat_long_rows_axis1", [(ar((2, 3, 80), "int16"), "")], "repeat 1 4 1", lambda a: np.repeat(a, 4, 1))
    # tile
    mcase("tile_2d", [(ar((2, 3)), "")], "tile 2 2 3", lambda a: np.tile(a, (2, 3)))
    mcase("tile_more_reps", [(ar((3,)), "::-1")], "tile 3 2 1 2", lambda a: np.tile(a, (2, 1, 2)))
    mcase("tile_fewer_reps", [(ar((2, 2, 2)), "")], "tile 1 3", lambda a: np.tile(a, 3))
    mcase("tile_zero", [(ar((2, 3)), "")], "tile 2 0 2", lambda a: np.tile(a, (0, 2)))
    mcase("tile_0d", [(ar((), start=5), "")], "tile 2 2 2", lambda a: np.tile(a, (2, 2)))
    mcase("tile_negative", [(ar((2,)), "")], "tile 1 -1", lambda a: np.tile(a, -1), error="INVALID_ARGUMENT")
    # one repeated axis of at most 8: a copy into each tile; 9 and two axes: one broadcast copy
    mcase("tile_middle_reversed", [(ar((3, 4, 5), "float64"), "::-1, :, ::2")], "tile 3 1 3 1",
          lambda a: np.tile(a, (1, 3, 1)))
    mcase("tile_eight", [(ar((2, 7), "int16"), "T")], "tile 2 8 1", lambda a: np.tile(a, (8, 1)))
    mcase("tile_nine", [(ar((2, 7), "int16"), "T")], "tile 2 9 1", lambda a: np.tile(a, (9, 1)))
    mcase("tile_one_axis_zero", [(ar((3, 2)), "")], "tile 2 1 0", lambda a: np.tile(a, (1, 0)))


def adv_cases():
    rs = np.random.RandomState(7)
    ind = lambda *vals: np.array(vals, dtype=np.int64)
    for mode in ("raise", "wrap", "clip"):
        idx = ind(0, -1, 3, 2) if mode == "raise" else ind(7, -9, 3, -1, 12)
        mcase("take_1d_" + mode, [(ar((5,), "float32"), ""), (idx, "")], "take 0 " + mode,
              lambda a, i: np.take(a, i, 0, mode=mode))
        mcase("take_axis1_" + mode, [(ar((3, 5, 2)), ":, ::-1"), (idx.reshape(-1, 1) if idx.size % 1 == 0 else idx, "")],
              "take 1 " + mode, lambda a, i: np.take(a, i, 1, mode=mode))
        # runs of 256 elements or more (usmarr_take_runs), with a tail shorter than 64
        # take along the last axis of 2-d sources: usmarr_take_flat's rows, any row and
        # element strides, more indices than a work-group
        mcase("take_rows_axis1_" + mode, [(ar((4, 9), "float32"), ":, ::-2"), (idx, "")], "take 1 " + mode,
              lambda a, i: np.take(a, i, 1, mode=mode))
        mcase("take_rows_axis1_long_" + mode, [(ar((3, 70), "float64"), "::-1"),
                                                (rs.randint(-70, 70, 300) * (1 if mode == "raise" else 3), "")],
              "take -1 " + mode, lambda a, i: np.take(a, i, -1, mode=mode))
        mcase("take_long_rows_" + mode, [(ar((13, 300), "float32"), ""), (idx, "")], "take 0 " + mode,
              lambda a, i: np.take(a, i, 0, mode=mode))
        mcase("take_long_rows_i64_" + mode, [(ar((13, 260), "int64"), ""), (idx, "")], "take 0 " + mode,
              lambda a, i: np.take(a, i, 0, mode=mode))
        mcase("take_along_" + mode, [(ar((3, 4), "float64"), ""), (np.array([[0, 3], [-1, 1], [2, 2]]) * (1 if mode == "raise" else 3), "")],
              "take_along 1 " + mode, lambda a, i: np.take_along_axis(a, norm_mode(i, a.shape[1], mode), 1))
    mcase("take_rows_axis1_2d_indices", [(ar((3, 6), "int16"), ""), (np.array([[1, -2, 5], [0, 0, 3]]), "")],
          "take 1 raise", lambda a, i: np.take(a, i, 1))
    mcase("take_rows_axis1_out_of_bounds", [(ar((3, 5)), ""), (ind(0, 4, 5, 1), "")], "take 1 raise",
          lambda a, i: np.take(a, i, 1), error="INDEX")
    mcase("take_none", [(ar((3, 4)), "T"), (ind(0, 5, 11, -2), "")], "take none raise",
          lambda a, i: np.take(a, i))
    mcase("take_2d_indices", [(ar((6,), "int16"), ""), (np.array([[1, 2], [5, 0]], dtype=np.uint8), "")],
          "take 0 raise", lambda a, i: np.take(a, i, 0))
    mcase("take_strided_indices", [(ar((7,), "uint8"), ""), (ar((4, 3), "int32"), "::-1, 1")],
          "take 0 wrap", lambda a, i: np.take(a, i, 0, mode="wrap"))
    mcase("take_0d_index", [(ar((4, 3)), ""), (np.array(2, dtype=np.int32), "")], "take 0 raise",
          lambda a, i: np.take(a, i, 0))
    mcase("take_long_rows_out_of_bounds", [(ar((4, 300), "uint8"), ""), (ind(1, 4, 0), "")], "take 0 raise",
          lambda a, i: np.take(a, i, 0), error="INDEX")
    mcase("take_empty_indices", [(ar((4, 3)), ""), (np.zeros((0,), dtype=np.int64), "")], "take 1 raise",
          lambda a, i: np.take(a, i, 1))
    mcase("take_bool_values", [(ar((5,), "bool"), ""), (ind(4, 0, 3), "")], "take 0 raise",
          lambda a, i: np.take(a, i, 0))
    mcase("take_out_of_range", [(ar((5,)), ""), (ind(0, 5), "")], "take 0 raise",
          lambda a, i: np.take(a, i, 0), error="INDEX")
    mcase("take_negative_out_of_range", [(ar((2, 5)), ""), (ind(-6), "")], "take 1 raise",
          lambda a, i: np.take(a, i, 1), error="INDEX")
    mcase("take_from_empty_axis", [(ar((0, 3)), ""), (ind(0), "")], "take 0 clip",
          lambda a, i: np.take(a, i, 0, mode="clip"), error="INDEX")
    mcase("take_float_indices", [(ar((5,)), ""), (np.array([1.0]), "")], "take 0 raise",
          lambda a, i: np.take(a, i, 0), error="BAD_DTYPE")
    mcase("take_bad_axis", [(ar((5,)), ""), (ind(1), "")], "take 1 raise",
          lambda a, i: np.take(a, i, 1), error="INVALID_ARGUMENT")
    mcase("take_along_none", [(ar((3, 4)), ""), (ind(11, 0, -1), "")], "take_along none raise",
          lambda a, i: np.take_along_axis(a, i, None))
    mcase("take_along_broadcast", [(ar((3, 1, 4)), ""), (np.array([[[0], [3]]]), "")], "take_along 2 raise",
          lambda a, i: np.take_along_axis(a, i, 2))
    mcase("take_along_bad_ndim", [(ar((3, 4)), ""), (ind(0), "")], "take_along 1 raise",
          lambda a, i: np.take_along_axis(a, i, 1), error="SHAPE_MISMATCH")
    mcase("take_along_out_of_range", [(ar((3, 4)), ""), (np.array([[4], [0], [0]]), "")], "take_along 1 raise",
          lambda a, i: np.take_along_axis(a, i, 1), error="INDEX")

    def put_axis(a, i, v, axis, mode):
        a = a.copy()
        i = norm_mode(i, a.shape[axis], mode)
        a[(slice(None),) * axis + (i,)] = v
        return a

    def put_flat(a, i, v, mode):
        a = a.copy()
        np.put(a, i, v, mode=mode)
        return a

    for mode in ("raise", "wrap", "clip"):
        idx = ind(0, -2, 3) if mode == "raise" else ind(9, -7, 1)
        mcase("put_axis0_" + mode, [(ar((5, 3), "float32"), ""), (idx, ""), (ar((3, 3), "float32", 100), "")],
              "put 0 " + mode, lambda a, i, v: put_axis(a, i, v, 0, mode))
        mcase("put_flat_" + mode, [(ar((3, 4)), ""), (idx, ""), (ar((2,), "int64", 50), "")],
              "put none " + mode, lambda a, i, v: put_flat(a, i, v, mode))
    mcase("put_axis1_broadcast_strided", [(ar((4, 6)), "::-1, ::2"), (ind(2, 0), ""), (ar((1,), "int8", 70), "")],
          "put 1 raise", lambda a, i, v: put_axis(a, i, v, 1, "raise"))
    # one value for every index (a broadcast, written in one pass): duplicates agree
    mcase("put_flat_one_value_duplicates", [(ar((3, 4)), ""), (ind(5, 5, -1, 0, 5), ""), (ar((1,), start=90), "")],
          "put none raise", lambda a, i, v: put_flat(a, i, v, "raise"))
    mcase("put_axis0_one_value_duplicates", [(ar((4, 3), "float64"), ""), (ind(2, -1, 2, 2), ""),
                                              (ar((), "float64", 7), "")],
          "put 0 wrap", lambda a, i, v: put_axis(a, i, v, 0, "wrap"))
    mcase("put_flat_noncontiguous", [(ar((4, 3)), "T"), (ind(0, 5, 11), ""), (ar((3,), start=60), "")],
          "put none raise", lambda a, i, v: put_flat(a, i, v, "raise"))
    mcase("put_out_of_range_writes_nothing", [(ar((5,)), ""), (ind(1, 9, 2), ""), (ar((3,), start=40), "")],
          "put 0 raise", lambda a, i, v: put_axis(a, i, v, 0, "raise"), error="INDEX")
    mcase("put_values_do_not_broadcast", [(ar((5,)), ""), (ind(1, 2), ""), (ar((3,), start=40), "")],
          "put 0 raise", lambda a, i, v: put_axis(a, i, v, 0, "raise"), error="SHAPE_MISMATCH")
    # boolean masks
    mask = rs.rand(4, 5) < 0.5
    mcase("extract", [(mask, ""), (ar((4, 5), "float32"), "")], "extract", lambda c, a: np.extract(c, a))
    mcase("extract_strided_int_condition", [(ar((5, 6), "int32") % 3, "::-1, 1:"), (ar((5, 6), "int16"), "::-1, 1:")],
          "extract", lambda c, a: np.extract(c, a))
    mcase("extract_none", [(np.zeros((3,), bool), ""), (ar((3,)), "")], "extract", lambda c, a: np.extract(c, a))
    mcase("extract_all", [(np.ones((2, 2), bool), ""), (ar((2, 2), "float64"), "T")], "extract",
          lambda c, a: np.extract(c, a))
    mcase("extract_empty", [(np.zeros((0, 2), bool), ""), (ar((0, 2)), "")], "extract", lambda c, a: np.extract(c, a))
    big_mask = rs.rand(5000) < 0.3
    mcase("extract_many_chunks", [(big_mask, ""), (ar((5000,), "int64"), "")], "extract",
          lambda c, a: np.extract(c, a))
    mcase("extract_shape_mismatch", [(np.ones((2, 3), bool), ""), (ar((3, 2)), "")], "extract",
          lambda c, a: np.extract(c, a) if c.shape == a.shape else (_ for _ in ()).throw(ValueError("shape")),
          error="SHAPE_MISMATCH")

    def place(a, m, v):
        a = a.copy()
        np.place(a, m, v)
        return a

    mcase("place_cycles", [(ar((3, 4), "float32"), ""), (rs.rand(3, 4) < 0.6, ""), (ar((3,), "float32", 90), "")],
          "place", place)
    mcase("place_noncontiguous", [(ar((4, 3)), "T"), (ar((3, 4)) % 2, ""), (ar((2, 2), start=40), "")],
          "place", place)
    mcase("place_many_chunks", [(ar((5000,), "int32"), ""), (big_mask, ""), (ar((7,), "int32", 1000), "")],
          "place", place)
    mcase("place_empty_values_nothing_selected", [(ar((3,)), ""), (np.zeros(3, bool), ""), (ar((0,)), "")],
          "place", place)
    mcase("place_empty_values", [(ar((3,)), ""), (np.ones(3, bool), ""), (ar((0,)), "")], "place", place,
          error="INVALID_ARGUMENT")
    mcase("nonzero_2d", [(ar((3, 4)) % 3, "")], "nonzero", lambda a: list(np.nonzero(a)))
    mcase("nonzero_3d_strided", [(ar((4, 3, 5), "float32") % 4, "::-1, :, 1::2")], "nonzero",
          lambda a: list(np.nonzero(a)))
    mcase("nonzero_1d_many_chunks", [(big_mask, "")], "nonzero", lambda a: list(np.nonzero(a)))
    mcase("nonzero_2d_dense", [(np.ones((70, 80), bool), "")], "nonzero", lambda a: list(np.nonzero(a)))
    mcase("nonzero_none", [(np.zeros((2, 3), "int8"), "")], "nonzero", lambda a: list(np.nonzero(a)))
    mcase("nonzero_empty", [(np.zeros((0, 3), "int8"), "")], "nonzero", lambda a: list(np.nonzero(a)))


manip_cases()
adv_cases()

import gen_getitem_cases  # noqa: E402  (full advanced indexing, put_along_axis)

gen_getitem_cases.emit(mcase)
