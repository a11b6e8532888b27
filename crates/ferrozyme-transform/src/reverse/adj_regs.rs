//! Adjoints of block-local scalars as SSA values instead of `alloca` slots.
//!
//! The reverse sweep keeps each adjoint in a zero-initialised stack slot: every
//! contribution is a load, an `fadd` and a store, reading it is a load and a store of
//! zero (`adjoint_slots.rs`, `add_adj`/`take_adj`). That is general (contributions from any
//! block, in any order, around loops), but the post-AD pipeline then spends its time
//! turning the slots back into values: on `bench/compile_scaling`'s `chain` (n = 320)
//! the reverses were 67.8k instructions after the pass and 18.5k after SROA,
//! InstCombine and EarlyCSE (issue 18, bench/compile_scaling/README.md "cc13").
//!
//! Most active values are used only in their own block (`t = x * 0.5; y = sin(t)`).
//! The reverse of that block is emitted in one go: the users' reverses add to `t`'s
//! adjoint, then `t`'s own reverse reads it, all while the builder appends to one
//! reverse block. Such an adjoint is kept here as the running sum itself (the first
//! contribution, then `fadd`s), and reading it is that sum: no slot, no load, no store.
//!
//! The condition is checked at every contribution and read, not assumed:
//! * the value is a floating scalar instruction, not a phi, whose users are all
//!   non-phi instructions of its own block (so no other block's reverse, and no phi
//!   move on a CFG edge, ever contributes to it);
//! * the sweep is reversing that block (`Flow::rev_ctx`), the builder is in the same
//!   LLVM block as the running sum, and that block has no terminator yet (the builder
//!   appends to it, so the sum dominates the insertion point);
//!
//! When any of these fails while a sum is pending, the sum is stored to a fresh slot
//! right after its definition and the value goes on with the slot, exactly as before
//! (same semantics: the slot was zero there). A contribution after the value was read in
//! a register would have had to reach that read through memory: it cannot happen under
//! the first condition, and if it ever did the derivative is refused (an internal
//! error), never silently wrong.

use ferrozyme_llvm::{Block, Builder, Opcode, Value};

use super::Gen;
use crate::common::Problem;

/// An adjoint kept as a value.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Reg {
    /// The sum of the contributions so far, valid in `block` (the reverse block being
    /// emitted when the first contribution came).
    Pending { sum: Value, block: Block },
    /// Read (the block's reverse is past the value's own reverse).
    Taken,
}

impl Gen<'_> {
    /// May `v`'s adjoint live in a register (first condition of the module doc)?
    fn reg_eligible(&self, v: Value) -> bool {
        if !v.is_instruction()
            || v.opcode() == Some(Opcode::LLVMPHI)
            || !v.ty().is_fp_scalar()
            || self.fx.act.packed.contains(&v)
            || self.adj_ty(v) != v.ty()
        {
            return false;
        }
        let blk = v.parent_block();
        v.users().into_iter().all(|u| {
            u.is_instruction() && u.parent_block() == blk && u.opcode() != Some(Opcode::LLVMPHI)
        })
    }

    /// Is the builder where a register sum of `v` living in `block` may be used?
    fn reg_here(&self, v: Value, block: Block) -> bool {
        let here = self.b.insert_block();
        self.flow.rev_ctx == Some(v.parent_block()) && here == block && here.terminator().is_none()
    }

    /// Adds `delta` to `v`'s register adjoint; false when `v` uses (or now moves to) a
    /// slot, which the caller then updates.
    pub(super) fn add_reg(&mut self, v: Value, delta: Value) -> bool {
        if self.lanes[self.lane].adj.contains_key(&v) || !self.reg_eligible(v) {
            return false;
        }
        match self.lanes[self.lane].regs.get(&v).copied() {
            None => {
                let here = self.b.insert_block();
                let starts = self.reg_here(v, here);
                if starts {
                    let r = Reg::Pending {
                        sum: delta,
                        block: here,
                    };
                    self.lanes[self.lane].regs.insert(v, r);
                }
                starts
            }
            Some(Reg::Pending { sum, block }) if self.reg_here(v, block) => {
                let sum = self.add_values(sum, delta);
                let r = Reg::Pending { sum, block };
                self.lanes[self.lane].regs.insert(v, r);
                true
            }
            Some(Reg::Pending { .. }) => {
                self.spill_reg(v);
                false
            }
            Some(Reg::Taken) => {
                self.report(
                    Some(v),
                    Problem::Internal {
                        msg: "an adjoint received a contribution after it was read from a register (reverse/adj_regs.rs)".into(),
                    },
                );
                true
            }
        }
    }

    /// Reads and clears `v`'s register adjoint; `None` when `v` uses (or now moves to) a
    /// slot, which the caller then reads.
    pub(super) fn take_reg(&mut self, v: Value) -> Option<Value> {
        if self.lanes[self.lane].adj.contains_key(&v) || !self.reg_eligible(v) {
            return None;
        }
        let zero = v.ty().zero();
        match self.lanes[self.lane].regs.get(&v).copied() {
            None if self.flow.rev_ctx == Some(v.parent_block()) => {
                self.lanes[self.lane].regs.insert(v, Reg::Taken);
                Some(zero)
            }
            None => None,
            Some(Reg::Pending { sum, block }) if self.reg_here(v, block) => {
                self.lanes[self.lane].regs.insert(v, Reg::Taken);
                Some(sum)
            }
            Some(Reg::Pending { .. }) => {
                self.spill_reg(v);
                None
            }
            // Read twice: nothing was added since (a contribution after a read is
            // refused in `add_reg`), as a cleared slot would read.
            Some(Reg::Taken) => Some(zero),
        }
    }

    /// Moves a pending sum to `v`'s slot: stored where the slot still holds zero and the
    /// sum is defined, right after it when it is an instruction of the chain's block,
    /// else (an argument, a constant, a value from the forward sweep, which dominate the
    /// whole block) at the block's first instruction after its phis; from then on `v`
    /// uses the slot.
    fn spill_reg(&mut self, v: Value) {
        let Some(Reg::Pending { sum, block }) = self.lanes[self.lane].regs.remove(&v) else {
            return;
        };
        let slot = self.adj_slot(v);
        let b = Builder::new(self.fx.ctx);
        let is_phi = |i: Value| i.opcode() == Some(Opcode::LLVMPHI);
        if sum.is_instruction() && sum.parent_block() == block && !is_phi(sum) {
            b.position_after(sum);
        } else {
            let mut first = block.first_instruction();
            while let Some(i) = first.filter(|&i| is_phi(i)) {
                first = i.next_instruction();
            }
            match first {
                Some(i) => b.position_before(i),
                None => b.position_at_end(block),
            }
        }
        b.store(sum, slot);
    }
}
