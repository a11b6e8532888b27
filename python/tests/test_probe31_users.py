"""Scripts as users write them, fifth round (probe31): every ```python block of the READMEs
runs as printed again; `torch.func` `hessian`/`jacrev` of `jacrev` over the op; batched
inputs with broadcasting (an unbatched weight, an expanded stride-0 batch, a broadcast
product after the op); double backward (`create_graph=True`); JAX `jit`, `grad` and `vmap`
composed in every order; a TensorFlow persistent tape asked twice, eagerly and in a
`tf.function`; Inf and NaN inputs; numba leftovers (`@cfunc` functions differentiated,
`np.sort` and typed lists refused with what to do); a TorchScript archive loaded in a fresh
process. Every derivative is checked against the framework's own autodiff of the same
math, an analytic formula or central finite differences.
"""

import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

import ferrozyme
from conftest import assert_close, csrc, fd_grad, framework, jax_x64
from test_probe30_users import ROD_F90, layer_data, layer_ref, python_blocks

ROOT = Path(__file__).resolve().parents[2]


def test_every_readme_python_block_runs_verbatim(tmp_path, monkeypatch):
    """Every ```python block of README.md (the whole file) and python/README.md runs as
    printed, in a folder with the files they name; the README's reverse-mode example's
    gradient matches central differences of the compiled primal."""
    torch = framework("torch")
    for name in ("heat.c", "model.c"):
        (tmp_path / name).write_bytes(csrc(name).read_bytes())
    (tmp_path / "rod.f90").write_text(ROD_F90)
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks(ROOT / "README.md") + python_blocks(ROOT / "python/README.md")
    assert len(blocks) >= 4
    for k, code in enumerate(blocks):
        ns: dict = {}
        try:
            exec(compile(code, f"<README block {k}>", "exec"), ns)  # noqa: S102 - the README's text
        except Exception as e:  # pragma: no cover - the failure message names the block
            raise AssertionError(f"README python block {k} does not run as printed:\n{code}") from e
        if "u0" in ns and "sim" in ns:
            sim, u0 = ns["sim"], ns["u0"]
            want = fd_grad(lambda v: float(np.square(sim(v, steps=100)).sum()), u0.detach().numpy())
            assert_close(u0.grad, want, 1e-6, 1e-9, what=f"README block {k}: u0.grad")
    assert isinstance(torch.__version__, str)


def test_torch_func_hessian_and_nested_jacrev_over_the_op(layer):
    """torch.func.hessian of a loss through the op (in x, and in A flattened by jacrev of
    jacrev), and jacfwd of jacrev: the same as torch.func over torch's tanh."""
    torch = framework("torch")
    from torch.func import hessian, jacfwd, jacrev

    A, x = (torch.tensor(a) for a in layer_data(seed=31))

    def loss(f):
        return lambda A, x: (f(A, x) ** 3).sum() + f(A, x)[0] * x[1]

    ours, ref = loss(layer.torch), loss(lambda A, x: layer_ref(torch, A, x))
    assert_close(hessian(ours, argnums=1)(A, x), hessian(ref, argnums=1)(A, x), 1e-11, 1e-13,
                 what="hessian in x")
    assert_close(jacrev(jacrev(ours, argnums=0), argnums=0)(A, x), jacrev(jacrev(ref, argnums=0), argnums=0)(A, x),
                 1e-11, 1e-13, what="jacrev(jacrev) in A")
    assert_close(jacfwd(jacrev(ours, argnums=1), argnums=0)(A, x), jacfwd(jacrev(ref, argnums=1), argnums=0)(A, x),
                 1e-11, 1e-13, what="jacfwd(jacrev) mixed A, x")


