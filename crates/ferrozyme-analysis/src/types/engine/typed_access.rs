//! Integer accesses whose `!tbaa` names the type of the bytes they move.
//!
//! Storage that holds different types at different times (a union, `std::function`'s
//! `_Any_data`: a `type_info` pointer, a functor pointer or the captured `double`,
//! depending on which operation of the manager runs) gets conflicting facts in a
//! context-insensitive analysis: its tree says `Anything`. An integer load or store of
//! such storage would then take `Anything` from the memory, and the transform could not
//! tell whether it moves a float. But the access itself is typed: clang's `!tbaa` on it
//! names the scalar type of the bytes it moves in every execution that reaches it (the
//! `_M_clone` case copies the captured `double` as an `i64` tagged `double`), and strict
//! aliasing (which the optimizer already relies on, and without which clang emits no
//! `!tbaa`) makes any other type there undefined behaviour. So for such an access the
//! value's tree comes from the tag alone, not from the memory; the memory still learns
//! from the value, and the transform's own checks of the memory (a `long` access to a
//! `double` array is still refused) are unchanged.
//!
//! The tape accesses of generated code are typed the same way by the transform itself
//! (metadata `ferrozyme.tape.int`): a derivative differentiated again (reverse over
//! reverse) reads loop counters and path tags from tape records that hold floats at the
//! same offsets in other records.

use ferrozyme_llvm::Value;

use super::super::{layout, BaseType};
use super::Engine;

impl Engine {
    /// Does the `!tbaa` of the load or store `inst` type the whole integer `val` it moves
    /// (an 8-byte `double`, `long`, `long long` or pointer, a 4-byte `float` or `int`)?
    pub(super) fn typed_by_tbaa(&self, inst: Value, val: Value) -> bool {
        let Some(width) = val.ty().int_width() else {
            return false;
        };
        if self.is_tape_int(inst) {
            return true;
        }
        let Some(tag) = inst.metadata(self.m.context().md_kind("tbaa")) else {
            return false;
        };
        let Some(name) = layout::tbaa_access_type_name(tag) else {
            return false;
        };
        let bytes = match (layout::tbaa_name_base(&name), name.as_str()) {
            (BaseType::Double, _) | (BaseType::Pointer, _) => 8,
            (BaseType::Integer, "long" | "long long") => 8,
            (BaseType::Float, _) | (BaseType::Integer, "int") => 4,
            _ => return false,
        };
        width == bytes * 8
    }

    /// Is `inst` a tape access of generated code that moves plain integer data (a loop
    /// counter, a path tag, a primal integer without float bits)? A derivative's tape
    /// records mix integers and floats at the same offsets, so when the derivative is
    /// differentiated again the memory says `Anything`; the transform marks what it knows.
    pub(super) fn is_tape_int(&self, inst: Value) -> bool {
        inst.metadata(self.m.context().md_kind(super::super::TAPE_INT_MD))
            .is_some()
    }
}
