"""Scripts as framework users write them around a loaded function (front18).

PyTorch: a user's own `torch.autograd.Function` whose forward and backward call the op
and its `torch.func.vjp` (a gradient-scaling layer), trained a few steps; a gradient
penalty (double backward) refused with the package's message, never a silent zero.
JAX: `jit(vmap(grad))` of a loss over a pytree (dict) of float32 parameters, and
`jit(grad)` of a batched loss written with `vmap` inside.
TensorFlow: a `tf.Module` holding `tf.Variable`s, trained by a `tf.function` step with
a `GradientTape` over a batch of inputs (a Python loop over the batch, unrolled by
tracing), against the same module in TF math.
numba: an njit loss over a 2-D array that calls another njit helper, its gradient
against FD and the analytic one, and `jvp` against the directional FD.
Each derivative is checked against the framework's own autodiff of the same math, finite
differences, or an analytic formula.
"""

import numpy as np
import pytest

from conftest import assert_close, fd_grad, framework, jax_x64, rbf_inputs


# PyTorch ------------------------------------------------------------------------------


def test_torch_users_autograd_function_around_the_op(layer):
    torch = framework("torch")

    class ScaledGradLayer(torch.autograd.Function):
        """y = tanh(A x) forward; the gradient scaled by `s` (a user's trick)."""

        @staticmethod
        def forward(ctx, A, x, s):
            ctx.save_for_backward(A, x)
            ctx.s = s
            return layer.torch(A, x)

        @staticmethod
        def backward(ctx, gy):
            A, x = ctx.saved_tensors
            _, pullback = torch.func.vjp(layer.torch, A, x)
            gA, gx = pullback(gy)
            return ctx.s * gA, ctx.s * gx, None

    rng = np.random.default_rng(180)
    A0 = rng.normal(scale=0.5, size=(3, 4))
    xs = torch.tensor(rng.normal(size=(5, 4)))
    ys = torch.tensor(rng.normal(scale=0.5, size=(5, 3)))

    def train(use_op):
        A = torch.tensor(A0, requires_grad=True)
        opt = torch.optim.SGD([A], lr=0.1)
        for _ in range(6):
            opt.zero_grad()
            if use_op:
                out = torch.stack([ScaledGradLayer.apply(A, x, 0.5) for x in xs])
            else:
                out = torch.tanh(xs @ A.T)
            loss = ((out - ys) ** 2).sum()
            if not use_op:
                loss = 0.5 * loss  # the same scaled gradient, through torch math
            loss.backward()
            opt.step()
        return A.detach().numpy()

    assert_close(train(True), train(False), 1e-12, what="SGD with a user's autograd.Function")


def test_torch_gradient_penalty(layer):
    torch = framework("torch")
    rng = np.random.default_rng(181)
    A = torch.tensor(rng.normal(size=(3, 4)), requires_grad=True)
    x = torch.tensor(rng.normal(size=4), requires_grad=True)
    y = layer.torch(A, x).sum()
    (gx,) = torch.autograd.grad(y, x, create_graph=True)
    # the first derivative itself is right (vs torch math)
    x2 = x.detach().clone().requires_grad_()
    (rx,) = torch.autograd.grad(torch.tanh(A.detach() @ x2).sum(), x2)
    assert_close(gx.detach(), rx, 1e-12, what="first derivative under create_graph")
    penalty = (gx**2).sum()
    penalty.backward()  # a second derivative (it was refused): vs torch's own
    A2 = A.detach().clone().requires_grad_()
    x3 = x.detach().clone().requires_grad_()
    (r,) = torch.autograd.grad(torch.tanh(A2 @ x3).sum(), x3, create_graph=True)
    (r**2).sum().backward()
    assert_close(x.grad, x3.grad, 1e-12, what="gradient penalty d/dx")
    assert_close(A.grad, A2.grad, 1e-12, what="gradient penalty d/dA")


# JAX ----------------------------------------------------------------------------------


