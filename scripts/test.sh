#!/usr/bin/env bash
# The whole test suite: install LLVM 22 (and flang-22, libomp, Open MPI for the
# Fortran/OpenMP/MPI programs) if needed, build everything in release mode (the
# end-to-end tests use target/release/ferrozyme and target/release/libferrozyme_plugin.so),
# then run the end-to-end trials beside every other crate's tests followed by the Python
# package's tests (scripts/test-python.sh: a cached virtual environment with PyTorch, JAX,
# TensorFlow and numba). Exits non-zero on any failure. The end-to-end tests run the
# default sampled matrix of C/C++ variants (tests/README.md); FZ_FULL_MATRIX=1 runs every
# variant of every program.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-llvm.sh
bash scripts/ensure-hpc.sh
bash scripts/ensure-compat.sh
bash scripts/ensure-boost.sh
cargo build --release --workspace
cargo test --release --workspace --no-run
# Cargo runs test binaries one after another, and most crates' binaries hold one or two
# long single-threaded tests (the Rust crates' links, the 10,000-deep chain, determinism):
# one core idles through them. So the end-to-end trials (which keep both cores busy) run
# beside the other crates' tests and then the Python tests; each part's output is printed
# when it ends, and any failure fails the suite.
LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT
start=$SECONDS
(
  set +e
  # Three test threads on two cores: MPI trials' ranks wait on each other (tests/README.md).
  cargo test --release --workspace --exclude ferrozyme-e2e -- --test-threads=3 > "$LOGS/crates" 2>&1
  crates=$?
  echo "== crates' tests: exit $crates after $((SECONDS - start)) s" >> "$LOGS/crates"
  bash scripts/test-python.sh > "$LOGS/python" 2>&1
  python=$?
  echo "== python tests: exit $python after $((SECONDS - start)) s" >> "$LOGS/python"
  [ $crates = 0 ] && [ $python = 0 ]
) & side=$!
status=0
cargo test --release -p ferrozyme-e2e -- --test-threads=3 || status=1
echo "== end-to-end trials: done after $((SECONDS - start)) s"
wait $side || status=1
cat "$LOGS/crates" "$LOGS/python"
echo "== whole suite: $((SECONDS - start)) s after the build, $([ $status = 0 ] && echo passed || echo FAILED)"
exit $status
