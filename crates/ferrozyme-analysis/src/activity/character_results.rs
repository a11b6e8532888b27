//! The results of flang's character routines: characters, never a shadow.
//!
//! `TRIM`, `ADJUSTL`, `ADJUSTR` and `REPEAT` (`ferrozyme_rules::fortran::
//! fills_character_result`) allocate their result and write its address into the result
//! descriptor the caller passes first (a stack slot). The slot holds a pointer, so it has
//! a shadow; but the library has no IR and is inactive, so nothing ever writes the shadow
//! slot. A load of the result's address from the slot would get a shadow read from that
//! unwritten slot, and the forward sweep then copied and freed through it (a segfault in
//! the forward derivative of tests/fortran/89 at -O0). The data are characters (type
//! analysis knows it from the same list): the address loaded from such a slot carries no
//! derivative and gets no shadow.

use ferrozyme_llvm::{Opcode, Value};

/// Is `load` a read of the result address (offset 0) of a descriptor slot that a
/// character routine fills?
pub(super) fn loads_character_result(load: Value) -> bool {
    if !load.ty().is_pointer() {
        return false;
    }
    let slot = load.operand(0);
    slot.opcode() == Some(Opcode::LLVMAlloca)
        && slot.users().into_iter().any(|u| {
            u.opcode() == Some(Opcode::LLVMCall)
                && u.call_args().first() == Some(&slot)
                && u.called_function()
                    .is_some_and(|f| ferrozyme_rules::fortran::fills_character_result(&f.name()))
        })
}
