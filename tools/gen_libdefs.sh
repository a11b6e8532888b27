#!/usr/bin/env bash
# Regenerates crates/ferrozyme-transform/src/libdefs/complex.ll from complex.c: the
# differentiable definitions of the C99 complex helpers (see that file and libdefs.rs).
# The IR is target-neutral text for x86-64 (no triple, datalayout or metadata; the
# transform adds the user module's own triple and layout when it links it in).
# Usage: bash tools/gen_libdefs.sh [OUT.ll]   (default: next to complex.c)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="$here/crates/ferrozyme-transform/src/libdefs"
clang="${FERROZYME_CLANG:-clang-22}"
out="${1:-$dir/complex.ll}"
"$clang" -O1 -fno-math-errno -ffp-contract=off -fno-builtin -fno-unwind-tables \
  -fno-asynchronous-unwind-tables -fno-stack-protector -S -emit-llvm \
  "$dir/complex.c" -o - |
  grep -v -E '^(target (datalayout|triple)|source_filename|; ModuleID|!llvm\.|![0-9]+ = )' |
  sed -E -e 's/, !(tbaa|llvm\.loop) ![0-9]+//g' -e 's/ #[0-9]+ \{/ {/' -e '/^attributes #/d' \
    -e 's/ #[0-9]+$//' > "$out"
echo "wrote $out"