def test_batched_inputs_with_broadcasting(layer):
    """A batch of inputs through torch.func.vmap with the weight unbatched, a weight
    `expand`ed to the batch (stride 0) batched too, a per-sample scale broadcast over the
    outputs, and jax.vmap with in_axes (None, 0) and (0, 0) over a broadcast weight: values
    and gradients as the same math on torch's and jax's tanh."""
    torch = framework("torch")
    jax, jnp = jax_x64()
    from torch.func import vmap

    rng = np.random.default_rng(31)
    A, X = rng.normal(size=(3, 4)), rng.normal(size=(6, 4))
    w = rng.normal(size=(6, 1))

    def run(f):
        At, Xt = torch.tensor(A, requires_grad=True), torch.tensor(X, requires_grad=True)
        Y1 = vmap(f, in_dims=(None, 0))(At, Xt)                    # (6, 3)
        Y2 = vmap(f, in_dims=(0, 0))(At.expand(6, 3, 4), Xt)       # stride-0 batch of A
        loss = (Y1 * torch.tensor(w)).sum() + (Y2 ** 2 * torch.tensor(w)).sum()
        loss.backward()
        return Y1.detach(), Y2.detach(), At.grad, Xt.grad

    got = run(layer.torch)
    want = run(lambda A, x: layer_ref(torch, A, x))
    for g, r, what in zip(got, want, ("Y1", "Y2", "dA", "dX")):
        assert_close(g, r, 1e-12, 1e-14, what=f"torch broadcast batch: {what}")

    def jloss(f, A, X):
        Y1 = jax.vmap(f, in_axes=(None, 0))(A, X)
        Y2 = jax.vmap(f, in_axes=(0, 0))(jnp.broadcast_to(A, (6, 3, 4)), X)
        return (Y1 * w).sum() + (Y2 ** 2 * w).sum()

    gj = jax.grad(lambda A, X: jloss(layer.jax, A, X), argnums=(0, 1))(jnp.asarray(A), jnp.asarray(X))
    rj = jax.grad(lambda A, X: jloss(lambda A, x: layer_ref(jnp, A, x), A, X), argnums=(0, 1))(
        jnp.asarray(A), jnp.asarray(X))
    for g, r, t, what in zip(gj, rj, want[2:], ("dA", "dX")):
        assert_close(g, r, 1e-12, 1e-14, what=f"jax broadcast batch: {what}")
        assert_close(g, t, 1e-12, 1e-14, what=f"jax = torch: {what}")


def test_double_backward_create_graph(layer):
    """A gradient penalty: g = autograd.grad(loss, x, create_graph=True), then
    backward of loss + |g|² to A and x; and the gradient of the gradient's first entry
    (a Hessian row) — as the same code on torch's tanh."""
    torch = framework("torch")
    A, x = layer_data(seed=32)

    def run(f):
        At, xt = torch.tensor(A, requires_grad=True), torch.tensor(x, requires_grad=True)
        loss = (f(At, xt) ** 2).sum()
        (g,) = torch.autograd.grad(loss, xt, create_graph=True)
        (loss + (g ** 2).sum()).backward(retain_graph=True)
        dA, dx = At.grad.clone(), xt.grad.clone()
        (h0,) = torch.autograd.grad(g[0], xt)
        return g.detach(), dA, dx, h0

    got = run(layer.torch)
    want = run(lambda A, x: layer_ref(torch, A, x))
    for a, b, what in zip(got, want, ("g", "dA", "dx", "Hessian row 0")):
        assert_close(a, b, 1e-11, 1e-13, what=f"create_graph: {what}")


def test_jax_jit_grad_vmap_composed(layer):
    """jit(vmap(grad)), vmap(jit(grad)), grad(jit(vmap)) and jit(grad(vmap-sum)) of a
    loss through the op, per sample and over the batch: the same compositions of jnp.tanh."""
    jax, jnp = jax_x64()
    rng = np.random.default_rng(33)
    A, X = jnp.asarray(rng.normal(size=(3, 4))), jnp.asarray(rng.normal(size=(5, 4)))

    def per_sample(f):
        return lambda A, x: jnp.sum(jnp.sin(f(A, x)) * x[:3])

    def compositions(f):
        ps = per_sample(f)
        return [
            jax.jit(jax.vmap(jax.grad(ps, argnums=(0, 1)), in_axes=(None, 0)))(A, X),
            jax.vmap(jax.jit(jax.grad(ps)), in_axes=(None, 0))(A, X),
            jax.grad(jax.jit(lambda A: jax.vmap(ps, in_axes=(None, 0))(A, X).sum()))(A),
            jax.jit(jax.grad(lambda A, X: jax.vmap(ps, in_axes=(None, 0))(A, X).sum(), argnums=1))(A, X),
        ]

    got, want = compositions(layer.jax), compositions(lambda A, x: layer_ref(jnp, A, x))
    for g, w, what in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want),
                          ("jit(vmap(grad)) dA", "jit(vmap(grad)) dx", "vmap(jit(grad))", "grad(jit(vmap))",
                           "jit(grad(vmap)) dX")):
        assert_close(g, w, 1e-12, 1e-14, what=what)


