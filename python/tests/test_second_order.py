"""Second derivatives through loaded C functions, in every binding.

The C side: `fz_hvp` (forward over reverse) and `fz_fof` (forward over forward), compiled
into a second library the first time a second derivative is asked for. Each Hessian is
checked against the framework's own autodiff of the same formula written with its
operations, and against central finite differences of the compiled C gradient (`vjp_numpy`,
first order only); plus symmetry, HVP = H v, and the errors that stay (third order).
"""

import numpy as np
import pytest

import ferrozyme
from conftest import MODEL_SIG, assert_close, csrc, fd_dir, framework

SIG = "(in x[n], n) -> out"
X0 = np.array([0.9, -0.4, 1.3, 0.1, -1.1, 0.7])  # no x_i near fmax's kink at 0.5
V0 = np.array([0.3, -1.0, 0.5, 0.8, -0.2, 0.4])


@pytest.fixture(scope="module")
def loss():
    return ferrozyme.load(csrc("second.c"), "loss", signature=SIG)


@pytest.fixture(scope="module")
def loss32():
    return ferrozyme.load(csrc("second.c"), "loss_f", signature=SIG)


@pytest.fixture(scope="module")
def weighted():
    return ferrozyme.load(csrc("second.c"), "weighted", signature="(in x[n], const w[n], n) -> out")


@pytest.fixture(scope="module")
def model():
    return ferrozyme.load(csrc("model.c"), "model", signature=MODEL_SIG)


def loss_ops(x, roll, exp, log, maximum, total=lambda t: t.sum()):
    """The formula of second.c's `loss` with a framework's operations."""
    b = roll(x)
    return total(exp(0.3 * x) * b + log(1.0 + x * x) + (1.5 + x * x) ** 0.7 + maximum(x, 0.5) * b * b)


def fd_hessian(fn, x, **consts):
    """Central differences of the compiled gradient (first order, reverse mode)."""
    g = lambda z: fn.vjp_numpy([z], [np.array(1.0, dtype=z.dtype)], **consts)
    return np.stack([fd_dir(g, x, e, h=1e-5) for e in np.eye(x.size)])


MODEL_C = 0.2


def model_data(seed=31, n=5, m=4):
    rng = np.random.default_rng(seed)
    x, s = rng.normal(size=n), rng.normal(size=n)
    idx = rng.integers(0, 40, m).astype(np.int32)
    k = np.array(0.7)
    wy, ws = rng.normal(size=m), rng.normal(size=n)
    return x, s, idx, k, wy, ws


def model_ops(x, s, idx, k, c, sin, exp, take, total=lambda t: t.sum()):
    """model.c with a framework's operations: (y, s_new, e)."""
    n = x.shape[0]
    j = idx % n
    xj, xj1 = take(x, j), take(x, (j + 1) % n)
    y = k * sin(xj) + c * xj1 * xj
    return y, s * exp(-k * x) + c, total(y * y) + k * k


# ----- NumPy ----------------------------------------------------------------------------------


def test_hvp_numpy_and_lazy_second_library(tmp_path, monkeypatch):
    """The second-order library is built on the first second derivative, not at load."""
    monkeypatch.setenv("FERROZYME_CACHE_DIR", str(tmp_path))
    # its own source text (a library key of its own: the torch ops of a function are
    # registered once per process, by key)
    text = csrc("second.c").read_text() + "\n/* lazy-build test */\n"
    fn = ferrozyme.load(text, "loss", signature=SIG)
    fn(X0)
    fn.vjp_numpy([X0], [1.0])
    second = fn._built.dir / "second.so"
    assert not second.exists(), "first-order use built the second-order library"
    hv = fn.hvp_numpy([X0], [V0], [1.0])
    assert second.exists()
    H = fd_hessian(fn, X0)
    assert_close(hv, H @ V0, 1e-6, what="hvp_numpy vs FD of the C gradient")
    # the cotangent's tangent adds J^T ybardot (here: 2 * gradient)
    hv2 = fn.hvp_numpy([X0], [V0], [1.0], [2.0])
    assert_close(hv2 - hv, 2 * fn.vjp_numpy([X0], [1.0]), 1e-12, what="J^T ybardot term")


