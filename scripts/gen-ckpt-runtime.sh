#!/usr/bin/env bash
# Regenerates crates/ferrozyme-transform/src/checkpoint/driver.ll (or the file given as
# the first argument) from driver.c and
# include/enzyme/checkpoint.h (the checkpointed-loop runtime the pass links on use).
# The .ll is checked in so building Ferrozyme needs no C compiler; a unit test of the
# transform crate checks it is up to date when clang-22 is present.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
src="$root/crates/ferrozyme-transform/src/checkpoint"
out="${1:-$src/driver.ll}"
clang-22 -std=c11 -O2 -fno-unroll-loops -fno-vectorize -fno-slp-vectorize -S -emit-llvm \
  -fno-discard-value-names -I"$root/include" "$src/driver.c" -o - |
  grep -v -E '^(target datalayout|target triple|source_filename|; ModuleID)' |
  sed -E 's/^!llvm\.(ident|module\.flags).*$//' >"$out"
echo "wrote $out"
