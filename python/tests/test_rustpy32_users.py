"""Scripts as users write them, sixth round (rustpy32): a `torch.jit.save`d archive loaded
after Ferrozyme was rebuilt (the ops' names no longer hash the binary); `torch.func.grad`
and per-sample gradients through `vmap`; `jax.jit(jax.grad)` retraced for new shapes and
`jax.vmap` of a gradient; `tf.function` with a persistent `GradientTape`; numba `@njit`
loops over 2-D arrays; and the mistakes users make (wrong dtype, non-contiguous arrays,
wrong shapes), each a clear Python exception or the right number. Every derivative is
checked against the framework's own autodiff of the same math or central differences.
"""

import os
import shutil
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import ferrozyme
from conftest import LAYER_SIG, assert_close, csrc, fd_grad, framework, jax_x64
from test_probe30_users import layer_data, layer_ref


def test_torchscript_archive_loads_after_ferrozyme_is_rebuilt(layer, rbf, tmp_path):
    """A scripted module calling `layer.torchscript` is saved; a fresh process whose
    `ferrozyme` binary differs (a copy with a byte appended: another fingerprint, so the
    library is compiled again) loads the function and the archive and gets torch's
    gradient. The op names hash the function (name, signature, source), not the binary:
    distinct functions keep distinct names."""
    torch = framework("torch")
    A, x = layer_data(seed=32)
    fz = layer.torchscript

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.A = torch.nn.Parameter(torch.tensor(A))

        def forward(self, x):
            return fz(self.A, x).square().sum()

    path = tmp_path / "net.pt"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.jit.save(torch.jit.script(Net()), str(path))
    np.save(tmp_path / "x.npy", x)
    Ar = torch.tensor(A, requires_grad=True)
    layer_ref(torch, Ar, torch.tensor(x)).square().sum().backward()
    np.save(tmp_path / "want.npy", Ar.grad.numpy())
    # The "rebuilt" binary: the same program with other bytes.
    from ferrozyme import _toolchain

    rebuilt = tmp_path / "bin" / "ferrozyme"
    rebuilt.parent.mkdir()
    shutil.copy2(_toolchain.ferrozyme_bin(), rebuilt)
    with open(rebuilt, "ab") as f:
        f.write(b"rustpy32")
    script = textwrap.dedent(f"""
        import numpy as np, torch, ferrozyme
        f = ferrozyme.load({str(csrc('rbf.c'))!r}, "layer", signature={LAYER_SIG!r})
        print("KEY", f.key, "DIR", f._built.dir)
        m = torch.jit.load({str(path)!r})
        m(torch.tensor(np.load({str(tmp_path / 'x.npy')!r}))).backward()
        print("ERR", np.abs(m.A.grad.numpy() - np.load({str(tmp_path / 'want.npy')!r})).max())
    """)
    env = dict(os.environ, FERROZYME_BIN=str(rebuilt))
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    out = dict(zip(r.stdout.split()[0::2], r.stdout.split()[1::2]))
    assert out["DIR"] != str(layer._built.dir), "the copied binary must compile a library of its own"
    assert out["KEY"] == layer.key
    assert float(out["ERR"]) <= 1e-12, out
    # Distinct functions, distinct op names: another function of the same file, the
    # same function under other flags.
    o3 = ferrozyme.load(csrc("rbf.c"), "layer", signature=LAYER_SIG, flags=["-O3"])
    assert len({layer.key, rbf.key, o3.key}) == 3


