"""usmarr.Array's a[key] and a[key] = value with integer and boolean arrays in the key:
NumPy's full advanced indexing (usmarr_array_getitem / _setitem).  NumPy is the oracle."""

import re

import pytest

import usmarr

np = pytest.importorskip("numpy")

A = np.arange(4 * 5 * 6, dtype=np.int32).reshape(4, 5, 6)
I = np.array([3, -3, 0])
J = np.array([[4], [0]])
M = (A[0] % 3) == 1  # (5, 6)

KEYS = [
    (I,),
    (I, slice(1, 4)),
    (slice(None), I, J),  # adjacent: the index dimensions stay in place
    (I[:2], slice(None), J[:, 0]),  # separated: they go first
    (slice(None), I[:2], Ellipsis, J[:, 0]),  # an ellipsis between separates them too
    (0, slice(None), J[:, 0]),  # an integer counts as an index array
    (None, I, None),
    (A[..., 0] % 2 == 0,),
    (1, M),
    (slice(1, None), M),
    (np.array([True, False, True, True]), slice(None), np.array([5, 0, 2])),
    (np.array(True),),
    (Ellipsis, np.array([5, 0, 2], dtype=np.uint8)),
    (np.zeros(0, bool),),  # masks without elements: each dimension the axis's or 0
    (np.zeros((0, 5), bool),),
    (np.zeros((4, 0), bool), slice(None, None, -1)),
    (np.array([9]), np.zeros(0, np.int64)),  # broadcast to nothing: 9 is never used
]


@pytest.mark.parametrize("key", KEYS, ids=range(len(KEYS)))
def test_getitem_matches_numpy(key):
    a = usmarr.asarray(A)
    np.testing.assert_array_equal(a[key].to_numpy(), A[key])


@pytest.mark.parametrize("key", KEYS, ids=range(len(KEYS)))
def test_setitem_matches_numpy(key):
    want = A.copy()
    shape = want[key].shape
    values = np.arange(1000, 1000 + int(np.prod(shape)), dtype=np.int32).reshape(shape)
    want[key] = values  # no key selects an element twice
    a = usmarr.asarray(A)
    a[key] = usmarr.asarray(values)
    np.testing.assert_array_equal(a.to_numpy(), want)
    b = usmarr.asarray(A)
    b[key] = 7
    want = A.copy()
    want[key] = 7
    np.testing.assert_array_equal(b.to_numpy(), want)


@pytest.mark.parametrize("shape, key, vshape", [
    ((), (None,), (1, 1)),
    ((), (Ellipsis,), (1,)),
    ((3,), (slice(None, None, -1),), (1, 3)),
    ((2, 3), (0,), (1, 1, 3)),
    ((2, 3), (None, 1), (1, 1, 1)),
], ids=range(5))
def test_basic_assignment_drops_the_values_leading_unit_axes(shape, key, vshape):
    """As NumPy (and the index-array path): extent-1 axes of the values beyond the selection's are ignored."""
    want = np.zeros(shape, np.float32)
    values = np.arange(1, 1 + int(np.prod(vshape)), dtype=np.float32).reshape(vshape)
    want[key] = values
    a = usmarr.asarray(np.zeros(shape, np.float32))
    a[key] = usmarr.asarray(values)
    np.testing.assert_array_equal(a.to_numpy(), want)
    with pytest.raises(ValueError, match="could not be broadcast"):
        a[key] = usmarr.asarray(np.zeros((2,) + vshape, np.float32))


def test_assignment_to_one_element_by_integers_takes_no_array_of_dims():
    """NumPy 2 assigns a scalar to a[1, 2] (and a 0-d array's a[()]) and refuses shape (1,)."""
    a = usmarr.asarray(np.zeros((2, 3), np.float32))
    a[1, 2] = usmarr.asarray(np.float32(4))
    with pytest.raises(ValueError, match="could not be broadcast"):
        a[1, 2] = usmarr.asarray(np.ones(1, np.float32))
    z = usmarr.asarray(np.float32(0))
    with pytest.raises(ValueError, match="could not be broadcast"):
        z[()] = usmarr.asarray(np.ones((1, 1), np.float32))
    np.testing.assert_array_equal(a.to_numpy(), [[0, 0, 0], [0, 0, 4]])
    assert float(z) == 0


# One element selected by integers alone (a 0-d array's () among them) takes a value of no
# dims: NumPy 2.4 refuses shapes (1,) and (1, 1) there ("setting an array element with a
# sequence"; 1.25 to 2.3 warned, NumPy 1 assigned), and drops leading extent-1 axes only
# where the key selects a view (..., a slice, an integer short of the last axis).
ONE_ELEMENT_ASSIGNMENTS = [
    ((), (), (1,), False),
    ((), (), (1, 1), False),
    ((), (), (2,), False),
    ((), (Ellipsis,), (1,), True),
    ((), (Ellipsis,), (1, 1), True),
    ((2, 3), (1, 2), (1,), False),
    ((2, 3), (1, 2), (1, 1), False),
    ((2, 3), (1, Ellipsis, 2), (1,), True),
    ((2, 3), (1,), (1, 1, 3), True),
    ((3,), (0,), (1,), False),
    ((3,), (slice(0, 1),), (1, 1), True),
]


@pytest.mark.parametrize("shape, key, vshape, accepted", ONE_ELEMENT_ASSIGNMENTS, ids=range(len(ONE_ELEMENT_ASSIGNMENTS)))
def test_assignment_of_extent_1_values_as_numpy_2(shape, key, vshape, accepted):
    """The table is NumPy 2.4's; an oracle of NumPy 2.4 or later checks it again."""
    values = np.full(vshape, 7, np.float32)
    if tuple(int(v) for v in np.__version__.split(".")[:2]) >= (2, 4):
        try:
            np.zeros(shape, np.float32)[key] = values
            assert accepted, "NumPy accepts it"
        except ValueError:
            assert not accepted, "NumPy refuses it"
    a = usmarr.asarray(np.zeros(shape, np.float32))
    if accepted:
        a[key] = usmarr.asarray(values)
        want = np.zeros(shape, np.float32)
        want[key] = 7
        np.testing.assert_array_equal(a.to_numpy(), want)
    else:
        with pytest.raises(ValueError, match=re.escape(f"values of shape {vshape} could not be broadcast")):
            a[key] = usmarr.asarray(values)
        np.testing.assert_array_equal(a.to_numpy(), np.zeros(shape, np.float32))


def test_out_of_range_and_bad_keys():
    a = usmarr.asarray(A)
    with pytest.raises(IndexError, match="out of bounds for axis 1 with size 5"):
        a[:, np.array([0, 5])]
    with pytest.raises(IndexError):
        a[np.ones(3, bool)]
    with pytest.raises(IndexError, match="index arrays could not be broadcast together"):  # as NumPy
        a[np.array([0, 1]), np.array([0, 1, 2])]
    with pytest.raises(IndexError, match="index arrays could not be broadcast together"):
        a[np.array([0, 1]), np.array([0, 1, 2])] = usmarr.asarray(np.int32(1))
    with pytest.raises(IndexError):
        a[np.array([0.5])]
