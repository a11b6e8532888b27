"""JAX: the loaded function as a primitive lowered to an XLA FFI custom call. Gradients
against JAX's own autodiff of the same math (jax.numpy) and finite differences; jit(grad),
jvp, vmap, jacfwd/jacrev (vector mode), a training loop through a C ODE simulator."""

import numpy as np
import pytest

from conftest import (
    ODE_DT,
    ODE_GUESS,
    ODE_STEPS,
    ODE_TRUE,
    ODE_Y0,
    assert_close,
    fd_dir,
    fd_grad,
    framework,
    heat_inputs,
    mlp_data,
    ode_data,
)

jax = framework("jax")
import jax.numpy as jnp  # noqa: E402

jax.config.update("jax_enable_x64", True)


def heat_jax(u, steps):
    for _ in range(steps):
        u = u + 0.1 * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1)) - 0.01 * u**3
    return u


def mlp_jax(w, X, y, d, h):
    W, b, v = w[: d * h].reshape(h, d), w[d * h : d * h + h], w[d * h + h :]
    return jnp.mean((jnp.tanh(X @ W.T + b) @ v - y) ** 2)


def test_c_gradient_vs_jax_and_fd(heat):
    u0 = jnp.asarray(heat_inputs())
    w = jnp.linspace(-1, 1, u0.size)
    g = jax.grad(lambda u: jnp.sum((heat.jax(u, steps=25) * w) ** 2))(u0)
    g_ref = jax.grad(lambda u: jnp.sum((heat_jax(u, 25) * w) ** 2))(u0)
    assert_close(g, g_ref, 1e-11, what="vs jax.grad of jnp math")
    fd = fd_grad(lambda x: float(np.sum((heat(x, steps=25) * np.asarray(w)) ** 2)), np.asarray(u0))
    assert_close(g, fd, 1e-6, what="vs FD")


def test_jit_grad_stays_in_the_compiled_program(heat):
    u0 = jnp.asarray(heat_inputs())
    f = jax.jit(jax.grad(lambda u: jnp.sum(heat.jax(u, steps=25) ** 2)))
    g = f(u0)
    assert_close(g, jax.grad(lambda u: jnp.sum(heat_jax(u, 25) ** 2))(u0), 1e-11, what="jit(grad)")
    hlo = f.lower(u0).as_text()
    # the C code is called by XLA's FFI custom call, not through a Python callback
    assert hlo.count("stablehlo.custom_call @ferrozyme_call") == 2  # primal + reverse
    assert "callback" not in hlo


def test_cxx_gradient_vs_jax_and_fd(mlp):
    wn, Xn, yn, d, h = mlp_data()
    X, y = jnp.asarray(Xn), jnp.asarray(yn)
    val, g = jax.jit(jax.value_and_grad(lambda w: mlp.jax(w, X, y, h=h)))(jnp.asarray(wn))
    val_r, g_r = jax.value_and_grad(lambda w: mlp_jax(w, X, y, d, h))(jnp.asarray(wn))
    assert_close(val, val_r, 1e-13, what="C++ primal")
    assert_close(g, g_r, 1e-11, what="C++ vs jax.grad")
    assert_close(g, fd_grad(lambda v: float(mlp(v, Xn, yn, h=h)), wn), 1e-6, what="C++ vs FD")


def test_float32(heat32):
    u0 = jnp.asarray(heat_inputs().astype(np.float32))
    out = heat32.jax(u0, steps=10)
    assert out.dtype == jnp.float32
    g = jax.jit(jax.grad(lambda u: jnp.sum(heat32.jax(u, steps=10))))(u0)
    assert g.dtype == jnp.float32
    assert_close(g, jax.grad(lambda u: jnp.sum(heat_jax(u, 10)))(u0), 1e-5, what="f32 vs jax")


def test_jvp_forward_mode(heat):
    u0 = jnp.asarray(heat_inputs())
    v = jnp.cos(jnp.arange(u0.size, dtype=jnp.float64))
    y, t = jax.jvp(lambda u: heat.jax(u, steps=25), (u0,), (v,))
    y2, t2 = jax.jvp(lambda u: heat_jax(u, 25), (u0,), (v,))
    assert_close(y, y2, 1e-13, what="jvp primal")
    assert_close(t, t2, 1e-11, what="jvp vs jax")
    assert_close(t, fd_dir(lambda x: heat(x, steps=25), np.asarray(u0), np.asarray(v)), 1e-6, what="jvp vs FD")
    jaxpr = str(jax.make_jaxpr(lambda u, v: jax.jvp(lambda a: heat.jax(a, steps=3), (u,), (v,)))(u0, v))
    assert "ferrozyme_jvp" in jaxpr and "ferrozyme_vjp" not in jaxpr  # forward mode, not reverse


