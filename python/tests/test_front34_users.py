"""Scripts as users write them (front34): a C reaction-diffusion model fitted in a PyTorch
training loop (an `nn.Module` holding the parameters, Adam) step for step against the same
model written in torch; `jax.jit(jax.vmap(jax.grad(...)))` over a batch of parameter sets;
a TensorFlow `GradientTape` descent; and numba `@njit` functions with loops, slicing,
`np.exp` and the BLAS products `np.dot` / `@` (refused before front34, now differentiated
through C definitions of numba's BLAS helpers, shims/numba_blas.c). Every derivative is
checked against the framework's own autodiff of the same math or central differences.
"""

import numpy as np
import pytest

import ferrozyme
from conftest import assert_close, fd_grad, framework, jax_x64

# u_t = D u_xx + r u (1 - u) with fixed ends, explicit Euler; p = (D, r).
REACT_C = r"""
void react(const double *p, const double *u0, double *u, int n, int steps) {
  double tmp[64];
  for (int i = 0; i < n; i++) u[i] = u0[i];
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < n - 1; i++)
      tmp[i] = u[i] + 0.1 * (p[0] * (u[i - 1] - 2 * u[i] + u[i + 1]) + p[1] * u[i] * (1 - u[i]));
    for (int i = 1; i < n - 1; i++) u[i] = tmp[i];
  }
}
"""
REACT_SIG = "(in p[2], in u0[n], out u[n], n, const steps)"
STEPS = 12


@pytest.fixture(scope="module")
def react():
    return ferrozyme.load(REACT_C, "react", signature=REACT_SIG, lang="c")


def react_ref(xp, p, u0, steps=STEPS):
    """The same model with the framework's array operations (its own autodiff is the oracle)."""
    cat = xp.concat if xp.__name__ == "tensorflow" else xp.concatenate
    u = u0
    for _ in range(steps):
        lap = u[:-2] - 2 * u[1:-1] + u[2:]
        inner = u[1:-1] + 0.1 * (p[0] * lap + p[1] * u[1:-1] * (1 - u[1:-1]))
        u = cat([u[:1], inner, u[-1:]], 0)
    return u


def data(n=16, seed=34):
    rng = np.random.default_rng(seed)
    u0 = 0.5 + 0.3 * np.sin(np.linspace(0, 3, n)) + 0.05 * rng.normal(size=n)
    return u0, np.array([0.3, 0.8])


def test_torch_module_trained_with_adam_like_torch(react):
    """An nn.Module holding (D, r) fits a target trajectory with Adam for 15 steps: the
    parameters follow the pure-torch model's trajectory to 1e-11 and the loss falls."""
    torch = framework("torch")
    u0, p_true = data()
    target = react(p_true, u0, steps=STEPS)

    class Model(torch.nn.Module):
        def __init__(self, ours):
            super().__init__()
            self.p = torch.nn.Parameter(torch.tensor([0.1, 0.2], dtype=torch.float64))
            self.ours = ours

        def forward(self, u0):
            if self.ours:
                return react.torch(self.p, u0, steps=STEPS)
            return react_ref(torch, self.p, u0)

    u0t, tt = torch.tensor(u0), torch.tensor(target)
    models = [Model(True), Model(False)]
    opts = [torch.optim.Adam(m.parameters(), lr=0.05) for m in models]
    losses = []
    for step in range(15):
        for m, opt in zip(models, opts):
            opt.zero_grad()
            loss = (m(u0t) - tt).square().sum()
            loss.backward()
            opt.step()
            if m.ours:
                losses.append(loss.item())
        assert_close(models[0].p.detach(), models[1].p.detach(), 1e-11, 1e-13, what=f"parameters after step {step}")
    assert losses[-1] < 0.2 * losses[0], losses


def test_jax_jit_vmap_grad_over_parameter_sets(react):
    """jax.jit(jax.vmap(jax.grad(loss))) over a batch of (D, r), the initial state shared,
    against JAX's gradient of the jnp model; and the batched loss values."""
    jax, jnp = jax_x64()
    u0, _ = data()
    u0j = jnp.asarray(u0)
    batch = jnp.asarray([[0.1, 0.5], [0.3, 0.8], [0.45, 1.2], [0.2, 0.0]])

    def loss(p, u0):
        return jnp.sum(react.jax(p, u0, steps=STEPS) ** 2)

    def loss_ref(p, u0):
        return jnp.sum(react_ref(jnp, p, u0) ** 2)

    g = jax.jit(jax.vmap(jax.grad(loss), in_axes=(0, None)))(batch, u0j)
    g_ref = jax.vmap(jax.grad(loss_ref), in_axes=(0, None))(batch, u0j)
    assert_close(g, g_ref, 1e-12, 1e-14, what="jit(vmap(grad)) d/dp")
    gu = jax.jit(jax.grad(loss, argnums=1))(batch[1], u0j)
    assert_close(gu, jax.grad(loss_ref, argnums=1)(batch[1], u0j), 1e-12, 1e-14, what="jit(grad) d/du0")
    vals = jax.vmap(loss, in_axes=(0, None))(batch, u0j)
    assert_close(vals, jnp.stack([loss_ref(p, u0j) for p in batch]), 1e-13, what="vmap values")


