//! Two partial sums for a reverse loop's carried adjoint sum: the loop body is doubled and
//! the two copies accumulate into two registers, added once after the loop.
//!
//! The reverse of a reduction such as GMM's triangle product (`out[r] += L[t] * x[c]`
//! over the rows `r` of a column `c`) accumulates the column's adjoint over the rows:
//! `d = d + dout[r] * L[t]`, one addition per trip, each waiting for the previous one.
//! When the rest of the trip is a few loads and an independent read-modify-write (the
//! `dL[t]` update), that chain of additions is the loop's critical path (bench/README
//! "gmm12": 4 cycles per trip at `-O3 -march=native`, the forward row loop ~1). A
//! hand-written adjoint would keep two accumulators; LLVM does not, because the `fadd`s
//! are not `reassoc` (and marking them so is worse: the vectorizer then takes the short
//! reverse loops, with run-time alias checks and remainders).
//!
//! Rewrite, for an innermost loop that is one block `B` (header and latch), leaving only
//! to a block `E` that `B` alone enters, and not produced by the vectorizer:
//! * the body is cloned into `B2`, placed after `B`; `B` now continues into `B2` and `B2`
//!   back into `B`, each with its own copy of the exit test (no trip-count arithmetic, no
//!   remainder loop: an odd count leaves from `B`). Phis of `B` take `B2`'s values on the
//!   back edge; values used after the loop get a phi in `E` merging both exits;
//! * each qualifying accumulator phi `d` (below) becomes two: `a` (its old start value)
//!   that `B`'s copy of the step adds to, and `b` (starting at `-0.0`, the exact identity
//!   of `fadd`, or at `+0.0` when `d` does: then no partial sum can be `-0.0`) that
//!   `B2`'s copy adds to. The loop's result `a + b` is formed once in `E`.
//!
//! A phi qualifies when it is a floating-point scalar whose only user is its latch value
//! `v = d + t`, `t + d`, `d - t` or `fmuladd/fma(x, y, d)` (so nothing else in the loop
//! reads a partial sum, and `t`, `x`, `y` cannot depend on `d`), `v` is used only by the
//! phi and after the loop, and `v` carries the reverse sweep's adjoint mark
//! (`ferrozyme_llvm::builder::ADJOINT_MD`): primal arithmetic is never regrouped.
//!
//! Why rounding is the only difference, and why the grouping is ours to choose: the
//! adjoint of `x[c]` is the sum of the contributions of every use of `x[c]`; in which
//! order and grouping the chain rule's terms are added is how the AD tool evaluates the
//! derivative (`adjoint_chain.rs` makes the same argument for products), not an
//! expression of the user's program. Every contribution is added exactly once: after
//! each trip `a + b` equals the old running sum up to rounding (the invariant holds at
//! entry, `init + -0.0 = init` exactly, and each trip adds its term to one of the two).
//!
//! Not taken (left as it is): loops of more than one block, bodies with calls other than
//! `fmuladd`/`fma`, with allocas or longer than [`MAX_BODY`] instructions (the gain is
//! latency, which only a short body exposes), exits to a block with other predecessors,
//! vectorized loops and their remainders (`llvm.loop.isvectorized`).

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Block, Builder, Opcode, Value};

/// Longest loop body (instructions, phis excluded) that is doubled.
pub const MAX_BODY: usize = 32;

/// Splits the accumulators of every qualifying single-block loop of the function whose
/// blocks are `blocks`; `mark` is the adjoint metadata kind. Returns how many loops were
/// rewritten.
pub fn split_function(blocks: &[Block], mark: u32) -> usize {
    let Some(&entry) = blocks.first() else {
        return 0;
    };
    let ctx = entry.parent().ty().context();
    let loop_md = ctx.md_kind("llvm.loop");
    let mut preds: HashMap<Block, Vec<Block>> = HashMap::default();
    for &b in blocks {
        for s in b.successors() {
            preds.entry(s).or_default().push(b);
        }
    }
    let mut done = 0;
    for (i, &b) in blocks.iter().enumerate() {
        if b == entry {
            continue;
        }
        let Some(shape) = loop_shape(b, &preds, loop_md) else {
            continue;
        };
        let accs: Vec<Acc> = b
            .phis()
            .into_iter()
            .filter_map(|p| accumulator(p, b, mark))
            .collect();
        if accs.is_empty() {
            continue;
        }
        let next = blocks.get(i + 1).copied();
        rewrite(b, shape, &accs, next, loop_md);
        done += 1;
    }
    done
}

