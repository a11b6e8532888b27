//! The counted single-block loops the streams work on: the `+-1` counter, its step and
//! its constant range (shared by `streams/mod.rs`, `upward.rs` and `split.rs`).

use ferrozyme_llvm::{Block, IntPredicate, Opcode, Value};

use crate::affine_index::Counter;

/// The `+-1` counter of the single-block loop `b`: (phi, step).
pub(crate) fn counter(b: Block) -> Option<(Value, i64)> {
    b.phis().into_iter().find_map(|phi| {
        let inc = phi.incoming();
        if inc.len() != 2 || !phi.ty().is_integer() {
            return None;
        }
        let (next, _) = inc.iter().find(|(_, x)| *x == b)?;
        if next.opcode() != Some(Opcode::LLVMAdd) {
            return None;
        }
        let step = if next.operand(0) == phi {
            next.operand(1).const_int_value()?
        } else if next.operand(1) == phi {
            next.operand(0).const_int_value()?
        } else {
            return None;
        };
        (step == 1 || step == -1).then_some((phi, step))
    })
}

/// The single-block loop `b`, entered from `entry`, as a counted loop: its `+-1`
/// counter and step, its conditional branch, and the counter's range as
/// [`counter_range`] reads it (known constants, not empty). Shared by
/// `streams/upward.rs` and `streams/split.rs`.
pub(crate) fn counted_loop(b: Block, entry: Block) -> Option<(Value, i64, Value, Counter)> {
    let (c, step) = counter(b)?;
    let t = b.terminator()?;
    if !t.is_conditional_branch() {
        return None;
    }
    let ctr = counter_range(b, c, step, entry, t);
    (ctr.lo <= ctr.hi).then_some((c, step, t, ctr))
}

/// The counter's range when it starts from a constant and the exit compares it (or its
/// step) with a constant for equality; otherwise an empty range (nothing known).
pub(crate) fn counter_range(b: Block, c: Value, step: i64, entry: Block, t: Value) -> Counter {
    let none = Counter {
        iv: c,
        lo: 1,
        hi: 0,
    };
    let start = c
        .incoming()
        .iter()
        .find(|(_, x)| *x == entry)
        .and_then(|(v, _)| v.const_int_value());
    let test = t.operand(0);
    if test.opcode() != Some(Opcode::LLVMICmp) {
        return none;
    }
    let succ = t.successors();
    // The value of the compared operand on the last iteration, and on the last
    // iteration the counter: `c == k` (exit) -> k; `c + step == k` -> k - step.
    let exits_on_true = succ[0] != b;
    let pred = test.icmp_predicate();
    let eq_exits = (pred == IntPredicate::LLVMIntEQ && exits_on_true)
        || (pred == IntPredicate::LLVMIntNE && !exits_on_true);
    if !eq_exits {
        return none;
    }
    let (a, k) = (test.operand(0), test.operand(1).const_int_value());
    let Some(k) = k else { return none };
    let last = if a == c {
        k
    } else if a.opcode() == Some(Opcode::LLVMAdd)
        && a.operand(0) == c
        && a.operand(1).const_int_value() == Some(step)
    {
        k - step
    } else {
        return none;
    };
    let Some(start) = start else { return none };
    let (lo, hi) = if step < 0 {
        (last, start)
    } else {
        (start, last)
    };
    if lo > hi {
        return none;
    }
    let _ = b;
    Counter {
        iv: c,
        lo: lo as i128,
        hi: hi as i128,
    }
}
