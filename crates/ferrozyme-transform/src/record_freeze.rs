//! Tape record addresses kept out of loop strength reduction (compile time, issue 18).
//!
//! A loop of an augmented forward or of a reverse addresses its tape records as
//! `getelementptr i8, ptr %data, i64 %off`, where `%off` is a recurrence of the loop's
//! header (`+16` per iteration where it pushes, `-16` where it pops) stepping beside the
//! loop's counter. Code generation's loop strength reduction (LSR) then searches for a
//! common formula for the counter's stride-8 uses (the shadows `x[k]`, `y[k]`) and the
//! records' stride-16 uses, with every addressing mode, for each loop: measured with
//! callgrind on `bench/compile_scaling`'s `chain` (n = 320), LSR took 3.8M instructions
//! per reverse loop against 0.8M per loop of the primal functions, 30% of code
//! generation on the augmented forwards and reverses. Replacing a reverse function's record
//! address by a loop-invariant one (an experiment, not a valid program) cut its LSR cost
//! 2.4x; a second recurrence with the counter's step (`iv_share`, tried) did not
//! change it.
//!
//! [`freeze_record_addresses`] runs on generated functions after the post-AD pipeline,
//! just before code generation: such an address gets a `freeze` between it and its users.
//! LSR does not look through `freeze` (the address becomes an opaque value to it; LLVM's
//! `CanonicalizeFreezeInLoops`, which runs in code generation before LSR, only moves
//! freezes of the recurrence itself, so the freeze is placed on the address). `freeze`
//! of a value that is not poison is that value, and an address the program loads from
//! or stores to is not poison, so nothing the program computes changes; on `chain` the
//! loops keep the same number of instructions per iteration (one more register: the
//! offset and the counter step separately instead of one scaled index) and
//! the object's `.text` is 0.2% smaller.
//!
//! Only byte GEPs whose single index is a header phi `[start, outside], [phi + c, latch]`
//! with a constant step, of a loop whose header dominates its latch, get the address
//! freeze: that is how `fixed_tape.rs` and the stack runtime address records after SROA.
//!
//! In the same short loops, when they are scalar (no vector instruction: not a loop the
//! vectorizers made), every such integer recurrence, the loop's counter included, also
//! carries its next value through a `freeze` on the back edge ([`freeze_step`]): to LSR
//! the loop then has no induction variable, and it leaves the loop as it is (issue 18,
//! cc32). A vectorized loop keeps its counter visible (only its record offset is
//! frozen, as before): LSR's rewriting of its addresses paid, see [`is_scalar`]. With
//! the counters left visible, LSR still spent 158M instructions on the generated
//! functions of `chain` n = 80 (`llc-22 -O2` under callgrind on them alone:
//! 1,143.9M, against 985.4M with `-disable-lsr`, 5.6% of the `ferrozyme` process); with
//! them frozen 994.7M, and the machine code the same as with `-disable-lsr`. What LSR
//! did in those loops: a reverse loop counting down to 0 came out the same but for its
//! addressing mode; an augmented loop counting up to a constant keeps the `cmp` that
//! LSR removed (it counted a second register up to 0): one macro-fused `cmp` per
//! iteration more, in loops of at most [`MAX_TRIPS`] iterations (`chain`'s and
//! `tree`'s gradients n = 80: +0.6% instructions). The other addresses (the primal's `gep
//! double`, shadows) are left as they are: with no induction variable there is no
//! formula for LSR to search, and instruction selection still folds them into
//! `base + 8 * index` addressing.

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::{Loop, Loops};
use ferrozyme_llvm::{Block, Builder, Opcode, TypeKind, Value};

use crate::generated::is_generated;

/// Loops with more iterations than this (or an unknown count) keep their record
/// addresses visible to LSR, whose rewriting pays off per iteration: freezing in every
/// loop cost `rk4`'s gradient 4.4% more instructions with the harness flags (its loops
/// run `n` times), while `chain`'s and `tree`'s loops run 4 times.
const MAX_TRIPS: i64 = 16;

/// Adds the freezes in the generated functions of `module`. Returns how many.
pub fn freeze_record_addresses(module: ferrozyme_llvm::Module) -> usize {
    let mut made = 0;
    for f in module.functions() {
        if f.is_declaration() || !is_generated(f) {
            continue;
        }
        made += in_function(f);
    }
    made
}

fn in_function(f: Value) -> usize {
    let cfg = Cfg::new(f);
    let loops = Loops::new(&cfg);
    let mut made = 0;
    for header in &cfg.blocks {
        let recs: Vec<(Value, Recurrence)> = header
            .phis()
            .into_iter()
            .filter_map(|p| recurrence(p, *header).map(|r| (p, r)))
            .collect();
        for (phi, r) in &recs {
            // A latch no path reaches is dominated by every block.
            let dominated = !cfg.is_reachable(r.latch) || cfg.dominates(*header, r.latch);
            if !dominated || !few_known_trips(r.latch, &recs) {
                continue;
            }
            let mut froze = false;
            for user in phi.users() {
                if is_record_address(user, *phi) {
                    freeze_after(user);
                    made += 1;
                    froze = true;
                }
            }
            // In a scalar loop every recurrence, the counter included: an induction
            // variable left visible keeps LSR searching formulae for its users.
            if froze
                || loops
                    .loops
                    .iter()
                    .any(|l| l.header == *header && is_scalar(l))
            {
                freeze_step(*phi, r.next);
                made += 1;
            }
        }
    }
    made
}

