"""scikit-learn's array API estimators on usmarr arrays give NumPy's results.

Run by python/run-sklearn-tests.sh under the NumPy 2 environment (tests/numpy-oracle) with
SCIPY_ARRAY_API=1: each estimator is fitted once on usmarr arrays with
array_api_dispatch=True and once on the same data as NumPy arrays without it (the oracle),
and the fitted attributes, predictions and transforms are compared.  Results must come back
as usmarr arrays, which proves that the usmarr path ran rather than a silent NumPy one.
Signs of singular and eigenvectors are not unique, so PCA's and LDA's are compared up to
the sign of each component."""

import os

import pytest

np = pytest.importorskip("numpy")
sklearn = pytest.importorskip("sklearn")

import usmarr  # noqa: E402
from sklearn import config_context  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.kernel_approximation import Nystroem  # noqa: E402
from sklearn.linear_model import Ridge, RidgeClassifier, RidgeCV  # noqa: E402
from sklearn.mixture import GaussianMixture  # noqa: E402
from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler, Normalizer, StandardScaler  # noqa: E402
from sklearn import metrics  # noqa: E402
from sklearn.metrics import pairwise  # noqa: E402

try:
    DEVICE = usmarr.get_device()
except usmarr.UsmarrError as e:
    if os.environ.get("USMARR_REQUIRE_DEVICE") == "1":
        raise RuntimeError(f"USMARR_REQUIRE_DEVICE=1 but no USM device: {e}") from e
    pytest.skip(f"no USM device: {e}", allow_module_level=True)
if not DEVICE.has_fp64:
    pytest.skip("the device has no float64; the estimators are checked in float64", allow_module_level=True)
if os.environ.get("SCIPY_ARRAY_API") != "1":
    pytest.skip("SCIPY_ARRAY_API=1 must be set before SciPy is imported (python/run-sklearn-tests.sh sets it)",
                allow_module_level=True)

RTOL = 1e-7
ATOL = 1e-9

rng = np.random.default_rng(20241)
X = rng.standard_normal((40, 6)) * np.array([3.0, 2.0, 1.5, 1.0, 0.5, 0.25]) + 0.5
y = X @ rng.standard_normal(6) + 0.1 * rng.standard_normal(40)
y_class = np.digitize(y, np.quantile(y, [1 / 3, 2 / 3])).astype(np.int64)  # three balanced classes
X_new = rng.standard_normal((7, 6))


def to_numpy(a):
    """A result as NumPy, checking first that an array result is usmarr's."""
    if isinstance(a, np.ndarray):
        raise AssertionError("the usmarr fit returned a NumPy array: array_api_dispatch did not keep usmarr")
    if isinstance(a, usmarr.Array):
        return a.to_numpy()
    return np.asarray(a)


def assert_close(got, expected, rtol=RTOL, atol=ATOL, columns_up_to_sign=False, rows_up_to_sign=False):
    got = to_numpy(got)
    expected = np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if rows_up_to_sign:
        got, expected = got.T, expected.T
        columns_up_to_sign = True
    if columns_up_to_sign:
        # each column's sign from its largest entry in the oracle
        k = np.argmax(np.abs(expected), axis=0)
        cols = np.arange(expected.shape[1])
        got = got * np.sign(got[k, cols] * expected[k, cols])
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)


def fit_both(make, *arrays):
    """The estimator fitted on usmarr arrays (dispatch on) and on NumPy arrays (the oracle)."""
    with config_context(array_api_dispatch=True):
        ours = make().fit(*(usmarr.asarray(a) for a in arrays))
    return ours, make().fit(*arrays)


def on_usmarr(method, *arrays):
    with config_context(array_api_dispatch=True):
        return method(*(usmarr.asarray(a) for a in arrays))


PCA_SOLVERS = [
    dict(svd_solver="full"),
    dict(svd_solver="covariance_eigh"),
    dict(svd_solver="randomized", power_iteration_normalizer="QR", random_state=0),
    dict(svd_solver="auto"),
]


