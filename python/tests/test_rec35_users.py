"""numba at NUMBA_OPT=0 with a tuple holding a constant array next to a float and a
differentiated array (rec35): numba builds the tuple `(X, s, w)` with `insertvalue`s and
stores it whole into memory that has a shadow; the shadow tuple had a null where the
constant array's data pointer goes, and the callee reading it back crashed the process
(SIGSEGV). The gradient is checked against the analytic one, in a subprocess (the
setting must precede importing numba)."""

import os
import subprocess
import sys

_SCRIPT = r"""
import numpy as np, numba
import ferrozyme.numba as fzn

@numba.njit
def inner(t):
    X, s, w = t
    acc = 0.0
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            acc += s * X[i, j] * w[j]
    return acc

@numba.njit
def f(X, w, s):
    t = (X, s, w)
    return inner(t) ** 2

X = np.linspace(-0.4, 1.0, 15).reshape(5, 3)
w = np.array([0.3, -1.2, 0.7])
s = 1.3
a = s * (X @ w).sum()
gw = fzn.grad(f, argnums=1)(X, w, s)
gs = fzn.grad(f, argnums=2)(X, w, s)
print("ERRW", np.abs(gw - 2 * a * s * X.sum(axis=0)).max())
print("ERRS", abs(gs - 2 * a * a / s))
"""


def test_numba_unoptimized_tuple_of_constant_array_float_and_array():
    env = dict(os.environ, NUMBA_OPT="0")
    r = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True,
                       timeout=600, env=env)
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr[-2000:]}"
    assert float(r.stdout.split("ERRW")[1].split()[0]) <= 1e-12, r.stdout
    assert float(r.stdout.split("ERRS")[1].split()[0]) <= 1e-12, r.stdout
