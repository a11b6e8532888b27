"""Scripts as users write them (front35): numba `@njit` code front34 left refused.

* `np.dot(v, v)` of a `v = X @ w` computed in the same function: numba's optimizer gives the
  product's return slot and the float result one stack slot, and the GIL state slot of its
  error path the memory of a pointer slot. The GIL helpers are now declared inactive, and
  the pass zeroes a slot's shadow at each of its lifetimes' starts: without that, the float
  result's adjoint was added to the pointer shadow left in the slot (right to 1e-16 in
  float64 by luck, 1e30 off in float32).
* A matrix's Frobenius norm `np.linalg.norm(A)`, `reshape`/`ravel`, and `np.where` of
  scalars: numba calls its helper `numba_attempt_nocopy_reshape`, which now gets a C
  definition (`shims/numba_reshape.c`, integers only) so the pass can follow the pointers
  stored beside its shapes. The helper is checked against NumPy's own no-copy reshape.
* `np.where` and `np.maximum` of arrays and scalars, 2-D slices `A[i, :]` and `A[:, j]`, and
  `@njit` functions calling other `@njit` functions, in one function.

Each gradient is checked against a formula or central differences.
"""

import ctypes

import numpy as np
import pytest

from conftest import assert_close, fd_grad, framework


def test_numba_self_dot_of_a_matmul_result_float64_float32_and_forward():
    """d/dw |X w|² = 2 Xᵀ X w and d/dX = 2 (X w) wᵀ, in float64 and float32 (the float32
    gradient was ~1e30 off while the GIL call was let through and the slot's shadow kept
    the array's pointer); the forward tangent 2 (X w)·(X v)."""
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def self_dot(X, w):
        v = X @ w
        return np.dot(v, v)

    rng = np.random.default_rng(35)
    X, w = rng.normal(size=(5, 3)), rng.normal(size=3)
    v = X @ w
    gX, gw = fzn.grad(self_dot, argnums=(0, 1))(X, w)
    assert_close(gw, 2 * X.T @ v, 1e-12, what="d/dw")
    assert_close(gX, 2 * np.outer(v, w), 1e-12, what="d/dX")
    t = rng.normal(size=3)
    val, tan = fzn.jvp(self_dot, argnums=1)(X, w, t)
    assert_close(np.array([val, tan]), np.array([v @ v, 2 * v @ (X @ t)]), 1e-12, what="jvp")
    X32, w32 = X.astype(np.float32), w.astype(np.float32)
    g32 = fzn.grad(self_dot, argnums=1)(X32, w32)
    assert g32.dtype == np.float32
    assert_close(g32, 2 * X.T @ v, 1e-4, 1e-5, what="d/dw float32")


def test_numba_frobenius_norm_where_maximum_slices_and_njit_helpers():
    """One function with a matrix's `np.linalg.norm`, `ravel` and `reshape`, `np.where` and
    `np.maximum` of scalars and of arrays, rows `A[i, :]` and columns `A[:, j]`, and calls of
    two other `@njit` functions; the gradient against a formula for the norm alone and
    central differences for the rest. (The column loop's `np.where`/`np.maximum` temporaries
    and a `reshape` or `ravel` of the same array in one function are still refused, a
    CompileError: mismatched activity at a vectorized scatter, never a number.)"""
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def swish(z):
        return z * np.tanh(z)

    @numba.njit
    def row_score(A, w, i):
        return np.sum(A[i, :] * w)

    @numba.njit
    def model(A, w):
        s = np.linalg.norm(A)
        for i in range(A.shape[0]):
            z = row_score(A, w, i)
            s += np.maximum(z, 0.0) ** 2 + np.where(z > 0.5, swish(z), 0.1 * z)
        return s

    @numba.njit
    def columns(A):
        s = 0.0
        for j in range(A.shape[1]):
            c = A[:, j]
            s += np.sum(np.where(c > 0, c * c, -0.5 * c) * np.maximum(c, 0.2 * c))
        return s

    @numba.njit
    def reshaped(A):
        B = A.reshape(A.shape[1], A.shape[0])
        return np.sum(B[0] * B[-1]) + np.sum(A.ravel() ** 3) * 0.1

    @numba.njit
    def fro(A):
        return np.linalg.norm(A)

    rng = np.random.default_rng(350)
    A, w = rng.normal(size=(4, 3)), rng.normal(size=3)
    assert_close(fzn.grad(fro)(A), A / np.linalg.norm(A), 1e-12, what="d|A|_F/dA")
    gA, gw = fzn.grad(model, argnums=(0, 1))(A, w)
    assert_close(gA, fd_grad(lambda a: model(a, w), A), 1e-6, 1e-8, what="d/dA")
    assert_close(gw, fd_grad(lambda v: model(A, v), w), 1e-6, 1e-8, what="d/dw")
    assert_close(fzn.grad(columns)(A), fd_grad(columns, A), 1e-6, 1e-8, what="columns d/dA")
    assert_close(fzn.grad(reshaped)(A), fd_grad(reshaped, A), 1e-6, 1e-8, what="reshape d/dA")


def test_numba_reshape_helper_agrees_with_numpy():
    """`shims/numba_reshape.c` compiled alone: for C-, Fortran-ordered, strided and
    transposed arrays and every shape of the same size, it succeeds exactly when NumPy's
    `reshape(copy=False)` does, and its strides view the same elements."""
    from pathlib import Path

    from ferrozyme import _toolchain
    import ferrozyme

    src = Path(ferrozyme.__file__).with_name("shims") / "numba_reshape.c"
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        so = Path(d) / "reshape.so"
        r = _toolchain.run([_toolchain.clang(), "-O2", "-shared", "-fPIC", str(src), "-o", str(so)])
        assert r.returncode == 0, r.stderr
        lib = ctypes.CDLL(str(so))
        f = lib.numba_attempt_nocopy_reshape
        L = ctypes.c_long
        P = ctypes.POINTER(L)
        f.argtypes = [L, P, P, L, P, P, L, ctypes.c_int]

        def arr(v):
            return (L * max(len(v), 1))(*v)

        new_shapes = [(4, 3), (3, 4), (12,), (2, 6), (2, 2, 3), (1, 12), (12, 1), (1, 1, 12), (6, 1, 2), (3, 1, 4)]
        cases = 0
        for sh in [(4, 3), (2, 6), (2, 3, 2), (1, 12), (12,), (6, 1, 2)]:
            base = np.arange(24, dtype=np.float64)
            a0 = base[:12].reshape(sh)
            variants = [a0, np.asfortranarray(a0)]
            if sh[0] > 1:
                variants.append(base.reshape((sh[0] * 2,) + sh[1:])[::2])
            if len(sh) == 2:
                variants.append(base[:12].reshape(sh[::-1]).T)
            for a in variants:
                for new in new_shapes:
                    for order in "CF":
                        ns = arr([0] * len(new))
                        ok = f(a.ndim, arr(a.shape), arr(a.strides), len(new), arr(new), ns, 8, order == "F")
                        try:
                            want = a.reshape(new, order=order, copy=False)
                        except ValueError:
                            want = None
                        assert ok == (want is not None), (a.shape, a.strides, new, order)
                        if want is not None:
                            view = np.lib.stride_tricks.as_strided(a, new, tuple(ns[k] for k in range(len(new))))
                            assert np.array_equal(view, want), (a.shape, a.strides, new, order)
                        cases += 1
        assert cases > 300
