"""Scripts as ML engineers write them, second round (probe28): per-sample gradients with
`torch.func.functional_call`, pickling, `copy.deepcopy` and worker processes holding a
loaded function, `DataLoader` workers, frozen parameters and a `GradScaler`, the meta
device, TorchScript; JAX sharding over several CPU devices, `lax.map`/`cond`/`fori_loop`;
`tf.vectorized_map`, `tf.data` pipelines, a Keras `Model` subclass, `jit_compile`,
SavedModel; numba functions that allocate arrays (also from threads), `@guvectorize`
and `@vectorize` calling a derivative; a C source changed on disk while the old version
is in use. Every derivative is checked against the framework's own autodiff of the same
math, an analytic formula or central finite differences of the compiled primal.
"""

import copy
import math
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ferrozyme
from conftest import assert_close, fd_grad, framework, jax_x64

SRC = r"""
#include <math.h>
/* Y[b, i] = softplus(sum_j W[i, j] X[b, j] + bias[i]) */
void softplus_layer(const double *W, const double *bias, const double *X, double *Y,
                    int B, int m, int n) {
    for (int b = 0; b < B; ++b)
        for (int i = 0; i < m; ++i) {
            double s = bias[i];
            for (int j = 0; j < n; ++j) s += W[i * n + j] * X[b * n + j];
            Y[b * m + i] = s > 30.0 ? s : log1p(exp(s));
        }
}
void softplus_layer_f(const float *W, const float *bias, const float *X, float *Y,
                      int B, int m, int n) {
    for (int b = 0; b < B; ++b)
        for (int i = 0; i < m; ++i) {
            float s = bias[i];
            for (int j = 0; j < n; ++j) s += W[i * n + j] * X[b * n + j];
            Y[b * m + i] = s > 30.0f ? s : log1pf(expf(s));
        }
}
/* E = sum k sin(x_i)^2 + x_i^4 / 4 */
double energy(const double *x, int n, double k) {
    double e = 0.0;
    for (int i = 0; i < n; ++i) e += k * sin(x[i]) * sin(x[i]) + 0.25 * x[i] * x[i] * x[i] * x[i];
    return e;
}
"""
LAYER_SIG = "(in W[m, n], in bias[m], in X[B, n], out Y[B, m], B, m, n)"
ENERGY_SIG = "(in x[n], n, in k) -> out"


@pytest.fixture(scope="module")
def layer():
    return ferrozyme.load(SRC, "softplus_layer", signature=LAYER_SIG)


@pytest.fixture(scope="module")
def layer32():
    return ferrozyme.load(SRC, "softplus_layer_f", signature=LAYER_SIG)


@pytest.fixture(scope="module")
def energy():
    return ferrozyme.load(SRC, "energy", signature=ENERGY_SIG)


def layer_ref(xp, W, b, X):
    if xp.__name__ == "tensorflow":
        return xp.math.log1p(xp.exp(xp.matmul(X, W, transpose_b=True) + b))
    return xp.log1p(xp.exp(X @ W.T + b))


def energy_ref(xp, x, k):
    return (k * xp.sin(x) ** 2 + 0.25 * x ** 4).sum()


def data(B=6, m=3, n=4, seed=28, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return (rng.normal(scale=0.5, size=(m, n)).astype(dtype), rng.normal(scale=0.1, size=m).astype(dtype),
            rng.normal(size=(B, n)).astype(dtype), rng.uniform(0, 1, size=(B, m)).astype(dtype))


def run_script(code: str, env_extra=None, timeout=600):
    """Run a script in a fresh interpreter (from a file: spawned workers import its
    __main__); it must print "ok" last."""
    import os
    import tempfile

    env = dict(os.environ, **(env_extra or {}))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "script.py")
        with open(path, "w") as fh:
            fh.write(textwrap.dedent(code))
        r = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=timeout, env=env)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout[-3000:] + r.stderr[-5000:]
    return r.stdout


# PyTorch ------------------------------------------------------------------------------