def test_torch_func_grad_and_per_sample_gradients(layer):
    """torch.func.grad and grad_and_value of a loss through the op, and per-sample
    gradients (vmap of grad over a batch of x, the weight shared): as torch.func over
    torch's tanh."""
    torch = framework("torch")
    from torch.func import grad, grad_and_value, vmap

    A, x = (torch.tensor(a) for a in layer_data(seed=321))
    X = torch.tensor(np.random.default_rng(322).normal(size=(6, 4)))

    def loss(f):
        return lambda A, x: (f(A, x) * torch.tensor([1.0, -0.5, 2.0])).sum() + f(A, x).square().sum() * x[0]

    ours, ref = loss(layer.torch), loss(lambda A, x: layer_ref(torch, A, x))
    for argnums in (0, 1, (0, 1)):
        g, w = grad(ours, argnums=argnums)(A, x), grad(ref, argnums=argnums)(A, x)
        for gi, wi in zip(g if isinstance(g, tuple) else (g,), w if isinstance(w, tuple) else (w,)):
            assert_close(gi, wi, 1e-12, 1e-14, what=f"grad argnums={argnums}")
    (g, v), (gw, vw) = grad_and_value(ours)(A, x), grad_and_value(ref)(A, x)
    assert_close(v, vw, 1e-13, what="grad_and_value value")
    assert_close(g, gw, 1e-12, 1e-14, what="grad_and_value grad")
    per = vmap(grad(ours, argnums=(0, 1)), in_dims=(None, 0))(A, X)
    want = vmap(grad(ref, argnums=(0, 1)), in_dims=(None, 0))(A, X)
    assert per[0].shape == (6, 3, 4) and per[1].shape == (6, 4)
    assert_close(per[0], want[0], 1e-12, 1e-14, what="per-sample dA")
    assert_close(per[1], want[1], 1e-12, 1e-14, what="per-sample dx")


def test_jax_jit_grad_retraced_for_new_shapes_and_vmap(layer):
    """jax.jit(jax.grad(loss)) called with two shapes (retraced: the op's sizes come from
    the new shapes), jax.vmap of the gradient over a batch, and jit of that: as the same
    transforms of jnp.tanh."""
    jax, jnp = jax_x64()

    def loss(f):
        return lambda A, x: jnp.sum(jnp.cos(f(A, x))) + jnp.sum(f(A, x) ** 2) * x[0]

    ours, ref = loss(layer.jax), loss(lambda A, x: layer_ref(jnp, A, x))
    g_ours, g_ref = jax.jit(jax.grad(ours, argnums=(0, 1))), jax.jit(jax.grad(ref, argnums=(0, 1)))
    for m, n, seed in ((3, 4, 323), (5, 2, 324), (3, 4, 325)):
        A, x = (jnp.asarray(a) for a in layer_data(m, n, seed=seed))
        for g, w, what in zip(g_ours(A, x), g_ref(A, x), ("dA", "dx")):
            assert g.shape == w.shape
            assert_close(g, w, 1e-12, 1e-14, what=f"jit(grad) {m}x{n}: {what}")
    A, _ = (jnp.asarray(a) for a in layer_data(seed=326))
    X = jnp.asarray(np.random.default_rng(327).normal(size=(5, 4)))
    for tf_ in (lambda f: jax.vmap(jax.grad(f), in_axes=(None, 0)),
                lambda f: jax.jit(jax.vmap(jax.grad(f, argnums=1), in_axes=(None, 0)))):
        assert_close(tf_(ours)(A, X), tf_(ref)(A, X), 1e-12, 1e-14, what="vmap(grad)")


