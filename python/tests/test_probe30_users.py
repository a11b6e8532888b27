"""Scripts as users write them, fourth round (probe30): the README's Python examples run
verbatim; `torch.compile` around a model with a graph break and other backends;
`torch.func` transforms over the op; `torch.autocast`; a `DataLoader` training loop with
forked workers and processes forked after the kernel was compiled; TorchScript modules
saved and loaded; `jax.pmap` on one device, `jax.custom_vjp`/`custom_jvp` around the op,
pytrees of parameters, `jax.export` round trips; numba `prange` reductions, `@vectorize`
ufuncs, `@cfunc` callbacks and `np.linalg.inv`; NaN inputs; errors (a C source that does
not compile, mismatched shapes). Every derivative is checked against the framework's own
autodiff of the same math, an analytic formula or central finite differences.
"""

import io
import math
import os
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import ferrozyme
from conftest import assert_close, csrc, fd_grad, framework, heat_inputs, jax_x64

ROOT = Path(__file__).resolve().parents[2]


def layer_ref(xp, A, x):
    return xp.tanh(A @ x)


def layer_data(m=3, n=4, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(m, n)), rng.normal(size=n)


def python_blocks(path: Path, heading=None) -> list:
    """The ```python blocks of a Markdown file (of one `## heading` section if given)."""
    text = path.read_text()
    if heading is not None:
        start = text.index(f"## {heading}")
        end = text.find("\n## ", start + 1)
        text = text[start:end if end > 0 else None]
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


ROD_F90 = """\
subroutine relax(u, n, steps, k, out) bind(c)       ! bind(c, name="...") works too
  use iso_c_binding
  integer(c_int), value :: n, steps                  ! scalars by value: `value`
  real(c_double), value :: k
  real(c_double), intent(in) :: u(n)                 ! arrays explicit-shape (or x(*))
  real(c_double), intent(out) :: out(n)
  integer :: s, i
  out = u
  do s = 1, steps
    do i = 2, n - 1
      out(i) = out(i) + k * (out(i - 1) - 2 * out(i) + out(i + 1)) - 0.01d0 * out(i)**3
    end do
  end do
end subroutine
"""


def test_readme_python_examples_run_verbatim(tmp_path, monkeypatch):
    """Every ```python block of README.md's Python section and of python/README.md runs
    as printed (in a folder holding the files they name: heat.c, model.c and a rod.f90
    whose declarations are the README's), and the gradients they compute match central
    differences of the compiled primal."""
    torch = framework("torch")
    for name in ("heat.c", "model.c"):
        (tmp_path / name).write_bytes(csrc(name).read_bytes())
    fortran = re.findall(r"```fortran\n(.*?)```", (ROOT / "python/README.md").read_text(), flags=re.S)
    assert len(fortran) == 1
    for line in fortran[0].splitlines():  # the README's declarations are those of rod.f90
        assert line in ROD_F90, line
    (tmp_path / "rod.f90").write_text(ROD_F90)
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks(ROOT / "README.md", "Python: PyTorch, JAX, TensorFlow and numba")
    blocks += python_blocks(ROOT / "python/README.md")
    assert len(blocks) >= 4
    for code in blocks:
        ns: dict = {}
        exec(compile(code, "<README>", "exec"), ns)  # noqa: S102 - the README's own text
        if "u0" in ns and "sim" in ns:
            sim, u0 = ns["sim"], ns["u0"]
            want = fd_grad(lambda v: float(np.square(sim(v, steps=100)).sum()), u0.detach().numpy())
            assert_close(u0.grad, want, 1e-6, 1e-9, what="README: u0.grad")
        if getattr(ns.get("f"), "name", None) == "relax":
            f = ns["f"]
            u = np.linspace(0.0, 1.0, 6)
            ut = torch.tensor(u, requires_grad=True)
            f.torch(ut, steps=3, k=torch.tensor(0.2, dtype=torch.float64))[2:4].sum().backward()
            want = fd_grad(lambda v: float(f(v, 0.2, steps=3)[2:4].sum()), u)
            assert_close(ut.grad, want, 1e-6, 1e-9, what="README Fortran relax: du")
        if "sig" in ns and "model" in ns:  # the type-hint form means the signature string
            f = ns["f"]
            g = ferrozyme.load("model.c", "model", signature=ns["sig"])
            assert (f.signature.params, f.signature.ret) == (g.signature.params, g.signature.ret)


