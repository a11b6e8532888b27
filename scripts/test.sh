#!/usr/bin/env bash
# The whole test suite: install LLVM 22 (and flang-22, libomp, Open MPI for the
# Fortran/OpenMP/MPI programs) if needed, build everything in release mode (the
# end-to-end tests use target/release/ferrozyme and target/release/libferrozyme_plugin.so),
# then run every crate's tests, then the Python package's tests (scripts/test-python.sh:
# a cached virtual environment with PyTorch, JAX, TensorFlow and numba). Exits non-zero
# on any failure. The end-to-end tests run the default sampled matrix of C/C++ variants
# (tests/README.md); FZ_FULL_MATRIX=1 runs every variant of every program.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each phase's seconds are printed when it ends ("== phase: N s"), so a CI log shows
# where the suite's time went.
phase_start=$SECONDS
phase() {
  echo "== $1: $((SECONDS - phase_start)) s (suite so far: $SECONDS s)"
  phase_start=$SECONDS
}

bash scripts/ensure-llvm.sh
bash scripts/ensure-hpc.sh
bash scripts/ensure-compat.sh
bash scripts/ensure-boost.sh
phase "installs checked"
cargo build --release --workspace
phase "build"
# Three test threads on two cores: MPI trials' ranks wait on each other (tests/README.md).
# (Session 23 ran the end-to-end trials beside the other crates' tests and the Python
# tests: 1717 s after the build against about 1730 s one after another; both cores are
# already busy, so the parts run one after another, whose output is easier to read.)
cargo test --release --workspace -- --test-threads=3
phase "cargo test (test builds, unit, CLI, Rust crate and end-to-end tests)"
bash scripts/test-python.sh
phase "python tests"