class TorchNet:
    """Built lazily so that the module imports without torch."""

    @staticmethod
    def make(torch, fn, W, b):
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.W = torch.nn.Parameter(torch.tensor(W))
                self.b = torch.nn.Parameter(torch.tensor(b))
                self.head = torch.nn.Linear(W.shape[0], 1, dtype=torch.float64)
                self.fn = fn

            def forward(self, X):
                h = layer_ref(torch, self.W, self.b, X) if self.fn is None else self.fn.torch(self.W, self.b, X)
                return self.head(h).squeeze(-1)

        return Net()


def test_torch_per_sample_grads_with_functional_call(layer):
    """The functorch recipe: vmap(grad(loss of functional_call(model, params, x))) gives
    one gradient per sample; against the same model written in torch math."""
    torch = framework("torch")
    from torch.func import functional_call, grad, vmap

    W, b, X, T = data(B=5)
    torch.manual_seed(0)
    ours = TorchNet.make(torch, layer, W, b)
    ref = TorchNet.make(torch, None, W, b)
    ref.load_state_dict(ours.state_dict())
    Xt, Tt = torch.tensor(X), torch.tensor(T[:, 0])

    def per_sample(model):
        params = {k: v.detach() for k, v in model.named_parameters()}

        def loss(p, x, t):
            y = functional_call(model, p, (x.unsqueeze(0),))
            return ((y - t) ** 2).sum()

        return vmap(grad(loss), in_dims=(None, 0, 0))(params, Xt, Tt)

    got, want = per_sample(ours), per_sample(ref)
    for k in want:
        assert got[k].shape == (5,) + dict(ours.named_parameters())[k].shape
        assert_close(got[k], want[k], 1e-10, atol=1e-13, what=f"per-sample d{k}")


def test_torch_pickle_deepcopy_and_spawned_workers(layer, tmp_path):
    """A loaded function pickles (by its source, name and signature: the cached library
    is reused), a module holding it deep-copies, and spawned worker processes compute
    gradients with it."""
    torch = framework("torch")
    W, b, X, T = data()
    f2 = pickle.loads(pickle.dumps(layer))
    assert f2 is layer                     # same process: the loaded function itself
    net = TorchNet.make(torch, layer, W, b)
    twin = copy.deepcopy(net)
    assert twin.fn is layer
    Xt = torch.tensor(X)
    net(Xt).sum().backward()
    twin(Xt).sum().backward()
    assert_close(net.W.grad, twin.W.grad, 0, what="deepcopy dW")
    blob = tmp_path / "fn.pkl"
    blob.write_bytes(pickle.dumps((layer, W, b, X)))
    out = run_script(f"""
        import multiprocessing as mp, pickle, numpy as np
        def work(scale):
            import pickle, torch
            f, W, b, X = pickle.loads(open({str(blob)!r}, "rb").read())
            Wt = torch.tensor(W * scale, requires_grad=True)
            f.torch(Wt, torch.tensor(b), torch.tensor(X)).sum().backward()
            return Wt.grad.numpy()
        if __name__ == "__main__":
            with mp.get_context("spawn").Pool(1) as p:
                gs = p.map(work, [1.0, 2.0])
            f, W, b, X = pickle.loads(open({str(blob)!r}, "rb").read())
            for s, g in zip([1.0, 2.0], gs):
                S = X @ (W * s).T + b
                want = (1 / (1 + np.exp(-S))).T @ X
                assert np.abs(g - want).max() < 1e-12, (s, g, want)
            print("ok")
    """)
    assert out.strip().endswith("ok")