def test_torch_compile_graph_break_and_backends(layer):
    """A module whose forward calls the op and prints (a graph break) under the default
    torch.compile (inductor), and functions compiled with the aot_eager and eager backends:
    all give torch's own gradients."""
    torch = framework("torch")
    A, x = layer_data()

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.A = torch.nn.Parameter(torch.tensor(A))

        def forward(self, x):
            y = layer.torch(self.A, x)
            print("forward", end="")  # a graph break
            return (2.0 * y).square().sum()

    net = Net()
    xt = torch.tensor(x)
    torch.compile(net)(xt).backward()
    Ar = torch.tensor(A, requires_grad=True)
    (2.0 * layer_ref(torch, Ar, xt)).square().sum().backward()
    assert_close(net.A.grad, Ar.grad, 1e-12, what="compiled module with a graph break: dA")
    At, xs = torch.tensor(A, requires_grad=True), torch.tensor(x, requires_grad=True)
    for backend in ("aot_eager", "eager"):
        f = torch.compile(lambda A, x: layer.torch(A, x).square().sum(), backend=backend)
        got = torch.autograd.grad(f(At, xs), (At, xs))
        want = torch.autograd.grad(layer_ref(torch, At, xs).square().sum(), (At, xs))
        for g, w, what in zip(got, want, ("dA", "dx")):
            assert_close(g, w, 1e-12, what=f"torch.compile(backend={backend}): {what}")


def test_torch_func_transforms_over_the_op(layer):
    """torch.func.grad, jacrev (two arguments), vmap of grad over a batch with an
    unbatched weight, and vmap of jacfwd: the same as torch.func over torch's tanh."""
    torch = framework("torch")
    from torch.func import grad, jacfwd, jacrev, vmap

    A, x = (torch.tensor(a) for a in layer_data())
    X = torch.tensor(np.random.default_rng(1).normal(size=(5, 4)))

    def ours(A, x):
        return layer.torch(A, x)

    def ref(A, x):
        return layer_ref(torch, A, x)

    pairs = [
        (grad(lambda A: ours(A, x).sum())(A), grad(lambda A: ref(A, x).sum())(A), "grad"),
        *zip(jacrev(ours, argnums=(0, 1))(A, x), jacrev(ref, argnums=(0, 1))(A, x), ("jacrev dA", "jacrev dx")),
        (vmap(grad(lambda A, x: ours(A, x).sum()), in_dims=(None, 0))(A, X),
         vmap(grad(lambda A, x: ref(A, x).sum()), in_dims=(None, 0))(A, X), "vmap(grad) per-sample dA"),
        (vmap(jacfwd(ours, argnums=1), in_dims=(None, 0))(A, X),
         vmap(jacfwd(ref, argnums=1), in_dims=(None, 0))(A, X), "vmap(jacfwd)"),
    ]
    for got, want, what in pairs:
        assert_close(got, want, 1e-12, what=what)


