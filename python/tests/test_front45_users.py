"""Scripts as new users write them (front45, fifteenth round): one C kernel, a batched
log-sum-exp feature `y_i = log(1 + sum_j w_j exp(s x_ij))` returning `sum_i y_i^2`,
compiled once and used from PyTorch (an `nn.Module` trained by Adam beside the same module
written with torch ops, `vmap(grad)`), JAX (a loss calling the op twice, `jit(vmap(grad))`,
`check_grads`) and TensorFlow (a persistent tape asked for two losses, a
Keras model with the op inside `fit` for 2 epochs beside the same model written with TF
ops); and the mistakes users make when naming the function.

Found and fixed in this round: a function name that is not in the source (a typo, a wrong
case) said only "no function `Lse` in /root/.cache/ferrozyme/src/<hash>.c" for source text:
the message now names "the source text given" and suggests the close names the source
defines or calls (`did you mean `lse`?`; `_cproto._did_you_mean`).

Also tried, right at once (not kept, for the suite's time): `gradcheck`, float32 tensors
against torch's autograd, `torch.compile(fullgraph=True)` of the trained module (30 s of
inductor compile here), JAX float32 with x64 off (and the float64 function's `ValueError`
saying to enable x64), `tf.function(jit_compile=True)` refused with a `NotImplementedError`,
wrong dtype and rank `ValueError`s, `jacfwd`/`jacrev`, a non-contiguous input; numba `np.linalg.norm`, `np.dot`,
`np.sort`, `np.argmax`, `np.argsort` indexing, `np.cross`, `np.kron`, `np.trace`, `np.triu`,
`np.clip`, `np.prod`, `np.cumsum` against central differences.
"""

import numpy as np
import pytest

import ferrozyme
from conftest import assert_close, framework, jax_x64

LSE = r"""
#include <math.h>
/* y_i = log(1 + sum_j w_j exp(s x_ij)); returns sum_i y_i^2 */
double lse(const double *x, const double *w, double s, double *y, int b, int n) {
  double t = 0;
  for (int i = 0; i < b; i++) {
    double a = 1;
    for (int j = 0; j < n; j++) a += w[j] * exp(s * x[i * n + j]);
    y[i] = log(a);
    t += y[i] * y[i];
  }
  return t;
}
"""
SIG = "(in x[b, n], in w[n], in s, out y[b], b, n) -> out"


@pytest.fixture(scope="module")
def lse():
    return ferrozyme.load(LSE, "lse", signature=SIG, lang="c")


def test_torch_module_trained_by_adam_and_vmap_grad(lse):
    torch = framework("torch")

    def ref(x, w, s):
        y = torch.log(1 + (w * torch.exp(s * x)).sum(-1))
        return y, (y * y).sum()

    class Feature(torch.nn.Module):
        def __init__(self, fn):
            super().__init__()
            self.fn = fn
            self.w = torch.nn.Parameter(torch.full((3,), 0.5, dtype=torch.float64))
            self.s = torch.nn.Parameter(torch.tensor(0.3, dtype=torch.float64))

        def forward(self, x):
            return self.fn(x, self.w, self.s)[0]

    g = torch.Generator().manual_seed(45)
    X = torch.randn(16, 3, dtype=torch.float64, generator=g)
    T = torch.rand(16, dtype=torch.float64, generator=g) + 1
    ours, theirs = Feature(lse.torch), Feature(ref)
    opts = [torch.optim.Adam(m.parameters(), lr=0.05) for m in (ours, theirs)]
    first = None
    for _ in range(10):
        for m, o in zip((ours, theirs), opts):
            o.zero_grad()
            loss = ((m(X) - T) ** 2).mean()
            loss.backward()
            o.step()
        first = first if first is not None else loss.item()
        assert_close(ours.w.grad.numpy(), theirs.w.grad.numpy(), 1e-12, what="Adam step: d loss / dw")
        assert_close(ours.s.grad.numpy(), theirs.s.grad.numpy(), 1e-12, what="Adam step: d loss / ds")
    assert loss.item() < first
    # Per-sample gradients over an extra batch dimension of x.
    Xb = torch.randn(5, 4, 3, dtype=torch.float64, generator=g)
    w, s = ours.w.detach(), ours.s.detach()
    got = torch.func.vmap(torch.func.grad(lambda xx: lse.torch(xx, w, s)[1]))(Xb)
    want = torch.func.vmap(torch.func.grad(lambda xx: ref(xx, w, s)[1]))(Xb)
    assert_close(got.numpy(), want.numpy(), 1e-12, what="vmap(grad)")


