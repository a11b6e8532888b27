"""Scripts as new users write them (front43, fourteenth round): a TensorFlow graph whose
sizes are known only when it runs, a C++ kernel (a template over `std::array`, a
`std::vector` copy inside) from PyTorch, JAX and TensorFlow/Keras, and the mistakes users
make. (A numba function with `np.cumsum`, `np.outer`, a loop product, `np.where` and
`np.clip`, right at once against central differences, is not kept: its compile cost about
40 s of the suite's time on the loaded machine.)

Found and fixed in this round (each checked here):
* a dimension unknown while tracing a `tf.function` (read from the input when the op runs)
  was not range-checked against its C parameter: `unsigned char n` given 300 rows ran 44
  (**silently wrong**), an `int` given 2**31 would be truncated; the op now fails with an
  `InvalidArgumentError` naming the size, the input it comes from and the C parameter
  (attributes `dyn_iv_range`/`dyn_iv_what` of `FerrozymeCall`, `_tf.py` `_dyn_iv_checks`);
  the run-time check that two inputs agree on such a size read shapes as int32 (TensorFlow's
  "Shape output type is 32-bit" at 2**31): int64 now;
* a `const` array the C function writes and reads back failed to load with only the
  compiler's `enzyme_dup` help: the `CompileError` now says to declare it `inout` or `out`.
"""

import numpy as np
import pytest

import ferrozyme
from conftest import assert_close, framework, jax_x64

ROWS = r"""
/* sum_{i<n, j<m} w[i] (j + 1) x[i][j]^2, the row count a byte */
double rows(const double *x, const double *w, unsigned char n, int m) {
  double t = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) t += w[i] * (j + 1) * x[i * m + j] * x[i * m + j];
  return t;
}
"""


def rows_ref(x, w):
    return np.sum(w[:, None] * (np.arange(x.shape[1]) + 1)[None, :] * x * x)


def test_tf_graph_sizes_are_range_checked_when_the_op_runs():
    tf = framework("tensorflow")
    f = ferrozyme.load(ROWS, "rows", signature="(in x[n, m], in w[n], n, m) -> out", lang="c")
    rng = np.random.default_rng(43)
    x0, w0 = rng.normal(size=(300, 2)), rng.normal(size=300)

    # Eagerly every size is known: front40's check.
    with pytest.raises(ValueError, match=r"n=300 does not fit the C parameter `unsigned char n` \(0 to 255\)"):
        f.tf(tf.constant(x0), tf.constant(w0))

    @tf.function(input_signature=[tf.TensorSpec((None, None), tf.float64), tf.TensorSpec((None,), tf.float64)])
    def g(x, w):
        with tf.GradientTape() as t:
            t.watch([x, w])
            v = f.tf(x, w)
        return (v, *t.gradient(v, [x, w]))

    # In the graph n and m are read from x when the op runs: 300 rows would be 44 after the
    # cast (a sum over 44 rows, silently wrong before).
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"rows\(\): size n \(dimension 0 of 'x', `unsigned char n`\) is 300, "
                             r"which does not fit the C parameter \(0 to 255\)"):
        g(tf.constant(x0), tf.constant(w0))
    # 2**31 columns of zero rows: no element, but m does not fit `int`.
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"size m \(dimension 1 of 'x', `int m`\) is 2147483648, which does not fit"):
        g(tf.zeros((0, 2**31), tf.float64), tf.zeros((0,), tf.float64))
    # In range, the same graph: value and gradients by formula.
    x1, w1 = x0[:255], w0[:255]
    v, gx, gw = g(tf.constant(x1), tf.constant(w1))
    cols = np.arange(2) + 1
    assert_close(v.numpy(), rows_ref(x1, w1), 1e-13, what="rows in the graph")
    assert_close(gx.numpy(), 2 * w1[:, None] * cols * x1, 1e-13, what="d rows / dx")
    assert_close(gw.numpy(), np.sum(cols * x1 * x1, 1), 1e-13, what="d rows / dw")
    v0, g0, _ = g(tf.zeros((0, 5), tf.float64), tf.zeros((0,), tf.float64))
    assert v0.numpy() == 0.0 and g0.shape == (0, 5)


CXX = r"""
#include <array>
#include <cmath>
#include <vector>

namespace feat {
template <std::size_t K>
double horner(const std::array<double, K> &c, double t) {
  double r = 0;
  for (std::size_t k = K; k-- > 0;) r = r * t + c[k];
  return r;
}

/* y_i = p(x_i) exp(-w_i^2), p(t) = c0 + c1 t + c2 t^2; returns sum_i log(1 + y_i^2) */
double features(const double *x, const double *w, const double *c, double *y, int n) {
  const std::array<double, 3> cc{c[0], c[1], c[2]};
  std::vector<double> xs(x, x + n);
  double s = 0;
  for (int i = 0; i < n; i++) {
    y[i] = horner(cc, xs[i]) * std::exp(-w[i] * w[i]);
    s += std::log1p(y[i] * y[i]);
  }
  return s;
}
}  // namespace feat
"""
FEAT_SIG = "(in x[n], in w[n], in c[3], out y[n], n) -> out"


def features_ref(xp, x, w, c):
    """The C++ function written with a framework's operations."""
    y = (c[0] + c[1] * x + c[2] * x * x) * xp.exp(-w * w)
    return y, xp.sum(xp.log1p(y * y), -1)


@pytest.fixture(scope="module")
def feat():
    return ferrozyme.load(CXX, "feat::features", signature=FEAT_SIG, lang="c++")