#[derive(Clone, Copy)]
struct Shape {
    pre: Block,
    exit: Block,
}

/// `b` as a one-block loop: entered from one block outside, leaving by a conditional
/// branch to a block only `b` enters; short, without calls but `fmuladd`/`fma`, not a
/// vectorizer's loop.
fn loop_shape(b: Block, preds: &HashMap<Block, Vec<Block>>, loop_md: u32) -> Option<Shape> {
    let (pre, exit) = one_block_loop(b, preds, loop_md, MAX_BODY)?;
    if preds.get(&exit).map(Vec::as_slice) != Some(&[b][..]) {
        return None;
    }
    Some(Shape { pre, exit })
}

/// `b` as a one-block loop (header and latch) entered from one block outside, leaving by
/// a conditional branch: (that block, the exit). Only loops of at most `max_body`
/// instructions (phis excluded) without calls but `fmuladd`/`fma`, allocas, exception
/// handling, atomics or volatile accesses, not made by the vectorizer.
pub(crate) fn one_block_loop(
    b: Block,
    preds: &HashMap<Block, Vec<Block>>,
    loop_md: u32,
    max_body: usize,
) -> Option<(Block, Block)> {
    let t = b.terminator()?;
    if t.opcode() != Some(Opcode::LLVMBr) || t.num_successors() != 2 || vectorized(t, loop_md) {
        return None;
    }
    let (s0, s1) = (t.successor(0), t.successor(1));
    let exit = match (s0 == b, s1 == b) {
        (true, false) => s1,
        (false, true) => s0,
        _ => return None,
    };
    let ps = preds.get(&b)?;
    let outside: Vec<Block> = ps.iter().copied().filter(|&p| p != b).collect();
    if ps.len() != 2 || outside.len() != 1 {
        return None;
    }
    let body: Vec<Value> = b
        .instructions()
        .into_iter()
        .filter(|i| i.opcode() != Some(Opcode::LLVMPHI))
        .collect();
    if body.len() > max_body + 1 {
        return None;
    }
    let simple = body.iter().all(|&i| match i.opcode() {
        Some(Opcode::LLVMCall) => i.is_fma_call(),
        Some(Opcode::LLVMLoad | Opcode::LLVMStore) => !i.is_volatile(),
        Some(
            Opcode::LLVMAlloca
            | Opcode::LLVMInvoke
            | Opcode::LLVMCallBr
            | Opcode::LLVMLandingPad
            | Opcode::LLVMAtomicRMW
            | Opcode::LLVMAtomicCmpXchg
            | Opcode::LLVMFence
            | Opcode::LLVMVAArg,
        ) => false,
        _ => true,
    });
    simple.then_some((outside[0], exit))
}

/// Does the latch's loop metadata say the vectorizer made (or already handled) this loop?
fn vectorized(latch_term: Value, loop_md: u32) -> bool {
    let Some(md) = latch_term.metadata(loop_md) else {
        return false;
    };
    md.md_node_operands().into_iter().flatten().any(|op| {
        op.md_node_operands()
            .first()
            .copied()
            .flatten()
            .and_then(|s| s.md_string())
            .is_some_and(|s| s == "llvm.loop.isvectorized")
    })
}

/// A carried adjoint sum: the header phi, its latch value and the latch value's operand
/// that reads the phi.
#[derive(Clone, Copy)]
struct Acc {
    phi: Value,
    step: Value,
    operand: u32,
}