def test_tf_function_persistent_tape_jacobians(layer):
    """Inside tf.function, a persistent GradientTape gives two gradients and the full
    Jacobian dy/dx (pfor over the op's gradient); a tf.function with a
    shape-polymorphic input_signature runs at two shapes: as the same tapes on tf.tanh."""
    tf = framework("tensorflow")
    A, x = layer_data(seed=328)
    Av, xv = tf.Variable(A), tf.Variable(x)

    def tapes(f):
        with tf.GradientTape(persistent=True) as t:
            y = f(Av, xv)
            loss = tf.reduce_sum(tf.sin(y)) * xv[1]
        return [t.gradient(loss, Av), t.gradient(loss, xv), t.jacobian(y, xv)]

    ours = lambda A, x: layer.tf(A, x)  # noqa: E731
    ref = lambda A, x: tf.tanh(tf.linalg.matvec(A, x))  # noqa: E731
    got, want = tf.function(tapes)(ours), tapes(ref)
    for g, w, what in zip(got, want, ("dA", "dx", "dy/dx")):
        assert_close(g, w, 1e-12, 1e-14, what=f"tf.function: {what}")
    assert tuple(got[2].shape) == (3, 4)

    def loss_grad(f):
        @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float64), tf.TensorSpec([None], tf.float64)])
        def run(A, x):
            with tf.GradientTape(persistent=True) as t:
                t.watch([A, x])
                loss = tf.reduce_sum(f(A, x) ** 3)
            return t.gradient(loss, A), t.gradient(loss, x)
        return run

    run_ours, run_ref = loss_grad(ours), loss_grad(ref)
    for m, n, seed in ((3, 4, 329), (2, 6, 330)):
        A2, x2 = (tf.constant(a) for a in layer_data(m, n, seed=seed))
        for g, w, what in zip(run_ours(A2, x2), run_ref(A2, x2), ("dA", "dx")):
            assert_close(g, w, 1e-12, 1e-14, what=f"input_signature {m}x{n}: {what}")


def test_numba_njit_loops_over_2d_arrays():
    """@njit(parallel=False) energies with nested loops over 2-D arrays: the gradient in
    both arguments against central differences; Fortran-order and strided views of the
    same values give the same gradient; float32 against the float64 differences; the
    gradient called from another njit function (three descent steps) as in Python."""
    numba = framework("numba")
    import math

    import ferrozyme.numba as fzn

    @numba.njit(parallel=False)
    def energy2d(u, k):
        n, m = u.shape
        s = 0.0
        for i in range(n):
            for j in range(m):
                if i + 1 < n:
                    s += k[i, j] * (u[i + 1, j] - u[i, j]) ** 2
                if j + 1 < m:
                    s += k[i, j] * (u[i, j + 1] - u[i, j]) ** 2
                s += math.log1p(u[i, j] ** 2)
        return s

    rng = np.random.default_rng(331)
    u, k = rng.normal(size=(5, 6)), rng.uniform(0.5, 2.0, size=(5, 6))
    g = fzn.grad(energy2d, argnums=(0, 1))
    du, dk = g(u, k)
    assert_close(du, fd_grad(lambda v: energy2d(v, k), u), 1e-7, 1e-9, what="d energy / du")
    assert_close(dk, fd_grad(lambda v: energy2d(u, v), k), 1e-7, 1e-9, what="d energy / dk")
    gu = fzn.grad(energy2d)
    for view, what in ((np.asfortranarray(u), "Fortran order"), (np.repeat(u, 2, axis=1)[:, ::2], "strided")):
        assert np.array_equal(gu(view, k), du), what
    d32 = gu(u.astype(np.float32), k)
    assert d32.dtype == np.float32
    assert_close(d32, du, 1e-5, 1e-5, what="float32")

    @numba.njit
    def descend(u, k):
        for _ in range(3):
            u = u - 0.01 * gu(u, k)
        return u

    v = u
    for _ in range(3):
        v = v - 0.01 * gu(v, k)
    assert_close(descend(u, k), v, 1e-14, what="gradient steps in njit")