def _model_setup(model, seed=6):
    rng = np.random.default_rng(seed)
    n, m = 5, 7
    x, s = jnp.asarray(rng.uniform(-1, 1, n)), jnp.asarray(rng.uniform(-1, 1, n))
    idx, k = jnp.asarray(rng.integers(0, 50, m).astype(np.int32)), jnp.asarray(0.6)

    def F(x, s, k):
        y, s2, e = model.jax(x, s, idx, k, c=0.2)
        return jnp.concatenate([y, s2, e[None]])

    def Fn(z):
        y, s2, e = model(z[:n], z[n:2 * n], np.asarray(idx), z[-1], c=0.2)
        return np.concatenate([y, s2, [e]])

    return n, x, s, k, F, Fn


def test_jacobians_vector_mode(model):
    n, x, s, k, F, Fn = _model_setup(model)
    z = np.concatenate([np.asarray(x), np.asarray(s), [0.6]])
    J_fd = np.stack([fd_dir(Fn, z, e) for e in np.eye(z.size)], axis=1)
    for jac, prim in ((jax.jacrev, "ferrozyme_vjp"), (jax.jacfwd, "ferrozyme_jvp")):
        f = jax.jit(jac(F, argnums=(0, 1, 2)))
        J = f(x, s, k)
        assert_close(jnp.concatenate([J[0], J[1], J[2][:, None]], 1), J_fd, 1e-6, what=f"{jac.__name__} vs FD")
        jaxpr = str(jax.make_jaxpr(jac(F, argnums=(0, 1, 2)))(x, s, k))
        # all rows/columns in one vector-mode call
        assert f"{prim}[" in jaxpr and ("width=13" in jaxpr or "width=11" in jaxpr), jaxpr


def test_vmap(model):
    n, x, s, k, F, Fn = _model_setup(model)
    rng = np.random.default_rng(1)
    X, K = jnp.asarray(rng.uniform(-1, 1, (4, n))), jnp.asarray(rng.uniform(0.2, 1.0, 4))
    Yb = jax.jit(jax.vmap(F, in_axes=(0, None, 0)))(X, s, K)
    for i in range(4):
        assert_close(Yb[i], Fn(np.concatenate([np.asarray(X[i]), np.asarray(s), [float(K[i])]])), 1e-14, what="vmap")
    # grad of a batched loss, and a nested vmap (batch axes 3 x 4, one input broadcast)
    G = jax.jit(jax.vmap(jax.grad(lambda x, k: jnp.sum(F(x, s, k) ** 2), argnums=(0, 1))))(X, K)
    for i in range(4):
        gx = fd_grad(lambda v: float(np.sum(Fn(np.concatenate([v, np.asarray(s), [float(K[i])]])) ** 2)), np.asarray(X[i]))
        assert_close(G[0][i], gx, 1e-6, what="vmap grad vs FD")
    XX = jnp.asarray(rng.uniform(-1, 1, (3, 4, n)))
    Z = jax.vmap(jax.vmap(F, in_axes=(0, None, 0)), in_axes=(0, None, None))(XX, s, K)
    for a in range(3):
        for b in range(4):
            want = Fn(np.concatenate([np.asarray(XX[a, b]), np.asarray(s), [float(K[b])]]))
            assert_close(Z[a, b], want, 1e-14, what="nested vmap")
    # the batch loop runs inside one custom call
    hlo = jax.jit(jax.vmap(F, in_axes=(0, None, 0))).lower(X, s, K).as_text()
    assert hlo.count("@ferrozyme_call") == 1 and "batch = 4" in hlo


def test_training_loop_converges(ode):
    data = jnp.asarray(ode_data(ode))
    y0 = jnp.asarray(ODE_Y0)

    def loss(p):
        return jnp.mean((ode.jax(p, y0, steps=ODE_STEPS, dt=ODE_DT) - data) ** 2)

    @jax.jit
    def step(p, m, v, t):
        l, g = jax.value_and_grad(loss)(p)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        p = p - 0.02 * (m / (1 - 0.9**t)) / (jnp.sqrt(v / (1 - 0.999**t)) + 1e-8)
        return p, m, v, l

    p, m, v = jnp.asarray(ODE_GUESS), jnp.zeros(3), jnp.zeros(3)
    first = float(loss(p))
    for t in range(1, 251):
        p, m, v, l = step(p, m, v, t)
    assert float(loss(p)) < 1e-8 * first
    assert_close(p, ODE_TRUE, 1e-3, what="fitted parameters")


