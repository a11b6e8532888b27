"""TensorFlow: the custom op `FerrozymeCall` and its registered gradient. Gradients against
TensorFlow's own autodiff of the same math and finite differences, eagerly, under
GradientTape and inside tf.function; a training loop through a C ODE simulator."""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from conftest import (  # noqa: E402
    ODE_DT,
    ODE_GUESS,
    ODE_STEPS,
    ODE_TRUE,
    ODE_Y0,
    assert_close,
    fd_grad,
    framework,
    heat_inputs,
    mlp_data,
    ode_data,
)

tf = framework("tensorflow")


def heat_tf(u, steps):
    for _ in range(steps):
        u = u + 0.1 * (tf.roll(u, 1, 0) - 2 * u + tf.roll(u, -1, 0)) - 0.01 * u**3
    return u


def mlp_tf(w, X, y, d, h):
    W, b, v = tf.reshape(w[: d * h], (h, d)), w[d * h : d * h + h], w[d * h + h :]
    out = tf.linalg.matvec(tf.tanh(tf.matmul(X, W, transpose_b=True) + b), v)
    return tf.reduce_mean((out - y) ** 2)


def _grad(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return y, tape.gradient(y, x)


def test_c_gradient_vs_tf_and_fd(heat):
    u0 = heat_inputs()
    w = np.linspace(-1, 1, u0.size)
    _, g = _grad(lambda u: tf.reduce_sum((heat.tf(u, steps=25) * w) ** 2), u0)
    _, g_ref = _grad(lambda u: tf.reduce_sum((heat_tf(u, 25) * w) ** 2), u0)
    assert_close(g, g_ref, 1e-11, what="vs tf autodiff")
    assert_close(g, fd_grad(lambda x: float(np.sum((heat(x, steps=25) * w) ** 2)), u0), 1e-6, what="vs FD")


def test_tf_function(heat, mlp):
    u0 = tf.constant(heat_inputs())

    @tf.function
    def grad_fn(u):
        with tf.GradientTape() as tape:
            tape.watch(u)
            l = tf.reduce_sum(heat.tf(u, steps=25) ** 2)
        return l, tape.gradient(l, u)

    l, g = grad_fn(u0)
    l2, g2 = _grad(lambda u: tf.reduce_sum(heat_tf(u, 25) ** 2), u0)
    assert_close(l, l2, 1e-13, what="tf.function primal")
    assert_close(g, g2, 1e-11, what="tf.function grad")
    ops = {n.op for n in grad_fn.get_concrete_function(u0).graph.as_graph_def().node}
    assert "FerrozymeCall" in ops and "PyFunc" not in ops and "EagerPyFunc" not in ops


def test_cxx_gradient_vs_tf_and_fd(mlp):
    wn, Xn, yn, d, h = mlp_data()
    X, y = tf.constant(Xn), tf.constant(yn)
    w = tf.Variable(wn)
    with tf.GradientTape() as tape:
        loss = mlp.tf(w, X, y, h=h)
    g = tape.gradient(loss, w)
    with tf.GradientTape() as tape:
        ref = mlp_tf(w, X, y, d, h)
    g_ref = tape.gradient(ref, w)
    assert_close(loss, ref, 1e-13, what="C++ primal")
    assert_close(g, g_ref, 1e-11, what="C++ vs tf autodiff")
    assert_close(g, fd_grad(lambda v: float(mlp(v, Xn, yn, h=h)), wn), 1e-6, what="C++ vs FD")


def test_float32(heat32):
    u0 = heat_inputs().astype(np.float32)
    y, g = _grad(lambda u: tf.reduce_sum(heat32.tf(u, steps=10)), u0)
    assert y.dtype == tf.float32 and g.dtype == tf.float32
    _, g_ref = _grad(lambda u: tf.reduce_sum(heat_tf(u, 10)), u0)
    assert_close(g, g_ref, 1e-5, what="f32 vs tf")


def test_every_role(model):
    rng = np.random.default_rng(2)
    n, m = 5, 7
    x, s = tf.constant(rng.uniform(-1, 1, n)), tf.Variable(rng.uniform(-1, 1, n))
    idx, k = tf.constant(rng.integers(0, 50, m).astype(np.int32)), tf.constant(0.7, dtype=tf.float64)
    wy, ws, we = rng.normal(size=m), rng.normal(size=n), 0.37
    with tf.GradientTape() as tape:
        tape.watch([x, k])
        y, s2, e = model.tf(x, s, idx, k, c=0.3)
        L = tf.reduce_sum(y * wy) + tf.reduce_sum(s2 * ws) + e * we
    gx, gs, gk, gi = tape.gradient(L, [x, s, k, idx])
    assert gi is None  # integer table: no gradient

    def Ln(xv, sv, kv):
        yv, s2v, ev = model(xv, sv, idx.numpy(), kv, c=0.3)
        return yv @ wy + s2v @ ws + ev * we

    xn, sn = x.numpy(), s.numpy()
    assert_close(gx, fd_grad(lambda v: Ln(v, sn, 0.7), xn), 1e-6, what="d/dx")
    assert_close(gs, fd_grad(lambda v: Ln(xn, v, 0.7), sn), 1e-6, what="d/ds")
    assert_close(gk, fd_grad(lambda v: Ln(xn, sn, float(v)), np.array(0.7)), 1e-6, what="d/dk")


def test_training_loop_converges(ode):
    data = tf.constant(ode_data(ode))
    y0 = tf.constant(ODE_Y0)
    p = tf.Variable(ODE_GUESS)
    opt = tf.keras.optimizers.Adam(learning_rate=0.02)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((ode.tf(p, y0, steps=ODE_STEPS, dt=ODE_DT) - data) ** 2)
        opt.apply_gradients([(tape.gradient(loss, p), p)])
        return loss

    first = float(step())
    for _ in range(249):
        last = float(step())
    assert last < 1e-8 * first, (first, last)
    assert_close(p.numpy(), ODE_TRUE, 1e-3, what="fitted parameters")


def test_errors(heat):
    with pytest.raises(ValueError, match="dtype float64"):
        heat.tf(tf.zeros(4, dtype=tf.float32), steps=2)
    with pytest.raises(ValueError, match="1 dimension"):
        heat.tf(tf.zeros((2, 2), dtype=tf.float64), steps=2)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float64)])
    def unknown(u):
        return heat.tf(u, steps=2)

    # An unknown dimension is read at run time (probe27; it was refused before).
    u = np.linspace(-1.0, 1.0, 5)
    assert_close(unknown(tf.constant(u)).numpy(), heat(u, steps=2), 1e-14, what="unknown length")

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float64)])
    def unknown_rank(u):
        return heat.tf(u, steps=2)

    with pytest.raises(ValueError, match="unknown rank"):
        unknown_rank(tf.zeros(4, dtype=tf.float64))