def test_torch_dataloader_workers_call_the_op(layer):
    """Features computed by the op inside a Dataset, in forked DataLoader workers (torch
    ops were registered in the parent), then trained through in the main process."""
    torch = framework("torch")
    W, b, X, T = data(B=16)

    class DS(torch.utils.data.Dataset):
        def __len__(self):
            return 16

        def __getitem__(self, i):
            with torch.no_grad():
                return layer.torch(torch.tensor(W), torch.tensor(b), torch.tensor(X[i:i + 1]))[0], i

    Wt = torch.tensor(W, requires_grad=True)
    layer.torch(Wt, torch.tensor(b), torch.tensor(X)).sum()   # registered before the fork
    dl = torch.utils.data.DataLoader(DS(), batch_size=4, num_workers=2, multiprocessing_context="fork")
    feats, idx = zip(*dl)
    feats, idx = torch.cat(feats), torch.cat(idx)
    assert_close(feats, layer_ref(np, W, b, X[idx.numpy()]), 1e-13, what="features from workers")
    layer.torch(Wt, torch.tensor(b), feats[:, :3].repeat(1, 2)[:, :4].contiguous()).sum().backward()
    Wr = torch.tensor(W, requires_grad=True)
    layer_ref(torch, Wr, torch.tensor(b), feats[:, :3].repeat(1, 2)[:, :4]).sum().backward()
    assert_close(Wt.grad, Wr.grad, 1e-11, what="grad on worker features")


def test_torch_frozen_parameters_and_grad_scaler(layer32):
    """Fine-tuning: the weight frozen (requires_grad False), only the bias trained, float32,
    the loss scaled by a GradScaler and unscaled before the step; against torch math."""
    torch = framework("torch")
    W, b, X, T = data(dtype=np.float32)
    results = []
    for fn in (layer32, None):
        Wp = torch.nn.Parameter(torch.tensor(W), requires_grad=False)
        bp = torch.nn.Parameter(torch.tensor(b))
        opt = torch.optim.Adam([bp], lr=0.05)
        scaler = torch.amp.GradScaler("cpu", init_scale=1024.0)
        for _ in range(4):
            opt.zero_grad()
            y = layer_ref(torch, Wp, bp, torch.tensor(X)) if fn is None else fn.torch(Wp, bp, torch.tensor(X))
            loss = ((y - torch.tensor(T)) ** 2).mean()
            scaler.scale(loss).backward()
            assert Wp.grad is None
            scaler.unscale_(opt)
            results.append(bp.grad.clone())
            scaler.step(opt)
            scaler.update()
        results.append(bp.detach().clone())
    half = len(results) // 2
    for a, r in zip(results[:half], results[half:]):
        assert_close(a, r, 2e-4, atol=1e-6, what="frozen W, scaled loss: db / trained b")


def test_torch_meta_device_shapes_and_cpu_only_checks(layer):
    """Shape inference on the meta device (a model initialised without memory) gives the
    output and gradient shapes without running C; torch.device('cpu') as the default."""
    torch = framework("torch")
    W, b, X, _ = data(B=7)
    m = [torch.empty(a.shape, dtype=torch.float64, device="meta", requires_grad=True) for a in (W, b, X)]
    y = layer.torch(*m)
    assert y.shape == (7, 3) and y.device.type == "meta"
    y.sum().backward()
    assert m[0].grad.shape == (3, 4) and m[0].grad.device.type == "meta"
    assert not torch.cuda.is_available()
    with torch.device("cpu"):
        y = layer.torch(*[torch.tensor(a) for a in (W, b, X)])
    assert_close(y, layer_ref(np, W, b, X), 1e-13, what="under torch.device('cpu')")


