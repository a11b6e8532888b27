#!/usr/bin/env bash
# The Python package's test suite: installs ./python (pip, non-editable) into the cached
# framework environment of ensure-python-env.sh and runs pytest on python/tests.
# Extra arguments go to pytest (e.g. -k jax). Needs target/release/ferrozyme (built if
# missing). Compiled libraries are cached in ~/.cache/ferrozyme (FERROZYME_CACHE_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=$(bash scripts/ensure-python-env.sh | tail -n 1)
[ -x target/release/ferrozyme ] || cargo build --release -p ferrozyme-cli
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps \
  --force-reinstall ./python >&2
rm -rf python/build
cd python
export TF_CPP_MIN_LOG_LEVEL=${TF_CPP_MIN_LOG_LEVEL:-2}
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider tests "$@"