fn accumulator(p: Value, b: Block, mark: u32) -> Option<Acc> {
    if !p.ty().is_fp_scalar() {
        return None;
    }
    let step = p.incoming().into_iter().find(|&(_, from)| from == b)?.0;
    if p.users() != [step] || !step.is_instruction() || step.parent_block() != b {
        return None;
    }
    if step.metadata(mark).is_none() {
        return None;
    }
    let operand = match step.opcode() {
        Some(Opcode::LLVMFAdd) if step.operand(0) == p && step.operand(1) != p => 0,
        Some(Opcode::LLVMFAdd) if step.operand(1) == p && step.operand(0) != p => 1,
        Some(Opcode::LLVMFSub) if step.operand(0) == p && step.operand(1) != p => 0,
        Some(Opcode::LLVMCall)
            if step.is_fma_call()
                && step.operand(2) == p
                && step.operand(0) != p
                && step.operand(1) != p =>
        {
            2
        }
        _ => return None,
    };
    // Only the phi and code after the loop read the running sum.
    let users_ok = step
        .users()
        .iter()
        .all(|&u| u == p || u.parent_block() != b);
    users_ok.then_some(Acc {
        phi: p,
        step,
        operand,
    })
}

/// Doubles the loop body of `b` into a new block and splits the accumulators `accs`.
fn rewrite(b: Block, shape: Shape, accs: &[Acc], next: Option<Block>, loop_md: u32) {
    let f = b.parent();
    let ctx = f.ty().context();
    let builder = Builder::new(ctx);
    let b2 = match next {
        Some(n) => n.insert_before(ctx, &format!("{}.second", b.name())),
        None => builder.append_block(f, &format!("{}.second", b.name())),
    };
    // `d + t` rather than `t + d` (the same sum exactly): x86's two-address `addsd` then
    // accumulates in the partial sum's own register, where the other order made the
    // register allocator copy it every trip.
    let accs: Vec<Acc> = accs
        .iter()
        .map(|&acc| {
            if acc.step.opcode() == Some(Opcode::LLVMFAdd) && acc.operand == 1 {
                let t = acc.step.operand(0);
                acc.step.set_operand(0, acc.phi);
                acc.step.set_operand(1, t);
                Acc { operand: 0, ..acc }
            } else {
                acc
            }
        })
        .collect();
    let phis = b.phis();
    // The value a phi of `b` has in the second copy: its latch value from the first.
    let latch_value = |p: Value| -> Value {
        p.incoming()
            .into_iter()
            .find(|&(_, from)| from == b)
            .expect("a loop phi has a latch value")
            .0
    };
    let mut map: HashMap<Value, Value> = phis.iter().map(|&p| (p, latch_value(p))).collect();
    builder.position_at_end(b2);
    for i in b.instructions() {
        if i.opcode() == Some(Opcode::LLVMPHI) {
            continue;
        }
        let c = i.clone_instruction();
        for k in 0..c.num_operands() {
            if let Some(&m) = map.get(&c.operand(k)) {
                c.set_operand(k, m);
            }
        }
        builder.insert(c);
        map.insert(i, c);
    }
    let term = b.terminator().expect("checked in loop_shape");
    // The first copy continues into the second; only the second is the latch now.
    for k in 0..term.num_successors() {
        if term.successor(k) == b {
            term.set_successor(k, b2);
        }
    }
    term.set_metadata(loop_md, None);
    let second = |v: Value| map.get(&v).copied().unwrap_or(v);
    // Values used after the loop, before the header phis are rebuilt (their users
    // change then): every instruction of `b` read outside the two copies.
    let e_phis = shape.exit.phis();
    let mut escaping: Vec<(Value, Vec<Value>)> = Vec::new();
    for i in b.instructions() {
        let outside: Vec<Value> = i
            .users()
            .into_iter()
            .filter(|u| {
                let ub = u.parent_block();
                ub != b && ub != b2 && !e_phis.contains(u)
            })
            .collect();
        if !outside.is_empty() {
            escaping.push((i, outside));
        }
    }
    // Exit phis gain the second copy's value.
    for &p in &e_phis {
        let from_b: Vec<Value> = p
            .incoming()
            .into_iter()
            .filter(|&(_, from)| from == b)
            .map(|(v, _)| v)
            .collect();
        for v in from_b {
            p.add_incoming(second(v), b2);
        }
    }
    // Other uses after the loop read a phi of the two exits' values.
    let first_non_phi = shape
        .exit
        .first_non_phi()
        .expect("the exit has a terminator");
    for (i, users) in escaping {
        builder.position_before(first_non_phi);
        let m = builder.phi(i.ty(), "");
        m.add_incoming(i, b);
        m.add_incoming(second(i), b2);
        for u in users {
            for k in 0..u.num_operands() {
                if u.operand(k) == i {
                    u.set_operand(k, m);
                }
            }
        }
    }
    // Header phis: the back edge now comes from the second copy.
    let mut new_phi: HashMap<Value, Value> = HashMap::default();
    for &p in &phis {
        builder.position_before(b.first_instruction().expect("b has its phis"));
        let np = builder.phi(p.ty(), &p.name());
        for (v, from) in p.incoming() {
            if from == b {
                np.add_incoming(second(v), b2);
            } else {
                np.add_incoming(v, from);
            }
        }
        np.set_fast_math_flags(p.fast_math_flags());
        new_phi.insert(p, np);
    }
    for &p in &phis {
        p.replace_all_uses_with(new_phi[&p]);
        p.erase();
    }
    for acc in &accs {
        split_accumulator(
            acc,
            new_phi[&acc.phi],
            second(acc.step),
            shape,
            b,
            b2,
            &builder,
        );
    }
}

