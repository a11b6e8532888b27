"""Scripts as new users write them (front39): one C function, a weighted pairwise Gaussian
energy of points (`in x[n, d], in w[n], in s, out e[n], n, d`, float64 and float32),
used the way each framework's users write models, and a numba function with loops over a
2-D array.

* PyTorch: an `nn.Module` holding the points and weights as Parameters, trained a few
  steps with SGD, each step's gradient against the same module written with torch
  operations; `torch.compile(fullgraph=True)` of the loss (value and gradients); a
  non-contiguous column slice; errors for an int64 tensor, a float32 tensor given to the
  float64 op, and sizes that disagree.
* JAX: `jit(grad)` and `vmap(grad)` of a loss mixing jnp and the op, in float64 and float32,
  and `jacfwd`/`jacrev` of the op's output, against the jnp version's own autodiff.
* TensorFlow: a persistent `GradientTape` (two losses' gradients from one tape) and nested
  tapes for the Hessian in the weights, eagerly and in `tf.function`, against the TF version.
* numba: `@njit` with loops over the rows of a 2-D array, `np.linalg.norm` of row
  differences, `math.exp`/`cos`/`log1p`/`atan`: against jax.grad of the jnp version and
  central differences, and `jvp` against the gradient; a column slice, and the error for an
  integer array.
"""

import math

import numpy as np
import pytest

import ferrozyme
from conftest import assert_close, fd_grad, framework, jax_x64

SRC = r"""
#include <math.h>
void pair_e(const double *x, const double *w, double s, double *e, int n, int d) {
  for (int i = 0; i < n; i++) {
    double acc = 0;
    for (int j = 0; j < n; j++) {
      if (j == i) continue;
      double r2 = 0;
      for (int k = 0; k < d; k++) { double t = x[i * d + k] - x[j * d + k]; r2 += t * t; }
      acc += w[j] * exp(-s * r2) / (1.0 + r2);
    }
    e[i] = w[i] * acc;
  }
}
void pair_e_f(const float *x, const float *w, float s, float *e, int n, int d) {
  for (int i = 0; i < n; i++) {
    float acc = 0;
    for (int j = 0; j < n; j++) {
      if (j == i) continue;
      float r2 = 0;
      for (int k = 0; k < d; k++) { float t = x[i * d + k] - x[j * d + k]; r2 += t * t; }
      acc += w[j] * expf(-s * r2) / (1.0f + r2);
    }
    e[i] = w[i] * acc;
  }
}
"""
SIG = "(in x[n, d], in w[n], in s, out e[n], n, d)"


@pytest.fixture(scope="module")
def pe64():
    return ferrozyme.load(SRC, "pair_e", signature=SIG, lang="c")


@pytest.fixture(scope="module")
def pe32():
    return ferrozyme.load(SRC, "pair_e_f", signature=SIG, lang="c")


def ref_energy(xp, x, w, s):
    """The same energy written with a framework's array operations (`xp`: torch, jnp, tf)."""
    diff = x[:, None, :] - x[None, :, :]
    r2 = (diff * diff).sum(-1) if hasattr(diff, "sum") else xp.reduce_sum(diff * diff, -1)
    n = x.shape[0]
    off = 1.0 - xp.eye(n, dtype=x.dtype)
    k = off * xp.exp(-s * r2) / (1.0 + r2)
    return w * (k * w[None, :]).sum(-1) if hasattr(k, "sum") else w * xp.reduce_sum(k * w[None, :], -1)


