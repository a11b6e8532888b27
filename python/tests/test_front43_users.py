"""Scripts as new users write them (front43, fourteenth round): a TensorFlow graph whose
sizes are known only when it runs, a C++ kernel (a template over `std::array`, a
`std::vector` copy inside) from PyTorch, JAX and TensorFlow/Keras, numba functions with
NumPy calls inside, and the mistakes users make.

Found and fixed in this round (each checked here):
* a dimension unknown while tracing a `tf.function` (read from the input when the op runs)
  was not range-checked against its C parameter: `unsigned char n` given 300 rows ran 44
  (**silently wrong**), an `int` given 2**31 would be truncated; the op now fails with an
  `InvalidArgumentError` naming the size, the input it comes from and the C parameter
  (attributes `dyn_iv_range`/`dyn_iv_what` of `FerrozymeCall`, `_tf.py` `_dyn_iv_checks`).
"""

import numpy as np
import pytest

import ferrozyme
from conftest import assert_close, fd_grad, framework, jax_x64

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