def test_torch_jit_script_through_an_ignored_helper(layer):
    """TorchScript cannot compile `f.torch` itself: its error names the attribute lookup;
    a typed helper marked @torch.jit.ignore runs from a scripted module, backward included;
    torch.jit.save refuses that module (a Python call) instead of saving something
    broken."""
    torch = framework("torch")
    import warnings

    W, b, X, T = data()

    @torch.jit.ignore
    def fz_layer(W: torch.Tensor, b: torch.Tensor, X: torch.Tensor) -> torch.Tensor:
        return layer.torch(W, b, X)

    class Direct(torch.nn.Module):
        def forward(self, W, b, X):
            return layer.torch(W, b, X)

    class Helper(torch.nn.Module):
        def forward(self, W, b, X):
            return fz_layer(W, b, X) * 2.0

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="attribute lookup"):
            torch.jit.script(Direct())
        s = torch.jit.script(Helper())
    Wt = torch.tensor(W, requires_grad=True)
    (s(Wt, torch.tensor(b), torch.tensor(X)) * torch.tensor(T)).sum().backward()
    Wr = torch.tensor(W, requires_grad=True)
    (2.0 * layer_ref(torch, Wr, torch.tensor(b), torch.tensor(X)) * torch.tensor(T)).sum().backward()
    assert_close(Wt.grad, Wr.grad, 1e-11, what="scripted module via ignore: dW")
    with pytest.raises(RuntimeError, match="Python function"):
        import io

        torch.jit.save(s, io.BytesIO())
    # the same through f.torchscript (generated from the signature), with a constant
    src = ("double wsq(const double *x, double *y, int n, double c) { double s = 0; for (int i = 0; i < n; ++i) "
           "{ y[i] = c * x[i] * x[i]; s += y[i]; } return s; }\n")
    g = ferrozyme.load(src, "wsq", signature="(in x[n], out y[n], n, const c) -> out")
    wsq = g.torchscript

    class WithConst(torch.nn.Module):
        def forward(self, x):
            y, s = wsq(x, 0.5)
            return (y * y).sum() + s

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sw = torch.jit.script(WithConst())
    x = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
    sw(x).backward()
    xd = x.detach()
    assert_close(x.grad, xd ** 3 + xd, 1e-14, what="f.torchscript: d(sum (x^2/2)^2 + sum x^2/2)")


# JAX ----------------------------------------------------------------------------------


def test_jax_sharding_over_cpu_devices():
    """A batch sharded over 4 CPU devices (`--xla_force_host_platform_device_count`) with
    NamedSharding, jit(grad) with the parameters replicated and `shard_map`; each device
    runs the custom call on its shard. Against the jnp model."""
    run_script(f"""
        import numpy as np, jax, jax.numpy as jnp, ferrozyme
        from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
        jax.config.update("jax_enable_x64", True)
        assert len(jax.devices()) == 4, jax.devices()
        f = ferrozyme.load({SRC!r}, "softplus_layer", signature={LAYER_SIG!r})
        rng = np.random.default_rng(0)
        W, b = rng.normal(size=(3, 4)) * 0.5, rng.normal(size=3) * 0.1
        X, T = rng.normal(size=(16, 4)), rng.uniform(size=(16, 3))
        mesh = Mesh(np.array(jax.devices()), ("data",))
        Xs = jax.device_put(X, NamedSharding(mesh, P("data")))
        Ts = jax.device_put(T, NamedSharding(mesh, P("data")))
        def loss(p, X, T, ours):
            Y = f.jax(p[0], p[1], X) if ours else jnp.log1p(jnp.exp(X @ p[0].T + p[1]))
            return jnp.mean((Y - T) ** 2)
        g = jax.jit(jax.value_and_grad(loss), static_argnums=3)
        (l1, g1), (l2, g2) = g((W, b), Xs, Ts, True), g((W, b), X, T, False)
        assert abs(l1 - l2) < 1e-13 and all(np.abs(a - c).max() < 1e-12 for a, c in zip(g1, g2)), (g1, g2)
        Y = jax.jit(lambda X: f.jax(W, b, X))(Xs)
        assert len(Y.sharding.device_set) in (1, 4)
        shard_map = getattr(jax, "shard_map", None)
        if shard_map is None:
            from jax.experimental.shard_map import shard_map
        sm = shard_map(lambda X: f.jax(W, b, X), mesh=mesh, in_specs=P("data"), out_specs=P("data"))
        Ysm = jax.jit(sm)(Xs)
        assert np.abs(np.asarray(Ysm) - np.log1p(np.exp(X @ W.T + b))).max() < 1e-13
        gsm = jax.grad(lambda W: jnp.sum(shard_map(lambda X: f.jax(W, b, X), mesh=mesh, in_specs=P("data"),
                                                  out_specs=P("data"))(Xs) * T))(W)
        S = X @ W.T + b
        # replicated weights: the per-device shares of the gradient are summed (before
        # probe28 one device's share came back, silently)
        assert np.abs(gsm - ((1 / (1 + np.exp(-S))) * T).T @ X).max() < 1e-12, gsm
        run = lambda W, b: jnp.sum(shard_map(lambda W, b, X: f.jax(W, b, X), mesh=mesh,
                                             in_specs=(P(), P(), P("data")), out_specs=P("data"))(W, b, Xs) * T)
        gW, gb = jax.jit(jax.grad(run, argnums=(0, 1)))(W, b)
        sig = 1 / (1 + np.exp(-S))
        assert np.abs(gW - (sig * T).T @ X).max() < 1e-12 and np.abs(gb - (sig * T).sum(0)).max() < 1e-12
        V = rng.normal(size=W.shape)
        _, tan = jax.jvp(lambda W: run(W, b), (W,), (V,))
        assert abs(tan - ((sig * T) * (X @ V.T)).sum()) < 1e-11, tan
        # the legacy data-parallel recipe: pmap with the weights unmapped
        Xp, Tp = X.reshape(4, 4, 4), T.reshape(4, 4, 3)
        gp = jax.grad(lambda W: jnp.sum(jax.pmap(lambda X: f.jax(W, b, X))(Xp) * Tp))(W)
        assert np.abs(gp - (sig * T).T @ X).max() < 1e-12, gp
        print("ok")
    """, env_extra={"XLA_FLAGS": "--xla_force_host_platform_device_count=4", "JAX_PLATFORMS": "cpu"})