def test_torch_module_training_compile_and_errors(pe64):
    torch = framework("torch")
    rng = np.random.default_rng(390)

    class Cloud(torch.nn.Module):
        def __init__(self, energy):
            super().__init__()
            self.energy = energy
            self.x = torch.nn.Parameter(torch.tensor(rng.normal(size=(6, 3))))
            self.w = torch.nn.Parameter(torch.tensor(rng.uniform(0.5, 1.5, size=6)))
            self.log_s = torch.nn.Parameter(torch.tensor(-0.5, dtype=torch.float64))

        def forward(self):
            return self.energy(self.x, self.w, self.log_s.exp())

    ours = Cloud(pe64.torch)
    theirs = Cloud(lambda x, w, s: ref_energy(torch, x, w, s))
    theirs.load_state_dict(ours.state_dict())
    opts = [torch.optim.SGD(m.parameters(), lr=0.05) for m in (ours, theirs)]
    target = torch.linspace(0.1, 0.6, 6, dtype=torch.float64)
    for step in range(5):
        for m, opt in zip((ours, theirs), opts):
            opt.zero_grad()
            ((m() - target) ** 2).sum().backward()
        for (name, p), q in zip(ours.named_parameters(), theirs.parameters()):
            assert_close(p.grad, q.grad, 1e-12, 1e-14, what=f"step {step} d/d{name}")
        for opt in opts:
            opt.step()

    x, w = ours.x.detach().clone().requires_grad_(), ours.w.detach().clone().requires_grad_()

    def loss(energy, x, w):
        return (torch.tanh(energy(x, w, 0.7)) * torch.arange(6.0, dtype=torch.float64)).sum()

    compiled = torch.compile(lambda x, w: loss(pe64.torch, x, w), fullgraph=True)
    got = torch.autograd.grad(compiled(x, w), (x, w))
    want = torch.autograd.grad(loss(lambda *a: ref_energy(torch, *a), x, w), (x, w))
    for g, r, what in zip(got, want, ("dx", "dw")):
        assert_close(g, r, 1e-12, 1e-14, what=f"torch.compile {what}")

    wide = torch.tensor(rng.normal(size=(6, 6)), requires_grad=True)
    cols = wide[:, ::2]  # (6, 3), strides (6, 2): not contiguous
    assert not cols.is_contiguous()
    got = torch.autograd.grad(pe64.torch(cols, w, 0.7).sum(), (wide,))[0]
    want = torch.autograd.grad(ref_energy(torch, cols, w, 0.7).sum(), (wide,))[0]
    assert_close(got, want, 1e-12, 1e-14, what="d/d(wide) through wide[:, ::2]")

    with pytest.raises(ValueError, match=r"argument 'x' must have dtype float64.*got int64"):
        pe64.torch(x.detach().long(), w, 0.7)
    with pytest.raises(ValueError, match=r"argument 'w' must have dtype float64.*got float32"):
        pe64.torch(x, w.detach().float(), 0.7)
    with pytest.raises(ValueError, match=r"size n is 6 from 'x' but 5 from 'w'"):
        pe64.torch(x, w[:5], 0.7)


@pytest.mark.parametrize("bits", [64, 32])
def test_jax_jit_vmap_grad_jacobians(pe64, pe32, bits):
    jax, jnp = jax_x64()
    op, dt, tol = (pe64, jnp.float64, 1e-12) if bits == 64 else (pe32, jnp.float32, 2e-5)
    rng = np.random.default_rng(391)
    x = jnp.asarray(rng.normal(size=(5, 2)), dtype=dt)
    w = jnp.asarray(rng.uniform(0.5, 1.5, size=5), dtype=dt)
    s = dt(0.8)

    def loss(energy, x, w):
        e = energy(x, w, s)
        return jnp.sum(jnp.log1p(e * e)) + 0.1 * jnp.sum(x ** 2)

    ours = lambda x, w: loss(op.jax, x, w)  # noqa: E731
    theirs = lambda x, w: loss(lambda *a: ref_energy(jnp, *a), x, w)  # noqa: E731
    got = jax.jit(jax.grad(ours, argnums=(0, 1)))(x, w)
    want = jax.grad(theirs, argnums=(0, 1))(x, w)
    for g, r, what in zip(got, want, ("dx", "dw")):
        assert g.dtype == dt
        assert_close(g, r, tol, tol, what=f"float{bits} jit(grad) {what}")
    xb = jnp.stack([x, 0.5 * x, x[::-1]])
    assert_close(jax.vmap(jax.grad(ours), in_axes=(0, None))(xb, w),
                 jax.vmap(jax.grad(theirs), in_axes=(0, None))(xb, w), tol, tol, what=f"float{bits} vmap(grad)")
    f = lambda x: op.jax(x, w, s)  # noqa: E731
    g = lambda x: ref_energy(jnp, x, w, s)  # noqa: E731
    want = jax.jacrev(g)(x)
    assert_close(jax.jacfwd(f)(x), want, tol, tol, what=f"float{bits} jacfwd")
    assert_close(jax.jit(jax.jacrev(f))(x), want, tol, tol, what=f"float{bits} jit(jacrev)")


