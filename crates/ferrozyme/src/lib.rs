//! Automatic differentiation of Rust functions on **stable** Rust.
//!
//! (Documentation in progress.)
#![deny(unsafe_op_in_unsafe_fn)]

pub use ferrozyme_macros::{autodiff_forward, autodiff_reverse};

#[doc(hidden)]
pub mod __rt;