/// The two partial sums of one accumulator, after the body was doubled: the phi `a`
/// keeps the first copy's sum (its back-edge value becomes the first copy's step), a new
/// phi `b` the second's, and the exit's merged value of the step becomes `step + (b or
/// step2)`, the complete sum whichever copy left.
fn split_accumulator(
    acc: &Acc,
    a: Value,
    step2: Value,
    shape: Shape,
    b: Block,
    b2: Block,
    builder: &Builder,
) {
    let ty = a.ty();
    builder.position_before(b.first_instruction().expect("b has its phis"));
    let other = builder.phi(ty, "fz.split");
    // `-0.0` is the exact identity of the addition. When the sum starts at `+0.0` (a
    // zeroed adjoint, the usual case) neither sum can ever be `-0.0` (a rounded sum is
    // `-0.0` only when both addends are), so `+0.0` is exact there too, and it is a
    // register zeroing idiom instead of a constant to keep in a register.
    let starts_at_zero = a
        .incoming()
        .into_iter()
        .find(|&(_, from)| from == shape.pre)
        .and_then(|(v, _)| v.const_fp_value())
        .is_some_and(|x| x == 0.0 && x.is_sign_positive());
    let start = if starts_at_zero { 0.0 } else { -0.0 };
    other.add_incoming(ty.const_float(start), shape.pre);
    other.add_incoming(step2, b2);
    for k in 0..a.num_operands() {
        if a.operand(k) == step2 {
            a.set_operand(k, acc.step);
        }
    }
    step2.set_operand(acc.operand, other);
    // The exit's phis that merge the step (LCSSA phis, or those `rewrite` made).
    for p in shape.exit.phis() {
        let inc = p.incoming();
        let merges = inc.len() == 2
            && inc.iter().any(|&(v, from)| v == acc.step && from == b)
            && inc.iter().any(|&(v, from)| v == step2 && from == b2);
        if !merges {
            continue;
        }
        builder.position_before(
            shape
                .exit
                .first_non_phi()
                .expect("the exit has a terminator"),
        );
        let rest = builder.phi(ty, "fz.split.rest");
        rest.add_incoming(other, b);
        rest.add_incoming(step2, b2);
        let sum = builder.fadd(acc.step, rest);
        sum.set_fast_math_flags(acc.step.fast_math_flags());
        p.replace_all_uses_with(sum);
        p.erase();
    }
}
