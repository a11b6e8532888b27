"""Scripts as framework users write them around a loaded function (front19).

PyTorch: a user's own `torch.autograd.Function` (forward the op, backward the op's
`torch.func.vjp`) called inside a function compiled by `torch.compile`, trained a few
steps against the same model in torch math.
JAX: `jax.jit(jax.grad(loss), static_argnums=...)` with the number of time steps of a C
simulation a static argument (two values: two traces, two compiled derivatives), and
`jax.lax.scan` over the C kernel with `jax.checkpoint` around each step.
TensorFlow: a Keras custom layer (`tf.keras.layers.Layer` with `add_weight`) whose
`call` maps the op over the batch with `tf.map_fn`, trained by a `tf.function` step with
a `GradientTape`, against the same layer in TF math.
numba: an njit loss of two differentiated arrays (`argnums=(0, 1)`), its gradient used
by an njit gradient-descent loop, against the analytic gradient and FD.
Each derivative is checked against the framework's own autodiff of the same math, finite
differences, or an analytic formula.
"""

import numpy as np
import pytest

from conftest import assert_close, fd_grad, framework, heat_inputs, jax_x64


def heat_ref(xp, u, steps):
    """The C simulation `heat.c: simulate` in array math (numpy, jax.numpy or torch)."""
    roll = getattr(xp, "roll")
    for _ in range(steps):
        u = u + 0.1 * (roll(u, 1) - 2.0 * u + roll(u, -1)) - 0.01 * u * u * u
    return u


# PyTorch ------------------------------------------------------------------------------


def test_torch_autograd_function_inside_torch_compile(layer):
    torch = framework("torch")

    class OpLayer(torch.autograd.Function):
        @staticmethod
        def forward(A, x):
            return layer.torch(A, x)

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*inputs)

        @staticmethod
        def backward(ctx, gy):
            A, x = ctx.saved_tensors
            _, pullback = torch.func.vjp(layer.torch, A, x)
            return pullback(gy)

    rng = np.random.default_rng(190)
    A0 = rng.normal(scale=0.5, size=(3, 4))
    xs = torch.tensor(rng.normal(size=(4, 4)))
    ys = torch.tensor(rng.normal(scale=0.5, size=(4, 3)))

    def loss_op(A):
        out = torch.stack([OpLayer.apply(A, x) for x in xs])
        return ((out - ys) ** 2).sum()

    def loss_ref(A):
        return ((torch.tanh(xs @ A.T) - ys) ** 2).sum()

    def train(loss):
        A = torch.tensor(A0, requires_grad=True)
        opt = torch.optim.SGD([A], lr=0.05)
        losses = []
        for _ in range(4):
            opt.zero_grad()
            v = loss(A)
            v.backward()
            opt.step()
            losses.append(float(v))
        return A.detach().numpy(), losses

    try:
        compiled = torch.compile(loss_op)
        A_c, l_c = train(compiled)
    except Exception as e:  # pragma: no cover - an environment without a C++ toolchain
        if "ferrozyme" in f"{type(e).__module__} {e}".lower():
            raise
        pytest.skip(f"torch.compile unavailable here: {type(e).__name__}: {e}")
    A_r, l_r = train(loss_ref)
    assert_close(A_c, A_r, 1e-11, what="SGD through a compiled autograd.Function")
    assert_close(l_c, l_r, 1e-11, what="losses")


# JAX ----------------------------------------------------------------------------------


def test_jax_jit_grad_with_static_steps(heat):
    jax, jnp = jax_x64()
    u0 = jnp.asarray(heat_inputs(n=16, seed=190))
    w = jnp.linspace(-1.0, 1.0, 16)

    def loss(u0, steps):
        return jnp.sum(w * heat.jax(u0, steps=steps) ** 2)

    g = jax.jit(jax.grad(loss), static_argnums=1)
    for steps in (3, 7, 3):
        got = g(u0, steps)
        want = jax.grad(lambda u: jnp.sum(w * heat_ref(jnp, u, steps) ** 2))(u0)
        assert_close(got, want, 1e-12, what=f"steps={steps}")
    fd = fd_grad(lambda u: float(loss(jnp.asarray(u), 7)), np.asarray(u0))
    assert_close(g(u0, 7), fd, 1e-6, what="vs FD")