def test_tf_persistent_tape_asked_twice_eager_and_in_function(layer):
    """A persistent GradientTape asked for the same gradient twice (the second answer
    equals the first) and then for another target, eagerly and inside tf.function; two
    tapes in turn on the same variables: as the same tapes on tf.tanh."""
    tf = framework("tensorflow")
    A, x = layer_data(seed=34)
    Av, xv = tf.Variable(A), tf.Variable(x)

    def tapes(f):
        with tf.GradientTape(persistent=True) as t:
            y = f(Av, xv)
            l1 = tf.reduce_sum(y ** 2)
            l2 = tf.reduce_sum(tf.exp(y) * xv[:3])
        first = t.gradient(l1, [Av, xv])
        again = t.gradient(l1, [Av, xv])
        other = t.gradient(l2, Av)
        del t
        with tf.GradientTape(persistent=True) as t2:
            l3 = tf.reduce_sum(f(Av, xv * 2.0))
        twice = [t2.gradient(l3, xv), t2.gradient(l3, xv)]
        return [*first, *again, other, *twice]

    ours = lambda A, x: layer.tf(A, x)  # noqa: E731
    ref = lambda A, x: tf.tanh(tf.linalg.matvec(A, x))  # noqa: E731
    want = tapes(ref)
    names = ("l1 dA", "l1 dx", "l1 dA again", "l1 dx again", "l2 dA", "l3 dx", "l3 dx again")
    for run, how in ((tapes, "eager"), (tf.function(tapes), "tf.function")):
        got = run(ours)
        for g, w, what in zip(got, want, names):
            assert_close(g, w, 1e-12, 1e-14, what=f"{how}: {what}")


def test_inf_and_nan_inputs(layer):
    """An infinite entry of x saturates tanh (y = ±1) and a NaN one spreads: outputs and
    gradients are NaN, ±0 or finite exactly where torch's own autodiff of the same math
    gives them (0·inf in dA of the saturated rows), with the same finite values; the
    JAX and NumPy bindings put their NaNs at the same places."""
    torch = framework("torch")
    jax, jnp = jax_x64()
    A, x = layer_data(seed=35)
    A[0, 1] = 0.0                      # 0 · inf is NaN in row 0, as in torch's matmul
    for bad in (np.inf, -np.inf, np.nan):
        xb = x.copy()
        xb[1] = bad
        with np.errstate(invalid="ignore"):
            assert np.array_equal(np.isnan(layer(A, xb)), np.isnan(np.tanh(A @ xb)))

        def grads(f):
            At, xt = torch.tensor(A, requires_grad=True), torch.tensor(xb, requires_grad=True)
            y = f(At, xt)
            (y * torch.tensor([1.0, -2.0, 0.5])).sum().backward()
            return y.detach().numpy(), At.grad.numpy(), xt.grad.numpy()

        got, want = grads(layer.torch), grads(lambda A, x: layer_ref(torch, A, x))
        for g, w, what in zip(got, want, ("y", "dA", "dx")):
            assert np.array_equal(np.isnan(g), np.isnan(w)), (bad, what, g, w)
            ok = ~np.isnan(w)
            if ok.any():
                assert_close(g[ok], w[ok], 1e-12, 1e-14, what=f"x[1]={bad}: {what}")
        gj = jax.grad(lambda A: (layer.jax(A, jnp.asarray(xb)) * jnp.array([1.0, -2.0, 0.5])).sum())(jnp.asarray(A))
        assert np.array_equal(np.isnan(np.asarray(gj)), np.isnan(want[1])), (bad, "jax dA")


