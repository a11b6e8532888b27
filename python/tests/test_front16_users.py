"""Scripts as framework users write them around a loaded function (front16).

PyTorch: a user's own torch.autograd.Function wrapping the NumPy entry points (`f.numpy`,
`f.vjp_numpy`) checked by gradcheck; `torch.func.grad` and `vmap(grad)` over the op;
double backward through the op refused clearly; batched inputs through a loop of calls.
JAX: a pytree of parameters (a dict) through jit(value_and_grad), vmap over a batch of
points, grad of grad refused clearly, `jax.tree_util` updates in a training step.
TensorFlow: a persistent GradientTape asked twice inside a tf.function, a Keras optimizer
step in a tf.function.
numba: an njit relaxation loop calling a Ferrozyme gradient, per-batch gradients filled
inside njit code, and jvp against grad.
Each derivative is checked against the framework's own autodiff of the same math, finite
differences, or both.
"""

import math

import numpy as np
import pytest

from conftest import assert_close, fd_grad, framework, jax_x64, rbf_inputs


def _rbf_np(x, c, ell):
    d2 = ((x[:, None, :] - c[None, :, :]) ** 2).sum(-1)
    k = np.exp(-0.5 * d2 / ell**2)
    w = np.arange(1, x.shape[0] + 1)[:, None]
    return k, float((k * w).sum())


def _assert_same_training(train):
    """`train(use_op)` -> (parameters, losses): through the loaded op and in the
    framework's own math, the parameters agree and the loss went down."""
    A1, l1 = train(True)
    A2, l2 = train(False)
    assert_close(A1, A2, 1e-9, what="trained parameters")
    assert l1[-1] < l1[0]


# PyTorch ------------------------------------------------------------------------------


def test_torch_user_autograd_function_over_numpy_entry_points(layer):
    """A user's own autograd.Function around f.numpy / f.vjp_numpy (no binding)."""
    torch = framework("torch")

    class Layer(torch.autograd.Function):
        @staticmethod
        def forward(ctx, A, x):
            ctx.save_for_backward(A, x)
            return torch.from_numpy(layer(A.detach().numpy(), x.detach().numpy()))

        @staticmethod
        def backward(ctx, gy):
            A, x = ctx.saved_tensors
            gA, gx = layer.vjp_numpy([A.numpy(), x.numpy()], [gy.contiguous().numpy()])
            return torch.from_numpy(gA), torch.from_numpy(gx)

    rng = np.random.default_rng(16)
    A = torch.tensor(rng.normal(size=(4, 3)), requires_grad=True)
    x = torch.tensor(rng.normal(size=3), requires_grad=True)
    assert torch.autograd.gradcheck(Layer.apply, (A, x), eps=1e-6, atol=1e-8)
    # against torch's autograd of the same math, through a downstream loss
    (Layer.apply(A, x) ** 3).sum().backward()
    A2, x2 = A.detach().clone().requires_grad_(), x.detach().clone().requires_grad_()
    (torch.tanh(A2 @ x2) ** 3).sum().backward()
    assert_close(A.grad, A2.grad, 1e-12, what="dA")
    assert_close(x.grad, x2.grad, 1e-12, what="dx")


def test_torch_func_grad_and_vmap_over_the_op(rbf):
    torch = framework("torch")
    from torch.func import grad, vmap

    xn, cn, elln = rbf_inputs(n=3, m=4, d=2, seed=16)
    c = torch.tensor(cn)

    def loss(ell, x):
        k, tot = rbf.torch(x, c, ell)
        return tot + (k**2).sum()

    def loss_ref(ell, x):
        d2 = ((x[:, None, :] - c[None, :, :]) ** 2).sum(-1)
        k = torch.exp(-0.5 * d2 / ell**2)
        w = torch.arange(1, x.shape[0] + 1, dtype=torch.float64)[:, None]
        return (k * w).sum() + (k**2).sum()

    x = torch.tensor(xn)
    ell = torch.tensor(elln, dtype=torch.float64)
    g = grad(loss, argnums=(0, 1))(ell, x)
    g_ref = grad(loss_ref, argnums=(0, 1))(ell, x)
    assert_close(g[0], g_ref[0], 1e-11, what="d ell")
    assert_close(g[1], g_ref[1], 1e-11, what="d x")
    # vmap over a batch of length scales, the points shared
    ells = torch.tensor([0.5, 0.9, 1.7], dtype=torch.float64)
    gb = vmap(grad(loss), in_dims=(0, None))(ells, x)
    gb_ref = torch.stack([grad(loss_ref)(e, x) for e in ells])
    assert_close(gb, gb_ref, 1e-11, what="vmap(grad)")
    fd = [fd_grad(lambda e: _rbf_np(xn, cn, float(e))[1] + (_rbf_np(xn, cn, float(e))[0] ** 2).sum(), np.array(float(e)))
          for e in ells]
    assert_close(gb, np.array(fd), 1e-6, what="vmap(grad) vs FD")


