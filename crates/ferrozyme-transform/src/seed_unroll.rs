//! Full unrolling of a one-block loop of 2 to 4 iterations around one
//! `__enzyme_autodiff` call: the "one reverse sweep per seed row" loop of Jacobian
//! harnesses (`for (r = 0; r < 2; r++) { seed row r; __enzyme_autodiff(f, ...); }`).
//!
//! Why: with the optimizer's default flags clang unrolls such a loop itself and
//! `seed_fusion.rs` then sees consecutive calls; with `-fno-unroll-loops` (Enzyme's
//! benchmark flags) the loop stays and the calls can only be fused after unrolling it.
//! Only this shape is touched: one block that is its own latch, exited by its
//! terminator, a trip count that constant folding of the exit test gives, and exactly
//! one hook call inside. Nothing else in the program is unrolled.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Block, Builder, IntPredicate, Opcode, Value};

/// The largest trip count unrolled.
pub const MAX_TRIPS: usize = 4;

/// Unrolls the loop `blk` (which contains `call`) when it has the shape above; returns
/// whether it did.
pub fn unroll_around(call: Value) -> bool {
    let blk = call.parent_block();
    let Some((pre, exit, cont_on_true)) = self_loop(blk) else {
        return false;
    };
    let phis = blk.phis();
    let Some(trips) = trip_count(blk, &phis, pre, cont_on_true) else {
        return false;
    };
    if !(2..=MAX_TRIPS).contains(&trips) {
        return false;
    }
    unroll(blk, &phis, pre, exit, trips);
    true
}

/// `(preheader, exit, continue when the condition is true)` for a block that branches
/// back to itself, has exactly one other predecessor, and no other successor than the
/// exit.
fn self_loop(blk: Block) -> Option<(Block, Block, bool)> {
    let term = blk.terminator()?;
    if term.opcode() != Some(Opcode::LLVMBr) || term.num_successors() != 2 {
        return None;
    }
    let (s0, s1) = (term.successor(0), term.successor(1));
    let (exit, cont_on_true) = match (s0 == blk, s1 == blk) {
        (true, false) => (s1, true),
        (false, true) => (s0, false),
        _ => return None,
    };
    let mut preds: Vec<Block> = Vec::new();
    for u in blk.as_value().users() {
        if !u.is_instruction() || !u.is_terminator() {
            if u.opcode() == Some(Opcode::LLVMPHI) {
                continue;
            }
            return None;
        }
        let p = u.parent_block();
        if p != blk && !preds.contains(&p) {
            preds.push(p);
        }
    }
    if preds.len() != 1 {
        return None;
    }
    // One hook call only: the unrolled copies are what fusion joins.
    let hooks = blk
        .instructions()
        .into_iter()
        .filter(|i| {
            i.opcode() == Some(Opcode::LLVMCall)
                && i.called_function().is_some_and(|f| {
                    ferrozyme_abi::entry_point(&f.name())
                        == Some(ferrozyme_abi::EntryPoint::Autodiff)
                })
        })
        .count();
    (hooks == 1).then_some((preds[0], exit, cont_on_true))
}

/// The number of times the body runs, by folding the exit test iteration by iteration.
fn trip_count(blk: Block, phis: &[Value], pre: Block, cont_on_true: bool) -> Option<usize> {
    let term = blk.terminator()?;
    let cond = term.operand(0);
    let mut env: HashMap<Value, i64> = HashMap::default();
    for p in phis {
        if let Some(c) = incoming_from(*p, pre).and_then(|v| v.const_int_value_any()) {
            env.insert(*p, c);
        }
    }
    for t in 1..=MAX_TRIPS + 1 {
        let mut memo = HashMap::default();
        let c = eval(cond, blk, &env, &mut memo, 0)?;
        if (c != 0) != cont_on_true {
            return Some(t);
        }
        let mut next = HashMap::default();
        for p in phis {
            if let Some(v) = incoming_from(*p, blk) {
                if let Some(c) = eval(v, blk, &env, &mut memo, 0) {
                    next.insert(*p, c);
                }
            }
        }
        env = next;
    }
    None
}

trait ConstAny {
    fn const_int_value_any(self) -> Option<i64>;
}
impl ConstAny for Value {
    /// An integer constant (`i1 true` is 1, not -1).
    fn const_int_value_any(self) -> Option<i64> {
        let c = self.const_int_value()?;
        Some(if self.ty().int_width() == Some(1) {
            c & 1
        } else {
            c
        })
    }
}

