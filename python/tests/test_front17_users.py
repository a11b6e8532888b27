"""Scripts as framework users write them around a loaded function (front17).

PyTorch: an `nn.Module` whose forward calls the op, trained with Adam, eager and through
`torch.compile` (default, not fullgraph), against the same module in torch math; a
wrong dtype and a non-contiguous view from a user's slicing.
A C source given as text with an output array and a return value (torch, TF).
JAX: a user's `jax.custom_vjp` whose backward calls `jax.vjp` of the op (and a custom_vjp
function composed with the op), `lax.scan` calling the op at each step under
`jit(grad)`, float32 inputs through `jit(vmap(grad))`.
TensorFlow: batched inputs through `tf.map_fn` inside a `tf.function`, a weighted sum of
per-example energies differentiated for the batch and an active scalar.
numba: float32 arrays and `math.log1p`/`math.expm1`/`math.atan2`/`math.hypot` in an
njit function, against the analytic gradient.
Each derivative is checked against the framework's own autodiff of the same math, finite
differences, an analytic formula, or several.
"""

import math

import numpy as np
import pytest

from conftest import assert_close, fd_grad, framework, jax_x64, rbf_inputs

# A user's C source given as text: a softplus-regularized quadratic form and a
# per-point log-sum-exp (both with a return value and an output array).
ENERGY_C = r"""
#include <math.h>
double energy(const double *q, const double *K, double *force, double beta, int n) {
  double e = 0.0;
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++) s += K[i * n + j] * q[j];
    force[i] = -s;
    e += 0.5 * q[i] * s + log1p(exp(beta * q[i])) / beta;
  }
  return e;
}
"""
ENERGY_SIG = "(in q[n], const K[n, n], out force[n], in beta, n) -> out"


@pytest.fixture(scope="module")
def energy():
    import ferrozyme

    return ferrozyme.load(ENERGY_C, "energy", signature=ENERGY_SIG, lang="c")


def _energy_np(q, K, beta):
    s = K @ q
    return float(0.5 * q @ s + (np.log1p(np.exp(beta * q)) / beta).sum()), -s


def _spd(n, seed):
    rng = np.random.default_rng(seed)
    B = rng.normal(size=(n, n))
    return B @ B.T / n + np.eye(n)


# PyTorch ------------------------------------------------------------------------------


def _torch_module(torch, layer, use_op):
    class TanhNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            g = torch.Generator().manual_seed(17)
            self.A = torch.nn.Parameter(torch.randn(4, 3, generator=g, dtype=torch.float64) * 0.5)
            self.v = torch.nn.Parameter(torch.randn(4, generator=g, dtype=torch.float64))

        def forward(self, X):
            if use_op:
                H = torch.stack([layer.torch(self.A, x) for x in X])
            else:
                H = torch.tanh(X @ self.A.T)
            return H @ self.v

    return TanhNet()


def test_torch_module_with_adam_eager_and_compiled(layer):
    torch = framework("torch")
    rng = np.random.default_rng(170)
    X = torch.tensor(rng.normal(size=(8, 3)))
    Y = torch.tensor(np.sin(rng.normal(size=8)))

    def train(use_op, compiled=False):
        net = _torch_module(torch, layer, use_op)
        fwd = torch.compile(net) if compiled else net
        opt = torch.optim.Adam(net.parameters(), lr=0.05)
        losses = []
        for _ in range(12):
            opt.zero_grad()
            loss = ((fwd(X) - Y) ** 2).mean()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return [p.detach().numpy().copy() for p in net.parameters()], losses

    p_op, l_op = train(True)
    p_ref, l_ref = train(False)
    for a, b in zip(p_op, p_ref):
        assert_close(a, b, 1e-9, what="Adam-trained parameters (eager)")
    assert l_op[-1] < l_op[0]
    try:
        p_c, l_c = train(True, compiled=True)
    except Exception as e:  # pragma: no cover - depends on the installed inductor
        pytest.skip(f"torch.compile unavailable here: {type(e).__name__}: {e}")
    for a, b in zip(p_c, p_ref):
        assert_close(a, b, 1e-9, what="Adam-trained parameters (torch.compile)")
    assert_close(l_c, l_ref, 1e-9, what="losses (torch.compile)")