def test_cxx_kernel_from_torch(feat):
    torch = framework("torch")
    rng = np.random.default_rng(1)
    x, w, c = (torch.tensor(rng.normal(size=s), requires_grad=True) for s in (7, 7, 3))
    assert torch.autograd.gradcheck(feat.torch, (x, w, c))
    # A batch through vmap, the batch read column-wise (non-contiguous rows).
    xb = torch.tensor(rng.normal(size=(7, 4))).T
    wb = torch.tensor(rng.normal(size=(4, 7)))
    assert not xb.is_contiguous()

    def loss(f):
        return lambda a, b: f(a, b, c.detach())[1]

    cref = lambda a, b, cc: features_ref(torch, a, b, cc)  # noqa: E731
    got = torch.vmap(torch.func.grad(loss(feat.torch), argnums=(0, 1)))(xb, wb)
    want = torch.vmap(torch.func.grad(loss(cref), argnums=(0, 1)))(xb, wb)
    for g, r in zip(got, want):
        assert_close(g.numpy(), r.numpy(), 1e-13, what="torch vmap(grad)")
    # Mistakes: float32, a wrong length for c, a 2-D x without vmap.
    with pytest.raises(ValueError, match="'x' must have dtype float64"):
        feat.torch(x.float(), w, c)
    with pytest.raises(ValueError, match=r"'c' has shape \(4,\), but its dimensions are \[3\]"):
        feat.torch(x, w, torch.zeros(4, dtype=torch.float64))
    with pytest.raises(ValueError, match="'x' must have 1 dimension"):
        feat.torch(x.detach()[None], w, c)


def test_cxx_kernel_from_jax(feat):
    jax, jnp = jax_x64()
    from jax.test_util import check_grads

    rng = np.random.default_rng(2)
    x, w, c = (jnp.asarray(rng.normal(size=s)) for s in (6, 6, 3))
    check_grads(feat.jax, (x, w, c), order=1, modes=("fwd", "rev"))
    g = jax.jit(jax.grad(lambda a, b, cc: feat.jax(a, b, cc)[1], argnums=(0, 1, 2)))
    r = jax.grad(lambda a, b, cc: features_ref(jnp, a, b, cc)[1], argnums=(0, 1, 2))
    for got, want in zip(g(x, w, c), r(x, w, c)):
        assert_close(got, want, 1e-13, what="jax jit(grad)")
    xb = jnp.asarray(rng.normal(size=(3, 6)))
    gb = jax.vmap(jax.grad(lambda a: feat.jax(a, w, c)[1]))(xb)
    rb = jax.vmap(jax.grad(lambda a: features_ref(jnp, a, w, c)[1]))(xb)
    assert_close(gb, rb, 1e-13, what="jax vmap(grad)")
    with pytest.raises(ValueError, match="'w' must have dtype float64"):
        feat.jax(x, w.astype(jnp.float32), c)


def test_cxx_kernel_in_a_keras_layer(feat):
    tf = framework("tensorflow")
    keras = pytest.importorskip("keras")

    class Feat(keras.layers.Layer):
        def build(self, shape):
            self.c = self.add_weight(shape=(3,), initializer=keras.initializers.Constant([0.5, -0.2, 0.3]),
                                     dtype="float64")

        def call(self, x, w):
            return feat.tf(x, w, self.c)[1]

    layer = Feat(dtype="float64")
    rng = np.random.default_rng(3)
    x, w = tf.constant(rng.normal(size=5)), tf.constant(rng.normal(size=5))

    @tf.function
    def step(x, w):
        with tf.GradientTape() as t:
            t.watch([x, w])
            v = layer(x, w)
        return (v, *t.gradient(v, [x, w, layer.c]))

    v, gx, gw, gc = step(x, w)
    c = tf.constant(layer.c.numpy())  # Keras' Constant initializer rounds through float32
    assert c.dtype == tf.float64
    with tf.GradientTape() as t:
        t.watch([x, w, c])
        vr = tf.reduce_sum(tf.math.log1p(((c[0] + c[1] * x + c[2] * x * x) * tf.exp(-w * w)) ** 2))
    rx, rw, rc = t.gradient(vr, [x, w, c])
    assert_close(v.numpy(), vr.numpy(), 1e-14, what="keras layer value")
    for g, r, what in ((gx, rx, "x"), (gw, rw, "w"), (gc, rc, "c")):
        assert_close(g.numpy(), r.numpy(), 1e-13, what=f"keras d/d{what}")


SCRATCH = r"""
#include <math.h>
/* sum_i sin(x_{7i mod n}^2), through a scratch buffer the caller provides */
double scratch(const double *x, double *tmp, int n) {
  for (int i = 0; i < n; i++) tmp[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(tmp[(i * 7) % n]);
  return s;
}
"""


def test_a_scratch_buffer_declared_const():
    # The compiler's own help speaks of enzyme_dup; the error now also says what to change
    # in the signature.
    with pytest.raises(ferrozyme.CompileError, match=r"(?s)derivative would be lost.*help \(signature\): `tmp` is "
                                                     r"declared `const`.*declare it `inout`"):
        ferrozyme.load(SCRATCH, "scratch", signature="(in x[n], const tmp[n], n) -> out", lang="c")
    f = ferrozyme.load(SCRATCH, "scratch", signature="(in x[n], inout tmp[n], n) -> out", lang="c")
    x = np.array([0.3, -0.7, 1.1, 0.5, 0.9])
    tmp_new, s = f(x, np.zeros(5))
    assert_close(tmp_new, x * x, 0, what="tmp")
    assert_close(s, np.sum(np.sin(x * x)), 1e-15, what="scratch")
    gx, gtmp = f.vjp_numpy((x, np.zeros(5)), (np.zeros(5), 1.0))
    assert_close(gx, 2 * x * np.cos(x * x), 1e-14, what="d/dx")
    assert_close(gtmp, np.zeros(5), 0, what="d/dtmp (overwritten before it is read)")
