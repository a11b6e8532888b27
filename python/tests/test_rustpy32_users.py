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
