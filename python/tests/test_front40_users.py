"""Scripts as new users write them (front40, thirteenth round): NumPy arrays of other byte
orders, alignments and strides, C headers' typedefs, signatures that disagree with the C
code, integer constants out of their C type's range; a Fortran procedure used from PyTorch,
JAX and TensorFlow; a numba function calling `np.diff`.

Found and fixed in this round (each checked here):
* a big-endian (`>f8`) array given after a native one of the same shape took the NumPy
  fast path (its key used `dtype.char`, `d` for both byte orders): silently wrong values;
  a NumPy scalar after a 0-d array took it too and raised an AttributeError;
* a pointer to a typedef (`const real_t *`, `const int64_t *`) was refused as an
  unsupported C type (clang desugars only the outermost type);
* `out`/`inout` on a `const double *` parameter loaded, and returned memory the function
  never wrote;
* a size or integer constant out of its C type's range (`int steps` given 2**40) was
  truncated by the glue's cast: the function ran with another value (0 steps);
* numba's `np.diff` was refused: its error path builds a message with numba's string
  functions, whose buffers come from the allocator that has shadows here.
"""

import numpy as np
import pytest

import ferrozyme
from conftest import assert_close, fd_grad, framework, jax_x64

SRC = r"""
#include <stdint.h>
typedef double real_t;
/* s * sum_i w[m[i]] x[i]^2 (m: an index table through a typedef) */
real_t wsq(const real_t *x, const int64_t *m, const real_t *w, real_t s, int n) {
  real_t t = 0;
  for (int i = 0; i < n; i++) t += s * w[m[i]] * x[i] * x[i];
  return t;
}
/* a, iterated `steps` times: a += dt * (b - a^2), recorded m times */
void traj(const double *p, double *y, int m, int steps, double dt, unsigned char k) {
  double a = p[0], b = p[1];
  for (int i = 0; i < m; i++) {
    for (int s = 0; s < steps; s++) a += dt * (b - a * a);
    y[i] = k * a;
  }
}
"""
WSQ_SIG = "(in x[n], const m[n], const w[n], in s, n) -> out"
TRAJ_SIG = "(in p[2], out y[m], m, const steps, const dt, const k)"


@pytest.fixture(scope="module")
def wsq():
    return ferrozyme.load(SRC, "wsq", signature=WSQ_SIG, lang="c")


@pytest.fixture(scope="module")
def traj():
    return ferrozyme.load(SRC, "traj", signature=TRAJ_SIG, lang="c")


def test_numpy_byte_order_alignment_strides_and_typedef_pointers(wsq):
    x = np.array([0.3, -0.7, 1.2, 0.45])
    m = np.array([2, 0, 3, 1], dtype=np.int64)
    w = np.array([1.5, -0.5, 2.0, 0.25])
    s = 0.8
    want = s * np.sum(w[m] * x * x)
    assert wsq(x, m, w, s) == pytest.approx(want, rel=1e-15)  # primes the fast path
    # The same shapes in another byte order: refused, before and after the fast path.
    for _ in range(2):
        with pytest.raises(ValueError, match="'x' must have dtype float64, got >f8"):
            wsq(x.astype(">f8"), m, w, s)
        assert wsq(x, m, w, s) == pytest.approx(want, rel=1e-15)
    with pytest.raises(ValueError, match="'m' must have dtype int64, got >i8"):
        wsq(x, m.astype(">i8"), w, s)
    # A NumPy scalar after a 0-d array of the same dtype (same fast-path key; AttributeError
    # `.ctypes` before).
    assert wsq(x, m, w, np.array(s)) == pytest.approx(want, rel=1e-15)
    assert wsq(x, m, w, np.float64(s)) == pytest.approx(want, rel=1e-15)
    # Misaligned, reversed, strided and read-only (stride-0) arrays give the copies' values.
    raw = np.frombuffer(b"\0" + x.tobytes(), dtype=np.float64, offset=1)
    assert not raw.flags.aligned
    assert wsq(raw, m, w, s) == pytest.approx(want, rel=1e-15)
    wide = np.stack([x[::-1], np.zeros(4)], 1)[:, 0]
    assert wsq(wide, m, w, s) == pytest.approx(wsq(x[::-1].copy(), m, w, s), rel=1e-15)
    flat_w = np.broadcast_to(2.0, (4,))
    assert wsq(x, m, flat_w, s) == pytest.approx(s * 2.0 * np.sum(x * x), rel=1e-15)
    # Gradient: d/dx_i = 2 s w[m_i] x_i, d/ds = sum_i w[m_i] x_i^2.
    gx, gs = wsq.vjp_numpy((x, m, w, s), (1.0,))
    assert_close(gx, 2 * s * w[m] * x, 1e-14, what="d/dx")
    assert_close(gs, np.sum(w[m] * x * x), 1e-14, what="d/ds")


