#!/usr/bin/env bash
# Makes sure boost's headers with odeint (Debian's libboost-dev, header-only) are
# installed: the benchmarks bench/src/euler_odeint.cpp and rk4_odeint.cpp need them.
# Quiet and quick when present; otherwise installs the package. Uses sudo only when
# not root.
set -euo pipefail

HEADER=/usr/include/boost/numeric/odeint.hpp

[[ -e "$HEADER" ]] && exit 0

echo "ensure-boost: $HEADER is missing; installing libboost-dev from Debian's packages" >&2
SUDO=()
if [[ "$(id -u)" != 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "ensure-boost: not root and no sudo; as root run: apt-get install libboost-dev" >&2
        exit 1
    fi
    SUDO=(sudo)
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-boost: apt-get not found; install boost's headers (>= 1.66, with odeint) so that $HEADER exists" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! "${SUDO[@]}" apt-get update -qq || ! "${SUDO[@]}" apt-get install -y -qq libboost-dev >/dev/null; then
    echo "ensure-boost: apt-get install libboost-dev failed (no network or package source?)" >&2
    exit 1
fi

if [[ ! -e "$HEADER" ]]; then
    echo "ensure-boost: $HEADER is still missing after installing libboost-dev" >&2
    exit 1
fi
echo "ensure-boost: libboost-dev installed" >&2
