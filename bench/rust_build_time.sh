#!/usr/bin/env bash
# Build time of Rust crates: `cargo ferrozyme build --release` against plain
# `cargo build --release`, cold and incremental, the AD build split into its phases.
# Arguments go to bench/rust_build_time.py (--reps N, --crate DIR); see there.
set -euo pipefail
exec python3 "$(dirname "$0")/rust_build_time.py" "$@"