def test_torch_autocast_around_the_op(layer):
    """Under torch.autocast(bfloat16): a float64 op sees float64 (autocast leaves it
    alone) and its gradient is torch's; a bfloat16 activation reaching a float32 C
    function is a ValueError saying to cast or disable autocast, never a silent cast."""
    torch = framework("torch")
    A, x = layer_data()
    lin = torch.nn.Linear(4, 4).double()
    At = torch.tensor(A, requires_grad=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        h = lin(torch.tensor(x))
        y = layer.torch(At, h)
    assert h.dtype == torch.float64 and y.dtype == torch.float64
    y.sum().backward()
    Ar = torch.tensor(A, requires_grad=True)
    layer_ref(torch, Ar, lin(torch.tensor(x))).sum().backward()
    assert_close(At.grad, Ar.grad, 1e-12, what="autocast around a float64 op: dA")
    f32 = ferrozyme.load(csrc("rbf.c"), "rbf_f", signature="(in x[n, d], in c[m, d], out k[n, m], in ell, n, m, d) -> out")
    with torch.autocast("cpu", dtype=torch.bfloat16):
        xb = torch.nn.Linear(3, 3)(torch.ones(2, 3))
        assert xb.dtype == torch.bfloat16
        with pytest.raises(ValueError, match=r"dtype float32.*autocast.*enabled=False"):
            f32.torch(xb, torch.ones(2, 3), torch.tensor(1.0))
        with torch.autocast("cpu", enabled=False):
            k, tot = f32.torch(xb.float(), torch.ones(2, 3), torch.tensor(1.0))
    assert k.dtype == torch.float32


class _Pairs:
    """x_i -> tanh(A_true x_i), deterministic per index (a Dataset the workers rebuild)."""

    def __len__(self):
        return 32

    def __getitem__(self, i):
        rng = np.random.default_rng(100 + i)
        x = rng.normal(size=4)
        return x, np.tanh(np.full((3, 4), 0.3) @ x)


def test_torch_dataloader_training_with_forked_workers(layer):
    """Adam through the op on batches from a DataLoader with 2 forked workers (persistent)
    follows, step by step, the same training with torch's tanh."""
    torch = framework("torch")
    dl = torch.utils.data.DataLoader(_Pairs(), batch_size=8, num_workers=2, multiprocessing_context="fork",
                                     persistent_workers=True)
    A = torch.zeros(3, 4, dtype=torch.float64, requires_grad=True)
    Ar = torch.zeros(3, 4, dtype=torch.float64, requires_grad=True)
    opt, optr = torch.optim.Adam([A], lr=0.05), torch.optim.Adam([Ar], lr=0.05)
    first = None
    for _ in range(2):
        for X, Y in dl:
            opt.zero_grad()
            optr.zero_grad()
            loss = sum((layer.torch(A, x) - y).square().sum() for x, y in zip(X, Y))
            lr = sum((layer_ref(torch, Ar, x) - y).square().sum() for x, y in zip(X, Y))
            loss.backward()
            lr.backward()
            opt.step()
            optr.step()
            first = float(loss.detach()) if first is None else first
    assert_close(A.detach(), Ar.detach(), 1e-10, what="DataLoader training: weights")
    assert float(loss.detach()) < 0.5 * first


def _child_grad(q, layer, A, x):
    """In a forked child: the op's forward under torch, and its vjp through NumPy (torch's
    autograd engine itself refuses to run in a child forked after the parent's engine
    started threads: "Unable to handle autograd's threading in combination with
    fork-based multiprocessing", torch's own limit)."""
    torch = framework("torch")
    with torch.no_grad():
        y = layer.torch(torch.tensor(A), torch.tensor(x)).numpy()
    q.put((y, layer.vjp_numpy([A, x], [2.0 * y])))


def test_processes_forked_after_the_kernel_ran(layer):
    """Processes forked after the op was compiled and run (forward and backward) call it
    (torch forward, NumPy vjp; multiprocessing fork and a fork Pool) and return the
    parent's numbers."""
    torch = framework("torch")
    import multiprocessing as mp

    A, x = layer_data()
    At = torch.tensor(A, requires_grad=True)
    layer.torch(At, torch.tensor(x)).square().sum().backward()
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    ps = [ctx.Process(target=_child_grad, args=(q, layer, A, x * k)) for k in (1.0, 2.0)]
    for p in ps:
        p.start()
    got = [q.get(timeout=60) for _ in ps]
    for p in ps:
        p.join(timeout=60)
        assert p.exitcode == 0
    want = {}
    for k in (1.0, 2.0):
        Ar = torch.tensor(A, requires_grad=True)
        layer_ref(torch, Ar, torch.tensor(x * k)).square().sum().backward()
        want[k] = Ar.grad.numpy()
    assert_close(At.grad, want[1.0], 1e-12, what="parent")
    got.sort(key=lambda r: abs(r[0]).sum())  # k = 1 first (|tanh| grows with k here)
    for k, (y, (dA, dx)) in zip((1.0, 2.0), got):
        assert_close(y, np.tanh(A @ (x * k)), 1e-13, what=f"forked child {k}: y")
        assert_close(dA, want[k], 1e-12, what=f"forked child {k}: dA")
    with ctx.Pool(2) as pool:
        ys = pool.starmap(layer, [(A, x * k) for k in range(4)])
    for k, y in enumerate(ys):
        assert_close(y, np.tanh(A @ (x * k)), 1e-13, what=f"Pool: sample {k}")


def test_torchscript_module_saved_and_loaded(layer, tmp_path):
    """f.torchscript is a TorchScript function calling the op: a scripted module using it
    trains (backward = torch's), `torch.jit.save` writes it, `torch.jit.load` (after the
    function is loaded, which registers the op) gives the same values and gradients;
    wrong shapes and dtypes raise from inside TorchScript with the argument's name."""
    torch = framework("torch")
    A, x = layer_data()
    fz = layer.torchscript

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.A = torch.nn.Parameter(torch.tensor(A))

        def forward(self, x):
            return fz(self.A, x).square().sum()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = torch.jit.script(Net())
        buf = io.BytesIO()
        torch.jit.save(s, buf)
        buf.seek(0)
        back = torch.jit.load(buf)
    Ar = torch.tensor(A, requires_grad=True)
    layer_ref(torch, Ar, torch.tensor(x)).square().sum().backward()
    for mod, what in ((s, "scripted"), (back, "saved and loaded")):
        mod(torch.tensor(x)).backward()
        assert_close(mod.A.grad, Ar.grad, 1e-12, what=f"{what} module: dA")
    with pytest.raises(Exception, match=r"size n of argument 'x'.*'A'"):
        back(torch.ones(5, dtype=torch.float64))
    with pytest.raises(Exception, match=r"argument 'x' must have dtype float64"):
        back(torch.ones(4))
    with pytest.raises(Exception, match=r"argument 'x' must have 1 dimension"):
        back(torch.ones(1, 4, dtype=torch.float64))


def test_jax_pmap_one_device_and_custom_rules(layer):
    """jax.pmap over the one CPU device (with psum), and the op wrapped in a user's
    jax.custom_vjp (clipping the cotangent) and jax.custom_jvp (doubling the tangent):
    the same as those wrappers around jnp.tanh."""
    jax, jnp = jax_x64()
    A, x = (jnp.asarray(a) for a in layer_data())
    ref_g = jax.grad(lambda A: layer_ref(jnp, A, x).sum())(A)
    f = jax.pmap(lambda A, x: jax.lax.psum(jax.grad(lambda A: layer.jax(A, x).sum())(A), "i"),
                 axis_name="i", in_axes=(None, 0))
    assert_close(f(A, x[None])[0], ref_g, 1e-12, what="pmap(grad) on one device")

    def with_custom_vjp(op):
        @jax.custom_vjp
        def g(A, x):
            return op(A, x)

        def fwd(A, x):
            return jax.vjp(op, A, x)

        def bwd(vjp, ct):
            return vjp(jnp.clip(ct, -0.1, 0.1))

        g.defvjp(fwd, bwd)
        return g

    def with_custom_jvp(op):
        @jax.custom_jvp
        def g(A, x):
            return op(A, x)

        @g.defjvp
        def _(primals, tangents):
            y, ty = jax.jvp(op, primals, tangents)
            return y, 2.0 * ty

        return g

    ref = lambda A, x: layer_ref(jnp, A, x)
    for wrap in (with_custom_vjp, with_custom_jvp):
        got = jax.jit(jax.grad(lambda A: (3.0 * wrap(layer.jax)(A, x)).sum()))(A)
        want = jax.grad(lambda A: (3.0 * wrap(ref)(A, x)).sum())(A)
        assert_close(got, want, 1e-12, what=wrap.__name__)


def test_jax_pytree_parameters(layer):
    """Parameters as a nested dict/list pytree through two calls of the op, under jit(grad),
    and one SGD step with tree_map: the same tree of gradients as jnp's."""
    jax, jnp = jax_x64()
    A, x = (jnp.asarray(a) for a in layer_data())
    params = {"l1": {"A": A}, "l2": [0.1 * A[:, :3].T @ A[:, :3], x[:3]]}

    def loss(op, p, x):
        h = op(p["l1"]["A"], x)
        return (op(p["l2"][0], h) * p["l2"][1]).sum()

    ours = jax.jit(jax.grad(lambda p, x: loss(layer.jax, p, x)))(params, x)
    ref = jax.grad(lambda p, x: loss(lambda A, x: layer_ref(jnp, A, x), p, x))(params, x)
    assert jax.tree_util.tree_structure(ours) == jax.tree_util.tree_structure(ref)
    for g, w in zip(jax.tree_util.tree_leaves(ours), jax.tree_util.tree_leaves(ref)):
        assert_close(g, w, 1e-12, what="pytree gradient leaf")
    new = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, ours)
    assert float(loss(layer.jax, new, x)) < float(loss(layer.jax, params, x))