def test_torch_op_with_an_output_array_and_a_return_value(energy):
    torch = framework("torch")
    n = 5
    Kn = _spd(n, 171)
    qn = np.random.default_rng(172).normal(size=n)
    q = torch.tensor(qn, requires_grad=True)
    beta = torch.tensor(1.7, dtype=torch.float64, requires_grad=True)
    K = torch.tensor(Kn)
    force, e = energy.torch(q, K, beta)
    e_np, f_np = _energy_np(qn, Kn, 1.7)
    assert abs(float(e) - e_np) < 1e-12
    assert_close(force.detach(), f_np, 1e-12, what="force")
    # a loss of both outputs, vs torch math
    (e + 0.3 * (force**2).sum()).backward()
    q2 = torch.tensor(qn, requires_grad=True)
    b2 = torch.tensor(1.7, dtype=torch.float64, requires_grad=True)
    s = K @ q2
    e2 = 0.5 * q2 @ s + (torch.log1p(torch.exp(b2 * q2)) / b2).sum()
    (e2 + 0.3 * (s**2).sum()).backward()
    assert_close(q.grad, q2.grad, 1e-12, what="dq")
    assert_close(beta.grad, b2.grad, 1e-12, what="dbeta")
    # the force is minus the gradient of the quadratic part: analytic
    assert_close(q.grad, Kn @ qn + 1 / (1 + np.exp(-1.7 * qn)) + 0.6 * Kn @ (Kn @ qn), 1e-12, what="dq formula")


def test_torch_wrong_dtype_and_strided_views(layer):
    torch = framework("torch")
    rng = np.random.default_rng(173)
    A = torch.tensor(rng.normal(size=(3, 2)))
    x32 = torch.tensor(rng.normal(size=2), dtype=torch.float32)
    with pytest.raises(ValueError, match="x"):
        layer.torch(A, x32)
    # a user's slice: a non-contiguous column of a bigger matrix, and a transposed A
    big = torch.tensor(rng.normal(size=(2, 5)), requires_grad=True)
    x = big[:, 1]
    At = torch.tensor(rng.normal(size=(2, 3)), requires_grad=True)
    y = layer.torch(At.T, x)
    y.sum().backward()
    big2 = big.detach().clone().requires_grad_()
    At2 = At.detach().clone().requires_grad_()
    torch.tanh(At2.T @ big2[:, 1]).sum().backward()
    assert_close(y.detach(), torch.tanh(At.T @ x).detach(), 1e-14, what="strided primal")
    assert_close(big.grad, big2.grad, 1e-12, what="grad through a column view")
    assert_close(At.grad, At2.grad, 1e-12, what="grad through a transposed view")


# JAX ----------------------------------------------------------------------------------


def test_jax_custom_vjp_around_and_beside_the_op(layer):
    jax, jnp = jax_x64()
    rng = np.random.default_rng(174)
    A = jnp.asarray(rng.normal(size=(3, 4)))
    x = jnp.asarray(rng.normal(size=4))

    # 1. a user's custom_vjp whose rule calls jax.vjp of the op and clips the cotangent
    @jax.custom_vjp
    def clipped_layer(A, x):
        return layer.jax(A, x)

    def fwd(A, x):
        y, pullback = jax.vjp(layer.jax, A, x)
        return y, pullback

    def bwd(pullback, g):
        return pullback(jnp.clip(g, -0.5, 0.5))

    clipped_layer.defvjp(fwd, bwd)

    def loss(A, x, f):
        return jnp.sum(f(A, x) * jnp.arange(1.0, 4.0))

    gA, gx = jax.jit(jax.grad(loss, argnums=(0, 1)), static_argnums=2)(A, x, clipped_layer)
    # the seed is (1, 2, 3): clipped to 0.5 each, so the gradient is that of 0.5·Σy
    rA, rx = jax.grad(lambda A, x: 0.5 * jnp.sum(jnp.tanh(A @ x)), argnums=(0, 1))(A, x)
    assert_close(gA, rA, 1e-12, what="custom_vjp dA")
    assert_close(gx, rx, 1e-12, what="custom_vjp dx")

    # 2. the op composed with a user's custom_vjp function (a straight-through round)
    @jax.custom_vjp
    def st_round(v):
        return jnp.round(v * 4.0) / 4.0

    st_round.defvjp(lambda v: (st_round(v), None), lambda _, g: (g,))

    def loss2(x):
        return jnp.sum(layer.jax(A, st_round(x)) ** 2)

    g2 = jax.jit(jax.grad(loss2))(x)
    xr = np.round(np.asarray(x) * 4.0) / 4.0
    y = np.tanh(np.asarray(A) @ xr)
    assert_close(g2, np.asarray(A).T @ (2 * y * (1 - y**2)), 1e-12, what="straight-through grad")