def test_torch_double_backward(layer):
    torch = framework("torch")
    rng = np.random.default_rng(17)
    A = torch.tensor(rng.normal(size=(3, 2)), requires_grad=True)
    x = torch.tensor(rng.normal(size=2), requires_grad=True)
    y = layer.torch(A, x).square().sum()
    (gx,) = torch.autograd.grad(y, x, create_graph=True)
    gx.sum().backward()  # second derivatives (they were refused): vs torch's own
    A2 = A.detach().clone().requires_grad_()
    x3 = x.detach().clone().requires_grad_()
    (rx,) = torch.autograd.grad(torch.tanh(A2 @ x3).square().sum(), x3, create_graph=True)
    rx.sum().backward()
    assert_close(x.grad, x3.grad, 1e-12, what="d/dx sum(dy/dx)")
    assert_close(A.grad, A2.grad, 1e-12, what="d/dA sum(dy/dx)")
    # a first derivative afterwards still works and is right
    A.grad = None
    x.grad = None
    layer.torch(A, x).square().sum().backward()
    x2 = x.detach().clone().requires_grad_()
    torch.tanh(A.detach() @ x2).square().sum().backward()
    assert_close(x.grad, x2.grad, 1e-12, what="dx after a second derivative")


def test_torch_training_loop_with_a_scheduler_and_batches(layer):
    """mini-batches through the op in a Python loop, SGD with momentum and a step LR
    scheduler, against the same training written in torch."""
    torch = framework("torch")
    rng = np.random.default_rng(18)
    A0 = rng.normal(scale=0.5, size=(2, 3))
    X = torch.tensor(rng.normal(size=(12, 3)))
    Y = torch.tensor(rng.normal(scale=0.5, size=(12, 2)))

    def train(use_op):
        A = torch.nn.Parameter(torch.tensor(A0))
        opt = torch.optim.SGD([A], lr=0.2, momentum=0.9)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=5, gamma=0.5)
        losses = []
        for _ in range(15):
            for xb, yb in zip(X.split(4), Y.split(4)):
                opt.zero_grad()
                out = torch.stack([layer.torch(A, v) if use_op else torch.tanh(A @ v) for v in xb])
                loss = ((out - yb) ** 2).mean()
                loss.backward()
                opt.step()
            sched.step()
            losses.append(float(loss))
        return A.detach().numpy(), losses

    _assert_same_training(train)


# JAX ----------------------------------------------------------------------------------


def test_jax_pytree_params_jit_value_and_grad(layer):
    jax, jnp = jax_x64()
    rng = np.random.default_rng(19)
    params = {"A": jnp.asarray(rng.normal(size=(3, 2))), "head": {"v": jnp.asarray(rng.normal(size=3)), "b": jnp.asarray(0.3)}}
    X = jnp.asarray(rng.normal(size=(5, 2)))
    Y = jnp.asarray(rng.normal(size=5))

    def predict(p, x, op=True):
        h = layer.jax(p["A"], x) if op else jnp.tanh(p["A"] @ x)
        return h @ p["head"]["v"] + p["head"]["b"]

    def loss(p, op=True):
        return sum((predict(p, X[i], op) - Y[i]) ** 2 for i in range(X.shape[0])) / X.shape[0]

    v, g = jax.jit(jax.value_and_grad(loss))(params)
    v_ref, g_ref = jax.value_and_grad(lambda p: loss(p, False))(params)
    assert abs(float(v) - float(v_ref)) < 1e-12
    for a, b in zip(jax.tree_util.tree_leaves(g), jax.tree_util.tree_leaves(g_ref)):
        assert_close(a, b, 1e-11, what="pytree gradient")
    assert jax.tree_util.tree_structure(g) == jax.tree_util.tree_structure(params)
    # a training step with tree_map, then the loss decreased
    step = jax.jit(lambda p: jax.tree_util.tree_map(lambda a, b: a - 0.1 * b, p, jax.grad(loss)(p)))
    p = params
    for _ in range(10):
        p = step(p)
    assert float(loss(p)) < float(v)
    # FD on one leaf
    An = np.asarray(params["A"])
    fd = fd_grad(lambda a: float(loss({**params, "A": jnp.asarray(a)}, False)), An)
    assert_close(g["A"], fd, 1e-6, what="dA vs FD")


