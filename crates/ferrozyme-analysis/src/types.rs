//! Type analysis: what kind of data lives at each byte of the memory a pointer points to,
//! and which integer values really carry floating-point bits.
//!
//! Optimized IR erases most source types: a `double` copied by `memcpy`, loaded as `i64`
//! or reached through `getelementptr i8` looks like bytes. The transform must nevertheless
//! know which bytes are differentiable floats (they get adjoints), which are pointers (they
//! get shadows) and which are plain integers (they get nothing). This module recovers that
//! knowledge the way Enzyme does — as a lattice-valued dataflow problem — and is the
//! source of the "cannot deduce type" diagnostics when it cannot.
//!
//! # The lattice
//!
//! [`BaseType`] is a lattice per byte offset: `Unknown` (bottom, nothing learned yet),
//! the four concrete kinds `Integer`, `Pointer`, `Float`, `Double`, `IntOrPointer` above
//! `Integer` and `Pointer` (bytes that hold an integer in some executions and a pointer in
//! others: a Rust enum such as `Result<NonNull<u8>, usize>`, a C union; never a float),
//! and `Anything` (top: facts disagree about float-ness). A [`TypeTree`] maps byte offsets to base types; offset `-1` stands for
//! "every offset", which is how arrays indexed by a variable are described. A concrete
//! entry that equals the `-1` entry is redundant and dropped, so trees stay canonical.
//!
//! # Facts kept per value
//!
//! * a *value tree* for every value (offset 0 is the value's own type; aggregates are laid
//!   out per field). Floating and pointer values get theirs from the IR type; integers start
//!   at `Unknown`, because an `i64` may well be the bits of a `double`.
//! * a *pointee tree* for every pointer (and for integers made from pointers by
//!   `ptrtoint`): what the memory it points to holds, relative to the pointer; where that
//!   memory holds pointers, also what *they* point to (nested trees, [`MAX_DEPTH`] levels),
//!   so a pointer loaded from a struct starts with what the stored one was known to
//!   point to.
//!
//! # Algorithm (see `types/engine.rs`)
//!
//! 1. Collect the functions connected to the analysed one in the call graph (callees,
//!    callers, and functions passed to `__enzyme_*` markers).
//! 2. Sweep every instruction of those functions, applying its transfer rule in both
//!    directions (a load both reads the pointee into the value and writes the value's
//!    type back into the pointee). Rules only ever *join* into the maps.
//! 3. Repeat until nothing changes. Offsets are capped at [`MAX_OFFSET`] and the lattice
//!    has finite height, so this terminates; sweeps are additionally bounded. Pointers
//!    that walk memory in constant steps (loop phis over `gep p, 8`, recursion on `p + 8`)
//!    are found beforehand (`types/period.rs`) and treated as array indexing, so their
//!    trees get a `-1` entry instead of one entry per step up to the cap.
//!
//! Invariant: every rule is monotone (it only joins), and the analysis never panics on
//! strange IR — unsized or scalable types, vector GEPs, indirect calls and inline asm simply
//! contribute nothing.

mod engine;
mod layout;
mod period;
mod result;
mod session;
mod tree;

pub(crate) use layout::union_ranges;
pub use result::TypeAnalysis;
pub use session::TypeSession;
pub(crate) use tree::Change;
pub use tree::{TypeTree, INNER_OFFSETS, INNER_WEIGHT, MAX_DEPTH};

use std::fmt;

/// Does the `!tbaa` of the load or store `access` name a pointer type (`any pointer`,
/// `p1 _ZTS5Shape`, a vtable pointer) as the scalar it moves? Clang's -O1 code stores a
/// `std::unique_ptr`'s pointer as `store i64 (ptrtoint p)` tagged `p1 _ZTS5Shape`; the
/// tag says the bytes are a pointer whatever integer type the instruction uses.
pub fn tbaa_says_pointer(access: ferrozyme_llvm::Value) -> bool {
    let kind = access.ty().context().md_kind("tbaa");
    access
        .metadata(kind)
        .and_then(layout::tbaa_access_type_name)
        .is_some_and(|n| layout::tbaa_name_base(&n) == BaseType::Pointer)
}

/// Offsets at or beyond this many bytes are not tracked (keeps trees finite when a pointer
/// is advanced by a constant inside a loop).
pub const MAX_OFFSET: i64 = 1024;

/// Metadata kind on a tape load or store of generated code that moves plain integer
/// data (`engine/typed_access.rs`).
pub const TAPE_INT_MD: &str = "ferrozyme.tape.int";