def test_jax_scan_calls_the_op_each_step(layer):
    jax, jnp = jax_x64()
    rng = np.random.default_rng(175)
    A = jnp.asarray(rng.normal(scale=0.6, size=(3, 3)))
    h0 = jnp.asarray(rng.normal(size=3))
    xs = jnp.asarray(rng.normal(size=(6, 3)))

    def rnn_loss(A, h0, op=True):
        def cell(h, x):
            h = layer.jax(A, h + x) if op else jnp.tanh(A @ (h + x))
            return h, jnp.sum(h**2)

        h, per_step = jax.lax.scan(cell, h0, xs)
        return per_step.sum() + jnp.sum(h)

    v, (gA, gh) = jax.jit(jax.value_and_grad(rnn_loss, argnums=(0, 1)))(A, h0)
    rv, (rA, rh) = jax.value_and_grad(lambda a, h: rnn_loss(a, h, False), argnums=(0, 1))(A, h0)
    assert abs(float(v) - float(rv)) < 1e-12
    assert_close(gA, rA, 1e-11, what="scan dA")
    assert_close(gh, rh, 1e-11, what="scan dh0")
    fd = fd_grad(lambda h: float(rnn_loss(A, jnp.asarray(h), False)), np.asarray(h0))
    assert_close(gh, fd, 1e-6, what="scan dh0 vs FD")


def test_jax_float32_jit_vmap_grad(rbf32):
    jax, jnp = jax_x64()
    xn, cn, elln = rbf_inputs(n=2, m=3, d=2, seed=176)
    c = jnp.asarray(cn, dtype=jnp.float32)
    batch = jnp.asarray(np.random.default_rng(177).normal(size=(5, 2, 2)), dtype=jnp.float32)
    ell = jnp.float32(elln)

    def tot(x, ell):
        return rbf32.jax(x, c, ell)[1]

    def tot_ref(x, ell):
        d2 = ((x[:, None, :] - c[None, :, :]) ** 2).sum(-1)
        k = jnp.exp(-0.5 * d2 / ell**2)
        return (k * jnp.arange(1, x.shape[0] + 1, dtype=jnp.float32)[:, None]).sum()

    gx, gl = jax.jit(jax.vmap(jax.grad(tot, argnums=(0, 1)), in_axes=(0, None)))(batch, ell)
    assert gx.dtype == jnp.float32 and gl.dtype == jnp.float32
    rx, rl = jax.vmap(jax.grad(tot_ref, argnums=(0, 1)), in_axes=(0, None))(batch, ell)
    assert_close(gx, rx, 1e-5, atol=1e-6, what="f32 vmap grad x")
    assert_close(gl, rl, 1e-5, atol=1e-6, what="f32 vmap grad ell")
    # float64 reference by FD of the f64 math on one batch entry
    b0 = np.asarray(batch[0], dtype=np.float64)
    fd = fd_grad(
        lambda x: float(
            (np.exp(-0.5 * ((x[:, None, :] - cn[None]) ** 2).sum(-1) / elln**2) * np.arange(1, 3)[:, None]).sum()
        ),
        b0,
    )
    assert_close(gx[0], fd, 1e-4, atol=1e-5, what="f32 grad vs f64 FD")
    # a float64 array where the C function takes float: a clear error, no silent cast
    with pytest.raises(ValueError):
        rbf32.jax(jnp.asarray(xn), c, ell)


