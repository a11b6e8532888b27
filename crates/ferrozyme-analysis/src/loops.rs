//! Natural loops and their trip counts.
//!
//! A back edge is an edge `t -> h` whose target dominates its source; the natural loop of
//! `h` is `h` plus every block that reaches a back-edge source without passing through
//! `h`. Loops sharing a header are merged. The *entry* is the unique predecessor of the
//! header outside the loop; it is the *preheader* when its only successor is the header
//! (what `loop-simplify` guarantees at `-O1` and above). Rotated loops that clang left
//! without one (a guard `n > 0` branching straight into the body or past it) have an
//! entry but no preheader; the entry still runs exactly once per execution of the loop.
//!
//! The trip count is recognised for the counted loops compilers emit: an integer
//! induction phi in the header starting at `start` (from the entry) and stepping by
//! +1 on the back edge, with an exit branch comparing the induction variable (or its
//! increment) against a loop-invariant bound `n`. The result, `n - start + 1` clamped at
//! zero, is an estimate used only as a capacity hint for the tape: an error in it can
//! cost a reallocation, never correctness.

use crate::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Block, IntPredicate, Opcode, Value};

use crate::cfg::Cfg;

#[derive(Clone, Debug)]
pub struct Loop {
    pub header: Block,
    pub blocks: HashSet<Block>,
    pub latches: Vec<Block>,
    /// The unique predecessor of the header outside the loop, if there is one.
    pub entry: Option<Block>,
    /// The entry, when the header is its only successor.
    pub preheader: Option<Block>,
}

impl Loop {
    /// The loop's blocks in the order of `order` (a function's block list, or
    /// `Cfg::blocks`), not the block set's hash order: what a pass clones or lays out
    /// from them comes out the same on every run.
    pub fn blocks_in(&self, order: &[Block]) -> Vec<Block> {
        order
            .iter()
            .copied()
            .filter(|b| self.blocks.contains(b))
            .collect()
    }

    /// The loop's blocks in their function's block order (as [`Loop::blocks_in`]): for a
    /// search that takes the first block it finds.
    pub fn ordered_blocks(&self) -> Vec<Block> {
        self.blocks_in(&self.header.parent().blocks())
    }
}

pub struct Loops {
    pub loops: Vec<Loop>,
    innermost: HashMap<Block, usize>,
}

/// A recognised trip count: about `bound - start + 1` iterations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TripCount {
    /// Loop-invariant integer bound (argument, constant or value defined before the loop).
    pub bound: Value,
    pub start: i64,
}

impl Loops {
    pub fn new(cfg: &Cfg) -> Loops {
        let mut by_header: HashMap<Block, Loop> = HashMap::default();
        for &b in &cfg.blocks {
            if !cfg.is_reachable(b) {
                continue;
            }
            for s in cfg.succs(b) {
                if cfg.dominates(s, b) {
                    let l = by_header.entry(s).or_insert_with(|| Loop {
                        header: s,
                        blocks: HashSet::from_iter([s]),
                        latches: Vec::new(),
                        entry: None,
                        preheader: None,
                    });
                    l.latches.push(b);
                    let mut work = vec![b];
                    while let Some(x) = work.pop() {
                        if l.blocks.insert(x) {
                            for p in cfg.preds(x) {
                                if cfg.is_reachable(p) {
                                    work.push(p);
                                }
                            }
                        }
                    }
                }
            }
        }
        let mut loops: Vec<Loop> = by_header.into_values().collect();
        // Smallest first; loops of one size in function order of their headers, so the
        // order (and all code generated loop by loop) does not follow the hash map's.
        loops.sort_by_key(|l| (l.blocks.len(), cfg.index_of(l.header)));
        for l in &mut loops {
            let outside: Vec<Block> = cfg
                .preds(l.header)
                .into_iter()
                .filter(|p| !l.blocks.contains(p))
                .collect();
            if let [p] = outside.as_slice() {
                l.entry = Some(*p);
                if cfg.succs(*p).len() == 1 {
                    l.preheader = Some(*p);
                }
            }
        }
        let mut innermost = HashMap::default();
        // Smallest loops first, so the first loop that claims a block is its innermost.
        for (k, l) in loops.iter().enumerate() {
            for b in &l.blocks {
                innermost.entry(*b).or_insert(k);
            }
        }
        Loops { loops, innermost }
    }

