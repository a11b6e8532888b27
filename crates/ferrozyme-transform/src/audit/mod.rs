//! The silent-zero audit (issue 17): every place where a derivative could come out as
//! zero, or not be computed at all, without an error. Three layers:
//!
//! * [`hooks`]: entry points the pass would not see (used as values, or defined);
//! * [`boundary`]: what a parsed hook call passes and expects back (types the pass does
//!   not differentiate, floats hidden in integers or copies, aggregate results);
//! * [`body`]: inside the function being differentiated, in both modes (undifferentiated
//!   float types on the active path, active values lost in memory without a shadow,
//!   pointers rebuilt from integers).
//!
//! The checks only reject; they never change what is generated. README's "Bad input"
//! table lists each case with the program in `tests/` that pins it.

pub(crate) mod body;
pub(crate) mod boundary;
pub(crate) mod ctor_globals;
pub(crate) mod hooks;
pub(crate) mod indirect;
