//! rust30's probe: a crate written as a Rust user writes one, in styles `tests/rust` and
//! `tests/rust-linalg` do not cover, differentiated by `cargo ferrozyme`. Every
//! derivative is checked against a formula or central finite differences of the primal.

pub mod check;
pub mod containers;
pub mod dynamics;
pub mod generic;
pub mod iters;
pub mod layers;
pub mod leftovers31;
#[cfg(feature = "probe30-refused")]
pub mod refused;
pub mod scientist32;
pub mod simd;
pub mod structs;
pub mod styles31;