def test_jax_pytree_float32_jit_vmap_grad(rbf32):
    jax, jnp = jax_x64()
    _, cn, _ = rbf_inputs(n=2, m=3, d=2, seed=182)
    params = {"c": jnp.asarray(cn, dtype=jnp.float32), "ell": jnp.float32(0.8)}
    batch = jnp.asarray(np.random.default_rng(183).normal(size=(4, 2, 2)), dtype=jnp.float32)

    def loss(params, x):
        k, tot = rbf32.jax(x, params["c"], params["ell"])
        return tot + 0.1 * jnp.sum(k**2)

    def loss_ref(params, x):
        d2 = ((x[:, None, :] - params["c"][None, :, :]) ** 2).sum(-1)
        k = jnp.exp(-0.5 * d2 / params["ell"] ** 2)
        tot = (k * jnp.arange(1, x.shape[0] + 1, dtype=jnp.float32)[:, None]).sum()
        return tot + 0.1 * jnp.sum(k**2)

    g = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0)))(params, batch)
    r = jax.vmap(jax.grad(loss_ref), in_axes=(None, 0))(params, batch)
    assert set(g) == {"c", "ell"}
    assert g["c"].dtype == jnp.float32 and g["ell"].dtype == jnp.float32
    assert g["c"].shape == (4, 3, 2) and g["ell"].shape == (4,)
    assert_close(g["c"], r["c"], 1e-5, atol=1e-6, what="pytree grad c")
    assert_close(g["ell"], r["ell"], 1e-5, atol=1e-6, what="pytree grad ell")

    # a batched loss written with vmap inside, differentiated once under jit
    def batch_loss(params):
        return jnp.mean(jax.vmap(lambda x: loss(params, x))(batch))

    gb = jax.jit(jax.grad(batch_loss))(params)
    assert_close(gb["c"], r["c"].mean(0), 1e-5, atol=1e-6, what="grad of a vmapped mean, c")
    assert_close(gb["ell"], r["ell"].mean(), 1e-5, atol=1e-6, what="grad of a vmapped mean, ell")


# TensorFlow ---------------------------------------------------------------------------


def test_tf_module_trained_by_a_tf_function_step(layer):
    tf = framework("tensorflow")
    rng = np.random.default_rng(184)
    A0 = rng.normal(scale=0.5, size=(3, 4))
    X = tf.constant(rng.normal(size=(5, 4)))
    Y = tf.constant(rng.normal(scale=0.5, size=(5, 3)))

    class Net(tf.Module):
        def __init__(self, use_op):
            super().__init__()
            self.A = tf.Variable(A0)
            self.use_op = use_op

        def __call__(self, X):
            if self.use_op:
                return tf.stack([layer.tf(self.A, X[i]) for i in range(X.shape[0])])
            return tf.tanh(tf.linalg.matmul(X, self.A, transpose_b=True))

    def train(use_op):
        net = Net(use_op)
        opt = tf.keras.optimizers.SGD(learning_rate=0.1) if hasattr(tf, "keras") else None

        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum((net(X) - Y) ** 2)
            (g,) = tape.gradient(loss, [net.A])
            if opt is not None:
                opt.apply_gradients([(g, net.A)])
            else:
                net.A.assign_sub(0.1 * g)
            return loss

        losses = [float(step()) for _ in range(6)]
        return net.A.numpy(), losses

    A_op, l_op = train(True)
    A_ref, l_ref = train(False)
    assert_close(A_op, A_ref, 1e-12, what="trained A")
    assert_close(l_op, l_ref, 1e-12, what="losses")
    assert l_op[-1] < l_op[0]


# numba --------------------------------------------------------------------------------


def test_numba_njit_helpers_on_a_2d_array():
    numba = framework("numba")
    import math

    import ferrozyme.numba as fzn

    @numba.njit
    def pair_energy(a, b):
        r2 = 0.0
        for t in range(a.shape[0]):
            d = a[t] - b[t]
            r2 += d * d
        return 1.0 / (1.0 + r2) + 0.1 * math.sqrt(r2 + 1e-3)

    @numba.njit
    def energy(P):
        e = 0.0
        for i in range(P.shape[0]):
            for j in range(i + 1, P.shape[0]):
                e += pair_energy(P[i], P[j])
        return e

    P = np.random.default_rng(185).normal(size=(4, 2))
    g = fzn.grad(energy)(P)
    assert g.shape == P.shape
    assert_close(g, fd_grad(energy, P), 1e-6, what="njit helper, FD")
    want = np.zeros_like(P)
    for i in range(4):
        for j in range(i + 1, 4):
            d = P[i] - P[j]
            r2 = d @ d
            c = -2.0 / (1 + r2) ** 2 + 0.1 / np.sqrt(r2 + 1e-3)
            want[i] += c * d
            want[j] -= c * d
    assert_close(g, want, 1e-12, what="njit helper, analytic")
    # the forces sum to zero (translation invariance)
    assert np.abs(g.sum(axis=0)).max() < 1e-12
    V = np.random.default_rng(186).normal(size=P.shape)
    _, t = fzn.jvp(energy)(P, V)
    h = 1e-6
    assert_close(t, (energy(P + h * V) - energy(P - h * V)) / (2 * h), 1e-6, what="jvp vs FD")
    assert_close(t, (want * V).sum(), 1e-12, what="jvp vs grad")