/// Metadata kind on a copy of tape records whose source is never used again: the tape
/// runtime's move of a stack into a larger buffer (`memcpy`/`realloc` in `__fz_grow`,
/// `__fz_grow_plain`) and split mode's handover of a tape between a local buffer and a
/// heap block. When generated code is differentiated again the adjoints of the records
/// move back byte for byte, whatever mix of types the records hold (the transform's
/// `reverse/tape_move.rs`).
pub const TAPE_MOVE_MD: &str = "ferrozyme.tape.move";

/// What one byte offset holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BaseType {
    /// Nothing known yet (bottom of the lattice).
    Unknown,
    Integer,
    Pointer,
    Float,
    Double,
    /// `half` (`_Float16`).
    Half,
    /// `x86_fp80` (C `long double` on x86-64): 10 bytes of data in 16 bytes of memory.
    LongDouble,
    /// An integer in some executions, a pointer in others (a union or an enum's payload):
    /// never a float, possibly a pointer.
    IntOrPointer,
    /// Conflicting facts (top of the lattice).
    Anything,
}

impl BaseType {
    /// Least upper bound: `Unknown` is neutral, equal kinds stay, integers and pointers
    /// meet in `IntOrPointer`, anything else conflicts.
    pub fn join(self, other: BaseType) -> BaseType {
        use BaseType::*;
        match (self, other) {
            (Unknown, x) | (x, Unknown) => x,
            (a, b) if a == b => a,
            (Integer | Pointer | IntOrPointer, Integer | Pointer | IntOrPointer) => IntOrPointer,
            _ => Anything,
        }
    }
    /// Never a float: integers, pointers, or either.
    pub fn is_not_float(self) -> bool {
        matches!(
            self,
            BaseType::Integer | BaseType::Pointer | BaseType::IntOrPointer
        )
    }
    /// May hold floating-point data (a float type, or conflicting facts).
    pub fn may_be_float(self) -> bool {
        self.is_float() || self == BaseType::Anything
    }
    /// May hold a pointer.
    pub fn may_be_pointer(self) -> bool {
        matches!(
            self,
            BaseType::Pointer | BaseType::IntOrPointer | BaseType::Anything
        )
    }
    /// The floating-point type this base type names, if any.
    pub fn fp_type(self) -> Option<FpType> {
        match self {
            BaseType::Float => Some(FpType::F32),
            BaseType::Double => Some(FpType::F64),
            BaseType::Half => Some(FpType::F16),
            BaseType::LongDouble => Some(FpType::F80),
            _ => None,
        }
    }
    pub fn is_float(self) -> bool {
        self.fp_type().is_some()
    }
}

impl fmt::Display for BaseType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BaseType::Unknown => "Unknown",
            BaseType::Integer => "Integer",
            BaseType::Pointer => "Pointer",
            BaseType::Float => "Float",
            BaseType::Double => "Double",
            BaseType::Half => "Half",
            BaseType::LongDouble => "LongDouble",
            BaseType::IntOrPointer => "IntOrPointer",
            BaseType::Anything => "Anything",
        })
    }
}

/// The floating-point types the transform differentiates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpType {
    F16,
    F32,
    F64,
    F80,
}

impl FpType {
    pub fn base_type(self) -> BaseType {
        match self {
            FpType::F16 => BaseType::Half,
            FpType::F32 => BaseType::Float,
            FpType::F64 => BaseType::Double,
            FpType::F80 => BaseType::LongDouble,
        }
    }
    /// Every floating-point type, narrowest first.
    pub const ALL: [FpType; 4] = [FpType::F16, FpType::F32, FpType::F64, FpType::F80];
    /// The suffix of the runtime helpers for this type (`__fz_memcpy_adj_f64`).
    pub fn suffix(self) -> &'static str {
        match self {
            FpType::F16 => "f16",
            FpType::F32 => "f32",
            FpType::F64 => "f64",
            FpType::F80 => "f80",
        }
    }
    /// Size in bytes (the array stride: an `x86_fp80` holds 10 bytes of data in 16).
    pub fn size(self) -> u64 {
        match self {
            FpType::F16 => 2,
            FpType::F32 => 4,
            FpType::F64 => 8,
            FpType::F80 => 16,
        }
    }
    /// Bytes of data (an `x86_fp80` holds 10).
    pub fn data_size(self) -> u64 {
        match self {
            FpType::F80 => 10,
            t => t.size(),
        }
    }
}