def test_jax_export_round_trip(layer):
    """jax.export: refused by JAX without the check disabled (its message names the
    target); with ferrozyme.jax_export_checks() the exported (and serialized with
    vjp_order=1) function runs after deserialization and jax.grad of it is jnp's."""
    jax, jnp = jax_x64()
    from jax import export

    A, x = (jnp.asarray(a) for a in layer_data())
    f = jax.jit(lambda A, x: layer.jax(A, x).sum())
    with pytest.raises(ValueError, match="ferrozyme_call"):
        export.export(f)(A, x)
    ferrozyme.register_jax()
    e = export.export(f, disabled_checks=ferrozyme.jax_export_checks())(A, x)
    back = export.deserialize(e.serialize(vjp_order=1))
    assert_close(back.call(A, x), layer_ref(jnp, A, x).sum(), 1e-13, what="exported primal")
    assert_close(jax.grad(back.call)(A, x), jax.grad(lambda A: layer_ref(jnp, A, x).sum())(A), 1e-12,
                 what="grad of the deserialized export")


def test_nan_inputs_propagate_like_the_framework(layer):
    """A NaN in one input gives NaN exactly where torch's and jax's own autodiff of the
    same math give NaN (the rows it reaches), and finite gradients elsewhere."""
    torch = framework("torch")
    jax, jnp = jax_x64()
    A, x = layer_data()
    A[1, 2] = np.nan
    At, Ar = torch.tensor(A, requires_grad=True), torch.tensor(A, requires_grad=True)
    layer.torch(At, torch.tensor(x)).sum().backward()
    layer_ref(torch, Ar, torch.tensor(x)).sum().backward()
    assert np.array_equal(np.isnan(At.grad.numpy()), np.isnan(Ar.grad.numpy()))
    ok = ~np.isnan(Ar.grad.numpy())
    assert ok.any() and np.allclose(At.grad.numpy()[ok], Ar.grad.numpy()[ok], rtol=1e-12)
    gj = jax.grad(lambda A: layer.jax(A, jnp.asarray(x)).sum())(jnp.asarray(A))
    assert np.array_equal(np.isnan(np.asarray(gj)), ~ok)


