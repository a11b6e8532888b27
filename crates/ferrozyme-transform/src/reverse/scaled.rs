//! Scaled reverse blocks: the adjoint of a scalar recurrence step in few dependent
//! operations.
//!
//! A block of a loop that computes one active floating scalar `s` from the block's phis
//! and values defined outside it (an integrator step `x' = step(x, h)`), with no active
//! memory access or call other than math functions, receives adjoint only through `s`.
//! Its reverse code is linear in that adjoint `d`: every contribution it makes to values
//! outside the block (and to the block's phis, i.e. the previous iteration) is `d` times
//! a partial derivative that does not depend on `d`. So the block's reverse code runs
//! with the seed 1 instead of `d`, the contributions to each outside value are summed,
//! and only the sums are multiplied by `d`. The loop-carried dependence of the reverse
//! sweep becomes one multiplication per iteration instead of the whole chain of the
//! step's partials, which the processor can now overlap across iterations.
//!
//! Only used when the function allows reassociation (`-ffast-math`): `d * (a + b)` and
//! `d * a + d * b` round differently.

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{fastmath, Block, Opcode, Value};

use super::Gen;

/// A block being reversed with the seed 1 (see the module docs).
pub(super) struct Scaled {
    blk: Block,
    seed: Value,
    /// Unit-seed contributions to values outside the block, summed, in first-seen order.
    pending: Vec<(Value, Value)>,
}

impl Gen<'_> {
    /// The block's single output, when `blk` qualifies (see the module docs).
    fn scaled_output(&self, blk: Block) -> Option<Value> {
        if self.fx.width() != 1
            || self.fx.fmf & fastmath::REASSOC == 0
            || !self.fx.cfg.is_cyclic(blk)
        {
            return None;
        }
        use Opcode::*;
        let mut out = None;
        for i in blk.instructions() {
            if i.is_terminator() {
                continue;
            }
            let op = i.opcode()?;
            // Adjoint can also move through memory: any call but a math function (or
            // one with no derivative and no memory effect) disqualifies the block,
            // active or not (a `void` call writing active memory is not an active value).
            match op {
                LLVMCall => {
                    if !matches!(
                        classify(i),
                        CallKind::Math(_) | CallKind::NoDerivative | CallKind::TypeHint
                    ) {
                        return None;
                    }
                }
                LLVMInvoke | LLVMAtomicRMW | LLVMAtomicCmpXchg | LLVMVAArg => return None,
                _ => {}
            }
            if op == LLVMStore {
                if self.fx.act.is_active(i.operand(0)) || self.fx.act.is_shadowed(i.operand(1)) {
                    return None;
                }
                continue;
            }
            if !self.fx.act.is_active(i) {
                continue;
            }
            let allowed = match op {
                LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFNeg | LLVMFPExt | LLVMFPTrunc
                | LLVMSelect | LLVMPHI => true,
                LLVMCall => matches!(classify(i), CallKind::Math(_)),
                _ => false,
            };
            if !allowed || !i.ty().is_fp_scalar() {
                return None;
            }
            if op == LLVMPHI {
                continue;
            }
            let escapes = i.users().into_iter().any(|u| {
                !u.is_instruction() || u.parent_block() != blk || u.opcode() == Some(LLVMPHI)
            });
            if escapes {
                let in_block_use = i.users().into_iter().any(|u| {
                    u.is_instruction()
                        && u.parent_block() == blk
                        && u.opcode() != Some(LLVMPHI)
                        && self.fx.act.is_active(u)
                });
                if out.is_some() || !i.ty().is_fp_scalar() || in_block_use {
                    return None;
                }
                out = Some(i);
            }
        }
        out
    }

    /// Starts reversing `blk` with the seed 1 when it qualifies.
    pub(super) fn begin_scaled(&mut self, blk: Block) {
        let Some(s) = self.scaled_output(blk) else {
            return;
        };
        let slot = self.adj_slot(s);
        let seed = self.take_adj(s);
        self.b.store(s.ty().const_float(1.0), slot);
        self.flow.scaled = Some(Scaled {
            blk,
            seed,
            pending: Vec::new(),
        });
    }

    /// In a scaled block, a contribution to a value outside it is summed instead of added
    /// (returns false when not in a scaled block or `v` is the block's own value).
    pub(super) fn add_scaled(&mut self, v: Value, delta: Value) -> bool {
        let Some(sc) = self.flow.scaled.as_mut() else {
            return false;
        };
        let inside =
            v.is_instruction() && v.parent_block() == sc.blk && v.opcode() != Some(Opcode::LLVMPHI);
        if inside {
            return false;
        }
        // Every active value of a scaled block is a floating scalar (`scaled_output`).
        match sc.pending.iter_mut().find(|(w, _)| *w == v) {
            Some((_, sum)) => *sum = self.b.fadd(*sum, delta),
            None => sc.pending.push((v, delta)),
        }
        true
    }

    /// Ends a scaled block: each outside value gets `seed * (sum of its contributions)`.
    pub(super) fn end_scaled(&mut self) {
        let Some(sc) = self.flow.scaled.take() else {
            return;
        };
        for (v, sum) in sc.pending {
            // Every active value of the block is a floating scalar; a contribution to a
            // value of another width passed through an fpext or fptrunc of the step.
            let seed = if sc.seed.ty() == sum.ty() {
                sc.seed
            } else if self.fx.m.alloc_size(sum.ty()) > self.fx.m.alloc_size(sc.seed.ty()) {
                self.b.fpext(sc.seed, sum.ty())
            } else {
                self.b.fptrunc(sc.seed, sum.ty())
            };
            let d = self.b.fmul(seed, sum);
            self.add_adj(v, d);
        }
    }
}
