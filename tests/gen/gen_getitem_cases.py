"""NumPy oracle for full advanced indexing (usmarr_array_getitem / _setitem) and
put_along_axis: "mcase" entries of tests/index_cases.txt, run by tests/index/test_manip.c.
Imported by gen_index_cases.py, which passes its writers in (emit()).

  op getitem TEXT           inputs: a, then the index arrays @0, @1, ...; result a[TEXT]
  op setitem TEXT           inputs: a, the index arrays, values (last); result: a after
                            a[TEXT] = values
  op put_along AXIS MODE    inputs: a, indices, values; result: a after

TEXT is NumPy index syntax in which @k names the k-th index array.  Setitem cases never
select an element twice with different values (which value lands is unspecified).
"""
import re

import numpy as np

rs = np.random.RandomState(10)


def seq(shape, dtype="int32", start=0):
    """Distinct values (their C-order position + start), so every gathered element is known."""
    n = int(np.prod(shape)) if shape else 1
    return np.arange(start, start + n).astype(dtype).reshape(shape)


def ind(*vals, dtype=np.int64):
    return np.array(vals, dtype=dtype)


def numpy_index(text, arrays):
    """a[TEXT] as a Python index tuple: @k -> arrays[k]."""
    expr = re.sub(r"@(\d+)", lambda m: "arrays[%s]" % m.group(1), text)
    return eval("Index()[%s,]" % expr, {"arrays": arrays, "Index": Index}) if expr.strip() else ()


class Index:
    def __getitem__(self, key):
        return key


