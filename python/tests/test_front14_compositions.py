"""Compositions users write around a loaded function (front14): torch activation
checkpointing, the same input used twice, a module with parameters and an optimizer step,
retain_graph; JAX jit(vmap(grad)), value_and_grad, lax.scan over a loaded layer, grad of
a jitted function; TensorFlow variables in a tf.function with a tape. Each gradient is
checked against the framework's own autodiff of the same math and/or finite differences.
"""

import numpy as np
import pytest

from conftest import assert_close, fd_grad, framework, rbf_inputs


def _layer_np(A, x):
    return np.tanh(A @ x)


# PyTorch ------------------------------------------------------------------------------


def test_torch_checkpoint_shared_input_and_retain_graph(layer):
    torch = framework("torch")
    from torch.utils.checkpoint import checkpoint

    rng = np.random.default_rng(14)
    An, xn = rng.normal(size=(4, 3)), rng.normal(size=3)
    A = torch.tensor(An, requires_grad=True)
    x = torch.tensor(xn, requires_grad=True)

    def f(a, v):
        # the same input twice (x feeds the layer and the second layer's input)
        y = checkpoint(lambda p, q: layer.torch(p, q), a, v, use_reentrant=False)
        return (y**2).sum() + (layer.torch(a, v) * v.sum()).sum()

    def f_ref(a, v):
        y = torch.tanh(a @ v)
        return (y**2).sum() + (y * v.sum()).sum()

    loss = f(A, x)
    loss.backward(retain_graph=True)
    gA, gx = A.grad.clone(), x.grad.clone()
    loss.backward()  # retained graph: a second backward doubles the gradients
    assert_close(A.grad, 2 * gA, 1e-14, what="retain_graph")

    A2, x2 = A.detach().clone().requires_grad_(), x.detach().clone().requires_grad_()
    f_ref(A2, x2).backward()
    assert_close(gA, A2.grad, 1e-12, what="dA vs torch")
    assert_close(gx, x2.grad, 1e-12, what="dx vs torch")

    def np_loss(a, v):
        y = _layer_np(a, v)
        return float((y**2).sum() + (y * v.sum()).sum())

    assert_close(gx, fd_grad(lambda v: np_loss(An, v), xn), 1e-6, what="dx vs FD")


def test_torch_module_with_parameters_and_optimizer(layer):
    torch = framework("torch")

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            g = torch.Generator().manual_seed(5)
            self.A = torch.nn.Parameter(torch.randn(3, 2, generator=g, dtype=torch.float64))
            self.v = torch.nn.Parameter(torch.randn(3, generator=g, dtype=torch.float64))

        def forward(self, x, loaded=True):
            h = layer.torch(self.A, x) if loaded else torch.tanh(self.A @ x)
            return h @ self.v

    net, ref = Net(), Net()
    ref.load_state_dict(net.state_dict())
    xs = torch.tensor(np.random.default_rng(6).normal(size=(8, 2)))
    ys = torch.sin(xs.sum(1))
    opts = [torch.optim.Adam(m.parameters(), lr=0.05) for m in (net, ref)]
    for _ in range(20):
        for m, opt, loaded in ((net, opts[0], True), (ref, opts[1], False)):
            opt.zero_grad()
            loss = sum((m(x, loaded) - y) ** 2 for x, y in zip(xs, ys)) / len(xs)
            loss.backward()
            opt.step()
    # twenty Adam steps on the loaded and the torch-written layer stay together
    assert_close(net.A.detach(), ref.A.detach(), 1e-9, what="A after training")
    assert_close(net.v.detach(), ref.v.detach(), 1e-9, what="v after training")


# JAX ----------------------------------------------------------------------------------


def _rbf_tot_jnp(jnp, x, c, ell):
    d2 = ((x[:, None, :] - c[None, :, :]) ** 2).sum(-1)
    k = jnp.exp(-0.5 * d2 / ell**2)
    return (k * jnp.arange(1, x.shape[0] + 1)[:, None]).sum()


def test_jax_jit_vmap_grad_and_value_and_grad(rbf):
    jax = framework("jax")
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    xn, cn, ell = rbf_inputs()
    x, c = jnp.asarray(xn), jnp.asarray(cn)
    ells = jnp.array([0.6, 0.9, 1.3])

    g = jax.jit(jax.vmap(jax.grad(lambda e: rbf.jax(x, c, e)[1])))(ells)
    g_ref = jax.vmap(jax.grad(lambda e: _rbf_tot_jnp(jnp, x, c, e)))(ells)
    assert_close(g, g_ref, 1e-11, what="jit(vmap(grad)) d ell")

    v, (gx, gc) = jax.value_and_grad(lambda a, b: rbf.jax(a, b, ell)[1], argnums=(0, 1))(x, c)
    v_ref, (gx_ref, gc_ref) = jax.value_and_grad(
        lambda a, b: _rbf_tot_jnp(jnp, a, b, ell), argnums=(0, 1)
    )(x, c)
    assert_close(v, v_ref, 1e-12, what="value")
    assert_close(gx, gx_ref, 1e-11, what="dx")
    assert_close(gc, gc_ref, 1e-11, what="dc")

    # grad of a jitted function
    gj = jax.grad(jax.jit(lambda a: rbf.jax(a, c, ell)[1]))(x)
    assert_close(gj, gx_ref, 1e-11, what="grad(jit)")


def test_jax_scan_over_a_loaded_layer(layer):
    jax = framework("jax")
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(7)
    An = rng.normal(scale=0.6, size=(3, 3))
    x0 = rng.normal(size=3)

    def run(A, x, step):
        def body(h, _):
            h = step(A, h)
            return h, h.sum()

        h, s = jax.lax.scan(body, x, None, length=5)
        return (h**2).sum() + s.sum()

    loaded = lambda A, h: layer.jax(A, h)  # noqa: E731
    plain = lambda A, h: jnp.tanh(A @ h)  # noqa: E731
    gA, gx = jax.grad(run, argnums=(0, 1))(jnp.asarray(An), jnp.asarray(x0), loaded)
    gA_ref, gx_ref = jax.grad(run, argnums=(0, 1))(jnp.asarray(An), jnp.asarray(x0), plain)
    assert_close(gA, gA_ref, 1e-11, what="scan dA")
    assert_close(gx, gx_ref, 1e-11, what="scan dx")


# TensorFlow ---------------------------------------------------------------------------


def test_tf_variables_in_a_tf_function(layer):
    tf = framework("tensorflow")
    rng = np.random.default_rng(8)
    An, xn = rng.normal(size=(4, 3)), rng.normal(size=3)
    A = tf.Variable(An)
    x = tf.Variable(xn)

    @tf.function
    def step(loaded):
        with tf.GradientTape() as tape:
            y = layer.tf(A, x) if loaded else tf.tanh(tf.linalg.matvec(A, x))
            loss = tf.reduce_sum(y**3)
        return tape.gradient(loss, [A, x])

    (gA, gx), (gA_ref, gx_ref) = step(True), step(False)
    assert_close(gA.numpy(), gA_ref.numpy(), 1e-12, what="TF dA")
    assert_close(gx.numpy(), gx_ref.numpy(), 1e-12, what="TF dx")
    fd = fd_grad(lambda v: float((_layer_np(An, v) ** 3).sum()), xn)
    assert_close(gx.numpy(), fd, 1e-6, what="TF dx vs FD")


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__, "-q"])
