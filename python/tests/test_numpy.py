"""The framework-independent core: loading, NumPy calls, reverse/forward/vector modes,
the cache, and the errors. Oracles: a NumPy re-implementation of the primal, central
finite differences of the compiled primal, and the dot-product identity."""

import time

import numpy as np
import pytest

import ferrozyme
from ferrozyme import CompileError, SignatureError

from conftest import (
    HEAT_SIG,
    MLP_SIG,
    MODEL_SIG,
    ODE_DT,
    ODE_STEPS,
    ODE_TRUE,
    ODE_Y0,
    assert_close,
    csrc,
    fd_dir,
    fd_grad,
    heat_inputs,
    mlp_data,
)


def heat_numpy(u0, steps):
    u = u0.copy()
    for _ in range(steps):
        u = u + 0.1 * (np.roll(u, 1) - 2 * u + np.roll(u, -1)) - 0.01 * u**3
    return u


def test_primal_matches_numpy(heat):
    u0 = heat_inputs()
    assert_close(heat(u0, steps=30), heat_numpy(u0, 30), 1e-13, what="primal")


def test_heat_vjp_jvp_vs_fd(heat):
    u0 = heat_inputs()
    w = np.random.default_rng(3).normal(size=u0.size)
    g = heat.vjp_numpy([u0], [w], steps=30)
    assert_close(g, fd_grad(lambda x: heat(x, steps=30) @ w, u0), 1e-6, what="vjp vs FD")
    v = np.random.default_rng(4).normal(size=u0.size)
    y, t = heat.jvp_numpy([u0], [v], steps=30)
    assert_close(y, heat(u0, steps=30), 1e-15, what="jvp primal")
    assert_close(t, fd_dir(lambda x: heat(x, steps=30), u0, v), 1e-6, what="jvp vs FD")
    # dot-product identity <J v, w> = <v, J^T w>
    assert abs(t @ w - v @ g) < 1e-10 * max(1.0, abs(t @ w))


def test_every_role(model):
    rng = np.random.default_rng(0)
    n, m = 6, 9
    x, s = rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)
    idx = rng.integers(0, 100, m).astype(np.int32)
    k, c = 0.7, 0.3
    y, s2, e = model(x, s, idx, k, c=c)
    # NumPy oracle of the primal
    j = idx % n
    y_ref = k * np.sin(x[j]) + c * x[(j + 1) % n] * x[j]
    assert_close(y, y_ref, 1e-14, what="y")
    assert_close(s2, s * np.exp(-k * x) + c, 1e-14, what="s")
    assert_close(e, y_ref @ y_ref + k * k, 1e-13, what="return")
    assert s.tolist() == list(s)  # the input state was not modified

    wy, ws, we = rng.normal(size=m), rng.normal(size=n), 0.37

    def L(x, s, k):
        y, s2, e = model(x, s, idx, k, c=c)
        return y @ wy + s2 @ ws + e * we

    gx, gs, gk = model.vjp_numpy([x, s, idx, k], [wy, ws, we], c=c)
    assert_close(gx, fd_grad(lambda v: L(v, s, k), x), 1e-6, what="d/dx")
    assert_close(gs, fd_grad(lambda v: L(x, v, k), s), 1e-6, what="d/ds")
    assert_close(gk, fd_grad(lambda v: L(x, s, float(v)), np.array(k)), 1e-6, what="d/dk")

    vx, vs, vk = rng.normal(size=n), rng.normal(size=n), 0.5
    (y1, s1, e1), (dy, ds, de) = model.jvp_numpy([x, s, idx, k], [vx, vs, vk], c=c)
    z = np.concatenate([x, s, [k]])
    dz = np.concatenate([vx, vs, [vk]])

    def F(z):
        y, s2, e = model(z[:n], z[n:2 * n], idx, z[-1], c=c)
        return np.concatenate([y, s2, [e]])

    assert_close(np.concatenate([dy, ds, [de]]), fd_dir(F, z, dz), 1e-6, what="jvp")
    # dot-product identity over all inputs and outputs
    lhs = dy @ wy + ds @ ws + de * we
    rhs = gx @ vx + gs @ vs + gk * vk
    assert abs(lhs - rhs) < 1e-10 * max(1.0, abs(lhs))


def test_float32(heat32, heat):
    u0 = heat_inputs().astype(np.float32)
    u = heat32(u0, steps=20)
    assert u.dtype == np.float32
    assert_close(u, heat(u0.astype(np.float64), steps=20), 1e-5, what="f32 primal")
    w = np.linspace(-1, 1, u0.size).astype(np.float32)
    g = heat32.vjp_numpy([u0], [w], steps=20)
    assert g.dtype == np.float32
    fd = fd_grad(lambda x: heat32(x.astype(np.float32), steps=20).astype(np.float64) @ w, u0.astype(np.float64), h=1e-2)
    assert_close(g, fd, 2e-3, atol=1e-3, what="f32 vjp vs FD")