@pytest.mark.parametrize("options", PCA_SOLVERS, ids=[o["svd_solver"] for o in PCA_SOLVERS])
@pytest.mark.parametrize("whiten", [False, True])
def test_pca(options, whiten):
    ours, ref = fit_both(lambda: PCA(n_components=4, whiten=whiten, **options), X)
    assert_close(ours.components_, ref.components_, rows_up_to_sign=True)
    for name in ("mean_", "explained_variance_", "explained_variance_ratio_", "singular_values_"):
        assert_close(getattr(ours, name), getattr(ref, name))
    assert float(ours.noise_variance_) == pytest.approx(float(ref.noise_variance_), rel=1e-7)
    assert_close(on_usmarr(ours.transform, X_new), ref.transform(X_new), columns_up_to_sign=True)
    back = on_usmarr(lambda z: ours.inverse_transform(ours.transform(z)), X_new)
    assert_close(back, ref.inverse_transform(ref.transform(X_new)), atol=1e-8)


def test_linear_discriminant_analysis():
    ours, ref = fit_both(lambda: LinearDiscriminantAnalysis(solver="svd"), X, y_class)
    assert_close(ours.classes_, ref.classes_)
    for name in ("means_", "priors_", "xbar_", "explained_variance_ratio_", "coef_", "intercept_"):
        assert_close(getattr(ours, name), getattr(ref, name))
    assert_close(on_usmarr(ours.predict, X_new), ref.predict(X_new))
    assert_close(on_usmarr(ours.predict_proba, X_new), ref.predict_proba(X_new))
    assert_close(on_usmarr(ours.decision_function, X_new), ref.decision_function(X_new))
    assert_close(on_usmarr(ours.transform, X_new), ref.transform(X_new), columns_up_to_sign=True)


@pytest.mark.xfail(raises=TypeError, strict=True,
                   reason="scikit-learn 1.9.1 supports the array API in LDA's 'svd' solver only: 'lsqr' and "
                          "'eigen' call np.atleast_2d on the class covariances, and usmarr arrays refuse ufuncs")
@pytest.mark.parametrize("solver", ["lsqr", "eigen"])
def test_linear_discriminant_analysis_other_solvers(solver):
    ours, ref = fit_both(lambda: LinearDiscriminantAnalysis(solver=solver), X, y_class)
    assert_close(on_usmarr(ours.predict_proba, X_new), ref.predict_proba(X_new))


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_ridge(fit_intercept):
    ours, ref = fit_both(lambda: Ridge(alpha=0.7, solver="svd", fit_intercept=fit_intercept), X, y)
    assert_close(ours.coef_, ref.coef_)
    assert float(ours.intercept_) == pytest.approx(float(ref.intercept_), rel=1e-7, abs=1e-12)
    assert_close(on_usmarr(ours.predict, X_new), ref.predict(X_new))


def test_ridge_multi_target():
    Y = np.stack([y, -2 * y + X[:, 0]], axis=1)
    ours, ref = fit_both(lambda: Ridge(alpha=[0.5, 3.0], solver="svd"), X, Y)
    assert_close(ours.coef_, ref.coef_)
    assert_close(ours.intercept_, ref.intercept_)
    assert_close(on_usmarr(ours.predict, X_new), ref.predict(X_new))


def test_ridge_cv():
    ours, ref = fit_both(lambda: RidgeCV(alphas=(0.01, 0.3, 3.0, 30.0)), X, y)
    assert float(ours.alpha_) == ref.alpha_
    assert float(ours.best_score_) == pytest.approx(ref.best_score_, rel=1e-7)
    assert_close(ours.coef_, ref.coef_)
    assert_close(on_usmarr(ours.predict, X_new), ref.predict(X_new))


def test_ridge_classifier():
    ours, ref = fit_both(lambda: RidgeClassifier(alpha=0.5, solver="svd"), X, y_class)
    assert_close(ours.coef_, ref.coef_)
    assert_close(ours.intercept_, ref.intercept_)
    assert_close(on_usmarr(ours.decision_function, X_new), ref.decision_function(X_new))
    assert_close(on_usmarr(ours.predict, X_new), ref.predict(X_new))


# linear and cosine kernels have rank 6 on 6 features: more components would make the
# normalisation divide by singular values that are round-off, different in any two libraries
@pytest.mark.parametrize("kernel, n_components", [("rbf", 15), ("poly", 15), ("linear", 5), ("cosine", 5)])
def test_nystroem(kernel, n_components):
    ours, ref = fit_both(lambda: Nystroem(kernel=kernel, n_components=n_components, random_state=0), X)
    assert_close(ours.components_, ref.components_)
    assert_close(ours.normalization_, ref.normalization_, atol=1e-8)
    assert_close(on_usmarr(ours.transform, X_new), ref.transform(X_new), atol=1e-8)


