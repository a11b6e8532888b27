"""`pip install ./python` into a fresh virtual environment, then `import ferrozyme` works with
no other step: the installed package finds the checkout's ferrozyme binary and compiles
and differentiates a function (checked against the analytic gradient)."""

import os
import subprocess
import sys
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import numpy as np, ferrozyme
src = "double f(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i]; return s; }"
f = ferrozyme.load(src, "f", signature="(in x[n], n) -> out")
x = np.array([1.0, -2.0, 0.5])
assert abs(f(x) - np.sum(x ** 3)) < 1e-12
g = f.vjp_numpy([x], [1.0])
assert np.allclose(g, 3 * x ** 2, rtol=1e-14), g
print("ok", ferrozyme.__file__)
"""


def test_pip_install_into_fresh_venv(tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    py = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FERROZYME_BIN", "VIRTUAL_ENV")}
    env["FERROZYME_CACHE_DIR"] = str(tmp_path / "cache")
    r = subprocess.run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(REPO / "python")],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    r = subprocess.run([str(py), "-c", SCRIPT], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    assert r.stdout.startswith("ok ") and str(env_dir) in r.stdout  # the installed copy, not the source tree
    assert sys.prefix != str(env_dir)