def test_jax_vmap_over_points_and_jit(rbf):
    jax, jnp = jax_x64()
    xn, cn, elln = rbf_inputs(n=2, m=3, d=2, seed=20)
    c = jnp.asarray(cn)
    batch = jnp.asarray(np.random.default_rng(21).normal(size=(6, 2, 2)))

    def tot(x, ell):
        return rbf.jax(x, c, ell)[1]

    def tot_ref(x, ell):
        d2 = ((x[:, None, :] - c[None, :, :]) ** 2).sum(-1)
        k = jnp.exp(-0.5 * d2 / ell**2)
        return (k * jnp.arange(1, x.shape[0] + 1)[:, None]).sum()

    f = jax.jit(jax.vmap(jax.grad(tot, argnums=(0, 1)), in_axes=(0, None)))
    gx, gl = f(batch, elln)
    gx_ref, gl_ref = jax.vmap(jax.grad(tot_ref, argnums=(0, 1)), in_axes=(0, None))(batch, elln)
    assert_close(gx, gx_ref, 1e-11, what="vmap grad x")
    assert_close(gl, gl_ref, 1e-11, what="vmap grad ell")
    vals = jax.vmap(tot, in_axes=(0, None))(batch, elln)
    assert_close(vals, [_rbf_np(np.asarray(b), cn, elln)[1] for b in batch], 1e-12, what="vmap primal")


def test_jax_grad_of_grad(rbf):
    jax, jnp = jax_x64()
    xn, cn, _ = rbf_inputs(n=2, m=2, d=2, seed=22)
    x, c = jnp.asarray(xn), jnp.asarray(cn)

    def tot(ell):
        return rbf.jax(x, c, ell)[1]

    g = jax.grad(tot)(0.8)
    fd = fd_grad(lambda e: _rbf_np(xn, cn, float(e))[1], np.array(0.8))
    assert_close(g, fd, 1e-6, what="first derivative")
    # second derivatives (they were refused): against finite differences of the C gradient
    gg = jax.grad(jax.grad(tot))(0.8)
    fd2 = fd_grad(lambda e: float(jax.grad(tot)(float(e))), np.array(0.8), h=1e-5)
    assert_close(gg, fd2, 1e-6, what="second derivative")


# TensorFlow ---------------------------------------------------------------------------


