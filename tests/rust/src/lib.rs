//! End-to-end tests of differentiating Rust code with the `ferrozyme` crate, built with
//! `cargo ferrozyme` on stable Rust. Each module covers one group of the capabilities of
//! issue 11, and every derivative is checked against a formula or finite differences
//! (`check`). The library's unit tests are "`cargo test` of a library crate"; the
//! integration tests in `tests/` use the library's derivatives from another crate; the
//! binary `fz-rust-demo` and the example `rosenbrock` cover binaries and examples.

pub mod barriers;
pub mod check;
pub mod control;
pub mod crates;
pub mod front14_user;
pub mod front16_user;
pub mod front17_user;
pub mod front18_user;
pub mod front19_user;
pub mod front23_user;
pub mod front24_user;
pub mod generic;
pub mod gmmrust15_scratch;
pub mod heap;
pub mod math;
pub mod methods;
pub mod modes;
pub mod panics;
pub mod probe27;
pub mod probe27_args;
pub mod probe27_more;
pub mod rust15_flow;
pub mod rust15_numeric;
pub mod rust15_structs;
pub mod slices;
pub mod structs;
pub mod user;