/// Constant folding of integer arithmetic inside the loop block, phis from `env`.
fn eval(
    v: Value,
    blk: Block,
    env: &HashMap<Value, i64>,
    memo: &mut HashMap<Value, i64>,
    depth: u32,
) -> Option<i64> {
    if let Some(c) = v.const_int_value_any() {
        return Some(c);
    }
    if depth > 16 || !v.is_instruction() || v.parent_block() != blk {
        return None;
    }
    if let Some(c) = memo.get(&v) {
        return Some(*c);
    }
    let op = v.opcode()?;
    let r = if op == Opcode::LLVMPHI {
        *env.get(&v)?
    } else {
        let a = eval(v.operand(0), blk, env, memo, depth + 1)?;
        let mask = |x: i64| match v.ty().int_width() {
            Some(w) if w < 64 => x & ((1i64 << w) - 1),
            _ => x,
        };
        match op {
            Opcode::LLVMTrunc | Opcode::LLVMZExt => mask(a),
            Opcode::LLVMSExt => a,
            _ => {
                let b = eval(v.operand(1), blk, env, memo, depth + 1)?;
                match op {
                    Opcode::LLVMAdd => mask(a.wrapping_add(b)),
                    Opcode::LLVMSub => mask(a.wrapping_sub(b)),
                    Opcode::LLVMMul => mask(a.wrapping_mul(b)),
                    Opcode::LLVMXor => mask(a ^ b),
                    Opcode::LLVMAnd => a & b,
                    Opcode::LLVMOr => a | b,
                    Opcode::LLVMICmp => {
                        let (ua, ub) = (a as u64, b as u64);
                        i64::from(match v.icmp_predicate() {
                            IntPredicate::LLVMIntEQ => a == b,
                            IntPredicate::LLVMIntNE => a != b,
                            IntPredicate::LLVMIntSLT => a < b,
                            IntPredicate::LLVMIntSLE => a <= b,
                            IntPredicate::LLVMIntSGT => a > b,
                            IntPredicate::LLVMIntSGE => a >= b,
                            IntPredicate::LLVMIntULT => ua < ub,
                            IntPredicate::LLVMIntULE => ua <= ub,
                            IntPredicate::LLVMIntUGT => ua > ub,
                            IntPredicate::LLVMIntUGE => ua >= ub,
                        })
                    }
                    _ => return None,
                }
            }
        }
    };
    memo.insert(v, r);
    Some(r)
}

fn incoming_from(phi: Value, b: Block) -> Option<Value> {
    phi.incoming()
        .into_iter()
        .find(|(_, p)| *p == b)
        .map(|(v, _)| v)
}

/// Copies the body `trips - 1` times in front of itself (each copy's phis replaced by
/// the previous copy's latch values), makes the original body the last iteration and
/// its branch an unconditional one to the exit.
fn unroll(blk: Block, phis: &[Value], pre: Block, exit: Block, trips: usize) {
    let ctx = blk.parent().parent_module().context();
    let b = Builder::new(ctx);
    let body: Vec<Value> = blk
        .instructions()
        .into_iter()
        .filter(|i| i.opcode() != Some(Opcode::LLVMPHI) && !i.is_terminator())
        .collect();
    let first = body[0];
    // Values of the phis for the iteration being built.
    let mut cur: HashMap<Value, Value> = phis
        .iter()
        .map(|p| {
            (
                *p,
                incoming_from(*p, pre).expect("phi has the preheader's value"),
            )
        })
        .collect();
    for _ in 0..trips - 1 {
        let mut map: HashMap<Value, Value> = cur.clone();
        for i in &body {
            let c = i.clone_instruction();
            for k in 0..c.num_operands() {
                if let Some(n) = map.get(&c.operand(k)) {
                    c.set_operand(k, *n);
                }
            }
            b.position_before(first);
            b.insert(c);
            map.insert(*i, c);
        }
        cur = phis
            .iter()
            .map(|p| {
                let v = incoming_from(*p, blk).expect("phi has the latch's value");
                (*p, map.get(&v).copied().unwrap_or(v))
            })
            .collect();
    }
    for p in phis {
        p.replace_all_uses_with(cur[p]);
        p.erase();
    }
    let term = blk.terminator().expect("loop block is terminated");
    term.erase();
    b.position_at_end(blk);
    b.br(exit);
}
