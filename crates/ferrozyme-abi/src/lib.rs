//! The `__enzyme_*` entry points and `enzyme_*` argument markers: one table, no dependencies.
#![forbid(unsafe_code)]
