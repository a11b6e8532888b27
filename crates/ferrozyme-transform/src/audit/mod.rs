//! The silent-zero audit (issue 17): every place where a derivative could come out as
//! zero, or not be computed at all, without an error. Three layers:
//!
//! * [`hooks`]: entry points the pass would not see (used as values, or defined);
//! * [`boundary`]: what a parsed hook call passes and expects back (types the pass does
//!   not differentiate, floats hidden in integers or copies, aggregate results);
//! * [`body`]: inside the function being differentiated, in both modes, running the
//!   checks of [`hidden_floats`] (undifferentiated float types on the active path, floats
//!   inside integers, pointers rebuilt from integers), [`lost_stores`] (active values lost
//!   in memory without a shadow; across calls in [`call_writes`], read back by later
//!   calls in [`callee_reads`]) and [`const_pointers`] (constant pointers kept in
//!   shadowed memory, and what runtime activity takes over of them).
//!
//! The checks only reject; they never change what is generated. README's "Bad input"
//! table lists each case with the program in `tests/` that pins it.

pub(crate) mod body;
pub(crate) mod boundary;
pub(crate) mod call_targets;
pub(crate) mod call_writes;
pub(crate) mod callee_reads;
pub(crate) mod const_pointers;
pub(crate) mod ctor_globals;
pub(crate) mod hidden_floats;
pub(crate) mod hooks;
pub(crate) mod indirect;
pub(crate) mod lost_stores;
pub(crate) mod narrow_copies;
pub(crate) mod reach;
pub(crate) mod split_doubles;
pub(crate) mod text_round_trip;
pub(crate) mod wide_ints;
