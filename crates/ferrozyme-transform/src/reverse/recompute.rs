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
//!   iteration) — values in loops: below,
//! * its block dominates the block whose reverse needs it (the slot was written before
//!   any path reaches that use), and
//! * it is float arithmetic (`fadd fsub fmul fneg` and the cheap intrinsics of
//!   `values.rs`): other recomputed instructions are address and integer arithmetic,
//!   cheaper than a tape access.
//!
//! # Loops: deep chains of one iteration (issue 14, bruss19)
//!
//! In a loop a slot is a stack entry per iteration (8 bytes of tape each, a store in the
//! forward sweep and a load in the reverse one), so the rule asks more of the chain. An
//! explicit Runge-Kutta step is the case it pays for: `k2`, `k3`, `k4` are each a chain
//! of 4 to 13 float operations from the step's state, and the reverse of
//! `rk4-odeint` at `-O3 -march=native` (no fast-math, so odeint's `dt * 0.0` terms
//! stay) recomputed all of them from the taped state every step: 27 multiplies and FMAs
//! on Zen 5's two FMA pipes, the bound of that loop, while the forward sweep is the
//! primal's latency chain with stores to spare. So a float value of a loop iteration,
//! used by the reverse of the same iteration of the same innermost loop, whose
//! recomputation would cost at least `SLOT_COST` operations (counted as above, the
//! iteration's phis and cached values one read each) gets a field of the iteration's
//! tape record instead, when the chain reads only what that record holds anyway (a
//! carried phi that is no counter or recurrence, a value cached already) and no memory:
//! a chain from loads is re-read for free (the Brusselator's reverse stencil keeps no
//! tape at all; filetest `recompute_float_chain`), and its first record would cost a
//! stack. The value read back is the one the forward sweep computed, bit for bit; after
//! optimization the adjoint's sums may be grouped differently (last bits, tests/c/810).
//! The price is tape: rk4-odeint's step record grows from 8 to 32 bytes (filetest
//! `loop_stage_values_taped`).

use ferrozyme_analysis::hash::HashSet;

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

/// How `recompute_cost` prices a chain: which innermost loop's iteration it may recompute
/// within (`None`: values of blocks that run once), and there the chain's leaves: reads
/// of the iteration's tape record (phis that are no counters or recurrences, values
/// cached already, calls) and loads.
struct Price {
    iteration: Option<usize>,
    record_reads: u32,
    loads: u32,
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
        if !self.fx.cfg.dominates(def, here) {
            return false;
        }
        // A value of a loop: only for a use in the same iteration of its innermost loop.
        let iteration = if self.fx.cfg.is_cyclic(def) {
            let inner = self.fx.loops.innermost_index(def);
            if inner.is_none() || self.fx.loops.innermost_index(here) != inner {
                return false;
            }
            inner
        } else {
            None
        };
        let mut seen = HashSet::default();
        let mut price = Price {
            iteration,
            record_reads: 0,
            loads: 0,
        };
        let cost = self.recompute_cost(v, &mut seen, 0, &mut price);
        // In a loop, only a chain computed from what the iteration tapes anyway: one that
        // reads memory may be re-read for free (the Brusselator's stencil has no tape at
        // all), and a stack entry would be the loop's first.
        cost >= SLOT_COST && (iteration.is_none() || (price.loads == 0 && price.record_reads > 0))
    }

    /// What recomputing `v` at the reverse builder's position would emit, counting each
    /// value once: 0 for what is at hand (constants, arguments, values used directly or
    /// already fetched in this reverse block, address and integer arithmetic), 1 for a
    /// read (a cached value, a load), and for float arithmetic 1 plus its operands'
    /// costs, an operand that would itself get a slot counting as one read.
    fn recompute_cost(
        &mut self,
        v: Value,
        seen: &mut HashSet<Value>,
        depth: u32,
        price: &mut Price,
    ) -> u32 {
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
        let cyclic = cfg.is_cyclic(def);
        let same_iteration = cyclic
            && price.iteration.is_some()
            && self.fx.loops.innermost_index(def) == price.iteration;
        if cyclic && !same_iteration {
            return 1;
        }
        if self.caches.cache.contains_key(&Key::Primal(v)) {
            price.record_reads += u32::from(same_iteration);
            return 1;
        }
        if !cyclic && !self.fx.split && self.fx.returns.iter().all(|r| cfg.dominates(def, *r)) {
            return 0;
        }
        if depth >= MAX_DEPTH {
            return SLOT_COST;
        }
        match v.opcode() {
            _ if is_float_arith(v) => {
                let mut cost = 1;
                for o in v.operands() {
                    let c = self.recompute_cost(o, seen, depth + 1, price);
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
                .map(|o| self.recompute_cost(o, seen, depth + 1, price))
                .sum(),
            Some(
                LLVMGetElementPtr | LLVMBitCast | LLVMZExt | LLVMSExt | LLVMTrunc | LLVMAdd
                | LLVMSub | LLVMMul | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor
                | LLVMICmp | LLVMFCmp | LLVMPtrToInt | LLVMIntToPtr,
            ) => 0,
            // Loads, divisions, calls, phis: one read, re-loaded or from the tape.
            op => {
                if same_iteration {
                    let flow = &self.flow;
                    match op {
                        Some(LLVMLoad) => price.loads += 1,
                        Some(LLVMPHI)
                            if flow.counters.contains_key(&v)
                                || flow.recurrences.contains_key(&v) => {}
                        _ => price.record_reads += 1,
                    }
                }
                1
            }
        }
    }
}