def test_cxx_function(mlp):
    w, X, y, d, h = mlp_data()
    loss = mlp(w, X, y, h=h)
    assert loss.shape == ()
    g = mlp.vjp_numpy([w, X, y], [1.0], h=h)
    assert_close(g, fd_grad(lambda v: float(mlp(v, X, y, h=h)), w), 1e-6, what="C++ vjp vs FD")


def test_size_given_by_keyword(ode):
    traj = ode(ODE_TRUE, ODE_Y0, steps=ODE_STEPS, dt=ODE_DT)
    assert traj.shape == (ODE_STEPS, 2)
    # Lotka-Volterra keeps V = b(x+y) - c log x - a log y constant; RK4 with dt=0.05 drifts little.
    a, b, c = ODE_TRUE
    V = b * traj.sum(1) - c * np.log(traj[:, 0]) - a * np.log(traj[:, 1])
    assert np.ptp(V) < 1e-4
    w = np.random.default_rng(0).normal(size=traj.shape)
    g = ode.vjp_numpy([ODE_TRUE, ODE_Y0], [w], steps=ODE_STEPS, dt=ODE_DT)
    fd = fd_grad(lambda p: np.sum(ode(p, ODE_Y0, steps=ODE_STEPS, dt=ODE_DT) * w), ODE_TRUE)
    assert_close(g, fd, 1e-6, what="ODE vjp vs FD")


@pytest.mark.parametrize("W", [2, 5])
def test_vector_modes(model, W):
    rng = np.random.default_rng(W)
    n, m = 5, 7
    x, s = rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)
    idx = rng.integers(0, 50, m).astype(np.int32)
    k = np.array(0.6)
    xs = [x, s, idx, k]
    plan = model.plan([a.shape for a in xs], [str(a.dtype) for a in xs], {"c": 0.2})
    # forward: W tangents for x, one broadcast tangent for s (stride 0), W for k
    Vx, vs, Vk = rng.normal(size=(W, n)), rng.normal(size=n), rng.normal(size=W)
    fn, _ = model.vector_symbol("jvp", W)
    Y = [np.empty(m), np.empty(n), np.empty(())]
    Yd = [np.empty((W, m)), np.empty((W, n)), np.empty(W)]
    ptrs = [a.ctypes.data for a in xs] + [Vx.ctypes.data, vs.ctypes.data, Vk.ctypes.data]
    ptrs += [a.ctypes.data for a in Y] + [a.ctypes.data for a in Yd]
    ls = [0] * len(ptrs)
    ls[4], ls[5], ls[6] = n * 8, 0, 8
    model.raw("jvp", ptrs, plan, ls=ls, fn=fn)
    for lane in range(W):
        _, (dy, ds, de) = model.jvp_numpy(xs, [Vx[lane], vs, Vk[lane]], c=0.2)
        assert_close(Yd[0][lane], dy, 1e-13, what=f"fwd lane {lane} y")
        assert_close(Yd[1][lane], ds, 1e-13, what=f"fwd lane {lane} s")
        assert_close(Yd[2][lane], de, 1e-13, what=f"fwd lane {lane} e")
    # reverse: W cotangents
    Wy, Ws, We = rng.normal(size=(W, m)), rng.normal(size=(W, n)), rng.normal(size=W)
    fn, _ = model.vector_symbol("vjp", W)
    G = [np.empty((W, n)), np.empty((W, n)), np.empty(W)]
    ptrs = [a.ctypes.data for a in xs] + [Wy.ctypes.data, Ws.ctypes.data, We.ctypes.data] + [a.ctypes.data for a in G]
    ls = [0] * len(ptrs)
    ls[4], ls[5], ls[6] = m * 8, n * 8, 8
    model.raw("vjp", ptrs, plan, ls=ls, fn=fn)
    for lane in range(W):
        gx, gs, gk = model.vjp_numpy(xs, [Wy[lane], Ws[lane], We[lane]], c=0.2)
        assert_close(G[0][lane], gx, 1e-13, what=f"rev lane {lane} x")
        assert_close(G[1][lane], gs, 1e-13, what=f"rev lane {lane} s")
        assert_close(G[2][lane], gk, 1e-13, what=f"rev lane {lane} k")


def test_source_string_and_type_hints():
    src = "double sq(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }"

    def sq(x: ferrozyme.In["n"], n: ferrozyme.Size) -> float:
        ...

    f = ferrozyme.load(src, "sq", signature=sq)
    x = np.arange(5.0)
    assert f(x) == 30.0
    assert_close(f.vjp_numpy([x], [1.0]), 2 * x, 1e-15, what="d sq")