def test_numba_prange_reductions_vectorize_and_cfunc():
    """numba.njit(parallel=True) with prange sum reductions (1-D, and over rows of a 2-D
    array), an njit function calling a @vectorize ufunc, and a @cfunc callback that
    calls the derivative (as SciPy's LowLevelCallable code would): finite differences."""
    numba = framework("numba")
    import ctypes

    import ferrozyme.numba as fzn
    from numba import njit, prange

    @njit(parallel=True)
    def gauss(x, k):
        s = 0.0
        for i in prange(x.shape[0]):
            s += math.exp(-k * x[i] ** 2) * x[i]
        return s

    @njit(parallel=True)
    def row_norms(X):
        s = 0.0
        for i in prange(X.shape[0]):
            r = 0.0
            for j in range(X.shape[1]):
                r += X[i, j] * X[i, j]
            s += math.sqrt(r)
        return s

    @numba.vectorize(["float64(float64, float64)"])
    def softplus(a, b):
        return math.log1p(math.exp(a * b))

    @njit
    def uses_ufunc(x):
        return softplus(x, 0.5).sum()

    rng = np.random.default_rng(4)
    x, X = rng.normal(size=12), rng.normal(size=(5, 3))
    assert_close(fzn.grad(gauss)(x, 0.7), fd_grad(lambda v: gauss(v, 0.7), x), 1e-6, 1e-9, what="prange sum")
    assert_close(fzn.grad(row_norms)(X), fd_grad(row_norms, X), 1e-6, 1e-9, what="prange over rows")
    g = fzn.grad(uses_ufunc)
    assert_close(g(x), fd_grad(uses_ufunc, x), 1e-6, 1e-9, what="@vectorize inside njit")

    sig = numba.types.double(numba.types.CPointer(numba.types.double), numba.types.CPointer(numba.types.double),
                             numba.types.intc)

    @numba.cfunc(sig)
    def value_and_grad(xp, gp, n):
        xa, ga = numba.carray(xp, (n,)), numba.carray(gp, (n,))
        gg = g(xa.copy())
        for i in range(n):
            ga[i] = gg[i]
        return uses_ufunc(xa)

    P = ctypes.POINTER(ctypes.c_double)
    cb = ctypes.CFUNCTYPE(ctypes.c_double, P, P, ctypes.c_int)(value_and_grad.address)
    out = np.zeros_like(x)
    v = cb(x.ctypes.data_as(P), out.ctypes.data_as(P), x.size)
    assert_close(v, uses_ufunc(x), 1e-14, what="cfunc value")
    assert_close(out, fd_grad(uses_ufunc, x), 1e-6, 1e-9, what="cfunc gradient")