/// No instruction of the loop makes or stores a vector: not a loop the vectorizers
/// produced, whose addresses LSR's rewriting pays for (the Brusselator's 15-iteration
/// vector loops at `-O2 -ffast-math`: 0.6% and 2.3% more gradient instructions with
/// their counters frozen).
fn is_scalar(l: &Loop) -> bool {
    let vector = |v: Value| v.ty().kind() == TypeKind::Vector;
    l.blocks.iter().all(|b| {
        b.instructions()
            .into_iter()
            .all(|i| !vector(i) && !(i.opcode() == Some(Opcode::LLVMStore) && vector(i.operand(0))))
    })
}

/// A header phi `[start, pre], [next, latch]` with `next` = `phi + step`.
#[derive(Clone, Copy)]
struct Recurrence {
    start: Value,
    next: Value,
    step: i64,
    latch: Block,
}

/// `phi` as a [`Recurrence`] when it is an integer of at most 64 bits stepping by a
/// constant (`phi + c`, `c + phi`, `phi - c`) around the back edge, entered from another
/// block.
fn recurrence(phi: Value, header: Block) -> Option<Recurrence> {
    if phi.ty().int_width()? > 64 {
        return None;
    }
    let inc = phi.incoming();
    if inc.len() != 2 || inc[0].1 == inc[1].1 {
        return None;
    }
    let (start, pre, next, latch, step) = match (step_of(inc[0].0, phi), step_of(inc[1].0, phi)) {
        (None, Some(c)) => (inc[0].0, inc[0].1, inc[1].0, inc[1].1, c),
        (Some(c), None) => (inc[1].0, inc[1].1, inc[0].0, inc[0].1, c),
        _ => return None,
    };
    if start == phi || pre == header || step == 0 {
        return None;
    }
    Some(Recurrence {
        start,
        next,
        step,
        latch,
    })
}

/// `c` when `next` is `phi + c`, `c + phi` or `phi - c` for a constant integer `c`.
fn step_of(next: Value, phi: Value) -> Option<i64> {
    let op = next.opcode()?;
    let (a, b) = (next.operand(0), next.operand(1));
    match op {
        Opcode::LLVMAdd if a == phi => b.const_int_value(),
        Opcode::LLVMAdd if b == phi => a.const_int_value(),
        Opcode::LLVMSub if a == phi => b.const_int_value()?.checked_neg(),
        _ => None,
    }
}

/// Whether the loop runs at most [`MAX_TRIPS`] iterations by a count known here: its
/// latch ends in a conditional branch on an `icmp` of a counter (or of its next value)
/// that starts at a constant, against a constant on the side the counter moves towards.
/// The counter then reaches the constant within `distance / step + 1` iterations, where
/// an exit test on it stops the loop at the latest (a test that lets the loop run past
/// the constant would need the counter to wrap, and a counter moving away from the
/// constant is not counted as bounded).
fn few_known_trips(latch: Block, recs: &[(Value, Recurrence)]) -> bool {
    let Some(br) = latch.terminator() else {
        return false;
    };
    let Some(cond) = br.branch_icmp() else {
        return false;
    };
    let (a, b) = (cond.operand(0), cond.operand(1));
    recs.iter().any(|(phi, r)| {
        let Some(start) = r.start.const_int_value() else {
            return false;
        };
        let bound = if a == *phi || a == r.next {
            b.const_int_value()
        } else if b == *phi || b == r.next {
            a.const_int_value()
        } else {
            None
        };
        let Some(k) = bound else {
            return false;
        };
        let distance = (k as i128) - (start as i128);
        let step = r.step as i128;
        distance.signum() * step.signum() >= 0 && distance / step + 1 <= MAX_TRIPS as i128
    })
}

/// `getelementptr i8, ptr base, i64 phi` (one index, the recurrence itself).
fn is_record_address(user: Value, phi: Value) -> bool {
    user.opcode() == Some(Opcode::LLVMGetElementPtr)
        && user.num_operands() == 2
        && user.operand(1) == phi
        && user.operand(0) != phi
        && user.gep_source_type().int_width() == Some(8)
        && user.ty().is_pointer()
        && !user.users().is_empty()
}

/// Hides a recurrence of a short loop (a record offset, the counter) from LSR: the back
/// edge carries `freeze next`, so the phi is no induction variable to it (the record
/// offset's stride-16 recurrence beside the counter's is what LSR's formula search
/// multiplied; the counter left beside it still made LSR search, module doc). The
/// frozen address alone left LSR 1.8M instructions per reverse loop of `chain` (n = 80,
/// `llc-22` under callgrind on one generated function) where the primal's loops take
/// 0.54M; with the step frozen as well 1.1M, and `llc-22` on the whole function 6-10% fewer instructions.
/// The loop keeps its instructions but one (the offset's `lea`) and may keep one more
/// register: paid in loops of at most [`MAX_TRIPS`] iterations only. `next` is an
/// offset into a record buffer, never poison, so its `freeze` is itself; and `freeze x`
/// refines `x` whatever `x` is (a counter's `add nsw` that could overflow), so the
/// program keeps its meaning.
fn freeze_step(phi: Value, next: Value) {
    let b = Builder::new(next.ty().context());
    b.position_after(next);
    let frozen = b.freeze(next);
    for i in 0..phi.num_operands() {
        if phi.operand(i) == next {
            phi.set_operand(i, frozen);
        }
    }
}

/// Puts `freeze` between `gep` and its users.
fn freeze_after(gep: Value) {
    let users = gep.users();
    let b = Builder::new(gep.ty().context());
    b.position_after(gep);
    let frozen = b.freeze(gep);
    for u in users {
        for i in 0..u.num_operands() {
            if u.operand(i) == gep {
                u.set_operand(i, frozen);
            }
        }
    }
}