    /// The innermost loop containing `b`.
    pub fn innermost(&self, b: Block) -> Option<&Loop> {
        self.innermost_index(b).map(|k| &self.loops[k])
    }
    /// The index in `loops` of the innermost loop containing `b`.
    pub fn innermost_index(&self, b: Block) -> Option<usize> {
        self.innermost.get(&b).copied()
    }
}

/// Is `v` invariant in `l` by definition: an argument, an integer constant, or an
/// instruction outside the loop?
pub fn defined_outside(l: &Loop, v: Value) -> bool {
    if v.is_instruction() {
        !l.blocks.contains(&v.parent_block())
    } else {
        v.is_argument() || v.const_int_value().is_some()
    }
}

/// The integer phis of `l`'s header whose value on entry from `entry` is a constant,
/// with that constant: the candidates for a counter.
pub fn constant_start_phis(l: &Loop, entry: Block) -> Vec<(Value, i64)> {
    l.header
        .phis()
        .into_iter()
        .filter(|phi| phi.ty().is_integer())
        .filter_map(|phi| {
            phi.incoming()
                .iter()
                .find(|(_, b)| *b == entry)
                .and_then(|(v, _)| v.const_int_value())
                .map(|start| (phi, start))
        })
        .collect()
}

/// A counter of a loop stepping by `+1` from a constant to a constant (see
/// [`const_counter`]).
#[derive(Clone, Copy, Debug)]
pub struct ConstCounter {
    pub iv: Value,
    /// `iv + 1`, the value the latch carries back.
    pub next: Value,
    pub start: i128,
    /// The latch goes back to the header only while `next != end`.
    pub end: i128,
    /// The latch's test `icmp eq/ne next, end` and the operand index of `end` in it.
    pub test: Value,
    pub end_operand: u32,
    pub latch: Block,
}

/// `phi` as a [`ConstCounter`] of `l`: a header phi of an integer type `[start, entry],
/// [next, latch]` with `l`'s only latch, `next = phi + 1`, `start` a constant, and the
/// latch ending in a conditional branch back to the header taken only while `next !=
/// end` (an `icmp ne` on the back edge's side, `eq` on the other) for a constant `end`.
/// Every value `phi` takes is then in `[start, end - 1]`, whatever other exits the loop
/// has. Constants are read sign-extended, so only counters whose whole range is
/// non-wrapping signed are accepted (`start < end <= 2^(w-1) - 1`: a counter from 0 to
/// 200 in `i8` reads `end` as -56 and is refused).
pub fn const_counter(l: &Loop, phi: Value) -> Option<ConstCounter> {
    let (entry, [latch]) = (l.entry?, l.latches.as_slice()) else {
        return None;
    };
    let inc = phi.incoming();
    if inc.len() != 2 || !phi.ty().is_integer() {
        return None;
    }
    let start = inc.iter().find(|(_, b)| *b == entry)?.0.const_int_value()? as i128;
    let next = inc.iter().find(|(_, b)| b == latch)?.0;
    if !is_unit_step(phi, next) {
        return None;
    }
    let t = latch.terminator()?;
    let Some(test) = t.branch_icmp() else {
        return None;
    };
    let succs = t.successors();
    let back_on_true = match (succs[0] == l.header, succs[1] == l.header) {
        (true, false) => true,
        (false, true) => false,
        _ => return None,
    };
    let want = if back_on_true {
        IntPredicate::LLVMIntNE
    } else {
        IntPredicate::LLVMIntEQ
    };
    if test.icmp_predicate() != want {
        return None;
    }
    let (end_operand, end) = match (test.operand(0), test.operand(1)) {
        (a, e) if a == next => (1, e.const_int_value()?),
        (e, a) if a == next => (0, e.const_int_value()?),
        _ => return None,
    };
    let end = end as i128;
    let w = phi.ty().int_width()?;
    (start < end && end < (1i128 << (w - 1))).then_some(ConstCounter {
        iv: phi,
        next,
        start,
        end,
        test,
        end_operand,
        latch: *latch,
    })
}

/// Is `v` the step `phi + 1` (an `add` of `phi` and the constant 1, in either order)?
pub fn is_unit_step(phi: Value, v: Value) -> bool {
    v.opcode() == Some(Opcode::LLVMAdd)
        && ((v.operand(0) == phi && v.operand(1).const_int_value() == Some(1))
            || (v.operand(1) == phi && v.operand(0).const_int_value() == Some(1)))
}

