"""The JIT path: numba.njit functions differentiated by Ferrozyme at run time. Every
gradient is checked against central finite differences of the njit function itself."""

import math

import numpy as np
import pytest

from conftest import assert_close, fd_dir, fd_grad, framework

numba = framework("numba")
import ferrozyme.numba as fzn  # noqa: E402


@numba.njit
def energy(x, a):
    """A loop with math calls and a data-dependent branch."""
    s = 0.0
    for i in range(x.shape[0]):
        t = math.sin(x[i]) * a + math.exp(-x[i] * x[i]) + math.log(1.0 + x[i] ** 2)
        if t > 0.5:
            s += math.sqrt(t) * math.cos(a * x[i])
        else:
            s += t * t
    return s * s


@numba.njit
def rosenbrock2d(X, scale, n_iter):
    """A 2-D array, an integer argument, a nested loop and pow/tanh."""
    acc = 0.0
    for it in range(n_iter):
        for i in range(X.shape[0]):
            for j in range(X.shape[1] - 1):
                acc += scale * (1.0 - X[i, j]) ** 2 + 100.0 * (X[i, j + 1] - X[i, j] ** 2) ** 2
        acc = math.tanh(acc * 1e-3) * 1e3
    return acc


@numba.njit
def energy32(x):
    s = np.float32(0.0)
    for i in range(x.shape[0]):
        s += np.float32(math.sin(x[i])) * x[i]
    return s


def test_grad_vs_fd():
    x = np.random.default_rng(0).uniform(-1.5, 1.5, 9)
    a = 0.7
    gx, ga = fzn.grad(energy, argnums=(0, 1))(x, a)
    assert_close(gx, fd_grad(lambda v: energy(v, a), x), 1e-6, what="d/dx")
    assert_close(ga, fd_grad(lambda v: energy(x, float(v)), np.array(a)), 1e-6, what="d/da")


def test_grad_2d_and_integer_argument():
    X = np.random.default_rng(1).uniform(-1, 1, (3, 4))
    g = fzn.grad(rosenbrock2d)(X, 0.5, 3)
    assert g.shape == X.shape
    assert_close(g, fd_grad(lambda v: rosenbrock2d(v, 0.5, 3), X), 1e-6, what="2-D grad")


def test_jvp_vs_fd():
    x = np.random.default_rng(2).uniform(-1.5, 1.5, 9)
    v = np.random.default_rng(3).normal(size=9)
    val, tan = fzn.jvp(energy)(x, 0.7, v)
    assert val == energy(x, 0.7)
    assert_close(tan, fd_dir(lambda z: energy(z, 0.7), x, v), 1e-6, what="jvp")
    g = fzn.grad(energy)(x, 0.7)
    assert abs(tan - g @ v) < 1e-10 * max(1.0, abs(tan))  # forward and reverse agree


def test_float32():
    x = np.linspace(-1, 1, 7).astype(np.float32)
    g = fzn.grad(energy32)(x)
    assert g.dtype == np.float32
    assert_close(g, np.sin(x.astype(np.float64)) + x * np.cos(x.astype(np.float64)), 1e-5, what="f32 analytic")


def test_callable_from_njit_code():
    g = fzn.grad(energy)

    @numba.njit
    def descend(x, a, steps, lr):
        for _ in range(steps):
            x = x - lr * g(x, a)
        return x

    x0 = np.random.default_rng(4).uniform(-1, 1, 5)
    x = descend(x0, 0.7, 25, 0.01)
    # the same steps from Python, with finite-difference gradients
    y = x0.copy()
    for _ in range(25):
        y = y - 0.01 * fd_grad(lambda v: energy(v, 0.7), y)
    assert_close(x, y, 1e-6, what="njit descent vs FD descent")
    assert energy(x, 0.7) < energy(x0, 0.7)


def test_errors():
    with pytest.raises(TypeError, match="numba.njit function"):
        fzn.grad(lambda x: x)
    x = np.random.default_rng(0).uniform(-1, 1, 8)
    # a strided view is copied to C order (it was refused before): the same gradient as FD
    assert_close(fzn.grad(energy)(x[::2], 0.5), fd_grad(lambda v: energy(v, 0.5), x[::2]), 1e-6,
                 what="strided view")
    with pytest.raises(numba.core.errors.TypingError, match="integer"):
        fzn.grad(rosenbrock2d, argnums=2)(np.ones((2, 2)), 0.5, 3)


@numba.njit
def allocating(x):
    return np.sum(np.exp(x) * x)


@numba.njit
def appends_to_a_list(x):
    l = []
    for i in range(x.shape[0]):
        l.append(x[i] * x[i])
    s = 0.0
    for v in l:
        s += v
    return s


@numba.njit
def appends_tuples(x):
    l = []
    for i in range(x.shape[0]):
        l.append((x[i], x[i] * x[i]))
    s = 0.0
    for a, b in l:
        s += a * b
    return s


def test_allocating_function_and_list_of_floats_are_differentiated():
    # Array temporaries get shadows (numba's allocator is given an IR body): analytic
    # d/dx sum(exp(x) x) = exp(x) (1 + x). A list of floats too (rustpy32: its runtime
    # helpers get IR bodies): d/dx sum(x²) = 2x. A list of tuples' storage comes from a
    # runtime allocator Ferrozyme knows nothing of: refused, not a gradient missing its part.
    x = np.linspace(0, 1, 4)
    assert_close(fzn.grad(allocating)(x), np.exp(x) * (1 + x), 1e-13, what="allocating grad")
    assert_close(fzn.grad(appends_to_a_list)(x), 2 * x, 1e-15, what="list grad")
    with pytest.raises(numba.core.errors.TypingError, match="allocates memory"):
        fzn.grad(appends_tuples)(x)
