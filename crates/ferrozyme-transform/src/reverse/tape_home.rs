//! Where a split-mode tape lives while the augmented and reverse functions use it.
//!
//! The augmented function fills its tape in a local copy that it copies out to the
//! heap block at each return, and the reverse function copies the heap block into a
//! local copy at entry: SROA then keeps small tapes in registers. For a large tape the
//! copies turn into thousands of values loaded at entry (or kept until the return) and
//! live across the whole function: register allocation and the passes before it then
//! grow much faster than the code (a 20k-instruction kernel: minutes of code
//! generation), and the values are spilled to the stack anyway. A tape larger than
//! [`LOCAL_TAPE_MAX`] bytes is therefore used in place: slots are written to and read
//! from the heap block where they are needed, with no copies. Tapes holding stacks
//! (functions with loops) keep the local copy whatever their size: a stack header in a
//! register-promoted copy is what keeps pushes in a hot loop cheap.

use ferrozyme_llvm::{Opcode, Value};

use super::Gen;

/// Largest split-mode tape (bytes) kept in a local copy.
pub(super) const LOCAL_TAPE_MAX: u64 = 4096;

impl Gen<'_> {
    /// Split mode, a tape of `size` bytes: is it used in place in the heap block?
    pub(super) fn tape_in_place(&self, size: u64) -> bool {
        self.fx.split && size > LOCAL_TAPE_MAX && self.tape.records.is_empty()
    }

    /// Points every use of the local tape copies at the heap block and removes the
    /// copies (`tape_in_place`); called once sizes are patched.
    pub(super) fn use_tape_in_place(&mut self) {
        let (local_fwd, local_rev) = (self.tape.fwd, self.tape.rev);
        // The reverse function's copy-in: `memcpy(local_rev, tape, size)`.
        let copy_in: Vec<Value> = local_rev
            .users()
            .into_iter()
            .filter(|u| {
                u.opcode() == Some(Opcode::LLVMCall)
                    && u.called_function()
                        .is_some_and(|f| f.name().starts_with("llvm.memcpy"))
                    && u.operand(1) == self.tape.heap_rev
            })
            .collect();
        for c in copy_in {
            c.erase();
        }
        local_fwd.replace_all_uses_with(self.tape.heap_fwd);
        local_rev.replace_all_uses_with(self.tape.heap_rev);
        local_fwd.erase();
        local_rev.erase();
        self.tape.fwd = self.tape.heap_fwd;
        self.tape.rev = self.tape.heap_rev;
    }
}
