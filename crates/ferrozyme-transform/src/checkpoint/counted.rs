//! Counted loops as automatic checkpointing needs them: an induction variable that runs
//! from a constant start by unit steps to a loop-invariant bound, tested at the loop's only
//! exit (`auto.rs` decides which loops to checkpoint, `marked.rs` lowers the loops the user
//! annotated, `ranges.rs` bounds what their bodies write).

use ferrozyme_analysis::loops::{
    constant_start_phis, defined_outside, inverse_predicate, is_unit_step, swapped_predicate, Loop,
};
use ferrozyme_llvm::{Block, IntPredicate, Opcode, Value};

/// A counted loop: `phi` runs over `start ..= bound + extra`.
pub(crate) struct Counted {
    pub phi: Value,
    pub start: i64,
    pub bound: Value,
    pub extra: i64,
    /// Whether the test comes after the body (the body runs at least once).
    pub post: bool,
    pub unsigned: bool,
    pub exiting: Block,
    pub exit: Block,
}

/// Recognises `l` as a counted loop with one exit (see [`Counted`]).
pub(crate) fn counted(l: &Loop) -> Option<Counted> {
    let entry = l.entry?;
    let mut exiting = Vec::new();
    for &b in &l.blocks {
        if b.successors().iter().any(|s| !l.blocks.contains(s)) {
            exiting.push(b);
        }
    }
    let [e] = exiting.as_slice() else {
        return None;
    };
    let e = *e;
    let post = l.latches.contains(&e);
    if !post && e != l.header {
        return None;
    }
    let t = e.terminator()?;
    if !t.is_conditional_branch() {
        return None;
    }
    let succ = t.successors();
    let inside_true = l.blocks.contains(&succ[0]);
    let exit = if inside_true { succ[1] } else { succ[0] };
    if l.blocks.contains(&exit) {
        return None;
    }
    let c = t.operand(0);
    if c.opcode() != Some(Opcode::LLVMICmp) {
        return None;
    }
    for (phi, start) in constant_start_phis(l, entry) {
        let inc = phi.incoming();
        if !inc
            .iter()
            .filter(|(_, b)| *b != entry)
            .all(|(v, b)| l.latches.contains(b) && is_unit_step(phi, *v))
        {
            continue;
        }
        let d = |v: Value| -> Option<i64> {
            if v == phi {
                Some(0)
            } else if is_unit_step(phi, v) && l.blocks.contains(&v.parent_block()) {
                Some(1)
            } else {
                None
            }
        };
        let mut pred = c.icmp_predicate();
        let (d, bound) = if let Some(d) = d(c.operand(0)) {
            (d, c.operand(1))
        } else if let Some(d) = d(c.operand(1)) {
            pred = swapped_predicate(pred);
            (d, c.operand(0))
        } else {
            continue;
        };
        if !defined_outside(l, bound) || !bound.ty().is_integer() {
            continue;
        }
        if !inside_true {
            pred = inverse_predicate(pred);
        }
        use IntPredicate::*;
        let (incl, unsigned) = match pred {
            LLVMIntSLT | LLVMIntNE => (0, false),
            LLVMIntULT => (0, true),
            LLVMIntSLE => (1, false),
            LLVMIntULE => (1, true),
            _ => continue,
        };
        return Some(Counted {
            phi,
            start,
            bound,
            extra: incl - d + i64::from(post) - 1,
            post,
            unsigned,
            exiting: e,
            exit,
        });
    }
    None
}