def test_user_mistakes_are_clear_exceptions_or_right(layer):
    """Wrong dtype, rank or size: a ValueError naming the function, the argument and
    what it must be, in NumPy, PyTorch, JAX (also under jit) and TensorFlow; numba: a
    TypingError naming the integer array, or numba's own message for a wrong rank.
    Non-contiguous inputs (transposed, strided) are not mistakes: the same values and
    gradients as contiguous copies."""
    torch = framework("torch")
    jax, jnp = jax_x64()
    tf = framework("tensorflow")
    A, x = layer_data(seed=333)
    dtype_msg = r"layer\(\): argument 'A' must have dtype float64"
    size_msg = r"layer\(\): size n is 4 from 'A' but 5 from 'x'"
    rank_msg = r"layer\(\): argument 'A' must have 2 dimension\(s\)"
    calls = {
        "numpy": (lambda a, b: layer(a, b), np.asarray),
        "torch": (lambda a, b: layer.torch(a, b), torch.tensor),
        "jax": (lambda a, b: layer.jax(a, b), jnp.asarray),
        "jax.jit": (lambda a, b: jax.jit(layer.jax)(a, b), jnp.asarray),
        "tf": (lambda a, b: layer.tf(a, b), tf.constant),
    }
    for name, (call, to) in calls.items():
        with pytest.raises(ValueError, match=dtype_msg):
            call(to(A.astype(np.float32)), to(x.astype(np.float32)))
        with pytest.raises(ValueError, match=size_msg):
            call(to(A), to(np.ones(5)))
        with pytest.raises(ValueError, match=rank_msg):
            call(to(A.reshape(-1)), to(x))
    with pytest.raises(ValueError, match=r"argument 'A' must have dtype float64.*got int64"):
        layer.torch(torch.tensor(A).long(), torch.tensor(x))
    # Non-contiguous: a transposed weight and a strided x, forward and backward.
    At = np.ascontiguousarray(A.T).T
    xs = np.repeat(x, 2)[::2]
    assert not At.flags.c_contiguous and not xs.flags.c_contiguous
    assert_close(layer(At, xs), np.tanh(A @ x), 1e-14, what="numpy non-contiguous")
    Ab = torch.tensor(A.T, requires_grad=True)           # the leaf; A = Ab.T is a view
    xb = torch.tensor(np.repeat(x, 2), requires_grad=True)
    (layer.torch(Ab.T, xb[::2]) * torch.tensor([1.0, 2.0, -1.0])).sum().backward()
    Ar, xr = torch.tensor(A.T, requires_grad=True), torch.tensor(np.repeat(x, 2), requires_grad=True)
    (layer_ref(torch, Ar.T, xr[::2]) * torch.tensor([1.0, 2.0, -1.0])).sum().backward()
    assert_close(Ab.grad, Ar.grad, 1e-12, 1e-14, what="torch dA through a transpose")
    assert_close(xb.grad, xr.grad, 1e-12, 1e-14, what="torch dx through a stride")
    gt = jax.grad(lambda B: jnp.sum(layer.jax(B.T, jnp.asarray(x)) ** 2))(jnp.asarray(A.T))
    gr = jax.grad(lambda B: jnp.sum(layer_ref(jnp, B.T, jnp.asarray(x)) ** 2))(jnp.asarray(A.T))
    assert_close(gt, gr, 1e-12, 1e-14, what="jax dA through a transpose")


def test_numba_mistakes_are_typing_errors():
    """numba: differentiating an integer array names it; a wrong rank gives numba's own
    typing error for the function, inside ferrozyme's message."""
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def weighted(u, k):
        n, m = u.shape
        s = 0.0
        for i in range(n):
            for j in range(m):
                s += k[i, j] * u[i, j] ** 2
        return s

    u, k = np.ones((2, 3)), np.ones((2, 3))
    with pytest.raises(numba.core.errors.TypingError, match=r"argument 0 \(array\(int64, 2d, C\)\) has no derivative"):
        fzn.grad(weighted)(u.astype(np.int64), k)
    with pytest.raises(numba.core.errors.TypingError, match=r"numba cannot compile the function for these types"):
        fzn.grad(weighted)(u[0], k)
    assert_close(fzn.grad(weighted)(u, 2 * k), 4 * u, 1e-15, what="the right call still works")


