"""Scripts as new users write them (front38): numba functions with integer arrays beside
float arrays, and one batched C op used from PyTorch, JAX and TensorFlow the way each
framework's users write models.

* numba: `x ** 2 * np.arange(n)`, `np.exp(-0.1 * k) * x ** 3 + k * np.sin(x)` with `k =
  np.arange(n)`, `np.where` on an integer mask, `np.cumsum` of integers, a float32 array
  times an int64 one. Refused before front38 (cannot-deduce-type: numba's one allocator,
  given one IR body, made type analysis merge the integer and the float arrays' data; and
  the loop vectorizer's `<8 x i64>` induction vectors stored into `np.arange`'s data were
  not known to be integers). Against the analytic gradient, central differences, forward
  mode and jax.grad of the same expression.
* One C function, a softplus of a weighted sum of squares per row (`in x[b, n], in w[n],
  in bias, out y[b]`, float64 and float32), as a custom op: torch's gradcheck and
  gradgradcheck, a transposed (non-contiguous) input, float32 against torch's autodiff,
  an `nn.Module` trained with Adam, the errors for a float32 / int64 tensor given to the
  float64 op and for mismatched sizes; `jax.grad` of a loss mixing jnp and the op in
  float32 (JAX's default dtype), under `jit`, `vmap`, `value_and_grad(has_aux=True)` and
  `jax.hessian`; `tf.GradientTape` over `tf.Variable`s and a Keras layer calling the op,
  eagerly and in `tf.function`.
"""

import numpy as np
import pytest

import ferrozyme
from conftest import assert_close, fd_grad, framework, jax_x64

SRC = r"""
#include <math.h>
void sp_layer(const double *x, const double *w, double bias, double *y, int b, int n) {
  for (int i = 0; i < b; i++) {
    double s = bias;
    for (int j = 0; j < n; j++) s += w[j] * x[i * n + j] * x[i * n + j];
    y[i] = s > 30 ? s : log1p(exp(s));
  }
}
void sp_layer_f(const float *x, const float *w, float bias, float *y, int b, int n) {
  for (int i = 0; i < b; i++) {
    float s = bias;
    for (int j = 0; j < n; j++) s += w[j] * x[i * n + j] * x[i * n + j];
    y[i] = s > 30 ? s : log1pf(expf(s));
  }
}
"""
SIG = "(in x[b, n], in w[n], in bias, out y[b], b, n)"


@pytest.fixture(scope="module")
def sp64():
    return ferrozyme.load(SRC, "sp_layer", signature=SIG, lang="c")


@pytest.fixture(scope="module")
def sp32():
    return ferrozyme.load(SRC, "sp_layer_f", signature=SIG, lang="c")


def test_numba_integer_arrays_beside_float_arrays():
    """d/dx of array expressions mixing np.arange's int64 array with float arrays: by the
    formula, the forward tangent, central differences and jax.grad of the jnp version."""
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def weighted(x):
        return (x ** 2 * np.arange(x.shape[0])).sum()

    @numba.njit
    def decaying(x):
        k = np.arange(x.shape[0])
        w = np.exp(-0.1 * k) * x ** 3 + k * np.sin(x)
        return w.sum() + (k % 3 == 0).sum() * x[0]

    @numba.njit
    def masked(x):
        k = np.arange(x.shape[0])
        return np.where(k % 2 == 0, x, 2 * x).sum() + np.cumsum(k)[-1] * x[-1] ** 2

    @numba.njit
    def single(x):
        return (x * np.arange(x.shape[0]) ** 2).sum()

    rng = np.random.default_rng(38)
    n = 37  # past the vectorized loops' 32 lanes, with a remainder
    x = rng.normal(size=n)
    k = np.arange(n)
    assert_close(fzn.grad(weighted)(x), 2 * x * k, 1e-14, what="d/dx Σ k x²")
    v = rng.normal(size=n)
    val, tan = fzn.jvp(weighted)(x, v)
    assert_close(np.array([val, tan]), np.array([(x ** 2 * k).sum(), (2 * x * k) @ v]), 1e-12, what="value, tangent")

    want = 3 * np.exp(-0.1 * k) * x ** 2 + k * np.cos(x)
    want[0] += (k % 3 == 0).sum()
    assert_close(fzn.grad(decaying)(x), want, 1e-13, what="d/dx Σ e^{-k/10} x³ + k sin x")
    assert_close(fzn.grad(masked)(x), fd_grad(masked, x), 1e-7, 1e-9, what="d/dx np.where, cumsum (FD)")

    jax, jnp = jax_x64()

    def decaying_jnp(x):
        k = jnp.arange(x.shape[0])
        return (jnp.exp(-0.1 * k) * x ** 3 + k * jnp.sin(x)).sum() + (k % 3 == 0).sum() * x[0]

    assert_close(fzn.grad(decaying)(x), jax.grad(decaying_jnp)(jnp.asarray(x)), 1e-13, what="= jax.grad")

    x32 = x.astype(np.float32)  # float32 * int64 is float64 in numba as in NumPy
    g32 = fzn.grad(single)(x32)
    assert g32.dtype == np.float32
    assert_close(g32, (k ** 2).astype(np.float32), 0.0, what="d/dx32 Σ k² x")