def test_jax_lax_map_cond_and_fori_loop(energy, layer):
    """lax.map over a stack of inputs, lax.cond choosing the op or jnp math, a fori_loop
    of gradient-descent steps using jax.grad of the op inside jit; against jnp."""
    jax, jnp = jax_x64()
    xs = jnp.asarray(np.random.default_rng(5).normal(size=(4, 6)))

    def run(ours):
        E = (lambda x, k: energy.jax(x, k)) if ours else (lambda x, k: energy_ref(jnp, x, k))
        mapped = jax.lax.map(lambda x: E(x, 0.7), xs)
        branch = jax.lax.cond(mapped.sum() > 0, lambda x: E(x, 1.3), lambda x: -E(x, 0.2), xs[0])

        def body(i, x):
            return x - 0.05 * jax.grad(E)(x, 0.7 + 0.1 * i)

        x_end = jax.lax.fori_loop(0, 5, body, xs[1])
        return mapped, branch, x_end

    got = jax.jit(lambda: run(True))()
    want = run(False)
    for a, r, what in zip(got, want, ("lax.map", "lax.cond", "fori_loop descent")):
        assert_close(a, r, 1e-11, atol=1e-13, what=what)
    # gradient through lax.map of the layer (the batch axis mapped away by lax.map)
    W, b, X, T = data()
    Xm = jnp.asarray(X.reshape(3, 2, 4))
    g1 = jax.grad(lambda W: jax.lax.map(lambda x: layer.jax(W, b, x), Xm).sum())(jnp.asarray(W))
    g2 = jax.grad(lambda W: layer_ref(jnp, W, b, jnp.asarray(X)).sum())(jnp.asarray(W))
    assert_close(g1, g2, 1e-11, what="grad through lax.map")


# TensorFlow ---------------------------------------------------------------------------