def test_jax_scan_with_checkpoint_over_the_kernel(heat):
    jax, jnp = jax_x64()
    u0 = jnp.asarray(heat_inputs(n=12, seed=191))
    forcing = jnp.asarray(np.random.default_rng(192).normal(scale=0.1, size=(5, 12)))

    def rollout(u0, op=True):
        @jax.checkpoint
        def step(u, f):
            u = (heat.jax(u, steps=2) if op else heat_ref(jnp, u, 2)) + f
            return u, jnp.mean(u**2)

        u, energies = jax.lax.scan(step, u0, forcing)
        return energies.sum() + jnp.sum(jnp.sin(u))

    v, g = jax.jit(jax.value_and_grad(rollout))(u0)
    rv, rg = jax.value_and_grad(lambda u: rollout(u, False))(u0)
    assert abs(float(v) - float(rv)) < 1e-12
    assert_close(g, rg, 1e-11, what="scan + checkpoint")
    fd = fd_grad(lambda u: float(rollout(jnp.asarray(u), False)), np.asarray(u0))
    assert_close(g, fd, 1e-6, what="vs FD")


# TensorFlow ---------------------------------------------------------------------------


def test_tf_keras_custom_layer_with_map_fn(layer):
    tf = framework("tensorflow")
    rng = np.random.default_rng(193)
    A0 = rng.normal(scale=0.5, size=(3, 4))
    X = tf.constant(rng.normal(size=(6, 4)))
    Y = tf.constant(rng.normal(scale=0.5, size=(6, 3)))

    class TanhDense(tf.keras.layers.Layer):
        def __init__(self, use_op):
            super().__init__(dtype="float64")
            self.use_op = use_op

        def build(self, input_shape):
            self.A = self.add_weight(
                name="A",
                shape=(3, int(input_shape[-1])),
                dtype="float64",
                initializer=tf.keras.initializers.Constant(A0),
            )

        def call(self, X):
            if self.use_op:
                return tf.map_fn(lambda x: layer.tf(self.A, x), X)
            return tf.tanh(tf.linalg.matmul(X, self.A, transpose_b=True))

    def train(use_op):
        net = TanhDense(use_op)
        net(X)  # build
        opt = tf.keras.optimizers.SGD(learning_rate=0.1)

        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum((net(X) - Y) ** 2)
            grads = tape.gradient(loss, net.trainable_variables)
            opt.apply_gradients(zip(grads, net.trainable_variables))
            return loss

        losses = [float(step()) for _ in range(5)]
        return np.array(net.A.numpy()), losses

    A_op, l_op = train(True)
    A_ref, l_ref = train(False)
    assert_close(A_op, A_ref, 1e-12, what="trained A (map_fn)")
    assert_close(l_op, l_ref, 1e-12, what="losses")
    assert l_op[-1] < l_op[0]


# numba --------------------------------------------------------------------------------


def test_numba_two_argnums_and_descent_in_njit():
    numba = framework("numba")
    import math

    import ferrozyme.numba as fzn

    @numba.njit
    def misfit(w, b, X, y):
        s = 0.0
        for i in range(X.shape[0]):
            z = b[0]
            for j in range(X.shape[1]):
                z += X[i, j] * w[j]
            s += math.log1p(math.exp(-y[i] * z))
        r = 0.0
        for j in range(w.shape[0]):
            r += w[j] * w[j]
        return s / X.shape[0] + 0.05 * r

    rng = np.random.default_rng(194)
    X = rng.normal(size=(8, 3))
    y = np.sign(rng.normal(size=8))
    w = rng.normal(size=3)
    b = np.array([0.2])

    g = fzn.grad(misfit, argnums=(0, 1))
    gw, gb = g(w, b, X, y)
    z = X @ w + b[0]
    s = -y / (1.0 + np.exp(y * z)) / len(y)
    assert_close(gw, X.T @ s + 0.1 * w, 1e-12, what="d/dw")
    assert_close(gb, [s.sum()], 1e-12, what="d/db")
    assert_close(gw, fd_grad(lambda q: misfit(q, b, X, y), w), 1e-6, what="d/dw vs FD")

    @numba.njit
    def descend(w, b, X, y, steps):
        for _ in range(steps):
            dw, db = g(w, b, X, y)
            w = w - 0.5 * dw
            b = b - 0.5 * db
        return w, b

    w1, b1 = descend(w.copy(), b.copy(), X, y, 20)
    # the same descent with the analytic gradient
    wr, br = w.copy(), b.copy()
    for _ in range(20):
        z = X @ wr + br[0]
        s = -y / (1.0 + np.exp(y * z)) / len(y)
        wr, br = wr - 0.5 * (X.T @ s + 0.1 * wr), br - 0.5 * np.array([s.sum()])
    assert_close(w1, wr, 1e-10, what="descended w")
    assert_close(b1, br, 1e-10, what="descended b")
    assert misfit(w1, b1, X, y) < misfit(w, b, X, y)