def test_torch_batched_op_gradcheck_noncontiguous_float32_training_and_errors(sp64, sp32):
    """The op on a (b, n) batch with an active bias: gradcheck and gradgradcheck (float64),
    a transposed input, float32 against torch's softplus, an nn.Module fitted with Adam to
    data the same formula made, and ValueErrors for a float32 or int64 tensor given to the
    float64 op and for sizes that disagree."""
    torch = framework("torch")

    def ref(x, w, b):
        return torch.nn.functional.softplus((w * x * x).sum(-1) + b)

    rng = np.random.default_rng(380)
    x = torch.tensor(rng.normal(size=(5, 4)), requires_grad=True)
    w = torch.tensor(rng.normal(size=4), requires_grad=True)
    b = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(sp64.torch, (x, w, b))
    assert torch.autograd.gradgradcheck(sp64.torch, (x, w, b))

    xt = torch.tensor(rng.normal(size=(4, 5)), requires_grad=True)
    assert not xt.t().is_contiguous()
    got = torch.autograd.grad(sp64.torch(xt.t(), w, b).sum(), (xt, w))
    want = torch.autograd.grad(ref(xt.t(), w, b).sum(), (xt, w))
    for g, r, what in zip(got, want, ("d/dx of x.t()", "d/dw")):
        assert_close(g, r, 1e-13, 1e-15, what=what)

    x32, w32 = x.detach().float().requires_grad_(), w.detach().float().requires_grad_()
    b32 = torch.tensor(0.3, requires_grad=True)
    y = sp32.torch(x32, w32, b32)
    assert y.dtype == torch.float32
    got = torch.autograd.grad((y * torch.arange(5.0)).sum(), (x32, w32, b32))
    want = torch.autograd.grad((ref(x32, w32, b32) * torch.arange(5.0)).sum(), (x32, w32, b32))
    for g, r, what in zip(got, want, ("dx", "dw", "dbias")):
        assert_close(g, r, 1e-5, 1e-6, what=f"float32 {what}")

    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.ones(4, dtype=torch.float64))
            self.b = torch.nn.Parameter(torch.tensor(0.0, dtype=torch.float64))

        def forward(self, x):
            return sp64.torch(x, self.w, self.b)

    m = Model()
    opt = torch.optim.Adam(m.parameters(), lr=0.05)
    X = torch.tensor(rng.normal(size=(32, 4)))
    Y = ref(X, torch.tensor([0.5, -1.0, 2.0, 0.1], dtype=torch.float64), torch.tensor(0.2, dtype=torch.float64))
    first = None
    for _ in range(150):
        opt.zero_grad()
        loss = ((m(X) - Y) ** 2).mean()
        loss.backward()
        opt.step()
        first = loss.item() if first is None else first
    assert loss.item() < 0.05 * first, (first, loss.item())

    with pytest.raises(ValueError, match=r"argument 'x' must have dtype float64.*got float32"):
        sp64.torch(x.float(), w, b)
    with pytest.raises(ValueError, match=r"argument 'x' must have dtype float64.*got int64"):
        sp64.torch(x.detach().long(), w, b)
    with pytest.raises(ValueError, match=r"size n is 3 from 'x' but 4 from 'w'"):
        sp64.torch(x[:, :3], w, b)