def test_cache_first_and_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("FERROZYME_CACHE_DIR", str(tmp_path))
    src = tmp_path / "k.c"
    hdr = tmp_path / "k.h"
    hdr.write_text("#define SCALE 2.0\n")
    src.write_text('#include "k.h"\nvoid k(const double *x, double *y, int n) { for (int i = 0; i < n; i++) y[i] = SCALE * x[i] * x[i]; }\n')
    t0 = time.perf_counter()
    f = ferrozyme.load(src, "k", signature="(in x[n], out y[n], n)")
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    f2 = ferrozyme.load(src, "k", signature="(in x[n], out y[n], n)")
    cached = time.perf_counter() - t0
    assert f2 is f and cached < first
    x = np.array([1.0, 2.0])
    assert f(x).tolist() == [2.0, 8.0]
    libs = list((tmp_path / "libs").iterdir())
    assert len(libs) == 1
    # a changed header rebuilds
    hdr.write_text("#define SCALE 3.0\n")
    f3 = ferrozyme.load(src, "k", signature="(in x[n], out y[n], n)")
    assert f3(x).tolist() == [3.0, 12.0]
    # a changed source is a new entry
    src.write_text(src.read_text().replace("x[i] * x[i]", "x[i]"))
    f4 = ferrozyme.load(src, "k", signature="(in x[n], out y[n], n)")
    assert f4(x).tolist() == [3.0, 6.0]
    assert len(list((tmp_path / "libs").iterdir())) == 2


# ----- errors -----------------------------------------------------------------------------------


def test_compile_error_has_source_line(tmp_path):
    src = tmp_path / "bad.c"
    src.write_text("void f(const double *x, double *y, int n) {\n  y[0] = x[0] +;\n}\n")
    with pytest.raises(CompileError) as e:
        ferrozyme.load(src, "f", signature="(in x[n], out y[n], n)")
    assert e.value.line == 2 and "y[0] = x[0] +;" in e.value.source_line
    assert "bad.c:2" in str(e.value)


def test_missing_derivative_is_compile_error(tmp_path):
    src = tmp_path / "ext.c"
    src.write_text("double mystery(double);\nvoid f(const double *x, double *y, int n) {\n"
                   "  for (int i = 0; i < n; i++) y[i] = mystery(x[i]);\n}\n")
    with pytest.raises(CompileError) as e:
        ferrozyme.load(src, "f", signature="(in x[n], out y[n], n)")
    assert e.value.kind == "missing-derivative"
    assert "mystery" in str(e.value)
    assert e.value.line == 3 and "mystery(x[i])" in e.value.source_line


@pytest.mark.parametrize(
    "sig, msg",
    [
        ("(in x[n], out y[n])", "takes 4 parameters"),
        ("(in x, out y[n], n, k)", "must be a scalar in C"),
        ("(in x[n], out y[n], n, in k)", "only floating-point scalars"),
        ("(in x[n], out y[n], n, k) -> out", "returns `void`"),
    ],
)
def test_signature_does_not_fit(sig, msg):
    src = "void g(const double *x, double *y, int n, int k) { for (int i = 0; i < n; i++) y[i] = x[i] * k; }"
    with pytest.raises(SignatureError, match=msg):
        ferrozyme.load(src, "g", signature=sig)


def test_unknown_function_and_file():
    with pytest.raises(SignatureError, match="no function `nope`"):
        ferrozyme.load(csrc("heat.c"), "nope", signature=HEAT_SIG)
    with pytest.raises(FileNotFoundError):
        ferrozyme.load("does/not/exist.c", "f", signature=HEAT_SIG)
    with pytest.raises(SignatureError, match="no subroutine or function `simulate`"):
        ferrozyme.load(csrc("heat.c"), "simulate", signature=HEAT_SIG, lang="fortran")
    with pytest.raises(CompileError, match="Rust sources are not supported"):
        ferrozyme.load(csrc("heat.c"), "simulate", signature=HEAT_SIG, lang="rust")


def test_call_errors(heat, model, ode):
    u0 = heat_inputs()
    with pytest.raises(ValueError, match="dtype float64"):
        heat(u0.astype(np.float32), steps=3)
    with pytest.raises(ValueError, match="1 dimension"):
        heat(u0.reshape(4, -1), steps=3)
    with pytest.raises(TypeError, match="missing keyword constant"):
        heat(u0)
    with pytest.raises(TypeError, match="unexpected argument"):
        heat(u0, steps=3, bogus=1)
    with pytest.raises(TypeError, match="takes 1 tensor input"):
        heat(u0, u0, steps=3)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="size n is 5 from 'x' but 4 from 's'"):
        model(rng.random(5), rng.random(4), np.zeros(3, np.int32), 0.5, c=0.1)
    with pytest.raises(ValueError, match="dtype int32"):
        model(rng.random(5), rng.random(5), np.zeros(3), 0.5, c=0.1)
    with pytest.raises(ValueError, match="not determined by the inputs; pass steps="):
        ode(ODE_TRUE, ODE_Y0, dt=0.1)
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        ode(np.ones(2), ODE_Y0, steps=3, dt=0.1)
    with pytest.raises(ValueError, match="must be an integer"):
        heat(u0, steps=2.5)


def test_mlp_signature_literal(mlp):
    assert mlp.signature.text == MLP_SIG
    assert [s.name for s in mlp.signature.inputs] == ["w", "X", "y"]
    assert mlp.signature.ret is not None and mlp.signature.ret.ctype == "f64"


def test_model_signature_views(model):
    sig = model.signature
    assert sig.text == MODEL_SIG
    assert [s.name for s in sig.inputs] == ["x", "s", "idx", "k"]
    assert [s.name for s in sig.outputs] == ["y", "s", "return"]
    assert [s.name for s in sig.diff_inputs] == ["x", "s", "k"]