/// Recognises the trip count of a counted loop (see the module docs).
pub fn trip_count(l: &Loop) -> Option<TripCount> {
    let pre = l.entry?;
    for (phi, start) in constant_start_phis(l, pre) {
        let inc = phi.incoming();
        let steps_by_one = inc
            .iter()
            .filter(|(_, b)| l.latches.contains(b))
            .all(|(v, _)| is_unit_step(phi, *v));
        if !steps_by_one {
            continue;
        }
        let next: Vec<Value> = inc
            .iter()
            .filter(|(_, b)| l.latches.contains(b))
            .map(|(v, _)| *v)
            .collect();
        // In block order: with several exits the first one decides, the same on every
        // run (the block set's hash order differs between processes).
        for b in l.ordered_blocks() {
            let Some(t) = b.terminator() else { continue };
            if !t.is_conditional_branch() {
                continue;
            }
            if !t.successors().iter().any(|s| !l.blocks.contains(s)) {
                continue;
            }
            let c = t.operand(0);
            if c.opcode() != Some(Opcode::LLVMICmp) {
                continue;
            }
            let (a, bnd) = (c.operand(0), c.operand(1));
            let is_iv = |v: Value| v == phi || next.contains(&v);
            let bound = if is_iv(a) && defined_outside(l, bnd) {
                bnd
            } else if is_iv(bnd) && defined_outside(l, a) {
                a
            } else {
                continue;
            };
            if !bound.ty().is_integer() {
                continue;
            }
            return Some(TripCount { bound, start });
        }
    }
    None
}

/// Is `v` the `+1` step of `phi` (an `add`, or a phi merging such steps from several
/// paths through the loop body)?
pub fn steps_by_one(phi: Value, v: Value) -> bool {
    constant_step(phi, v) == Some(1)
}

/// The largest step [`constant_step`] accepts, in either direction: LLVM's runtime
/// unroller and the loop vectorizer step their induction variables by the unroll factor
/// or the vector width times the interleave count (2-64 in practice).
pub const MAX_CONSTANT_STEP: i64 = 1 << 16;

/// `c` when `v` is `phi + c` for a constant `c` other than 0 with `|c| <=`
/// [`MAX_CONSTANT_STEP`] (an `add` with the constant in either order, or a phi merging
/// such steps, all with the same `c`, from several paths through the loop body).
pub fn constant_step(phi: Value, v: Value) -> Option<i64> {
    fn go(phi: Value, v: Value, depth: u32) -> Option<i64> {
        match v.opcode() {
            Some(Opcode::LLVMAdd) => {
                let c = if v.operand(0) == phi {
                    v.operand(1).const_int_value()?
                } else if v.operand(1) == phi {
                    v.operand(0).const_int_value()?
                } else {
                    return None;
                };
                (c != 0 && c.abs() <= MAX_CONSTANT_STEP).then_some(c)
            }
            Some(Opcode::LLVMPHI) if depth > 0 && v != phi => {
                let inc = v.incoming();
                let first = go(phi, inc.first()?.0, depth - 1)?;
                inc.iter()
                    .all(|(x, _)| go(phi, *x, depth - 1) == Some(first))
                    .then_some(first)
            }
            _ => None,
        }
    }
    go(phi, v, 3)
}

/// `a P b` as `b P' a`.
pub fn swapped_predicate(p: IntPredicate) -> IntPredicate {
    use IntPredicate::*;
    match p {
        LLVMIntSLT => LLVMIntSGT,
        LLVMIntSGT => LLVMIntSLT,
        LLVMIntSLE => LLVMIntSGE,
        LLVMIntSGE => LLVMIntSLE,
        LLVMIntULT => LLVMIntUGT,
        LLVMIntUGT => LLVMIntULT,
        LLVMIntULE => LLVMIntUGE,
        LLVMIntUGE => LLVMIntULE,
        other => other,
    }
}

/// `!(a P b)` as `a P' b`.
pub fn inverse_predicate(p: IntPredicate) -> IntPredicate {
    use IntPredicate::*;
    match p {
        LLVMIntEQ => LLVMIntNE,
        LLVMIntNE => LLVMIntEQ,
        LLVMIntSLT => LLVMIntSGE,
        LLVMIntSGE => LLVMIntSLT,
        LLVMIntSGT => LLVMIntSLE,
        LLVMIntSLE => LLVMIntSGT,
        LLVMIntULT => LLVMIntUGE,
        LLVMIntUGE => LLVMIntULT,
        LLVMIntUGT => LLVMIntULE,
        LLVMIntULE => LLVMIntUGT,
    }
}