def emit(mcase):
    def get(name, a, text, arrays, error=None):
        """a, arrays: (array, view text) pairs."""
        def fn(x, *arrs):
            return np.asarray(x[numpy_index(text, list(arrs))])
        mcase("getitem_" + name, [a] + arrays, "getitem " + text, fn, error=error)

    def put(name, a, text, arrays, values, error=None):
        def fn(x, *rest):
            x = x.copy()
            arrs, v = list(rest[:-1]), rest[-1]
            x[numpy_index(text, arrs)] = v
            return x
        mcase("setitem_" + name, [a] + arrays + [values], "setitem " + text, fn, error=error)

    A = lambda *shape, dtype="int32": (seq(shape, dtype), "")
    I = lambda *vals, dtype=np.int64: (ind(*vals, dtype=dtype), "")

    # ---- one index array, with slices, integers, new axes and the ellipsis
    get("one_1d", A(10), "@0", [I(3, -1, 0, 9, -10)])
    get("one_rows_slice", A(6, 7), "@0, 2:5", [I(5, 0, -2, 2)])
    get("one_2d_index", A(6, 4), "@0", [(np.array([[0, 5], [-1, 3], [2, 2]]), "")])
    get("one_last_axis", A(3, 4, 5), "..., @0", [I(4, 0, -5)])
    get("one_middle", A(3, 4, 5), "::-1, @0, 1:4", [I(3, 1)])
    get("one_with_newaxis", A(3, 4), "None, @0, None, ::2", [I(2, 0)])
    get("int_then_array_adjacent", A(3, 4, 5), "1, @0", [I(0, 3, 2)])
    get("slice_int_array_adjacent", A(3, 4, 5), ":, 1, @0", [I(4, 0)])
    get("int_slice_array_not_adjacent", A(3, 4, 5), "0, :, @0", [I(4, 0)])
    get("array_slice_int_not_adjacent", A(3, 4, 5), "@0, :, 2", [I(2, 0)])
    get("zero_d_index", A(4, 3), "@0, ::-1", [(np.array(-1), "")])
    get("zero_d_index_arrays_only", A(3, 4, 5), "@0, :, @1", [(np.array(1), ""), (np.array(-1, np.int16), "")])
    # ---- several arrays broadcast together
    get("two_broadcast", A(6, 7), "@0, @1", [(ind(0, 5, -1).reshape(3, 1), ""), I(6, 0, 3, -7)])
    get("two_adjacent_middle", A(2, 5, 6, 3), ":, @0, @1", [I(4, 0, 1), I(5, -6, 2)])
    get("two_not_adjacent", A(4, 5, 6), "@0, :, @1", [I(3, 1), I(0, 5)])
    get("not_adjacent_newaxis", A(5, 3, 4), ":, @0, None, @1", [I(2, 0), I(3, 1)])
    get("not_adjacent_empty_ellipsis", A(5, 3, 4), ":, @0, ..., @1", [I(2, 0), I(3, 1)])
    get("adjacent_with_int_between", A(4, 3, 5, 2), "::2, @0, 1, @1", [(ind(0, 2).reshape(2, 1), ""), I(1, 0, -1)])
    get("three_arrays", A(4, 5, 6), "@0, @1, @2", [I(3, 0), (ind(4, 1).reshape(2, 1), ""), (np.array(5), "")])
    get("three_arrays_1d_fast", A(7, 6, 5), "@2, @1, @0", [I(4, 0, -1, 2), I(5, 1, 1, 0), I(6, 0, 3, 3)])
    get("same_array_twice", A(5, 5), "@0, @0", [I(4, 1, 2)])
    get("arrays_and_ellipsis_and_newaxis", A(3, 4, 5, 2), "None, @0, ..., @1, ::-1", [I(1, 2), I(4, 0)])
    get("index_dtypes", A(6, 5, 4), "@0, @1, @2",
        [I(5, 0, 3, dtype=np.uint8), I(-1, 2, 0, dtype=np.int8), I(3, 1, 0, dtype=np.uint32)])
    get("index_dtypes_16_64", A(6, 5), "@0, 1:", [I(-6, 5, dtype=np.int16)])
    get("uint64_index", A(6, 5), "@1, @0", [I(4, 0, dtype=np.uint64), I(5, 1, dtype=np.uint16)])
    # ---- layouts: negative and zero strides in the array and in the index arrays
    get("negative_strides_source", (seq((6, 8)), "::-1, ::-2"), "@0, @1", [I(0, 5, -1), I(3, 0, 1)])
    get("strided_index_arrays", A(6, 8), "@0, 2:7:2",
        [(seq((4, 6), "int64") % 6, "::-2, 1::2")])
    get("rows_strided_index", A(6, 4, 3), "@0", [(seq((8,), "int64") % 6 - 3, "::-2")])
    get("rows_2d_index", A(5, 3, 4), "@0", [(np.array([[4, -5, 1], [0, 2, 2]], dtype=np.int32), "")])
    get("rows_2d_index_then_integer", A(5, 3, 4), "@0, 1", [(np.array([[4], [-1]]), "")])
    get("rows_2d_strided_index_uses_map", A(5, 3), "@0", [(seq((4, 4), "int64") % 5, "::2, ::-2")])
    get("rows_unsigned_index", A(5, 3, 2), "@0, :, ::-1", [I(4, 0, 2, dtype=np.uint8)])
    get("transposed_source", (seq((5, 6)), "T"), "@0, :", [I(5, 0)])
    get("broadcast_index_zero_strides", A(4, 6), "@0, @1", [(ind(3, 0, 1).reshape(3, 1), ""), (ind(5, 2), "")])
    # ---- dtypes of the array
    for dt in ("float64", "int8", "bool", "uint16", "int64", "float32"):
        get("dtype_" + dt, (seq((5, 4), dt) if dt != "bool" else seq((5, 4)) % 3 == 0, ""), "@0, @1",
            [I(4, 0, 2), I(-1, 1, 3)])
    # ---- boolean masks in every position
    m = rs.rand(5, 6) < 0.5
    get("mask_whole", A(5, 6), "@0", [(m, "")])
    get("mask_whole_1d_strided", (seq((12,)), "::-2"), "@0", [(m[0], "")])
    get("mask_first_axis", A(5, 3), "@0", [(m[:, 0], "")])
    get("mask_first_axis_with_slice", A(5, 3), "@0, ::-1", [(m[:, 1], "")])
    get("mask_last_axis", A(3, 6), "..., @0", [(m[0], "")])
    get("mask_middle", A(2, 5, 6, 3), "1:, @0, ::2", [(m, "")])
    get("mask_2d_of_3d_trailing", A(4, 5, 6), ":, @0", [(m, "")])
    get("mask_and_int_array", A(5, 4), "@0, @1", [(ind(1, 0, 1, 1, 0).astype(bool), ""), I(3, 0, -1)])
    get("mask_and_int_array_not_adjacent", A(5, 4, 3), "@0, :, @1", [(ind(1, 0, 1, 1, 0).astype(bool), ""), I(2)])
    m2 = np.zeros((5, 6), bool)
    m2[1, 4] = m2[3, 0] = True
    get("int_array_and_mask", A(4, 5, 6), "@0, @1", [I(3, 1), (m2, "")])
    get("mask_none_selected", A(5, 3), "@0", [(np.zeros(5, bool), "")])
    get("mask_all_selected", A(3, 4), "@0, 1", [(np.ones(3, bool), "")])
    get("mask_strided", (seq((8, 6)), "::2, ::-1"), "@0", [(seq((4, 6)) % 3 == 1, "")])
    get("mask_0d_true", A(3, 4), "@0", [(np.array(True), "")])
    get("mask_0d_false", A(3, 4), "@0", [(np.array(False), "")])
    get("mask_0d_with_array", A(3, 4), "@1, @0", [(np.array(True), ""), I(2, 0)])
    get("mask_0d_on_0d", (np.array(7, dtype=np.int32), ""), "@0", [(np.array(True), "")])
    # masks with no elements: each dimension the axis's or 0 (the array API standard's rule)
    get("mask_empty_1d", A(3), "@0", [(np.zeros(0, bool), "")])
    for shape in ((0,), (0, 3), (2, 0), (0, 0)):
        get("mask_empty_%s" % "x".join(map(str, shape)), A(2, 3), "@0", [(np.zeros(shape, bool), "")])
    get("mask_empty_then_slice", A(2, 3), "@0, ::-1", [(np.zeros(0, bool), "")])
    # index arrays broadcast to no elements: their values are never used, nor checked
    get("empty_broadcast_unused_index", A(3, 4), "@0, @1", [I(5), (np.zeros(0, np.int64), "")])
    get("empty_broadcast_2d_unused_index", A(3, 4), "@0, @1",
        [(np.array([[9]]), ""), (np.zeros((0, 1), np.int64), "")])
    get("empty_broadcast_mask_and_arrays", A(4, 3, 1, 3, 4, dtype="float32"), "@0, ::2, @1, @2, None, ..., @3",
        [(np.array([[-4], [3]]), ""), (np.array([False]), ""), (np.array([[3]]), ""), (np.array([[2], [3]]), "")])
    # ---- 0-d and zero-size
    get("zero_d_all_integers", A(3, 4), "1, -1", [])
    get("basic_only_copies", A(3, 4), "::-1, None, 1:3", [])
    get("zero_size_index", A(4, 3), "@0", [(np.zeros(0, np.int64), "")])
    get("zero_size_index_2d", A(4, 3), "@0, :", [(np.zeros((2, 0), np.int64), "")])
    get("zero_size_other_axis", A(4, 0), "@0", [I(3, 1)])
    get("zero_size_source_empty_index", A(0, 3), "@0, 1", [(np.zeros(0, np.int64), "")])
    # ---- large: several work-groups
    big = rs.randint(-2000, 2000, 3000)
    get("large_rows", (seq((2000, 9), "float32"), ""), "@0, 1:8", [(big, "")])
    get("large_two_arrays", (seq((100, 120), "float64"), ""), "@0, @1",
        [(rs.randint(-100, 100, (40, 1)), ""), (rs.randint(0, 120, 150), "")])
    get("large_mask", (seq((70, 80), "int32"), ""), "@0", [(rs.rand(70, 80) < 0.4, "")])
    # ---- failures
    get("float_index", A(5), "@0", [(np.array([1.0]), "")], error="BAD_DTYPE")
    get("broadcast_mismatch", A(4, 5), "@0, @1", [I(0, 1), I(0, 1, 2)], error="INDEX")  # NumPy: IndexError
    get("out_of_range", A(4, 5), ":, @0", [I(0, 5)], error="INDEX")
    get("out_of_range_second_array", A(4, 5), "@0, @1", [I(0, 1), I(2, -6)], error="INDEX")
    get("out_of_range_negative", A(4, 5), "@0", [I(-5)], error="INDEX")
    get("out_of_range_empty_axis", A(0, 3), "@0", [I(0)], error="INDEX")
    # NumPy 1 checks nothing when the result is empty; NumPy 2 (the reference) checks
    get("zero_size_result_checked", A(4, 0), "@0", [I(9)],
        error="INDEX" if int(np.__version__.split(".")[0]) >= 2 else None)
    get("mask_wrong_shape", A(3, 4), "@0", [(np.ones(4, bool), "")], error="INDEX")
    get("mask_wrong_shape_2d", A(3, 4, 2), ":, @0", [(np.ones((4, 3), bool), "")], error="INDEX")
    get("mask_empty_wrong_other_dim", A(2, 3), "@0", [(np.zeros((0, 5), bool), "")], error="INDEX")
    get("mask_empty_wrong_first_dim", A(2, 3), "@0", [(np.zeros((5, 0), bool), "")], error="INDEX")
    get("empty_other_axis_index_checked", A(3, 4), "@0, :0", [I(9)], error="INDEX")
    get("mask_broadcast_mismatch", A(4, 3), "@0, @1", [(np.ones(4, bool), ""), I(0, 1)], error="INDEX")
    get("too_many_indices", A(3, 4), "@0, 1, 2", [I(0)], error="INDEX")
    get("integer_out_of_range", A(3, 4), "@0, 4", [I(0)], error="INDEX")

    # ---- assignment
    V = lambda shape, dtype="int32", start=1000: (seq(shape, dtype, start), "")
    put("one_rows", A(6, 4), "@0", [I(5, 0, -2)], V((3, 4)))
    put("rows_slice_broadcast", A(6, 7), "@0, 2:5", [I(4, 1)], V((3,)))
    put("two_broadcast", A(6, 7), "@0, @1", [(ind(0, 5).reshape(2, 1), ""), I(6, 0, 3)], V((2, 3)))
    put("not_adjacent", A(4, 5, 6), "@0, :, @1", [I(3, 1), I(0, 5)], V((2, 5)))
    put("zero_d_index_arrays", A(3, 4, 5), "@0, :, @1", [(np.array(1), ""), (np.array(-1), "")], V((4,)))
    put("three_arrays", A(4, 5, 6), "@0, @1, @2", [I(3, 0), I(4, 1), I(5, 2)], V((2,)))
    put("repeated_same_value", A(8), "@0", [I(1, 1, 6, -7, 6)], (np.array(-3, dtype=np.int32), ""))
    put("mask", A(5, 6), "@0", [(m, "")], V((int(m.sum()),)))
    put("mask_scalar", A(5, 6), "@0", [(m, "")], (np.array(7, dtype=np.int32), ""))
    put("mask_middle", A(2, 5, 6), "1:, @0", [(m, "")], V((1, int(m.sum()))))
    put("mask_0d", A(3, 2), "@0", [(np.array(True), "")], V((2,)))
    put("negative_strides_target", (seq((6, 8)), "::-1, ::-2"), "@0, @1", [I(0, 5), I(3, 1)], V((2,)))
    put("converts_values", A(5), "@0", [I(4, 0)], (np.array([2.7, -1.5]), ""))
    put("into_float", A(5, dtype="float32"), "@0", [I(4, 0)], V((2,), "int16"))
    put("values_leading_ones", A(4, 3), "@0", [I(3, 0)], V((1, 1, 2, 3)))
    put("basic_only", A(4, 5), "1:3, ::-2", [], V((3,)))
    put("zero_size", A(4, 3), "@0", [(np.zeros(0, np.int64), "")], V((3,)))
    put("empty_broadcast_unused_index", A(3, 4), "@0, @1", [I(9), (np.zeros(0, np.int64), "")], V((1,)))
    put("mask_empty", A(2, 3), "@0", [(np.zeros((2, 0), bool), "")], V((1,)))
    put("empty_other_axis_index_checked", A(3, 4), "@0, :0", [I(9)], V((1,)), error="INDEX")
    put("large_rows", (seq((2000, 9), "float32"), ""), "@0, 2:6", [(rs.permutation(2000)[:1500], "")],
        V((1500, 4), "float32"))
    put("large_mask", (seq((70, 80), "int64"), ""), "@0", [(rs.rand(70, 80) < 0.3, "")], V((1,), "int64"))
    put("values_do_not_broadcast", A(5, 3), "@0", [I(0, 1)], V((3, 3)), error="SHAPE_MISMATCH")
    put("out_of_range", A(5, 3), "@0, @1", [I(0, 1), I(0, 3)], V((2,)), error="INDEX")
    put("float_index", A(5), "@0", [(np.array([0.0]), "")], V((1,)), error="BAD_DTYPE")

    # ---- take along axis 0 of whole rows (the rows kernel take() shares with getitem)
    for mode in ("raise", "wrap", "clip"):
        idx = np.array([[4, -5], [0, 2]]) if mode == "raise" else np.array([[9, -7], [1, 5]])
        mcase("take_rows_" + mode, [A(5, 3, 2), (idx, "")], "take 0 " + mode,
              lambda x, i: np.take(x, np.clip(i, 0, 4) if mode == "clip" else i % 5 if mode == "wrap" else i, 0))
    mcase("take_rows_out_of_range", [A(5, 3), I(1, 5)], "take 0 raise", lambda x, i: np.take(x, i, 0), error="INDEX")
    mcase("take_rows_strided_source_uses_map", [(seq((6, 4)), "::-2, 1:"), I(2, 0)], "take 0 raise",
          lambda x, i: np.take(x, i, 0))

    # ---- put_along_axis
    def put_along(a, i, v, axis, mode):
        a = a.copy()
        n = a.size if axis is None else a.shape[axis]
        if mode == "wrap":
            i = i % n
        elif mode == "clip":
            i = np.clip(i, 0, n - 1)
        np.put_along_axis(a, i, v, axis)
        return a

    def pa(name, a, i, v, axis, mode="raise", error=None):
        mcase("put_along_" + name, [a, i, v], "put_along %s %s" % ("none" if axis is None else axis, mode),
              lambda x, y, z: put_along(x, y, z, axis, mode), error=error)

    pa("axis1", A(3, 5), (np.array([[4, 0], [-1, 2], [1, 3]]), ""), V((3, 2)), 1)
    pa("axis0_broadcast", A(4, 3), (np.array([[3, 0, 1]]), ""), V((1,)), 0)
    pa("strided", (seq((6, 8)), "::-2, 1::2"), (np.array([[1], [0], [3]]), ""), V((3, 1)), 1)
    pa("none", A(3, 4), I(11, 0, -1), V((3,)), None)
    pa("none_noncontiguous", (seq((4, 3)), "T"), I(11, 0, 5), V((3,)), None)
    pa("wrap", A(3, 4), (np.array([[9], [-1], [4]]), ""), V((3, 1)), 1, "wrap")
    pa("clip", A(3, 4), (np.array([[9], [-7], [2]]), ""), V((3, 1)), 1, "clip")
    pa("out_of_range", A(3, 4), (np.array([[4], [0], [0]]), ""), V((3, 1)), 1, error="INDEX")
    pa("bad_ndim", A(3, 4), I(0), V((1,)), 1, error="SHAPE_MISMATCH")