# ----- JAX --------------------------------------------------------------------------------------


def _jax():
    jax = framework("jax")
    jax.config.update("jax_enable_x64", True)
    return jax, jax.numpy


def test_jax_hessian_every_form(loss):
    jax, jnp = _jax()
    ref = lambda x: loss_ops(x, lambda z: jnp.roll(z, -1), jnp.exp, jnp.log, jnp.maximum)
    f = lambda x: loss.jax(x)
    x, v = jnp.asarray(X0), jnp.asarray(V0)
    H0 = np.asarray(jax.hessian(ref)(x))
    assert_close(H0, fd_hessian(loss, X0), 1e-6, what="jnp Hessian vs FD (the oracles agree)")
    forms = {
        "hessian": jax.hessian(f),
        "jacfwd(jacrev)": jax.jacfwd(jax.jacrev(f)),
        "jacrev(jacrev)": jax.jacrev(jax.jacrev(f)),
        "jacfwd(jacfwd)": jax.jacfwd(jax.jacfwd(f)),
        "jacrev(jacfwd)": jax.jacrev(jax.jacfwd(f)),
        "jit(hessian)": jax.jit(jax.hessian(f)),
    }
    for name, h in forms.items():
        H = np.asarray(h(x))
        assert_close(H, H0, 1e-12, what=name)
        assert_close(H, H.T, 1e-13, what=f"{name} symmetric")
    hvp = lambda x, v: jax.jvp(jax.grad(f), (x,), (v,))[1]
    assert_close(hvp(x, v), H0 @ V0, 1e-12, what="jvp(grad) = H v")
    assert_close(jax.jit(hvp)(x, v), H0 @ V0, 1e-12, what="jit(jvp(grad))")
    assert_close(jax.grad(lambda x: jnp.vdot(jax.grad(f)(x), v))(x), H0 @ V0, 1e-12, what="grad(<grad, v>)")
    # vmap: over points, and over directions (HVPs of a batch of vectors)
    xs = jnp.stack([x, 0.5 * x, -x])
    assert_close(jax.vmap(jax.hessian(f))(xs), jax.vmap(jax.hessian(ref))(xs), 1e-12, what="vmap(hessian)")
    vs = jnp.stack([v, 2 * v, jnp.ones_like(v)])
    assert_close(jax.jit(jax.vmap(lambda w: hvp(x, w)))(vs), np.asarray(vs) @ H0, 1e-12, what="vmap(hvp)")


def test_jax_several_outputs_inout_const_table_active_scalar(model):
    jax, jnp = _jax()
    x, s, idx, k, wy, ws = model_data()
    c = MODEL_C

    def ref(x, s, k):
        return model_ops(x, s, jnp.asarray(idx), k, c, jnp.sin, jnp.exp, lambda a, j: a[j])

    def scal(fun):
        def L(x, s, k):
            y, s2, e = fun(x, s, k)
            return jnp.dot(wy, y) + jnp.dot(ws, s2) + 0.3 * e
        return L

    f = lambda x, s, k: model.jax(x, s, idx, k, c=c)
    args = tuple(map(jnp.asarray, (x, s, k)))
    H = jax.hessian(scal(f), argnums=(0, 1, 2))(*args)
    H0 = jax.hessian(scal(ref), argnums=(0, 1, 2))(*args)
    for a in range(3):
        for b in range(3):
            assert_close(H[a][b], H0[a][b], 1e-12, what=f"d2L/d{'xsk'[a]}d{'xsk'[b]}")
            assert_close(H[a][b], np.asarray(H[b][a]).T, 1e-12, what="symmetric")
    # each output's Hessian at once: jacfwd(jacrev) of the vector output y
    Jy = jax.jacfwd(jax.jacrev(lambda x: f(x, args[1], args[2])[0]))(args[0])
    Jy0 = jax.jacfwd(jax.jacrev(lambda x: ref(x, args[1], args[2])[0]))(args[0])
    assert_close(Jy, Jy0, 1e-12, what="per-output Hessians of y")