def test_numba_lists_of_numbers_differentiated():
    """numba typed `List`s and reflected lists (`[]`) built with `append` inside the
    function (refused before rustpy32): a list of floats summed, a list of floats with a
    list of integer indices grown past several reallocations beside an `np.empty` array,
    float32 items, reflected and typed lists together; gradients and a forward tangent
    against central differences or the formula, 2000 calls giving the same gradient.
    A typed list's `pop` and `lst[i] = v` stay refused, naming the operation."""
    numba = framework("numba")
    from numba.typed import List

    import ferrozyme.numba as fzn

    @numba.njit
    def squares(x):
        lst = List()
        for v in x:
            lst.append(v * v)
        s = 0.0
        for v in lst:
            s += v
        return s

    @numba.njit
    def gathered(x, w):
        vals, idx = List(), List()
        for k in range(5):
            for i in range(x.shape[0]):
                vals.append(np.exp(0.1 * k * x[i]) * w[i])
                idx.append((i * 7 + k) % x.shape[0])
        out = np.empty(len(vals))
        for j in range(len(vals)):
            out[j] = vals[j] * x[idx[j]]
        return out.sum() + vals[len(vals) - 1] ** 2

    @numba.njit
    def cubes32(x):
        lst = List()
        for v in x:
            lst.append(np.float32(v) * np.float32(2.0))
        s = 0.0
        for v in lst:
            s += np.float64(v) ** 3
        return s

    @numba.njit
    def reflected(x, w):
        vals, idx, typed = [], [], List()
        for k in range(4):
            for i in range(x.shape[0]):
                vals.append(np.sin(x[i] * (k + 1)) * w[i])
                idx.append((i * 5 + k) % x.shape[0])
                typed.append(x[i] * k)
        s = 0.0
        for j in range(len(vals)):
            s += vals[j] * x[idx[j]] + typed[j] * vals[len(vals) - 1 - j]
        return s

    rng = np.random.default_rng(334)
    x, w = rng.normal(size=23), rng.uniform(size=23)
    assert_close(fzn.grad(squares)(x), 2 * x, 1e-15, what="squares")
    g = fzn.grad(gathered, argnums=(0, 1))
    gx, gw = g(x, w)
    assert_close(gx, fd_grad(lambda v: gathered(v, w), x), 1e-7, 1e-9, what="gathered dx")
    assert_close(gw, fd_grad(lambda v: gathered(x, v), w), 1e-7, 1e-9, what="gathered dw")
    d = rng.normal(size=23)
    v, t = fzn.jvp(gathered)(x, w, d)
    assert_close(np.array([v, t]), np.array([gathered(x, w), gx @ d]), 1e-12, what="gathered jvp")
    for _ in range(2000):
        again = g(x, w)
    assert np.array_equal(again[0], gx) and np.array_equal(again[1], gw)
    gx, gw = fzn.grad(reflected, argnums=(0, 1))(x, w)
    assert_close(gx, fd_grad(lambda v: reflected(v, w), x), 1e-7, 1e-9, what="reflected dx")
    assert_close(gw, fd_grad(lambda v: reflected(x, v), w), 1e-7, 1e-9, what="reflected dw")
    x32 = x.astype(np.float32).astype(np.float64)
    assert_close(fzn.grad(cubes32)(x), 24 * x32 ** 2, 1e-6, 1e-6, what="float32 items")

    @numba.njit
    def popped(x):
        lst = List()
        for v in x:
            lst.append(v)
        return lst.pop() * 2.0

    @numba.njit
    def assigned(x):
        lst = List()
        for v in x:
            lst.append(v)
        lst[0] = 3.0 * x[1]
        return lst[0] + lst[1]

    with pytest.raises(numba.core.errors.TypingError, match=r"numba_list_delitem on a typed List.*use NumPy arrays"):
        fzn.grad(popped)(x)
    with pytest.raises(numba.core.errors.TypingError, match=r"numba_list_setitem on a typed List.*use NumPy arrays"):
        fzn.grad(assigned)(x)
