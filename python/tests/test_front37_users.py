"""Scripts as users write them (front37): numba's `np.sort`, refused until front37.

numba's quicksort keeps its work list of `Partition(int64 x 2)` tuples in a reflected list
(`NRT_MemInfo_new_varsize_dtor`), which `ferrozyme.numba` refused as an allocation it could
not shadow. The list holds integers only, so it now keeps numba's runtime, as lists of
integers did; its reference counting keeps numba's too (`_numba_alloc`'s `kept`): routed
through our `fz_nrt_decref`, which the sorted copy's MemInfo also reaches, the list's
integer slots and the sorted floats met in type analysis (cannot-deduce-type at the copy
np.sort makes). Gradients of a rank-weighted sum, a trimmed mean, a row-wise sort of a
matrix and `np.median` against rank weights and central differences, and the forward
tangent. An integer array in array expressions beside float arrays (`np.arange(n)`,
`np.argsort`'s indices) was refused with a CompileError whose note said what to write;
front38 made it work (test_front38_users.py).
"""

import numpy as np

from conftest import assert_close, fd_grad, framework


def test_numba_sort_rank_weights_trimmed_mean_rows_and_median():
    """d/dx Σ_k (k+1) x_(k) is the rank of each x_i (n = 300: quicksort's partitions, not
    only its insertion sort); its tangent along v is ranks·v; a trimmed mean with the
    extremes' product, a row-wise sort of a 5 × 8 matrix and np.median against central
    differences (distinct inputs: the sort is differentiable there)."""
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def ranked(x):
        return (np.sort(x) * np.arange(1.0, x.shape[0] + 1)).sum()

    @numba.njit
    def trimmed_rows_median(x):
        s = np.sort(x)
        rows = np.sort(x.reshape(5, 8))
        return s[2:-2].mean() + s[-1] * s[0] + rows[:, 0].sum() + np.median(x) + np.sum(np.sin(x))

    rng = np.random.default_rng(37)
    x = rng.normal(size=300)
    ranks = np.argsort(np.argsort(x)) + 1.0
    assert_close(fzn.grad(ranked)(x), ranks, 1e-14, what="d/dx rank-weighted sum")
    v = rng.normal(size=300)
    val, tan = fzn.jvp(ranked)(x, v)
    assert_close(np.array([val, tan]), np.array([ranked(x), ranks @ v]), 1e-12, what="value and tangent")

    x = rng.normal(size=40)
    f = trimmed_rows_median
    assert_close(fzn.grad(f)(x), fd_grad(f, x), 1e-6, 1e-8, what="d/dx trimmed mean, row minima, median")


def test_numba_integer_array_beside_floats_and_the_loop_form():
    """An integer array in an array expression with float arrays (`x[np.argsort(x)] ** 2 *
    np.arange(n)`: np.arange(n) is int64) was refused (cannot-deduce-type) until front38
    gave each of numba's allocations its own allocator copy; it is differentiated now, and
    so is the same sum written with the indices read in a loop (the form front37's note
    suggested): both against the analytic gradient."""
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def by_order(x):
        return (x[np.argsort(x)] ** 2 * np.arange(x.shape[0])).sum()

    @numba.njit
    def by_order_loop(x):
        order = np.argsort(x)
        s = 0.0
        for k in range(x.shape[0]):
            s += x[order[k]] ** 2 * k
        return s

    x = np.random.default_rng(370).normal(size=12)
    order = np.argsort(x)
    want = np.zeros_like(x)
    want[order] = 2 * x[order] * np.arange(x.shape[0])
    assert_close(fzn.grad(by_order)(x), want, 1e-14, what="d/dx with np.arange and fancy indexing")
    assert_close(fzn.grad(by_order_loop)(x), want, 1e-14, what="d/dx with the order read in a loop")
