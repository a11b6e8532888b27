"""Shared helpers: the test sources, finite differences, and loaded functions.

Every derivative a test checks is compared with an independent truth: central finite
differences of the compiled primal (evaluated through plain NumPy calls, no AD), and the
framework's own autodiff of the same math written with the framework's operations.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import ferrozyme

CSRC = Path(__file__).with_name("csrc")

HEAT_SIG = "(in u0[n], out u[n], n, const steps)"
ODE_SIG = "(in p[3], const y0[2], out traj[steps, 2], steps, const dt)"
MLP_SIG = "(in w[q], const X[n, d], const y[n], n, d, h) -> out"
MODEL_SIG = "(in x[n], out y[m], inout s[n], const idx[m], in k, const c, n, m)"
RBF_SIG = "(in x[n, d], in c[m, d], out k[n, m], in ell, n, m, d) -> out"
LAYER_SIG = "(in A[m, n], in x[n], out y[m], m, n)"


def csrc(name: str) -> Path:
    return CSRC / name


@pytest.fixture(scope="session")
def heat():
    return ferrozyme.load(csrc("heat.c"), "simulate", signature=HEAT_SIG)


@pytest.fixture(scope="session")
def heat32():
    return ferrozyme.load(csrc("heat.c"), "simulate_f", signature=HEAT_SIG)


@pytest.fixture(scope="session")
def ode():
    return ferrozyme.load(csrc("ode.c"), "lotka_volterra", signature=ODE_SIG)


@pytest.fixture(scope="session")
def mlp():
    return ferrozyme.load(csrc("mlp.cpp"), "nn::mse", signature=MLP_SIG)


@pytest.fixture(scope="session")
def model():
    return ferrozyme.load(csrc("model.c"), "model", signature=MODEL_SIG)


@pytest.fixture(scope="session")
def rbf():
    return ferrozyme.load(csrc("rbf.c"), "rbf", signature=RBF_SIG)


@pytest.fixture(scope="session")
def rbf32():
    return ferrozyme.load(csrc("rbf.c"), "rbf_f", signature=RBF_SIG)


@pytest.fixture(scope="session")
def layer():
    return ferrozyme.load(csrc("rbf.c"), "layer", signature=LAYER_SIG)


def rbf_inputs(n=5, m=4, d=3, seed=3):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)), rng.normal(size=(m, d)), 0.9


def fd_grad(f, x, h=1e-6):
    """Central finite differences of a scalar function of an array (any shape)."""
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros_like(x)
    flat, gf = x.reshape(-1), g.reshape(-1)
    for i in range(flat.size):
        step = h * max(1.0, abs(flat[i]))
        xp, xm = flat.copy(), flat.copy()
        xp[i] += step
        xm[i] -= step
        gf[i] = (f(xp.reshape(x.shape)) - f(xm.reshape(x.shape))) / (2 * step)
    return g


def fd_dir(f, x, v, h=1e-6):
    """Central finite difference of f (array-valued) along direction v."""
    x, v = np.asarray(x, dtype=np.float64), np.asarray(v, dtype=np.float64)
    return (np.asarray(f(x + h * v)) - np.asarray(f(x - h * v))) / (2 * h)


def assert_close(got, want, rtol, atol=0.0, what=""):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    err = np.abs(got - want)
    tol = atol + rtol * np.maximum(np.abs(want), np.abs(want).max() * 1e-3 + 1e-300)
    bad = err > tol
    assert not bad.any(), f"{what}: max error {err.max():.3e} (rtol {rtol}); got {got.ravel()[:6]}, want {want.ravel()[:6]}"


# Data shared by the framework tests -----------------------------------------------------------

def heat_inputs(n=24, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, n)


def mlp_data(n=12, d=3, h=4, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.sin(X.sum(axis=1))
    w = rng.normal(scale=0.5, size=d * h + 2 * h)
    return w, X, y, d, h


ODE_TRUE = np.array([1.1, 0.4, 0.9])
ODE_Y0 = np.array([2.0, 1.0])
ODE_STEPS, ODE_DT = 150, 0.05
ODE_GUESS = np.array([0.8, 0.55, 1.2])


def ode_data(ode):
    return ode(ODE_TRUE, ODE_Y0, steps=ODE_STEPS, dt=ODE_DT)


def pytest_report_header(config):
    from ferrozyme import _toolchain

    try:
        b = _toolchain.ferrozyme_bin()
    except Exception as e:  # pragma: no cover
        b = f"<missing: {e}>"
    return [f"ferrozyme binary: {b}", f"ferrozyme cache: {_toolchain.cache_dir()}",
            f"FERROZYME_REQUIRE_FRAMEWORKS={os.environ.get('FERROZYME_REQUIRE_FRAMEWORKS', '')}"]


def framework(name: str):
    """Import a framework for a test module. A missing framework fails the run (the test
    command installs them all); FERROZYME_ALLOW_MISSING_FRAMEWORKS=1 turns that into a
    visible skip for partial installs."""
    import importlib

    if os.environ.get("FERROZYME_ALLOW_MISSING_FRAMEWORKS") == "1":
        return pytest.importorskip(name)
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise ImportError(
            f"{name} is not installed: run the tests through scripts/test-python.sh (it installs the "
            f"frameworks), or set FERROZYME_ALLOW_MISSING_FRAMEWORKS=1 to skip its tests: {e}"
        ) from e


def jax_x64():
    """JAX with float64 enabled, and jax.numpy."""
    jax = framework("jax")
    jax.config.update("jax_enable_x64", True)
    return jax, jax.numpy