def test_tf_vectorized_map_and_data_pipeline(energy, layer):
    """tf.vectorized_map over per-sample energies (no pfor rule for the op: TensorFlow
    falls back to a loop), gradients through it; a tf.data pipeline mapping the op."""
    tf = framework("tensorflow")
    xs = np.random.default_rng(6).normal(size=(5, 4))
    x = tf.Variable(xs)
    with tf.GradientTape() as t:
        e = tf.vectorized_map(lambda r: energy.tf(r, 0.9), x)
        tot = tf.reduce_sum(e * tf.range(1.0, 6.0, dtype=tf.float64))
    g = t.gradient(tot, x)
    assert_close(e, [energy(r, 0.9) for r in xs], 1e-13, what="vectorized_map values")
    want = np.arange(1.0, 6.0)[:, None] * (0.9 * np.sin(2 * xs) + xs ** 3)
    assert_close(g, want, 1e-12, what="vectorized_map gradient (analytic)")
    W, b, X, _ = data(B=8)
    ds = tf.data.Dataset.from_tensor_slices(X).batch(3).map(lambda xb: layer.tf(W, b, xb), num_parallel_calls=2)
    Y = np.concatenate([y.numpy() for y in ds])
    assert_close(Y, layer_ref(np, W, b, X), 1e-13, what="tf.data map")


def test_keras_model_subclass_fit_and_jit_compile_refused(layer):
    """A keras.Model subclass holding the op, compiled with jit_compile=True: a clear
    NotImplementedError naming the option; with jit_compile=False it trains like the same
    model in TF math. A tf.function(jit_compile=True) gets the same error."""
    tf = framework("tensorflow")
    import keras

    W, b, X, T = data(B=12)

    class Net(keras.Model):
        def __init__(self, fn):
            super().__init__(dtype="float64")
            self.fn = fn
            self.W = self.add_weight(shape=(3, 4), initializer=keras.initializers.Constant(W), dtype="float64")
            self.b = self.add_weight(shape=(3,), initializer=keras.initializers.Constant(b), dtype="float64")

        def call(self, x):
            return layer_ref(tf, self.W, self.b, x) if self.fn is None else self.fn.tf(self.W, self.b, x)

    m = Net(layer)
    m.compile(optimizer=keras.optimizers.SGD(0.2), loss="mse", jit_compile=True)
    with pytest.raises(NotImplementedError, match="jit_compile"):
        m.fit(X, T, batch_size=4, epochs=1, verbose=0)

    @tf.function(jit_compile=True)
    def step(x):
        return tf.reduce_sum(layer.tf(W, b, x))

    with pytest.raises(NotImplementedError, match="jit_compile=True"):
        step(tf.constant(X))
    hist, ws = [], []
    for fn in (layer, None):
        m = Net(fn)
        m.compile(optimizer=keras.optimizers.SGD(0.2), loss="mse", jit_compile=False)
        hist.append(m.fit(X, T, batch_size=4, epochs=3, shuffle=False, verbose=0).history["loss"])
        ws.append(m.W.numpy())
    assert hist[0][-1] < hist[0][0]
    assert_close(hist[0], hist[1], 1e-9, what="keras Model subclass loss history")
    assert_close(ws[0], ws[1], 1e-9, what="keras Model subclass trained W")


def test_tf_saved_model_roundtrip_in_process(layer, tmp_path):
    """tf.saved_model.save of a tf.Module whose tf.function calls the op, loaded back in
    the same process (the op library is loaded): same values and gradients."""
    tf = framework("tensorflow")
    W, b, X, T = data()

    class M(tf.Module):
        def __init__(self):
            self.W = tf.Variable(W)

        @tf.function(input_signature=[tf.TensorSpec((None, 4), tf.float64)])
        def __call__(self, x):
            return layer.tf(self.W, b, x)

    tf.saved_model.save(M(), str(tmp_path / "sm"))
    m2 = tf.saved_model.load(str(tmp_path / "sm"))
    with tf.GradientTape() as t:
        y = m2(tf.constant(X))
        loss = tf.reduce_sum(y * T)
    g = t.gradient(loss, m2.W)
    assert_close(y, layer_ref(np, W, b, X), 1e-13, what="saved model values")
    S = X @ W.T + b
    assert_close(g, ((1 / (1 + np.exp(-S))) * T).T @ X, 1e-12, what="saved model gradient")


# numba --------------------------------------------------------------------------------