def test_jax_const_table(weighted):
    jax, jnp = _jax()
    x = jnp.asarray(X0)
    w = jnp.linspace(0.5, 2.0, X0.size)
    ref = lambda x: jnp.sum(w * x * x + x * jnp.roll(x, -1) * jnp.roll(x, -2))
    assert_close(jax.hessian(lambda x: weighted.jax(x, w))(x), jax.hessian(ref)(x), 1e-12, what="const table")
    # a second derivative with respect to the const table is refused, not zero
    with pytest.raises(ValueError, match="const"):
        jax.jacfwd(lambda w: jax.grad(lambda x: weighted.jax(x, w))(x))(w)


def test_jax_float32(loss32):
    jax, jnp = _jax()
    ref = lambda x: loss_ops(x, lambda z: jnp.roll(z, -1), jnp.exp, jnp.log, jnp.maximum)
    x32 = jnp.asarray(X0, dtype=jnp.float32)
    H = jax.hessian(lambda x: loss32.jax(x))(x32)
    assert H.dtype == jnp.float32
    assert_close(H, jax.hessian(ref)(jnp.asarray(X0)), 1e-4, atol=1e-4, what="float32 Hessian vs float64 jnp")


def test_jax_third_order_is_a_clear_error(loss):
    jax, jnp = _jax()
    x = jnp.asarray(X0)
    for third in (jax.jacfwd(jax.hessian(lambda x: loss.jax(x))), jax.grad(lambda x: jax.hessian(lambda x: loss.jax(x))(x).sum())):
        with pytest.raises(NotImplementedError, match="third derivatives"):
            third(x)


# ----- PyTorch ------------------------------------------------------------------------------------


def test_torch_hessian_every_form(loss):
    torch = framework("torch")
    F = torch.func
    ref = lambda x: loss_ops(x, lambda z: torch.roll(z, -1), torch.exp, torch.log,
                             lambda a, b: torch.clamp(a, min=b))
    f = lambda x: loss.torch(x)
    x, v = torch.tensor(X0), torch.tensor(V0)
    H0 = torch.autograd.functional.hessian(ref, x)
    assert_close(H0, fd_hessian(loss, X0), 1e-6, what="torch Hessian vs FD (the oracles agree)")
    forms = {
        "autograd.functional.hessian": lambda: torch.autograd.functional.hessian(f, x),
        "torch.func.hessian": lambda: F.hessian(f)(x),
        "jacrev(jacrev)": lambda: F.jacrev(F.jacrev(f))(x),
        "jacfwd(jacfwd)": lambda: F.jacfwd(F.jacfwd(f))(x),
        "jacrev(jacfwd)": lambda: F.jacrev(F.jacfwd(f))(x),
    }
    for name, h in forms.items():
        H = h()
        assert_close(H, H0, 1e-12, what=name)
        assert_close(H, H.T, 1e-13, what=f"{name} symmetric")
    Hv = H0 @ v
    # autograd.functional.hvp (the double-backward trick) returned zeros before
    assert_close(torch.autograd.functional.hvp(f, x, v)[1], Hv, 1e-12, what="autograd.functional.hvp")
    assert_close(torch.autograd.functional.vhp(f, x, v)[1], Hv, 1e-12, what="autograd.functional.vhp")
    assert_close(F.jvp(F.grad(f), (x,), (v,))[1], Hv, 1e-12, what="torch.func jvp(grad)")
    assert_close(F.vmap(F.hessian(f))(torch.stack([x, -x])), torch.stack([H0, F.hessian(ref)(-x)]), 1e-12,
                 what="vmap(hessian)")
    # eager double backward: a gradient penalty and a Newton step
    xx = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(f(xx), xx, create_graph=True)
    ((g * v).sum()).backward()
    assert_close(xx.grad, Hv, 1e-12, what="backward through create_graph gradient")
    xx = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(f(xx), xx, create_graph=True)
    pen = (g ** 2).sum()
    pen.backward()
    assert_close(xx.grad, 2 * H0 @ g.detach(), 1e-12, what="gradient penalty")
    # forward mode, then backward through the tangent (reverse over forward)
    import torch.autograd.forward_ad as fwAD

    xx = x.clone().requires_grad_()
    with fwAD.dual_level():
        t = fwAD.unpack_dual(f(fwAD.make_dual(xx, v))).tangent
    t.backward()
    assert_close(xx.grad, Hv, 1e-12, what="backward of a forward-mode tangent")


