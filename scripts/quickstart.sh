#!/usr/bin/env bash
# Quick start: install LLVM 22 if needed, build Ferrozyme, then compile and run
# examples/sumsq.c, whose gradients are checked against finite differences.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-llvm.sh
cargo build --release

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "+ target/release/ferrozyme cc -O2 examples/sumsq.c -o $tmp/sumsq -lm"
target/release/ferrozyme cc -O2 examples/sumsq.c -o "$tmp/sumsq" -lm
echo "+ $tmp/sumsq"
"$tmp/sumsq"
