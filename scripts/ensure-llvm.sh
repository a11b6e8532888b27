#!/usr/bin/env bash
# Makes sure LLVM 22 (llvm-22-dev, clang-22, llvm-link-22, opt-22, FileCheck-22 from
# llvm-22-tools for the IR filetests, clang's headers from libclang-22-dev for the
# `-fplugin` library crates/ferrozyme-clang, and lld-22 for link-time differentiation
# with -flto) is installed.
# Quiet and quick when everything is present; otherwise installs Debian's packages
# (Debian 12 carries LLVM 22 in bookworm-security). Uses sudo only when not root.
set -euo pipefail

# Prints the first missing tool or file, if any.
missing() {
    local t
    for t in /usr/lib/llvm-22/bin/llvm-config /usr/lib/llvm-22/lib/libLLVM.so \
        /usr/lib/llvm-22/include/clang/Frontend/FrontendPluginRegistry.h; do
        [[ -e "$t" ]] || { echo "$t"; return; }
    done
    for t in clang-22 clang++-22 llvm-link-22 opt-22 FileCheck-22 ld.lld-22; do
        command -v "$t" >/dev/null 2>&1 || { echo "$t"; return; }
    done
}

[[ -z "$(missing)" ]] && exit 0

echo "ensure-llvm: $(missing) is missing; installing LLVM 22 from Debian's packages" >&2
SUDO=()
if [[ "$(id -u)" != 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "ensure-llvm: not root and no sudo; as root run: apt-get install llvm-22-dev llvm-22-tools clang-22 libclang-22-dev lld-22" >&2
        exit 1
    fi
    SUDO=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq \
    llvm-22-dev llvm-22-tools clang-22 libclang-22-dev libclang-rt-22-dev libpolly-22-dev lld-22 \
    zlib1g-dev libzstd-dev libxml2-dev libffi-dev libedit-dev >/dev/null

if [[ -n "$(missing)" ]]; then
    echo "ensure-llvm: $(missing) is still missing after installing the packages" >&2
    exit 1
fi
echo "ensure-llvm: LLVM 22 installed" >&2
