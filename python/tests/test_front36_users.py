"""Scripts as users write them (front36): numba `@njit` code of kinds earlier rounds did not
cover, and one shape front35 left refused.

* `math.erf`, `math.erfc` and `math.lgamma` in a loop over `enumerate`, `np.cumsum`, and
  `np.outer` with `np.trace`: right at once, against formulas and central differences.
* A loop over columns `A[:, j]` with `np.where`/`np.maximum` temporaries in the same function
  as a `reshape`/`ravel` of `A` (refused by front35: mismatched activity at a vectorized
  scatter). The array record numba builds for the reshape keeps the argument's `meminfo` and
  `parent` pointers (no shadow) in a stack slot that has one, so run-time activity treats
  the pointers read back from shadowed memory as maybe the primal, among them the
  temporaries' data pointers the vectorized `np.where` scatters through. Masked loads,
  stores, gathers and scatters of floats are now guarded lane by lane (`shadow != primal`)
  instead of refused: gradient and forward tangent against central differences.
"""

import math

import numpy as np

from conftest import assert_close, fd_grad, framework


def test_numba_erf_lgamma_enumerate_cumsum_outer():
    """d/dx Σ_i w_i erf(x_i) lgamma(1.5 + x_i²) + erfc(0.3 x_i) by the formula (erf' =
    2/√π e^{-x²}, lgamma' = digamma, taken from central differences of math.lgamma);
    and, in one function, d/dx Σ sin(c) c with c = cumsum(x) (a reversed cumulative sum)
    and d/da, d/db of |a bᵀ|_F² + tr(a bᵀ)."""
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def special(x, w):
        s = 0.0
        for i, v in enumerate(x):
            s += w[i] * math.erf(v) * math.lgamma(1.5 + v * v) + math.erfc(0.3 * v)
        return s

    @numba.njit
    def running_and_outer(x, a, b):
        c = np.cumsum(x)
        M = np.outer(a, b)
        return np.sum(np.sin(c) * c) + np.sum(M * M) + np.trace(M)

    rng = np.random.default_rng(36)
    x, w = rng.normal(size=6), rng.normal(size=6)
    gx, gw = fzn.grad(special, argnums=(0, 1))(x, w)

    def dlgamma(z, h=1e-6):
        return (math.lgamma(z + h) - math.lgamma(z - h)) / (2 * h)

    want_x = np.array([
        w[i] * (2 / math.sqrt(math.pi) * math.exp(-v * v) * math.lgamma(1.5 + v * v)
                + math.erf(v) * dlgamma(1.5 + v * v) * 2 * v)
        - 0.3 * 2 / math.sqrt(math.pi) * math.exp(-0.09 * v * v)
        for i, v in enumerate(x)
    ])
    want_w = np.array([math.erf(v) * math.lgamma(1.5 + v * v) for v in x])
    assert_close(gx, want_x, 1e-8, 1e-10, what="d/dx erf·lgamma + erfc")
    assert_close(gw, want_w, 1e-13, what="d/dw")

    c = np.cumsum(x)
    dc = np.sin(c) + c * np.cos(c)
    a, b = rng.normal(size=4), rng.normal(size=4)
    gx, ga, gb = fzn.grad(running_and_outer, argnums=(0, 1, 2))(x, a, b)
    assert_close(gx, np.cumsum(dc[::-1])[::-1], 1e-12, what="d/dx cumsum")
    assert_close(ga, 2 * a * (b @ b) + b, 1e-12, what="d/da outer")
    assert_close(gb, 2 * b * (a @ a) + a, 1e-12, what="d/db outer")


def test_numba_column_where_maximum_beside_reshape_ravel():
    """front35's refused shape in one function: columns `A[:, j]` with `np.where` and
    `np.maximum` temporaries, then `reshape` and `ravel` of `A`. The gradient and the forward
    tangent along a direction against central differences (float32 was checked by hand:
    right to 6e-7; front35's tests cover float32 numba code)."""
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def columns_and_reshape(A):
        s = 0.0
        for j in range(A.shape[1]):
            c = A[:, j]
            s += np.sum(np.where(c > 0, c * c, -0.5 * c) * np.maximum(c, 0.2 * c))
        B = A.reshape(A.shape[1], A.shape[0])
        return s + np.sum(B[0] * B[-1]) + np.sum(A.ravel() ** 3) * 0.1

    rng = np.random.default_rng(360)
    A = rng.normal(size=(5, 4))
    g = fzn.grad(columns_and_reshape)(A)
    assert_close(g, fd_grad(columns_and_reshape, A), 1e-6, 1e-8, what="d/dA")

    V = rng.normal(size=A.shape)
    val, tan = fzn.jvp(columns_and_reshape)(A, V)
    h = 1e-6
    fd = (columns_and_reshape(A + h * V) - columns_and_reshape(A - h * V)) / (2 * h)
    assert_close(np.array([val, tan]), np.array([columns_and_reshape(A), fd]), 1e-6, 1e-8,
                 what="value and tangent")