def test_tf_persistent_tape_and_nested_hessian(pe64):
    tf = framework("tensorflow")
    rng = np.random.default_rng(392)
    x = tf.Variable(rng.normal(size=(5, 3)))
    w = tf.Variable(rng.uniform(0.5, 1.5, size=5))
    s = tf.constant(0.6, dtype=tf.float64)

    def ours(x, w):
        return pe64.tf(x, w, s)

    def theirs(x, w):
        return ref_energy(tf, x, w, s)

    def two_grads(energy):
        with tf.GradientTape(persistent=True) as tape:
            e = energy(x, w)
            total = tf.reduce_sum(e)
            spread = tf.reduce_sum((e - tf.reduce_mean(e)) ** 2)
        g1 = tape.gradient(total, [x, w])
        g2 = tape.gradient(spread, [x, w])
        del tape
        return g1 + g2

    def hessian_w(energy):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                loss = tf.reduce_sum(tf.sin(energy(x, w)))
            g = inner.gradient(loss, w)
        return outer.jacobian(g, w)

    for in_function in (False, True):
        wrap = tf.function if in_function else (lambda f: f)
        got = wrap(lambda: two_grads(ours))()
        want = wrap(lambda: two_grads(theirs))()
        for g, r, what in zip(got, want, ("d total/dx", "d total/dw", "d spread/dx", "d spread/dw")):
            assert_close(g.numpy(), r.numpy(), 1e-12, 1e-14, what=f"{what} (tf.function: {in_function})")
        got = wrap(lambda: hessian_w(ours))()
        want = wrap(lambda: hessian_w(theirs))()
        assert_close(got.numpy(), want.numpy(), 1e-11, 1e-13, what=f"Hessian in w (tf.function: {in_function})")


def test_numba_loops_over_rows_norm_and_math():
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def cloud(X):
        n, d = X.shape
        e = 0.0
        for i in range(n):
            for j in range(i + 1, n):
                r = np.linalg.norm(X[i] - X[j])
                e += math.exp(-r) * math.cos(r) + math.log1p(r * r)
            e += math.atan(X[i, 0] * X[i, d - 1])
        return e

    rng = np.random.default_rng(393)
    X = rng.normal(size=(7, 3))
    g = fzn.grad(cloud)(X)
    assert g.shape == X.shape

    jax, jnp = jax_x64()

    def cloud_jnp(X):
        n = X.shape[0]
        iu = np.triu_indices(n, 1)
        diff = X[:, None, :] - X[None, :, :]
        r = jnp.sqrt((diff ** 2).sum(-1))[iu]
        return (jnp.exp(-r) * jnp.cos(r) + jnp.log1p(r * r)).sum() + jnp.arctan(X[:, 0] * X[:, -1]).sum()

    assert_close(g, jax.grad(cloud_jnp)(jnp.asarray(X)), 1e-12, 1e-14, what="d/dX = jax.grad")
    flat = lambda v: cloud(v.reshape(X.shape))  # noqa: E731
    assert_close(g.ravel(), fd_grad(flat, X.ravel()), 1e-7, 1e-9, what="d/dX (FD)")
    V = rng.normal(size=X.shape)
    val, tan = fzn.jvp(cloud)(X, V)
    assert_close(np.array([val, tan]), np.array([cloud(X), (g * V).sum()]), 1e-12, 1e-14, what="value, <g, V>")

    # A column slice (not contiguous) is copied, and right; an integer array has no gradient:
    # numba's TypingError carries ferrozyme's reason (after numba's own preamble).
    W = rng.normal(size=(7, 6))
    assert_close(fzn.grad(cloud)(W[:, ::2]), fzn.grad(cloud)(np.ascontiguousarray(W[:, ::2])), 0.0,
                 what="strided = contiguous")
    with pytest.raises(numba.core.errors.TypingError, match=r"argument 0 \(array\(int64, 2d, C\)\) has no derivative"):
        fzn.grad(cloud)(np.ones((4, 3), dtype=np.int64))