@pytest.mark.parametrize("covariance_type", ["full", "tied", "diag", "spherical"])
def test_gaussian_mixture(covariance_type):
    data = np.concatenate([X[:20] - 3.0, X[20:] + 3.0])
    ours, ref = fit_both(lambda: GaussianMixture(n_components=2, covariance_type=covariance_type, max_iter=20,
                                                 init_params="random_from_data", random_state=0), data)
    assert ours.n_iter_ == ref.n_iter_ and bool(ours.converged_) == ref.converged_
    for name in ("weights_", "means_", "covariances_", "precisions_cholesky_"):
        assert_close(getattr(ours, name), getattr(ref, name), rtol=1e-6)
    assert_close(on_usmarr(ours.predict_proba, X_new), ref.predict_proba(X_new), rtol=1e-6, atol=1e-9)
    assert float(on_usmarr(ours.score, X_new)) == pytest.approx(ref.score(X_new), rel=1e-7)


@pytest.mark.parametrize("make", [StandardScaler, MinMaxScaler, MaxAbsScaler, Normalizer],
                         ids=lambda m: m.__name__)
def test_scaler(make):
    ours, ref = fit_both(make, X)
    for name in ("mean_", "var_", "scale_", "min_", "data_min_", "data_max_", "max_abs_"):
        if hasattr(ref, name):
            assert_close(getattr(ours, name), getattr(ref, name))
    assert_close(on_usmarr(ours.transform, X_new), ref.transform(X_new))
    if hasattr(ref, "inverse_transform"):
        assert_close(on_usmarr(ours.inverse_transform, X_new), ref.inverse_transform(X_new))


PAIRWISE = ["rbf_kernel", "linear_kernel", "polynomial_kernel", "sigmoid_kernel", "cosine_similarity",
            "euclidean_distances", "manhattan_distances", "cosine_distances", "laplacian_kernel"]


@pytest.mark.parametrize("name", PAIRWISE)
def test_pairwise(name):
    function = getattr(pairwise, name)
    assert_close(on_usmarr(function, X, X_new), function(X, X_new), atol=1e-8)


REGRESSION_METRICS = ["r2_score", "mean_squared_error", "mean_absolute_error", "explained_variance_score",
                      "mean_absolute_percentage_error"]
CLASSIFICATION_METRICS = ["accuracy_score", "zero_one_loss", "f1_score", "precision_score", "recall_score"]


@pytest.mark.parametrize("name", REGRESSION_METRICS + CLASSIFICATION_METRICS)
def test_metric(name):
    function = getattr(metrics, name)
    if name in REGRESSION_METRICS:
        args = (y, y + 0.3 * np.sin(7 * y))
        kwargs = {}
    else:
        args = (y_class, np.roll(y_class, 3))
        kwargs = {"average": "macro"} if name.endswith(("f1_score", "precision_score", "recall_score")) else {}
    with config_context(array_api_dispatch=True):
        got = function(*(usmarr.asarray(a) for a in args), **kwargs)
    assert float(got) == pytest.approx(float(function(*args, **kwargs)), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("make", [StandardScaler, MinMaxScaler, MaxAbsScaler], ids=lambda m: m.__name__)
def test_scaler_ignores_nan(make):
    # the scalers treat NaN as missing: statistics over the rest, NaN kept in the output
    data = X.copy()
    data[[1, 5, 9], [0, 2, 2]] = np.nan
    ours, ref = fit_both(make, data)
    assert_close(on_usmarr(ours.transform, data), ref.transform(data))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_input_is_refused_as_with_numpy(bad):
    data = X.copy()
    data[3, 1] = bad
    with pytest.raises(ValueError, match="infinity|NaN") as expected:
        PCA(n_components=2).fit(data)
    with config_context(array_api_dispatch=True), pytest.raises(ValueError) as got:
        PCA(n_components=2).fit(usmarr.asarray(data))
    # the same message, up to the dtype's name at its end ("for dtype('float64')", "for usmarr.float64")
    assert str(got.value).rsplit(" for ", 1)[0] == str(expected.value).rsplit(" for ", 1)[0]
