#!/usr/bin/env bash
# Makes sure the libraries the Enzyme-compatibility tests use are installed (issue 16):
# OpenBLAS with its CBLAS header and LAPACK (libopenblas-dev: the BLAS/LAPACK derivative
# rules are tested against it), MPFR (libmpfr-dev: truncated precision is emulated with
# it and checked against it), Eigen (libeigen3-dev: type analysis of Eigen code), and
# LLVM's lli-22 (the lli:: trials run generated code under MCJIT and ORC).
# Quiet and quick when everything is present; otherwise installs Debian's packages.
# Uses sudo only when not root.
set -euo pipefail

missing() {
    local f
    for f in /usr/include/x86_64-linux-gnu/cblas.h /usr/include/mpfr.h \
             /usr/include/eigen3/Eigen/Dense; do
        [[ -e "$f" ]] || { echo "$f"; return; }
    done
    ls /usr/lib/x86_64-linux-gnu/libopenblas.so >/dev/null 2>&1 || { echo libopenblas.so; return; }
    command -v lli-22 >/dev/null 2>&1 || { echo lli-22; return; }
}

[[ -z "$(missing)" ]] && exit 0

echo "ensure-compat: $(missing) is missing; installing libopenblas-dev libmpfr-dev libeigen3-dev llvm-22" >&2
SUDO=()
if [[ "$(id -u)" != 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "ensure-compat: not root and no sudo; as root run: apt-get install libopenblas-dev libmpfr-dev libeigen3-dev llvm-22" >&2
        exit 1
    fi
    SUDO=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq libopenblas-dev libmpfr-dev libeigen3-dev llvm-22 >/dev/null
if [[ -n "$(missing)" ]]; then
    echo "ensure-compat: $(missing) is still missing after installing the packages" >&2
    exit 1
fi
echo "ensure-compat: installed" >&2
