//! Recompute or keep: float arithmetic of blocks that run once per call.
//!
//! The reverse sweep recomputes cheap pure instructions (`try_recompute` in `values.rs`)
//! rather than caching them, operand by operand, down to values that are available
//! (dominating every return), cached (divisions, calls) or re-read (stable loads). For
//! one product that is right; for a value at the end of a chain — Rodrigues' rotation
//! in BA: `w = rot * (1/theta)`, `w x pt`, `(w . pt) * (1 - cos theta)` inside an
//! `if (theta != 0)` — it repeats the whole chain, on the reverse sweep's critical
//! path, reading the cached leaves again.
//!
//! In combined mode a tape slot of a block that runs once per call costs nothing at
//! run time once SROA has promoted the (local, constant-size) tape: the value stays in a
//! register, or is spilled once. So a float value whose recomputation would cost at
//! least `SLOT_COST` operations (its own, those of the operands it would recompute too,
//! one per operand it would read from the tape or memory) gets a slot instead. The rule
//! applies only when
//!
//! * the function is combined (in split mode a slot is a real tape entry),
//! * the value's block is on no CFG cycle (one slot per call, not a stack entry per
//!   iteration) — values in loops keep the existing choice,
//! * its block dominates the block whose reverse needs it (the slot was written before
//!   any path reaches that use), and
//! * it is float arithmetic (`fadd fsub fmul fneg` and the cheap intrinsics of
//!   `values.rs`): other recomputed instructions are address and integer arithmetic,
//!   cheaper than a tape access.

use std::collections::HashSet;

use ferrozyme_llvm::{Opcode, Value};

use super::{Gen, Key};

/// The cost (in instructions) from which a slot replaces a recomputation.
const SLOT_COST: u32 = 3;

/// Deeper chains are priced as "long" without looking further (`try_recompute` stops at
/// depth 12 too).
const MAX_DEPTH: u32 = 12;

/// Float arithmetic that `try_recompute` would repeat.
fn is_float_arith(v: Value) -> bool {
    use Opcode::*;
    match v.opcode() {
        Some(LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFNeg) => true,
        Some(LLVMCall) => v.ty().is_fp() && super::cheap::is_cheap_call(v),
        _ => false,
    }
}

impl Gen<'_> {
    /// Should the primal value `key` be read from a tape slot rather than recomputed?
    pub(super) fn slot_beats_recompute(&mut self, key: Key) -> bool {
        let Key::Primal(v) = key else {
            return false;
        };
        let Some(here) = self.flow.rev_ctx else {
            return false;
        };
        if self.fx.split || !v.is_instruction() || !is_float_arith(v) {
            return false;
        }
        let def = v.parent_block();
        if self.fx.cfg.is_cyclic(def) || !self.fx.cfg.dominates(def, here) {
            return false;
        }
        let mut seen = HashSet::new();
        self.recompute_cost(v, &mut seen, 0) >= SLOT_COST
    }

    /// What recomputing `v` at the reverse builder's position would emit, counting each
    /// value once: 0 for what is at hand (constants, arguments, values used directly or
    /// already fetched in this reverse block, address and integer arithmetic), 1 for a
    /// read (a cached value, a load), and for float arithmetic 1 plus its operands'
    /// costs, an operand that would itself get a slot counting as one read.
    fn recompute_cost(&mut self, v: Value, seen: &mut HashSet<Value>, depth: u32) -> u32 {
        use Opcode::*;
        if !v.is_instruction() || !seen.insert(v) {
            return 0;
        }
        let blk = self.b.insert_block();
        if self.caches.memo.contains_key(&(blk, Key::Primal(v))) {
            return 0;
        }
        let def = v.parent_block();
        let cfg = &self.fx.cfg;
        if cfg.is_cyclic(def) || self.caches.cache.contains_key(&Key::Primal(v)) {
            return 1;
        }
        if !self.fx.split && self.fx.returns.iter().all(|r| cfg.dominates(def, *r)) {
            return 0;
        }
        if depth >= MAX_DEPTH {
            return SLOT_COST;
        }
        match v.opcode() {
            _ if is_float_arith(v) => {
                let mut cost = 1;
                for o in v.operands() {
                    let c = self.recompute_cost(o, seen, depth + 1);
                    cost += if is_float_arith(o) && c >= SLOT_COST {
                        1
                    } else {
                        c
                    };
                }
                cost
            }
            Some(LLVMFPExt | LLVMFPTrunc | LLVMSIToFP | LLVMUIToFP | LLVMSelect) => v
                .operands()
                .into_iter()
                .map(|o| self.recompute_cost(o, seen, depth + 1))
                .sum(),
            Some(
                LLVMGetElementPtr | LLVMBitCast | LLVMZExt | LLVMSExt | LLVMTrunc | LLVMAdd
                | LLVMSub | LLVMMul | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor
                | LLVMICmp | LLVMFCmp | LLVMPtrToInt | LLVMIntToPtr,
            ) => 0,
            // Loads, divisions, calls, phis: one read, re-loaded or from the tape.
            _ => 1,
        }
    }
}