def test_numba_cfunc_differentiated_and_sort_and_lists_refused():
    """A @numba.cfunc over floats is differentiated as the njit function it compiles (its
    fastmath option kept); a cfunc over raw pointers is refused saying what to do; a list
    of tuples of floats is refused with a TypingError naming what allocates (np.sort was
    too until front37; it is now differentiated: rank weights)."""
    numba = framework("numba")
    import ferrozyme.numba as fzn
    @numba.cfunc("float64(float64, float64)")
    def bump(a, b):
        return np.exp(-a * a) * np.sin(b) + a * b ** 3

    g = fzn.grad(bump, argnums=(0, 1))(0.7, -0.4)
    a, b = 0.7, -0.4
    want = (-2 * a * np.exp(-a * a) * np.sin(b) + b ** 3, np.exp(-a * a) * np.cos(b) + 3 * a * b * b)
    assert_close(np.array(g), np.array(want), 1e-14, what="cfunc gradient")
    v, t = fzn.jvp(bump, argnums=0)(a, b, 1.0)
    assert_close(np.array([v, t]), np.array([bump(a, b), want[0]]), 1e-14, what="cfunc jvp")

    sig = numba.types.double(numba.types.CPointer(numba.types.double), numba.types.intc)

    @numba.cfunc(sig)
    def raw(xp, n):
        return numba.carray(xp, (n,)).sum()

    with pytest.raises(TypeError, match=r"raw pointers.*numba.carray"):
        fzn.grad(raw)

    @numba.njit
    def ranked(x):
        return (np.sort(x) * np.arange(1.0, x.shape[0] + 1)).sum()

    @numba.njit
    def listed(x):
        lst = []  # of tuples (lists of numbers, typed or reflected, are differentiated since rustpy32)
        for v in x:
            lst.append((v, v * v))
        s = 0.0
        for a, b in lst:
            s += a * b
        return s

    x = np.array([0.3, -1.2, 2.0, 0.7])
    # np.sort is differentiated since front37 (test_front37_users.py): d/dx_i is x_i's rank.
    assert_close(fzn.grad(ranked)(x), np.array([2.0, 1.0, 4.0, 3.0]), 1e-14, what="np.sort")
    with pytest.raises(numba.core.errors.TypingError, match=r"lists.*use NumPy arrays"):
        fzn.grad(listed)(x)


def test_torchscript_archive_loaded_in_a_fresh_process(layer, tmp_path):
    """A scripted module calling f.torchscript, torch.jit.save'd to a file; a fresh
    Python process that ferrozyme.loads the function and torch.jit.loads the file trains
    it (the same gradient as torch's tanh); one that does not load the function first
    fails at torch.jit.load, naming the op."""
    torch = framework("torch")
    A, x = layer_data(seed=36)
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
    script = textwrap.dedent(f"""
        import sys, numpy as np, torch, ferrozyme
        if sys.argv[1] == "load":
            ferrozyme.load({str(csrc('rbf.c'))!r}, "layer", signature="(in A[m, n], in x[n], out y[m], m, n)")
        m = torch.jit.load({str(path)!r})
        m(torch.tensor(np.load({str(tmp_path / 'x.npy')!r}))).backward()
        err = np.abs(m.A.grad.numpy() - np.load({str(tmp_path / 'want.npy')!r})).max()
        print("ERR", err)
    """)
    ok = subprocess.run([sys.executable, "-c", script, "load"], capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stderr[-2000:]
    err = float(ok.stdout.split("ERR")[1])
    assert err <= 1e-12, err
    bad = subprocess.run([sys.executable, "-c", script, "no"], capture_output=True, text=True, timeout=300)
    assert bad.returncode != 0
    assert "ferrozyme" in bad.stderr, bad.stderr[-2000:]
