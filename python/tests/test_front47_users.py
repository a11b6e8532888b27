"""numba `@njit` linear algebra session 27 left refused (front47).

* `np.linalg.eigh`/`eigvalsh`, `svd`, `pinv`, `lstsq` (and `norm(A, 2)`, `norm(A, 1)`, `cond`,
  which numba builds on the SVD or compiles its branch: checked by hand, not kept, for the
  suite's time): numba calls LAPACK through `numba_ez_xxxevd`, `numba_ez_gesdd` and
  `numba_ez_gelsd`, which had no IR (CompileError naming the helper). They now get C
  definitions the pass differentiates (shims/numba_lapack.c: cyclic Jacobi for the symmetric
  eigenproblem, one-sided Jacobi for the SVD, the SVD's minimum-norm solution for lstsq).
  Eigenvector and singular-vector signs are not LAPACK's, so the objective uses only what
  does not depend on them (eigenvalues, V diag(c) V^T, U S V^T, the null-space projector of
  a full SVD, pinv, the lstsq solution and residual).
* Fixed beside them: two np.linalg calls where one copies a transposed (Fortran-ordered)
  input (`svd(W.T)` beside `lstsq(M, b)`; `det(M.T) + inv(M.T)` with session 24's shims
  stopped at run time, "bytes of unknown type were copied"): the shims' dispatchers read
  the same `void *` as double and as float, so type analysis typed the arrays as nothing and
  numba's memcpy of the transposed input could not be typed. The shims are now compiled with
  only the kinds the module passes (`_shim_kinds`).
* `np.linalg.eig`/`eigvals` (general matrices) stay refused, with a note naming eigh.

The gradient in all four differentiated arguments is checked against central differences of the primal (numba's real LAPACK) and against PyTorch's
autodiff of the same function (torch.linalg).
"""

import numpy as np
import pytest

from conftest import assert_close, fd_grad, framework


def test_numba_eigh_svd_pinv_lstsq_against_fd_and_torch():
    numba = framework("numba")
    torch = framework("torch")
    import ferrozyme.numba as fzn

    @numba.njit
    def spectral(A, M, b, W, C, D, E):
        w, V = np.linalg.eigh(A)
        P = V @ np.diag(C) @ V.T
        U, s, Vt = np.linalg.svd(M, full_matrices=False)
        # W.T is Fortran-ordered: numba copies it with an untyped memcpy (the base refused
        # it beside lstsq); full_matrices: Wt[3:] spans W.T's null space.
        _, _, Wt = np.linalg.svd(W.T)
        N = Wt[3:].T @ Wt[3:]
        x, res, rank, sv = np.linalg.lstsq(M, b)
        k = np.arange(1.0, 5.0)
        out = (w * k).sum() + (P * A).sum() * 0.3 + (s * k[:3]).sum() + (((U * s) @ Vt) * D).sum()
        out += (N * np.outer(b, b)).sum() * 0.2 + (x * k[:3]).sum() + res.sum() * 0.5 + sv.sum() * 0.1
        return out + (np.linalg.pinv(M) * E).sum()

    def spectral_torch(A, M, b, W, C, D, E):
        L = torch.linalg
        w, V = L.eigh(torch.tril(A) + torch.tril(A, -1).T)  # eigh reads the lower triangle
        P = V @ torch.diag(C) @ V.T
        U, s, Vt = L.svd(M, full_matrices=False)
        N = torch.eye(5, dtype=M.dtype) - L.pinv(W.T) @ W.T  # the null space's projector
        x = L.pinv(M) @ b
        k = torch.arange(1.0, 5.0, dtype=A.dtype)
        out = (w * k).sum() + (P * A).sum() * 0.3 + (s * k[:3]).sum() + (((U * s) @ Vt) * D).sum()
        out = out + (N * torch.outer(b, b)).sum() * 0.2 + (x * k[:3]).sum() + ((M @ x - b) ** 2).sum() * 0.5
        out = out + s.sum() * 0.1 + (L.pinv(M) * E).sum()
        return out

    rng = np.random.default_rng(47)
    B = rng.normal(size=(4, 4))
    A = B + B.T + np.diag([0.0, 1.0, 2.0, 3.0])  # distinct eigenvalues
    M, b, W = rng.normal(size=(5, 3)), rng.normal(size=5), rng.normal(size=(5, 3))
    C, D, E = rng.normal(size=4), rng.normal(size=(5, 3)), rng.normal(size=(3, 5))
    consts = (C, D, E)

    gA, gM, gb, gW = fzn.grad(spectral, argnums=(0, 1, 2, 3))(A, M, b, W, *consts)
    fA = fd_grad(lambda a: spectral(a, M, b, W, *consts), A)
    assert_close(gA, fA, 1e-6, 1e-7, what="d/dA eigh")
    assert_close(gM, fd_grad(lambda m: spectral(A, m, b, W, *consts), M), 1e-6, 1e-7, what="d/dM svd/pinv/lstsq")
    assert_close(gb, fd_grad(lambda v: spectral(A, M, v, W, *consts), b), 1e-6, 1e-7, what="d/db lstsq")
    assert_close(gW, fd_grad(lambda w: spectral(A, M, b, w, *consts), W), 1e-6, 1e-7, what="d/dW full svd")

    t = [torch.tensor(v, dtype=torch.float64, requires_grad=k < 4) for k, v in enumerate((A, M, b, W, *consts))]
    val = spectral_torch(*t)
    val.backward()
    assert_close(float(val.detach()), spectral(A, M, b, W, *consts), 1e-11, what="torch primal")
    for got, ref, what in ((gA, t[0].grad, "A"), (gM, t[1].grad, "M"), (gb, t[2].grad, "b"), (gW, t[3].grad, "W")):
        assert_close(got, ref.numpy(), 1e-8, 1e-10, what=f"d/d{what} against torch")


def test_numba_general_eig_is_refused_naming_eigh():
    numba = framework("numba")
    import ferrozyme
    import ferrozyme.numba as fzn

    @numba.njit
    def spectrum(A):
        return np.linalg.eigvals(A).real.sum()

    with pytest.raises(ferrozyme.CompileError, match="numba_ez_rgeev") as e:
        fzn.grad(spectrum)(np.eye(3) + 0.1)
    assert "use eigh/eigvalsh" in str(e.value)