def test_torch_several_outputs_inout_const_table_active_scalar(model):
    torch = framework("torch")
    F = torch.func
    x, s, idx, k, wy, ws = model_data()
    c = MODEL_C
    idx_t, wy_t, ws_t = torch.tensor(idx), torch.tensor(wy), torch.tensor(ws)

    def L(fun):
        def g(x, s, k):
            y, s2, e = fun(x, s, k)
            return (wy_t * y).sum() + (ws_t * s2).sum() + 0.3 * e
        return g

    f = lambda x, s, k: model.torch(x, s, idx_t, k, c=c)
    ref = lambda x, s, k: model_ops(x, s, idx_t.long(), k, c, torch.sin, torch.exp, lambda a, j: a[j])
    args = tuple(map(torch.tensor, (x, s, k)))
    H = F.hessian(L(f), argnums=(0, 1, 2))(*args)
    H0 = F.hessian(L(ref), argnums=(0, 1, 2))(*args)
    for a in range(3):
        for b in range(3):
            assert_close(H[a][b], H0[a][b], 1e-12, what=f"d2L/d{'xsk'[a]}d{'xsk'[b]}")
    Ha = torch.autograd.functional.hessian(L(f), args)
    for a in range(3):
        for b in range(3):
            assert_close(Ha[a][b], H0[a][b], 1e-12, what=f"autograd.functional d2L/d{'xsk'[a]}d{'xsk'[b]}")


def test_torch_float32(loss32):
    torch = framework("torch")
    ref = lambda x: loss_ops(x, lambda z: torch.roll(z, -1), torch.exp, torch.log,
                             lambda a, b: torch.clamp(a, min=b))
    x32 = torch.tensor(X0, dtype=torch.float32)
    H = torch.func.hessian(lambda x: loss32.torch(x))(x32)
    assert H.dtype == torch.float32
    assert_close(H, torch.autograd.functional.hessian(ref, torch.tensor(X0)), 1e-4, atol=1e-4, what="float32")


def test_torch_const_table_and_third_order_errors(weighted, loss):
    torch = framework("torch")
    F = torch.func
    x = torch.tensor(X0)
    w = torch.linspace(0.5, 2.0, X0.size, dtype=torch.float64)
    ref = lambda x: (w * x * x + x * torch.roll(x, -1) * torch.roll(x, -2)).sum()
    assert_close(F.hessian(lambda x: weighted.torch(x, w))(x), F.hessian(ref)(x), 1e-12, what="const table")
    # a second derivative with respect to the const table is refused, not zero
    ww = w.clone().requires_grad_()
    xx = x.clone().requires_grad_()
    with pytest.raises(RuntimeError, match="const"):
        (g,) = torch.autograd.grad(weighted.torch(xx, ww), xx, create_graph=True)
        torch.autograd.grad(g.sum(), ww)
    third = "third derivatives through a ferrozyme function are not supported"
    f = lambda x: loss.torch(x)
    for T in (lambda g: F.jacfwd(F.hessian(g)), lambda g: F.jacrev(F.jacrev(F.jacrev(g)))):
        with pytest.raises(RuntimeError, match=third):
            T(f)(x)
    xx = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(f(xx), xx, create_graph=True)
    (h,) = torch.autograd.grad((g * torch.tensor(V0)).sum(), xx, create_graph=True)
    with pytest.raises(RuntimeError, match=third):
        torch.autograd.grad(h.sum(), xx)