# TensorFlow ---------------------------------------------------------------------------


def test_tf_map_fn_over_a_batch_in_tf_function(energy):
    tf = framework("tensorflow")
    n = 4
    Kn = _spd(n, 178)
    Q = np.random.default_rng(179).normal(size=(6, n))
    K = tf.constant(Kn)
    beta = tf.Variable(1.3, dtype=tf.float64)
    Qv = tf.Variable(Q)

    @tf.function
    def batched(Qv, beta):
        with tf.GradientTape() as tape:
            es = tf.map_fn(lambda q: energy.tf(q, K, beta)[1], Qv, fn_output_signature=tf.float64)
            loss = tf.reduce_sum(es * tf.range(1.0, 7.0, dtype=tf.float64))
        return es, tape.gradient(loss, [Qv, beta])

    es, (gQ, gb) = batched(Qv, beta)
    assert_close(es.numpy(), [_energy_np(q, Kn, 1.3)[0] for q in Q], 1e-12, what="batched energies")
    with tf.GradientTape() as tape:
        S = tf.linalg.matmul(Qv, K)
        es2 = tf.reduce_sum(0.5 * Qv * S + tf.math.log1p(tf.exp(beta * Qv)) / beta, axis=1)
        loss2 = tf.reduce_sum(es2 * tf.range(1.0, 7.0, dtype=tf.float64))
    rQ, rb = tape.gradient(loss2, [Qv, beta])
    assert_close(gQ.numpy(), rQ.numpy(), 1e-12, what="batched dQ")
    assert_close(gb.numpy(), rb.numpy(), 1e-12, what="batched dbeta")
    w = np.arange(1.0, 7.0)
    fd = fd_grad(lambda b: sum(wi * _energy_np(q, Kn, float(b))[0] for wi, q in zip(w, Q)), np.array(1.3))
    assert_close(gb.numpy(), fd, 1e-6, what="dbeta vs FD")


# numba --------------------------------------------------------------------------------


def test_numba_float32_and_math_functions():
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def f64(p):
        s = 0.0
        for i in range(p.shape[0] - 1):
            s += math.log1p(p[i] * p[i]) + math.expm1(0.5 * p[i + 1]) + math.atan2(p[i + 1], 1.0 + p[i] * p[i])
            s += math.hypot(p[i], p[i + 1])
        return s

    @numba.njit
    def f32(p):
        s = np.float32(0.0)
        for i in range(p.shape[0]):
            s += np.float32(0.5) * p[i] * p[i] + math.log1p(p[i] * p[i])
        return s

    p = np.array([0.3, -0.8, 1.1, 0.4])
    g = fzn.grad(f64)(p)
    want = np.zeros_like(p)
    for i in range(p.size - 1):
        a, b = p[i], p[i + 1]
        r = math.hypot(a, b)
        u = 1.0 + a * a
        want[i] += 2 * a / (1 + a * a) + (-b * 2 * a) / (u * u + b * b) + a / r
        want[i + 1] += 0.5 * math.exp(0.5 * b) + u / (u * u + b * b) + b / r
    assert_close(g, want, 1e-12, what="math functions, analytic")
    assert_close(g, fd_grad(f64, p), 1e-6, what="math functions, FD")

    p32 = np.array([0.5, -1.5, 2.0], dtype=np.float32)
    g32 = fzn.grad(f32)(p32)
    assert g32.dtype == np.float32
    want32 = p32.astype(np.float64) + 2 * p32 / (1 + p32.astype(np.float64) ** 2)
    assert_close(g32, want32, 1e-6, what="float32 gradient, analytic")