def test_signatures_that_disagree_with_the_c_code_and_integer_ranges(traj):
    for role in ("out", "inout"):
        with pytest.raises(ferrozyme.SignatureError, match=r"`const real_t \*` points to const data"):
            ferrozyme.load(SRC, "wsq", signature=f"({role} x[n], const m[n], const w[n], in s, n) -> out", lang="c")
    p = np.array([0.2, 0.5])

    def ref(p, m, steps, dt, k):
        a, b, ys = p[0], p[1], []
        for _ in range(m):
            for _ in range(steps):
                a += dt * (b - a * a)
            ys.append(k * a)
        return np.array(ys)

    assert_close(traj(p, m=3, steps=2, dt=0.1, k=255), ref(p, 3, 2, 0.1, 255), 1e-14)
    # 2**40 steps would be 0 after the cast to `int`; 256 would be 0 as `unsigned char`.
    with pytest.raises(ValueError, match=r"steps=1099511627776 does not fit the C parameter `int steps`"):
        traj(p, m=3, steps=2**40, dt=0.1, k=1)
    with pytest.raises(ValueError, match=r"k=256 does not fit the C parameter `unsigned char k` \(0 to 255\)"):
        traj(p, m=3, steps=2, dt=0.1, k=256)
    with pytest.raises(ValueError, match="k=-1 does not fit"):
        traj(p, m=3, steps=2, dt=0.1, k=-1)
    # The gradient of sum(y) against central differences of the primal.
    g = traj.vjp_numpy((p,), (np.ones(3),), m=3, steps=2, dt=0.1, k=2)
    assert_close(g, fd_grad(lambda q: ref(q, 3, 2, 0.1, 2).sum(), p), 1e-7, what="traj vjp")


F90 = """
subroutine smooth(x, n, lam, y) bind(c)
  use iso_c_binding
  integer(c_int), value :: n
  real(c_double), value :: lam
  real(c_double), intent(in) :: x(n)
  real(c_double), intent(out) :: y(n)
  integer :: i
  do i = 1, n
    y(i) = x(i)**2 * exp(-lam * x(i))
    if (i > 1) y(i) = y(i) + lam * sin(x(i-1))
  end do
end subroutine
"""


def smooth_ref(xp, x, lam):
    """The Fortran procedure written with a framework's operations."""
    y = x**2 * xp.exp(-lam * x)
    cat = getattr(xp, "concatenate", None) or getattr(xp, "concat", None) or xp.cat
    return cat([y[:1], y[1:] + lam * xp.sin(x[:-1])], 0)


def test_fortran_procedure_in_torch_jax_and_tf():
    f = ferrozyme.load(F90, "smooth", signature="(in x[n], n, in lam, out y[n])", lang="fortran")
    rng = np.random.default_rng(40)
    x0, xb0 = rng.normal(size=6), rng.normal(size=(3, 6))

    torch = framework("torch")
    x = torch.tensor(x0, requires_grad=True)
    lam = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)

    assert torch.autograd.gradcheck(f.torch, (x, lam))
    xnc = torch.tensor(np.stack([x0, x0], 1))[:, 1].requires_grad_()  # a column: stride 2
    assert not xnc.is_contiguous()
    assert torch.autograd.gradcheck(lambda a: f.torch(a, lam.detach()), (xnc,))
    xb = torch.tensor(xb0)
    got = torch.vmap(torch.func.grad(lambda a: f.torch(a, lam.detach()).square().sum()))(xb)
    want = torch.vmap(torch.func.grad(lambda a: smooth_ref(torch, a, lam.detach()).square().sum()))(xb)
    assert_close(got.numpy(), want.numpy(), 1e-13, what="torch vmap(grad)")
    with pytest.raises(ValueError, match="'x' must have dtype float64"):
        f.torch(x.detach().float(), lam)

    jax, jnp = jax_x64()
    from jax.test_util import check_grads

    xj = jnp.asarray(x0)
    check_grads(f.jax, (xj, jnp.float64(0.7)), order=1, modes=("fwd", "rev"))
    loss = jax.jit(jax.grad(lambda a, b: jnp.sum(f.jax(a, b) ** 2), argnums=(0, 1)))
    lref = jax.grad(lambda a, b: jnp.sum(smooth_ref(jnp, a, b) ** 2), argnums=(0, 1))
    for g, r in zip(loss(xj, 0.7), lref(xj, 0.7)):
        assert_close(g, r, 1e-13, what="jax jit(grad)")
    assert_close(jax.vmap(f.jax, in_axes=(0, None))(jnp.asarray(xb0), 0.7),
                 jax.vmap(lambda a: smooth_ref(jnp, a, 0.7))(jnp.asarray(xb0)), 1e-14, what="jax vmap")

    tf = framework("tensorflow")
    xt, lt = tf.Variable(x0), tf.Variable(0.7, dtype=tf.float64)

    @tf.function
    def tape(use_op):
        with tf.GradientTape() as t:
            y = f.tf(xt, lt) if use_op else smooth_ref(tf, xt, lt)
            v = tf.reduce_sum(y**2)
        return t.gradient(v, [xt, lt])

    for g, r in zip(tape(True), tape(False)):
        assert_close(g.numpy(), r.numpy(), 1e-13, what="tf.function tape")


def test_numba_np_diff_and_cumsum():
    numba = framework("numba")
    from ferrozyme.numba import grad

    @numba.njit
    def f(x):
        d = np.diff(x)
        c = np.cumsum(x)
        return np.sum(d**3) + np.sum(c * c)

    x = np.array([0.3, -0.7, 1.2, 0.45, 0.8])
    # d/dx_j: 3 d_{j-1}^2 - 3 d_j^2 (d_j = x_{j+1} - x_j) + 2 sum_{i >= j} c_i
    d, c = np.diff(x), np.cumsum(x)
    want = np.zeros(5)
    want[1:] += 3 * d**2
    want[:-1] -= 3 * d**2
    want += 2 * np.cumsum(c[::-1])[::-1]
    assert_close(grad(f)(x), want, 1e-13, what="np.diff/np.cumsum")
    assert_close(grad(f)(x), fd_grad(f.py_func, x), 1e-7, what="against central differences")