# ----- TensorFlow -----------------------------------------------------------------------------------


def _tf():
    tf = framework("tensorflow")
    return tf


def tf_hessian(tf, f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return outer.jacobian(g, x)


def test_tf_nested_tapes_eager_and_tf_function(loss):
    tf = _tf()
    ref = lambda x: loss_ops(x, lambda z: tf.roll(z, -1, 0), tf.exp, tf.math.log, tf.maximum, tf.reduce_sum)
    f = lambda x: loss.tf(x)
    x = tf.constant(X0)
    H0 = tf_hessian(tf, ref, x).numpy()
    assert_close(H0, fd_hessian(loss, X0), 1e-6, what="tf Hessian vs FD (the oracles agree)")
    H = tf_hessian(tf, f, x).numpy()
    assert_close(H, H0, 1e-12, what="nested GradientTape")
    assert_close(H, H.T, 1e-13, what="symmetric")
    Hf = tf.function(lambda x: tf_hessian(tf, f, x))(x).numpy()
    assert_close(Hf, H0, 1e-12, what="nested tapes inside tf.function")
    # forward mode (TensorFlow differentiates the gradient): first order, and over a gradient
    v = tf.constant(V0)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y = f(x)
    assert_close(acc.jvp(y), np.dot(loss.vjp_numpy([X0], [1.0]), V0), 1e-12, what="ForwardAccumulator (J v)")
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
    assert_close(acc.jvp(g), H0 @ V0, 1e-12, what="ForwardAccumulator over a gradient (H v)")


def test_tf_several_outputs_and_third_order(model, loss):
    tf = _tf()
    x, s, idx, k, wy, ws = model_data()
    c = MODEL_C

    def L(fun, x, s, k):
        y, s2, e = fun(x, s, k)
        return tf.reduce_sum(wy * y) + tf.reduce_sum(ws * s2) + 0.3 * e

    f = lambda x, s, k: model.tf(x, s, idx, k, c=c)
    ref = lambda x, s, k: model_ops(x, s, idx, k, c, tf.sin, tf.exp, lambda a, j: tf.gather(a, j), tf.reduce_sum)
    vs = [tf.Variable(x), tf.Variable(s), tf.Variable(k)]

    def hess(fun):
        with tf.GradientTape(persistent=True) as outer:
            with tf.GradientTape() as inner:
                out = L(fun, *vs)
            gs = inner.gradient(out, vs)
            flat = tf.concat([tf.reshape(g, [-1]) for g in gs], 0)
        return np.concatenate([tf.reshape(outer.jacobian(flat, v, experimental_use_pfor=False), [flat.shape[0], -1]).numpy()
                               for v in vs], axis=1)

    H, H0 = hess(f), hess(ref)
    assert_close(H, H0, 1e-12, what="model: Hessian in (x, s, k)")
    # third order: eagerly an error at once; in a graph (tape.jacobian's pfor), a tensor
    # whose evaluation fails with the same message
    xt = tf.constant(X0)
    with pytest.raises(NotImplementedError, match="third derivatives"):
        with tf.GradientTape() as t3:
            t3.watch(xt)
            with tf.GradientTape() as t2:
                t2.watch(xt)
                with tf.GradientTape() as t1:
                    t1.watch(xt)
                    y = loss.tf(xt)
                g = t1.gradient(y, xt)
                s2 = tf.reduce_sum(g * g)
            s3 = tf.reduce_sum(t2.gradient(s2, xt))
        t3.gradient(s3, xt)
    with pytest.raises(Exception, match="third derivatives"):
        with tf.GradientTape() as t3:
            t3.watch(xt)
            s3 = tf.reduce_sum(tf_hessian(tf, lambda z: loss.tf(z), xt))
        t3.gradient(s3, xt)