def test_numba_functions_that_allocate_arrays():
    """np.empty/np.zeros scratch, array expressions, copies and views, temporaries made
    in a loop, 2-D scratch, float32: grad and jvp against finite differences; memory is
    released (many calls do not grow the process)."""
    numba = framework("numba")
    import resource

    import ferrozyme.numba as fzn

    @numba.njit
    def scratch_and_views(x):
        acc = np.zeros(3)                  # np.zeros scratch
        for i in range(x.shape[0]):
            acc[i % 3] += x[i] * x[i]
        y = x.copy()                       # a copy, then views sharing its memory
        y[0] = y[0] * 3.0
        c = x - x.mean()                   # array expressions
        return acc[0] * acc[1] + acc[2] + (y[1:] * y[:-1]).sum() + np.sqrt((c * c).mean())

    @numba.njit
    def in_loop(x):
        s = 0.0
        for k in range(3):
            t = np.sin(x * (k + 1))        # a temporary made and released in a loop
            s += (t * t).sum() + np.sum(np.exp(t) * x)
        return s

    @numba.njit
    def hidden(W, x):
        H = np.empty((2, W.shape[0]))      # 2-D scratch
        for r in range(2):
            for i in range(W.shape[0]):
                acc = 0.0
                for j in range(W.shape[1]):
                    acc += W[i, j] * x[j] * (r + 1)
                H[r, i] = math.tanh(acc)
        return (H * H).sum()

    rng = np.random.default_rng(7)
    x = rng.normal(size=7)
    W = rng.normal(size=(4, 7))
    for f, args in ((scratch_and_views, (x,)), (in_loop, (x,)), (hidden, (W, x))):
        g = fzn.grad(f)(*args)
        want = fd_grad(lambda a: f(a, *args[1:]), args[0])
        assert_close(g, want, 1e-6, atol=1e-9, what=f"{f.__name__} grad")
    v = rng.normal(size=x.shape)
    val, tan = fzn.jvp(scratch_and_views)(x, v)
    assert_close(val, scratch_and_views(x), 1e-14, what="jvp value")
    assert_close(tan, (fd_grad(scratch_and_views, x) * v).sum(), 1e-6, atol=1e-9, what="jvp tangent")

    @numba.njit
    def expr(x):
        return np.sum(np.exp(x) * x) + (x ** 2).sum()

    g32 = fzn.grad(expr)(x.astype(np.float32))
    assert g32.dtype == np.float32
    assert_close(g32, np.exp(x) * (1 + x) + 2 * x, 1e-5, what="float32 allocating grad (analytic)")
    big = np.linspace(0, 1, 20000)
    gi = fzn.grad(in_loop)
    gi(big)
    r0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(100):
        gi(big)
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - r0
    assert grown_kb < 20000, f"{grown_kb} KB more after 100 calls allocating ~1 MB each"


def test_numba_allocating_derivative_from_threads_and_njit():
    """The derivative of an allocating function called from 8 Python threads at once (its
    reference counts are per call) and from njit code in a descent loop."""
    numba = framework("numba")
    import concurrent.futures as cf

    import ferrozyme.numba as fzn

    @numba.njit
    def loss(x, c):
        d = x - c
        return (d * d * np.cos(x)).sum()

    g = fzn.grad(loss)
    rng = np.random.default_rng(8)
    xs = [rng.normal(size=300) for _ in range(16)]
    c = rng.normal(size=300)
    want = [2 * (x - c) * np.cos(x) - (x - c) ** 2 * np.sin(x) for x in xs]
    with cf.ThreadPoolExecutor(8) as ex:
        got = list(ex.map(lambda x: g(x, c), xs * 4))
    for a, r in zip(got, want * 4):
        assert_close(a, r, 1e-12, atol=1e-14, what="threaded allocating grad")

    @numba.njit
    def descend(x, c):
        for _ in range(20):
            x = x - 0.1 * g(x, c)
        return x

    x_end = descend(xs[0].copy(), c)
    x_ref = xs[0].copy()
    for _ in range(20):
        x_ref = x_ref - 0.1 * (2 * (x_ref - c) * np.cos(x_ref) - (x_ref - c) ** 2 * np.sin(x_ref))
    assert_close(x_end, x_ref, 1e-10, atol=1e-12, what="njit descent through an allocating grad")


