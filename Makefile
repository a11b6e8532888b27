# Top-level convenience targets; the build itself is `cargo build --release`.
-include bench/bench.mk
-include tools/reliability.mk