def test_numba_linalg_inv_and_what_else_is_refused():
    """np.linalg.inv inside njit code is differentiated (its LAPACK calls get C
    definitions): d tr(w A^-1) = -w (A^-1 A^-1)^T, float32 too, forward mode along a
    direction against finite differences; a singular matrix raises; np.linalg.solve, det
    and slogdet against their analytic gradients."""
    framework("numba")
    import ferrozyme.numba as fzn
    from numba import njit

    @njit
    def tr_inv(A, w):
        B = np.linalg.inv(A)
        s = 0.0
        for i in range(A.shape[0]):
            s += w * B[i, i]
        return s

    @njit
    def inv_sq(A):
        return (np.linalg.inv(A) ** 2).sum()

    @njit
    def solve(A, b):
        return np.linalg.solve(A, b).sum()

    rng = np.random.default_rng(5)
    A = rng.normal(size=(4, 4)) + 3.0 * np.eye(4)
    Ai = np.linalg.inv(A)
    assert_close(fzn.grad(tr_inv)(A, 2.0), -2.0 * (Ai @ Ai).T, 1e-10, what="d tr(w A^-1)")
    g64 = fzn.grad(inv_sq)(A)
    g32 = fzn.grad(inv_sq)(A.astype(np.float32))
    assert g32.dtype == np.float32
    assert_close(g32, g64, 2e-3, 1e-4, what="float32 inv")
    V = rng.normal(size=(4, 4))
    val, tan = fzn.jvp(inv_sq)(A, V)
    h = 1e-6
    assert_close(tan, (inv_sq(A + h * V) - inv_sq(A - h * V)) / (2 * h), 1e-6, what="jvp of inv")
    assert_close(val, inv_sq(A), 1e-14, what="jvp value")
    with pytest.raises(ValueError, match="raised an exception"):
        fzn.grad(inv_sq)(np.ones((3, 3)))
    # np.linalg.solve, det and slogdet were refused until session 24 (their error paths
    # build messages with numba's string functions, declared inactive by front40): the
    # gradients against the analytic ones, d sum(A^-1 b)/dA = -(A^-T 1)(A^-1 b)^T and
    # d log|det A|/dA = A^-T.
    b = rng.normal(size=4)
    want = -np.outer(Ai.T @ np.ones(4), Ai @ b)
    assert_close(fzn.grad(solve)(A, b), want, 1e-10, what="d sum(solve(A, b))/dA")

    @njit
    def logdet(A):
        return np.log(abs(np.linalg.det(A)))

    @njit
    def slog(A):
        return np.linalg.slogdet(A)[1]

    assert_close(fzn.grad(logdet)(A), Ai.T, 1e-10, what="d log|det A|")
    assert_close(fzn.grad(slog)(A), Ai.T, 1e-10, what="d slogdet")