def test_jax_float32_loss_mixing_jnp_and_the_op(sp32):
    """JAX's default dtype is float32: jax.grad of tanh(op) weighted plus an L2 term, under
    jit, vmap over a batch of inputs, value_and_grad with the op's output as aux, and
    jax.hessian in w: the same as jax.nn.softplus."""
    jax = framework("jax")
    jnp = jax.numpy

    def ref(x, w, b):
        return jax.nn.softplus((w * x * x).sum(-1) + b)

    def loss(f, x, w, b):
        return jnp.sum(jnp.tanh(f(x, w, b)) * jnp.arange(5.0, dtype=jnp.float32)) + 0.1 * jnp.sum(w ** 2)

    rng = np.random.default_rng(381)
    x = jnp.asarray(rng.normal(size=(5, 4)), dtype=jnp.float32)
    w = jnp.asarray(rng.normal(size=4), dtype=jnp.float32)
    b = jnp.float32(0.3)
    got = jax.grad(lambda *a: loss(sp32.jax, *a), argnums=(0, 1, 2))(x, w, b)
    want = jax.grad(lambda *a: loss(ref, *a), argnums=(0, 1, 2))(x, w, b)
    for g, r, what in zip(got, want, ("dx", "dw", "dbias")):
        assert g.dtype == jnp.float32
        assert_close(g, r, 1e-5, 1e-6, what=f"jax.grad {what}")
    assert_close(jax.jit(jax.grad(lambda x: loss(sp32.jax, x, w, b)))(x), want[0], 1e-5, 1e-6, what="jit(grad)")
    xb = jnp.stack([x, 2 * x, -x])
    assert_close(jax.vmap(jax.grad(lambda x: loss(sp32.jax, x, w, b)))(xb),
                 jax.vmap(jax.grad(lambda x: loss(ref, x, w, b)))(xb), 1e-5, 1e-6, what="vmap(grad)")
    (_, aux), gw = jax.value_and_grad(lambda w: (loss(sp32.jax, x, w, b), sp32.jax(x, w, b)), has_aux=True)(w)
    assert_close(aux, ref(x, w, b), 1e-6, what="aux output")
    assert_close(gw, want[1], 1e-5, 1e-6, what="value_and_grad")
    assert_close(jax.hessian(lambda w: loss(sp32.jax, x, w, b))(w), jax.hessian(lambda w: loss(ref, x, w, b))(w),
                 1e-4, 1e-5, what="jax.hessian in w")


def test_tf_keras_layer_and_gradient_tape_over_variables(sp32):
    """A Keras layer whose call is the op (float32 Variables), its gradients on a tape and
    inside tf.function, against the same layer written with tf.math.softplus."""
    tf = framework("tensorflow")

    class SoftplusLayer(tf.keras.layers.Layer):
        def __init__(self, op):
            super().__init__()
            self.op = op

        def build(self, shape):
            self.w = self.add_weight(shape=(shape[-1],), initializer="ones")
            self.bias = self.add_weight(shape=(), initializer="zeros")

        def call(self, x):
            if self.op is None:
                return tf.math.softplus(tf.reduce_sum(self.w * x * x, axis=-1) + self.bias)
            return self.op(x, self.w, self.bias)

    rng = np.random.default_rng(382)
    X = tf.constant(rng.normal(size=(6, 4)), dtype=tf.float32)

    def grads(layer, in_function):
        layer(X)  # builds the weights
        layer.w.assign([0.5, -1.0, 2.0, 0.1])
        layer.bias.assign(0.2)

        def step(X):
            with tf.GradientTape() as tape:
                tape.watch(X)
                loss = tf.reduce_sum(tf.tanh(layer(X)) * tf.range(6.0))
            return tape.gradient(loss, [X, layer.w, layer.bias])

        return (tf.function(step) if in_function else step)(X)

    for in_function in (False, True):
        got = grads(SoftplusLayer(sp32.tf), in_function)
        want = grads(SoftplusLayer(None), in_function)
        for g, r, what in zip(got, want, ("dX", "dw", "dbias")):
            assert_close(g.numpy(), r.numpy(), 1e-5, 1e-6, what=f"tf {what} (tf.function: {in_function})")