def test_tf_gradient_tape_descent(react):
    """Five gradient-descent steps on a tf.Variable through a GradientTape, beside the
    same steps on TF's own model: the variables agree after every step."""
    tf = framework("tensorflow")
    u0, p_true = data()
    target = tf.constant(react(p_true, u0, steps=STEPS))
    u0t = tf.constant(u0)
    ours, ref = tf.Variable([0.1, 0.2], dtype=tf.float64), tf.Variable([0.1, 0.2], dtype=tf.float64)
    for step in range(5):
        for var, model in ((ours, lambda p: react.tf(p, u0t, steps=STEPS)), (ref, lambda p: react_ref(tf, p, u0t))):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum((model(var) - target) ** 2)
            var.assign_sub(0.5 * tape.gradient(loss, var))
        assert_close(ours.numpy(), ref.numpy(), 1e-11, 1e-13, what=f"variable after step {step}")


def test_numba_njit_with_np_dot_matmul_exp_and_slicing():
    """numba @njit functions as a scientist writes them: a logistic loss with `np.dot` of a
    row slice and `w[1:]`, a two-layer model with `@` (matrix . vector and matrix . matrix,
    C-order and transposed), `np.exp`, slices of the results, `np.linalg.norm` of vectors
    (a strided column too); gradients in every argument
    against central differences and formulas, float32 (the helpers' 's' kind), a forward
    tangent. (`np.dot` of a `@` result with itself, refused here until front35, is
    differentiated and checked in test_front35_users.py.)"""
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def logistic(w, X, y):
        n = X.shape[0]
        s = 0.0
        for i in range(n):
            z = np.dot(X[i, :], w[1:]) + w[0]
            s += np.log1p(np.exp(-y[i] * z))
        return s / n + 0.01 * np.dot(w[1:], w[1:])

    @numba.njit
    def two_layer(W1, W2, x):
        h = np.tanh(W1 @ x)
        out = W2 @ h
        return np.sum(np.exp(-out[1:])) + out[0] ** 2

    @numba.njit
    def gram(X):
        G = X.T @ X
        return (G * G).sum()

    rng = np.random.default_rng(341)
    X, y = rng.normal(size=(7, 3)), np.sign(rng.normal(size=7))
    w = rng.normal(size=4)
    g = fzn.grad(logistic)(w, X, y)
    assert_close(g, fd_grad(lambda v: logistic(v, X, y), w), 1e-7, 1e-9, what="logistic d/dw")
    g32 = fzn.grad(logistic)(w.astype(np.float32), X.astype(np.float32), y.astype(np.float32))
    assert g32.dtype == np.float32
    assert_close(g32, g, 1e-4, 1e-5, what="logistic float32 (numba_xxdot's 's' kind)")

    W1, W2, x = rng.normal(size=(5, 3)), rng.normal(size=(3, 5)), rng.normal(size=3)
    d1, d2, dx = fzn.grad(two_layer, argnums=(0, 1, 2))(W1, W2, x)
    for got, i, arr in ((d1, 0, W1), (d2, 1, W2), (dx, 2, x)):
        args = [W1, W2, x]

        def f(v, i=i):
            a = list(args)
            a[i] = v
            return two_layer(*a)

        assert_close(got, fd_grad(f, arr), 1e-7, 1e-9, what=f"two_layer d/darg{i}")
    v = rng.normal(size=3)
    val, tan = fzn.jvp(two_layer, argnums=2)(W1, W2, x, v)
    assert_close(np.array([val, tan]), np.array([two_layer(W1, W2, x), dx @ v]), 1e-12, what="two_layer jvp")

    # d |XᵀX|_F² / dX = 4 X XᵀX
    assert_close(fzn.grad(gram)(X), 4 * X @ (X.T @ X), 1e-12, what="gram d/dX")

    @numba.njit
    def residual(A, x, b):
        return np.linalg.norm(A @ x - b) + np.linalg.norm(A[:, 0])

    b = rng.normal(size=5)
    r = W1 @ x - b
    want = np.outer(r, x) / np.linalg.norm(r)
    want[:, 0] += W1[:, 0] / np.linalg.norm(W1[:, 0])
    assert_close(fzn.grad(residual)(W1, x, b), want, 1e-12, what="np.linalg.norm (numba_xxnrm2), a strided column")



_UNOPTIMIZED_SCRIPT = r"""
import numpy as np, numba
import ferrozyme.numba as fzn

@numba.njit
def loop_matvec_sum(X, w):
    v = np.empty(X.shape[0])
    for i in range(X.shape[0]):
        s = 0.0
        for j in range(X.shape[1]):
            s += X[i, j] * w[j]
        v[i] = s
    return v.sum()

X = np.linspace(-0.4, 1.0, 15).reshape(5, 3)
w = np.array([0.3, -1.2, 0.7])
g = fzn.grad(loop_matvec_sum, argnums=1)(X, w)
print("ERR", np.abs(g - X.sum(axis=0)).max())
"""


def test_numba_unoptimized_numba_opt_0_loop_into_np_empty():
    """NUMBA_OPT=0 (numba's debugging setting) compiles the function unoptimized: the same
    gradient as with numba's default optimization, d/dw Σ X w = Xᵀ 1, in a subprocess (the
    setting must precede importing numba)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_OPT="0")
    r = subprocess.run([sys.executable, "-c", _UNOPTIMIZED_SCRIPT], capture_output=True, text=True,
                       timeout=600, env=env)
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr[-2000:]}"
    assert float(r.stdout.split("ERR")[1]) <= 1e-12, r.stdout