def test_tf_persistent_tape_in_tf_function(layer):
    tf = framework("tensorflow")
    rng = np.random.default_rng(23)
    An, xn = rng.normal(size=(4, 3)), rng.normal(size=3)
    A = tf.Variable(An)
    x = tf.constant(xn)

    @tf.function
    def two_losses(A, x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = layer.tf(A, x)
            l1 = tf.reduce_sum(y**2)
            l2 = tf.reduce_sum(tf.sin(y))
        g1 = tape.gradient(l1, [A, x])
        g2 = tape.gradient(l2, [A, x])
        del tape
        return g1, g2

    (g1A, g1x), (g2A, g2x) = two_losses(A, x)

    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(tf.linalg.matvec(A, x))
        l1 = tf.reduce_sum(y**2)
        l2 = tf.reduce_sum(tf.sin(y))
    r1 = tape.gradient(l1, [A, x])
    r2 = tape.gradient(l2, [A, x])
    for got, want, what in ((g1A, r1[0], "l1 dA"), (g1x, r1[1], "l1 dx"), (g2A, r2[0], "l2 dA"), (g2x, r2[1], "l2 dx")):
        assert_close(got.numpy(), want.numpy(), 1e-12, what=what)
    fd = fd_grad(lambda v: float(np.sin(np.tanh(An @ v)).sum()), xn)
    assert_close(g2x.numpy(), fd, 1e-6, what="l2 dx vs FD")


def test_tf_keras_style_training_step(layer):
    tf = framework("tensorflow")
    rng = np.random.default_rng(24)
    A0 = rng.normal(scale=0.5, size=(2, 3))
    X = tf.constant(rng.normal(size=(6, 3)))
    Y = tf.constant(rng.normal(scale=0.5, size=(6, 2)))

    def run(use_op):
        A = tf.Variable(A0)
        opt = tf.keras.optimizers.SGD(learning_rate=0.1) if hasattr(tf, "keras") else None

        @tf.function
        def step():
            with tf.GradientTape() as tape:
                outs = [layer.tf(A, X[i]) if use_op else tf.tanh(tf.linalg.matvec(A, X[i])) for i in range(6)]
                loss = tf.reduce_mean((tf.stack(outs) - Y) ** 2)
            (g,) = tape.gradient(loss, [A])
            if opt is not None:
                opt.apply_gradients([(g, A)])
            else:
                A.assign_sub(0.1 * g)
            return loss

        losses = [float(step()) for _ in range(10)]
        return A.numpy(), losses

    _assert_same_training(run)


# numba --------------------------------------------------------------------------------


def test_numba_njit_optimizer_calls_gradient_and_jvp():
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def potential(q, k):
        # a chain of springs with a quartic on-site term
        e = 0.0
        for i in range(q.shape[0] - 1):
            d = q[i + 1] - q[i] - 1.0
            e += 0.5 * k * d * d
        for i in range(q.shape[0]):
            e += 0.25 * q[i] ** 4
        return e

    grad = fzn.grad(potential)
    jvp = fzn.jvp(potential)

    @numba.njit
    def relax(q, k, steps, lr):
        out = q.copy()
        for _ in range(steps):
            g = grad(out, k)
            for i in range(out.shape[0]):
                out[i] -= lr * g[i]
        return out

    q0 = np.linspace(-1.0, 1.0, 6)
    q = relax(q0, 2.0, 40, 0.05)
    ref = q0.copy()
    for _ in range(40):
        ref -= 0.05 * fd_grad(lambda v: potential(v, 2.0), ref)
    assert_close(q, ref, 1e-6, what="njit relaxation vs FD relaxation")
    assert potential(q, 2.0) < potential(q0, 2.0)

    # analytic gradient at q0
    k = 2.0
    d = np.diff(q0) - 1.0
    want = q0**3
    want[:-1] -= k * d
    want[1:] += k * d
    assert_close(grad(q0, k), want, 1e-12, what="analytic")
    v = np.random.default_rng(25).normal(size=6)
    val, tan = jvp(q0, k, v)
    assert abs(val - potential(q0, k)) < 1e-14
    assert abs(tan - want @ v) < 1e-12 * max(1.0, abs(tan))


def test_numba_gradient_over_a_batch_in_njit():
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def logistic_nll(w, X, y):
        s = 0.0
        for i in range(X.shape[0]):
            z = 0.0
            for j in range(X.shape[1]):
                z += X[i, j] * w[j]
            s += math.log(1.0 + math.exp(-y[i] * z))
        return s / X.shape[0]

    g = fzn.grad(logistic_nll)

    @numba.njit
    def per_batch(w, Xs, ys):
        out = np.zeros((Xs.shape[0], w.shape[0]))
        for b in range(Xs.shape[0]):
            out[b, :] = g(w, Xs[b], ys[b])
        return out

    rng = np.random.default_rng(26)
    w = rng.normal(size=3)
    Xs = rng.normal(size=(4, 5, 3))
    ys = np.sign(rng.normal(size=(4, 5)))
    G = per_batch(w, Xs, ys)
    for b in range(4):
        z = Xs[b] @ w
        want = (-(ys[b] / (1.0 + np.exp(ys[b] * z)))[:, None] * Xs[b]).mean(0)
        assert_close(G[b], want, 1e-12, what=f"batch {b}")
        assert_close(G[b], fd_grad(lambda v: logistic_nll(v, Xs[b], ys[b]), w), 1e-6, what=f"batch {b} FD")
