//! What reverse and forward mode share: reporting problems, the shadows of constants,
//! how an instruction participates in differentiation, and the activity a callee's
//! arguments get at a call site.
//!
//! Both synthesizers walk the same primal code with the same analyses; what differs is
//! what they emit. Everything that does not depend on the direction lives here, so the
//! two modes classify instructions the same way and say the same thing about the same
//! problem.

pub mod diags;
pub mod dispatch;
pub mod ops;
pub mod reductions;
pub mod shadows;

pub(crate) use diags::{Diags, Problem};
