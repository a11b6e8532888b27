#!/usr/bin/env bash
# Regenerates the IR of Ferrozyme's own definitions from their C sources:
#   crates/ferrozyme-transform/src/libdefs/complex.c -> complex.ll: the differentiable
#     definitions of the C99 complex helpers (see that file and libdefs.rs);
#   crates/ferrozyme-transform/src/libdefs/digamma.c -> digamma.ll: the digamma function
#     the derivatives of lgamma and tgamma call (lower.rs);
#   crates/ferrozyme-transform/src/libdefs/dynamic_cast.c -> dynamic_cast.ll: __dynamic_cast
#     as its argument plus the primal cast's offset (libdefs.rs);
#   crates/ferrozyme-transform/src/libdefs/matrixmultiply.c -> matrixmultiply.ll: the Rust
#     crate matrixmultiply's dgemm/sgemm as plain loops (cargo-ferrozyme's preopt.rs).
# The IR is target-neutral text for x86-64 (no triple, datalayout or metadata; the
# transform adds the user module's own triple and layout when it links it in).
# Usage: bash tools/gen_libdefs.sh [OUT.ll [NAME]]   (NAME: complex (default), digamma,
#        cxx_nodes, dynamic_cast or matrixmultiply;
#        default OUT: next to NAME.c)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="$here/crates/ferrozyme-transform/src/libdefs"
clang="${FERROZYME_CLANG:-clang-22}"
name="${2:-complex}"
out="${1:-$dir/$name.ll}"
"$clang" -O1 -fno-math-errno -ffp-contract=off -fno-builtin -fno-unwind-tables \
  -fno-asynchronous-unwind-tables -fno-stack-protector -S -emit-llvm \
  "$dir/$name.c" -o - |
  grep -v -E '^(target (datalayout|triple)|source_filename|; ModuleID|!llvm\.|![0-9]+ = )' |
  sed -E -e 's/, !(tbaa|llvm\.loop) ![0-9]+//g' -e 's/ #[0-9]+ \{/ {/' -e '/^attributes #/d' \
    -e 's/ #[0-9]+$//' > "$out"
echo "wrote $out"
