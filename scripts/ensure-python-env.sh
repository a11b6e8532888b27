#!/usr/bin/env bash
# The Python test environment: a virtual environment with PyTorch, JAX, TensorFlow and
# numba, created once and reused (~/.cache/ferrozyme/pyenv-<hash of the requirements>).
# Prints its path as the last line of stdout; everything else goes to stderr.
#
# PyTorch comes from PyPI's CUDA wheel installed with --no-deps, plus small stub libraries
# for the CUDA libraries it links (python/tools/torch_cuda_stubs.py): 1.4 GB instead of
# 4.7 GB. FERROZYME_TORCH_FULL=1 installs the real NVIDIA wheels instead.
# FERROZYME_PYENV=<dir> chooses the folder; FERROZYME_PYTHON the interpreter (python3).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${FERROZYME_PYTHON:-python3}
TORCH=torch==2.15.0
REQ=python/requirements-test.txt
KEY=$( (cat "$REQ" python/tools/torch_cuda_stubs.py; echo "$TORCH ${FERROZYME_TORCH_FULL:-0}"; "$PY" --version) | sha256sum | cut -c1-12)
VENV=${FERROZYME_PYENV:-$HOME/.cache/ferrozyme/pyenv-$KEY}

if [ -f "$VENV/.ready" ]; then
  echo "$VENV"
  exit 0
fi

log() { echo "ensure-python-env: $*" >&2; }

if ! "$PY" -c 'import ensurepip, venv' 2>/dev/null; then
  log "installing python3-venv (Debian's python3 has no ensurepip without it)"
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    (apt-get update -qq && apt-get install -y -qq python3-venv) >&2
  else
    log "python3 cannot create virtual environments: install python3-venv"; exit 1
  fi
fi
for tool in readelf cc; do
  command -v "$tool" >/dev/null || { log "$tool is needed (binutils, gcc)"; exit 1; }
done

start=$(date +%s)
rm -rf "$VENV"
mkdir -p "$(dirname "$VENV")"
log "creating $VENV (first run only: downloads ~1 GB from PyPI, ~3.6 GB on disk)"
"$PY" -m venv "$VENV" >&2
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check)
"${PIP[@]}" install -q --upgrade pip >&2
"${PIP[@]}" install -q -r "$REQ" >&2
if [ "${FERROZYME_TORCH_FULL:-0}" = 1 ]; then
  "${PIP[@]}" install -q "$TORCH" >&2
else
  "${PIP[@]}" install -q --no-deps "$TORCH" >&2
  SITE=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  "$VENV/bin/python" python/tools/torch_cuda_stubs.py "$SITE" >&2
fi
# Check that every framework imports and differentiates something.
"$VENV/bin/python" - >&2 <<'PYEOF'
import os
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import torch, jax, jax.numpy as jnp, tensorflow as tf, numba
x = torch.ones(3, requires_grad=True); (x * x).sum().backward()
assert x.grad.tolist() == [2.0, 2.0, 2.0] and not torch.cuda.is_available()
assert float(jax.grad(lambda v: v * v)(3.0)) == 6.0
v = tf.Variable(3.0)
with tf.GradientTape() as t:
    y = v * v
assert float(t.gradient(y, v)) == 6.0
assert numba.njit(lambda a: a + 1)(1) == 2
print("ensure-python-env: torch", torch.__version__, "jax", jax.__version__, "tensorflow", tf.__version__,
      "numba", numba.__version__)
PYEOF
touch "$VENV/.ready"
log "ready in $(( $(date +%s) - start )) s, $(du -sh "$VENV" | cut -f1)"
echo "$VENV"
