//! In-order sums of a reverse loop moved after it, same order (issue 14, bruss13: the
//! Brusselator's parameter adjoints without fast-math).
//!
//! A reverse stencil loop also sums the adjoints of its loop-invariant inputs (the
//! parameters) in registers: `acc = acc + t1; acc = acc + t2` per iteration, without
//! `reassoc`. LoopVectorize vectorizes an in-order (ordered) reduction only when the
//! loop adds to it once per iteration; the Brusselator's `dalpha` gets two adds
//! (`alpha` enters both fields), so the whole loop stayed scalar even once its streams
//! were carried (bench/README.md "bruss12", "bruss13"). A chain of one add of a product
//! would vectorize (`-force-ordered-reductions`), but not bit for bit: in the scalar loop
//! the code generator fuses `acc + a * b` into one fused multiply-add (`contract`), the
//! vector loop's in-order reduction adds the rounded products (`dA` changed in its last
//! bit). Here, in a loop that carried a value stream (`stream_values.rs`), a chain of two
//! or more such adds, or of one add of a product, leaves the loop:
//! the loop stores, per iteration, what the chain adds (for a term `fmul a, b` used only
//! by its add: `a` and `b`, so that the add and the product can contract into one fused
//! multiply-add after the loop exactly as they did in it) into a stack buffer, slot by
//! slot, one element per iteration; after the loop (on its exit edge, the
//! `fz.stream.flush` block) straight-line code runs the chain over the buffer in
//! iteration order, each step a copy of the original instructions (operands, order,
//! flags). The sum is the same sequence of operations on the same values: bit-identical.
//!
//! Taken only when: the loop counts down by one over a constant range of at most
//! `MAX_TRIP` iterations (`streams::counter_range`), each add is an `fadd` without
//! `reassoc` whose only user is the next add (the last: the phi and uses after the
//! loop), the phi's only user is the first add, and the buffer holds at most `MAX_SLOTS`
//! elements.

use ferrozyme_llvm::fastmath::REASSOC;
use ferrozyme_llvm::{Block, Builder, Context, Opcode, Value};

/// Longest loop whose sums move (straight-line code after the loop per iteration).
const MAX_TRIP: i128 = 64;
/// Most buffer elements per loop.
const MAX_SLOTS: i128 = 512;

/// One step `acc' = fadd acc, t` (or `fadd t, acc`) of a chain.
struct Step {
    add: Value,
    /// The operand index of the accumulator in `add`.
    acc_at: u32,
    /// `t` as `fmul a, b` (the multiplication itself), or `t` itself.
    mul: Option<Value>,
    term: Value,
}

/// A chain of in-order adds carried by `phi`.
struct Chain {
    phi: Value,
    init: Value,
    steps: Vec<Step>,
}

/// The loop `b` (counter `c`, `step`, values `lo..=hi`), entered from `entry`, left
/// through the block ending in `flush_br`.
pub(crate) struct SumLoop {
    pub b: Block,
    pub entry: Block,
    /// The exit edge's branch (`fz.stream.flush`'s terminator).
    pub flush_br: Value,
    pub c: Value,
    pub step: i64,
    pub lo: i128,
    pub hi: i128,
}