def test_errors(heat):
    with pytest.raises(ValueError, match="dtype float64"):
        heat.jax(jnp.zeros(4, dtype=jnp.float32), steps=2)
    with pytest.raises(ValueError, match="1 dimension"):
        heat.jax(jnp.zeros((2, 2)), steps=2)
    u0 = jnp.asarray(heat_inputs()[:6])
    # second derivatives work (they were refused); third order is the error now
    H = jax.hessian(lambda u: jnp.sum(heat.jax(u, steps=2) ** 2))(u0)
    assert_close(H, jax.hessian(lambda u: jnp.sum(heat_jax(u, 2) ** 2))(u0), 1e-12, what="hessian")
    with pytest.raises(NotImplementedError, match="third derivatives"):
        jax.jacfwd(jax.hessian(lambda u: jnp.sum(heat.jax(u, steps=2) ** 2)))(u0)


def test_x64_disabled_is_a_clear_error():
    import subprocess
    import sys

    from conftest import HEAT_SIG, csrc

    code = (
        "import numpy as np, jax, ferrozyme\n"
        f"sim = ferrozyme.load({str(csrc('heat.c'))!r}, 'simulate', signature={HEAT_SIG!r})\n"
        "try:\n    sim.jax(np.ones(8), steps=3)\nexcept ValueError as e:\n    print('ValueError:', e)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "jax_enable_x64" in r.stdout, r.stdout + r.stderr[-2000:]


def rbf_jnp(x, c, ell):
    s = ((x[:, None, :] - c[None, :, :]) ** 2).sum(-1)
    k = jnp.exp(-0.5 * s / ell**2)
    return k, (k * jnp.arange(1, x.shape[0] + 1)[:, None]).sum()


def test_python_float_for_an_active_scalar(rbf, rbf32):
    """jax.grad(f)(0.9) passes the Python float as a weakly typed scalar: it used to fail
    with "'TypedFloat' object has no attribute 'shape'" (front13). As in any jnp
    expression it takes the C parameter's type (float for rbf_f)."""
    from conftest import rbf_inputs

    x, c, ell = rbf_inputs()
    loss = lambda f: (lambda a, b, e: (lambda kt: (kt[0] ** 2).sum() + kt[1])(f(a, b, e)))
    g = jax.grad(loss(rbf.jax), argnums=(0, 1, 2))(x, c, ell)
    g_ref = jax.grad(loss(rbf_jnp), argnums=(0, 1, 2))(x, c, ell)
    for a, b, what in zip(g, g_ref, "xce"):
        assert_close(a, b, 1e-11, what=f"d/d{what}")
    ge = jax.grad(lambda e: rbf.jax(x, c, e)[1])(ell)
    assert_close(ge, jax.grad(lambda e: rbf_jnp(x, c, e)[1])(ell), 1e-11, what="grad wrt a Python float")
    assert_close(ge, fd_grad(lambda e: float(rbf(x, c, float(e))[1]), np.asarray(ell)), 1e-6, what="vs FD")
    lin = jax.linearize(lambda e: rbf.jax(x, c, e)[1], ell)[1](1.0)
    assert_close(lin, ge, 1e-12, what="linearize")
    x32, c32 = x.astype(np.float32), c.astype(np.float32)
    g32 = jax.grad(lambda e: rbf32.jax(x32, c32, e)[1])(ell)
    assert_close(g32, ge, 1e-4, what="float32 kernel, Python float scalar")
    gg = jax.grad(jax.grad(lambda e: rbf.jax(x, c, e)[1]))(ell)  # it was refused
    assert_close(gg, jax.grad(jax.grad(lambda e: rbf_jnp(x, c, e)[1]))(ell), 1e-11, what="second derivative")


def test_gradient_for_a_const_argument_is_refused(mlp):
    """jax.grad with respect to a `const` argument used to fail with AttributeError ('Zero'
    has no 'from_primal_value'), and a const computed from a differentiated value would
    have lost its tangent silently (front13): both are now a ValueError naming it."""
    from conftest import mlp_data

    w, X, y, d, h = mlp_data()
    with pytest.raises(ValueError, match="declares it `const`"):
        jax.grad(lambda XX: mlp.jax(w, XX, y, h=h))(X)
    with pytest.raises(ValueError, match="declares it `const`"):
        jax.grad(lambda s: mlp.jax(w, X * s, y, h=h))(2.0)
    g = jax.grad(lambda XX: mlp.jax(w, jax.lax.stop_gradient(XX), y, h=h) + XX.sum())(X)
    assert_close(g, np.ones_like(X), 0.0, what="stop_gradient")
    gw = jax.grad(lambda ww: mlp.jax(ww, X, y, h=h))(w)
    assert_close(gw, jax.grad(lambda ww: mlp_jax(ww, X, y, d, h))(w), 1e-11, what="grad wrt w")