def test_errors_compile_error_line_and_mismatched_shapes(layer):
    """A C++ kernel that does not compile: CompileError with the compiler's line, the
    source line and kind 'compile'; mismatched shapes in each binding name the argument."""
    torch = framework("torch")
    jax, jnp = jax_x64()
    src = ("#include <vector>\n"
           "double total(const double *x, int n) {\n"
           "  std::vector<double> v(x, x + n);\n"
           "  return v.sum();\n"
           "}\n")
    with pytest.raises(ferrozyme.CompileError) as ei:
        ferrozyme.load(src, "total", signature="(in x[n], n) -> out", lang="c++")
    e = ei.value
    assert e.kind == "compile" and e.line == 4 and "v.sum()" in e.source_line
    assert "no member named 'sum'" in e.message and "v.sum()" in str(e)
    A, x = layer_data()
    with pytest.raises(ValueError, match=r"size n is 4 from 'A' but 5 from 'x'"):
        layer.torch(torch.tensor(A), torch.ones(5, dtype=torch.float64))
    with pytest.raises(ValueError, match=r"size n is 4 from 'A' but 5 from 'x'"):
        layer.jax(jnp.asarray(A), jnp.ones(5))
    with pytest.raises(ValueError, match=r"argument 'x' must have 1 dimension"):
        layer(A, np.ones((1, 4)))


def test_flax_and_optax_if_installed(layer):
    """flax/optax are not in the test environment (scripts/ensure-python-env.sh installs
    jax alone): skipped then, with the reason; where installed, an optax.adam step on a
    flax-style parameter dict through the op matches the same step through jnp.tanh."""
    jax, jnp = jax_x64()
    optax = pytest.importorskip("optax", reason="optax is not installed in the test environment")
    A, x = (jnp.asarray(a) for a in layer_data())
    params = {"A": A}
    tx = optax.adam(0.1)
    outs = []
    for op in (layer.jax, lambda A, x: layer_ref(jnp, A, x)):
        st = tx.init(params)
        g = jax.grad(lambda p: op(p["A"], x).square().sum())(params)
        upd, st = tx.update(g, st, params)
        outs.append(optax.apply_updates(params, upd)["A"])
    assert_close(outs[0], outs[1], 1e-12, what="optax adam step")