/// Moves the in-order sum chains of two or more adds out of `l` (see the module docs);
/// returns how many.
pub(crate) fn move_sums(ctx: Context, g: Value, l: &SumLoop) -> usize {
    let trip = l.hi - l.lo + 1;
    if l.step != -1 || l.lo > l.hi || trip > MAX_TRIP {
        return 0;
    }
    let chains: Vec<Chain> =
        l.b.phis()
            .into_iter()
            .filter_map(|phi| chain(l, phi))
            .filter(|ch| ch.steps.len() >= 2 || ch.steps.iter().any(|s| s.mul.is_some()))
            .collect();
    if chains.is_empty() {
        return 0;
    }
    let in_loop = |v: Value| v.is_instruction() && v.parent_block() == l.b;
    // The values stored per iteration, in slot order.
    let mut slots: Vec<Value> = Vec::new();
    for ch in &chains {
        for s in &ch.steps {
            let ops = match s.mul {
                Some(m) => vec![m.operand(0), m.operand(1)],
                None => vec![s.term],
            };
            for v in ops {
                if in_loop(v) && !slots.contains(&v) {
                    slots.push(v);
                }
            }
        }
    }
    let ty = chains[0].phi.ty();
    if slots.iter().any(|v| v.ty() != ty) || (slots.len() as i128) * trip > MAX_SLOTS {
        return 0;
    }
    let Some(entry_block) = g.entry_block() else {
        return 0;
    };
    let bld = Builder::new(ctx);
    let i64t = ctx.i64();
    match entry_block.first_non_phi() {
        Some(i) => bld.position_before(i),
        None => bld.position_at_end(entry_block),
    }
    let n_elems = (slots.len() as i128 * trip).max(1) as u64;
    let buf = bld.alloca(ctx.array_type(ty, n_elems), "fz.sums");
    // In the loop: slot s of iteration n = hi - c at s * trip + n.
    let t = l.b.terminator().unwrap();
    bld.position_before(t);
    let cty = l.c.ty();
    let n = bld.binop(Opcode::LLVMSub, cty.const_i64(l.hi as i64), l.c);
    let n = if cty.int_width() == Some(64) {
        n
    } else {
        bld.int_cast(n, i64t)
    };
    for (k, v) in slots.iter().enumerate() {
        let idx = bld.binop(Opcode::LLVMAdd, n, i64t.const_i64(k as i64 * trip as i64));
        let p = bld.inbounds_gep(ty, buf, &[idx]);
        bld.store(*v, p);
    }
    // After the loop: the chains over the buffer, iteration after iteration.
    bld.position_before(l.flush_br);
    let read = |bld: &Builder, v: Value, it: i128| -> Value {
        match slots.iter().position(|x| *x == v) {
            Some(k) => {
                let p =
                    bld.inbounds_gep(ty, buf, &[i64t.const_i64((k as i128 * trip + it) as i64)]);
                bld.load(ty, p, "fz.sum.term")
            }
            None => v,
        }
    };
    for ch in &chains {
        let mut acc = ch.init;
        for it in 0..trip {
            for s in &ch.steps {
                let term = match s.mul {
                    Some(m) => {
                        let (a, b2) = (read(&bld, m.operand(0), it), read(&bld, m.operand(1), it));
                        let k = m.clone_instruction();
                        bld.insert(k);
                        k.set_operand(0, a);
                        k.set_operand(1, b2);
                        k
                    }
                    None => read(&bld, s.term, it),
                };
                let k = s.add.clone_instruction();
                bld.insert(k);
                k.set_operand(s.acc_at, acc);
                k.set_operand(1 - s.acc_at, term);
                acc = k;
            }
        }
        // Uses after the loop read the sum; the chain leaves the loop.
        let last = ch.steps[ch.steps.len() - 1].add;
        for u in last.users() {
            if u.parent_block() == l.b {
                continue;
            }
            for k in 0..u.num_operands() {
                if u.operand(k) == last {
                    u.set_operand(k, acc);
                }
            }
        }
        ch.phi.replace_all_uses_with(ty.zero());
        ch.phi.erase();
        for s in ch.steps.iter().rev() {
            s.add.replace_all_uses_with(ty.zero());
            s.add.erase();
            if let Some(m) = s.mul {
                if m.users().is_empty() {
                    m.erase();
                }
            }
        }
    }
    chains.len()
}

/// The chain of in-order adds `phi` carries through `l.b`, if it has the shape of the
/// module docs.
fn chain(l: &SumLoop, phi: Value) -> Option<Chain> {
    if !phi.ty().is_fp_scalar() {
        return None;
    }
    let inc = phi.incoming();
    if inc.len() != 2 {
        return None;
    }
    let init = inc.iter().find(|(_, x)| *x == l.entry)?.0;
    let last = inc.iter().find(|(_, x)| *x == l.b)?.0;
    let mut steps = Vec::new();
    let mut cur = phi;
    while cur != last {
        let users = cur.users();
        let [add] = users.as_slice() else {
            return None;
        };
        let add = *add;
        if add.opcode() != Some(Opcode::LLVMFAdd)
            || add.parent_block() != l.b
            || add.fast_math_flags() & REASSOC != 0
        {
            return None;
        }
        let acc_at = if add.operand(0) == cur { 0 } else { 1 };
        let term = add.operand(1 - acc_at);
        if add.operand(acc_at) != cur || term == cur || steps.len() > 16 {
            return None;
        }
        let mul = (term.opcode() == Some(Opcode::LLVMFMul)
            && term.parent_block() == l.b
            && term.users().len() == 1)
            .then_some(term);
        steps.push(Step {
            add,
            acc_at: acc_at as u32,
            mul,
            term,
        });
        cur = add;
    }
    // The last add: the phi's back edge and uses after the loop only (a use in the loop
    // would read a partial sum).
    if last
        .users()
        .iter()
        .any(|u| u.parent_block() == l.b && *u != phi)
    {
        return None;
    }
    (!steps.is_empty()).then_some(Chain { phi, init, steps })
}