def test_forward_accumulator(rbf):
    """TensorFlow's forward mode differentiates the registered gradient with respect to its
    cotangent (it was refused; the gradient of an fz_vjp call is now defined): vs the
    same forward mode through TensorFlow's own operations."""
    from conftest import rbf_inputs

    x, c, ell = rbf_inputs()
    e = tf.constant(ell, dtype=tf.float64)
    with tf.autodiff.ForwardAccumulator(e, tf.constant(1.0, dtype=tf.float64)) as acc:
        _, t = rbf.tf(x, c, e)
    with tf.autodiff.ForwardAccumulator(e, tf.constant(1.0, dtype=tf.float64)) as acc_ref:
        s = tf.reduce_sum((tf.constant(x)[:, None, :] - tf.constant(c)[None, :, :]) ** 2, -1)
        k = tf.exp(-0.5 * s / e**2)
        t_ref = tf.reduce_sum(k * tf.range(1, x.shape[0] + 1, dtype=tf.float64)[:, None])
    assert_close(acc.jvp(t), acc_ref.jvp(t_ref), 1e-11, what="ForwardAccumulator d/dell")
    xv = tf.Variable(x)
    with tf.GradientTape() as tape:
        k, _ = rbf.tf(xv, c, e)
    jac = tape.jacobian(k, xv)  # first derivatives by GradientTape still work
    xx = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xx)
        s = tf.reduce_sum((xx[:, None, :] - tf.constant(c)[None, :, :]) ** 2, -1)
        k_ref = tf.exp(-0.5 * s / e**2)
    assert_close(jac, tape.jacobian(k_ref, xx), 1e-11, what="tape.jacobian")