def test_jax_loss_calling_the_op_twice_jit_vmap_and_check_grads(lse):
    jax, jnp = jax_x64()
    from jax.test_util import check_grads

    def ref(x, w, s):
        y = jnp.log(1 + (w * jnp.exp(s * x)).sum(-1))
        return y, (y * y).sum()

    def loss(x, w, s, fn):
        y1, t1 = fn(x, w, s)
        y2, _ = fn(x * 0.5, w, s * y1.mean())
        return t1 + jnp.sum(y2**3)

    rng = np.random.default_rng(45)
    x, w, s = jnp.array(rng.normal(size=(4, 3))), jnp.array([0.2, 0.5, 0.9]), 0.7
    got = jax.grad(loss, argnums=(0, 1, 2))(x, w, s, lse.jax)
    want = jax.grad(loss, argnums=(0, 1, 2))(x, w, s, ref)
    for k, (a, b) in enumerate(zip(got, want)):
        assert_close(np.asarray(a), np.asarray(b), 1e-12, what=f"grad of the op used twice, argument {k}")
    Xb = jnp.array(rng.normal(size=(5, 4, 3)))
    got = jax.jit(jax.vmap(jax.grad(lambda xx: loss(xx, w, s, lse.jax))))(Xb)
    want = jax.vmap(jax.grad(lambda xx: loss(xx, w, s, ref)))(Xb)
    assert_close(np.asarray(got), np.asarray(want), 1e-12, what="jit(vmap(grad))")
    check_grads(lambda x, w, s: lse.jax(x, w, s), (x, w, s), order=1, modes=("fwd", "rev"))


def test_tf_persistent_tape_and_keras_fit(lse):
    tf = framework("tensorflow")
    import keras

    def ref(x, w, s):
        y = tf.math.log(1 + tf.reduce_sum(w * tf.exp(s * x), -1))
        return y, tf.reduce_sum(y * y)

    rng = np.random.default_rng(45)
    x = tf.constant(rng.normal(size=(4, 3)))
    w = tf.Variable([0.2, 0.5, 0.9], dtype=tf.float64)
    s = tf.Variable(0.7, dtype=tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y, t = lse.tf(x, w, s)
        y2, t2 = ref(x, w, s)
        a, a2 = tf.reduce_sum(tf.sin(y)), tf.reduce_sum(tf.sin(y2))
    for ours, theirs, what in ((t, t2, "the returned sum"), (a, a2, "sum sin(y)")):
        for g1, g2, v in zip(tape.gradient(ours, [x, w, s]), tape.gradient(theirs, [x, w, s]), "xws"):
            assert_close(g1.numpy(), g2.numpy(), 1e-12, what=f"persistent tape, {what}, d/d{v}")
    del tape

    class Feature(keras.layers.Layer):
        def __init__(self, fn):
            super().__init__(dtype="float64")
            self.fn = fn

        def build(self, shape):
            self.w = self.add_weight(shape=(3,), initializer="ones", dtype="float64")
            self.s = self.add_weight(shape=(), initializer="zeros", dtype="float64")

        def call(self, x):
            return self.fn(x, self.w, self.s)[0][:, None]

    X, Y = rng.normal(size=(20, 3)), rng.uniform(1, 2, size=(20, 1))
    fitted = []
    for fn in (lse.tf, ref):
        inp = keras.Input((3,), dtype="float64")
        m = keras.Model(inp, Feature(fn)(inp))
        m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        h = m.fit(X, Y, epochs=2, batch_size=8, shuffle=False, verbose=0)
        fitted.append((h.history["loss"], [v.numpy() for v in m.trainable_variables]))
    (l1, v1), (l2, v2) = fitted
    assert_close(np.array(l1), np.array(l2), 1e-10, what="Keras fit: the epochs' losses")
    for a, b in zip(v1, v2):
        assert_close(a, b, 1e-10, what="Keras fit: the trained weights")
    assert l1[1] < l1[0]


def test_a_function_name_not_in_the_source():
    # No compile: the failure comes from the clang AST query.
    src = LSE + "static double helper_fn(double v) { return v; }\n"
    for typed, hint in [("Lse", "`lse`"), ("lse2", "`lse`"), ("helper_fm", "`helper_fn`")]:
        with pytest.raises(ferrozyme.SignatureError,
                           match=rf"no function `{typed}` in the source text given; did you mean {hint}\?"):
            ferrozyme.load(src, typed, signature=SIG, lang="c")
    with pytest.raises(ferrozyme.SignatureError, match=r"no function `zzz` in the source text given$"):
        ferrozyme.load(src, "zzz", signature=SIG, lang="c")
    with pytest.raises(ferrozyme.SignatureError, match="cannot parse signature"):
        ferrozyme.load(src, "lse", signature="in x[b, n], w", lang="c")
