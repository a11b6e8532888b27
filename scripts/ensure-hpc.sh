#!/usr/bin/env bash
# Makes sure the scientific-computing toolchain is installed: flang-22 (with its runtime
# library, libflang-22-dev), LLVM's OpenMP runtime for clang-22 and flang-22
# (libomp-22-dev) and Open MPI (openmpi-bin, libopenmpi-dev). The Fortran, OpenMP and
# MPI end-to-end programs (tests/fortran, tests/openmp, tests/mpi) and `make bench`'s
# parallel stencil need them. Quiet and quick when everything is present; otherwise
# installs Debian's packages. Uses sudo only when not root.
set -euo pipefail

# Prints the first missing tool or file, if any.
missing() {
    local t
    for t in flang-22 mpicc mpirun; do
        command -v "$t" >/dev/null 2>&1 || { echo "$t"; return; }
    done
    for t in /usr/lib/llvm-22/lib/libomp.so \
             /usr/lib/llvm-22/lib/clang/22/lib/x86_64-pc-linux-gnu/libflang_rt.runtime.a; do
        [[ -e "$t" ]] || { echo "$t"; return; }
    done
}

[[ -z "$(missing)" ]] && exit 0

echo "ensure-hpc: $(missing) is missing; installing flang-22, libomp-22-dev and Open MPI from Debian's packages" >&2
SUDO=()
if [[ "$(id -u)" != 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "ensure-hpc: not root and no sudo; as root run: apt-get install flang-22 libflang-22-dev libomp-22-dev openmpi-bin libopenmpi-dev" >&2
        exit 1
    fi
    SUDO=(sudo)
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-hpc: apt-get not found; install flang-22, LLVM 22's libomp and Open MPI" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! "${SUDO[@]}" apt-get update -qq ||
   ! "${SUDO[@]}" apt-get install -y -qq flang-22 libflang-22-dev libomp-22-dev openmpi-bin libopenmpi-dev >/dev/null; then
    echo "ensure-hpc: apt-get install failed (no network or package source?)" >&2
    exit 1
fi

if [[ -n "$(missing)" ]]; then
    echo "ensure-hpc: $(missing) is still missing after installing the packages" >&2
    exit 1
fi
echo "ensure-hpc: flang-22, libomp and Open MPI installed" >&2