def test_numba_guvectorize_and_vectorize_call_the_derivative():
    """@guvectorize rows calling a derivative (one gradient per row of a 2-D batch) and
    @vectorize over a derivative of a scalar function; analytic truths."""
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def row_energy(x, k):
        s = 0.0
        for i in range(x.shape[0]):
            s += k * math.sin(x[i]) ** 2 + 0.25 * x[i] ** 4
        return s

    g = fzn.grad(row_energy)

    @numba.guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)")
    def row_grads(x, k, out):
        out[:] = g(np.ascontiguousarray(x), k)

    X = np.random.default_rng(9).normal(size=(6, 5))
    assert_close(row_grads(X, 0.8), 0.8 * np.sin(2 * X) + X ** 3, 1e-13, what="guvectorize rows")

    @numba.njit
    def softplus(t):
        return math.log1p(math.exp(t))

    ds = fzn.grad(softplus)

    @numba.vectorize(["float64(float64)"])
    def sigmoid_by_ad(t):
        return ds(t)

    t = np.linspace(-3, 3, 13)
    assert_close(sigmoid_by_ad(t), 1 / (1 + np.exp(-t)), 1e-14, what="vectorize over grad of softplus")


def test_numba_blas_and_sort_are_refused_with_what_to_do():
    """np.dot runs BLAS through numba's helper library, differentiated since front34
    through C definitions (shims/numba_blas.c; refused before); np.sort allocates its work
    stack through another runtime allocator: refused with what to write instead until
    front37, differentiated since (the stack holds integers only: d/dx_i = rank)."""
    numba = framework("numba")
    import ferrozyme.numba as fzn

    @numba.njit
    def dot(x):
        return np.dot(x, x)

    @numba.njit
    def ranked(x):
        return (np.sort(x) * np.arange(1.0, x.shape[0] + 1)).sum()

    x = np.array([0.3, -1.2, 2.0, 0.7])
    assert_close(fzn.grad(dot)(x), 2 * x, 1e-15, what="np.dot(x, x)")
    assert_close(fzn.grad(ranked)(x), np.array([2.0, 1.0, 4.0, 3.0]), 1e-14, what="np.sort")


# Sources changed on disk --------------------------------------------------------------


def test_changed_source_file_old_and_new_side_by_side(tmp_path, monkeypatch):
    """A notebook user edits the C file and loads it again while the old function is
    still held: both work in torch and JAX in the same process, each with its own
    derivative (the library and the ops are per content)."""
    torch = framework("torch")
    jax, jnp = jax_x64()
    src = tmp_path / "model.c"
    src.write_text("double m(const double *x, int n) { double s = 0; for (int i = 0; i < n; ++i) "
                   "s += x[i] * x[i]; return s; }\n")
    old = ferrozyme.load(src, "m", signature="(in x[n], n) -> out")
    x = np.array([1.0, -2.0, 0.5])
    xt = torch.tensor(x, requires_grad=True)
    old.torch(xt).backward()
    src.write_text(src.read_text().replace("x[i] * x[i]", "x[i] * x[i] * x[i]"))
    new = ferrozyme.load(src, "m", signature="(in x[n], n) -> out")
    assert new is not old and new.library != old.library
    xt2 = torch.tensor(x, requires_grad=True)
    (old.torch(xt2) + new.torch(xt2)).backward()
    assert_close(xt.grad, 2 * x, 1e-15, what="old dx")
    assert_close(xt2.grad, 2 * x + 3 * x ** 2, 1e-14, what="old + new dx (torch)")
    gj = jax.jit(jax.grad(lambda v: old.jax(v) * new.jax(v)))(jnp.asarray(x))
    so, sn = (x ** 2).sum(), (x ** 3).sum()
    assert_close(gj, 2 * x * sn + so * 3 * x ** 2, 1e-13, what="old * new dx (jax, jit)")
