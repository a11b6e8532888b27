//! Which predecessor a block was entered from, without recording it.
//!
//! Reversing control flow needs, at each block with several predecessors, the one the
//! forward execution came from. Recording it costs a tape entry per execution; for the
//! shapes compilers emit most, it follows from values the reverse sweep has anyway
//! ("record the path only where it cannot be recomputed"):
//!
//! * **loop header** entered once from outside and then from one latch, with a `+1`
//!   induction variable whose start value is known before the loop: the header was
//!   entered from outside exactly when the variable equals its start;
//! * **triangle** (`d → x → blk`, `d → blk`) and **diamond** (`d → a → blk`,
//!   `d → b → blk`): `d`'s branch condition decides;
//! * **guarded region** (`d` branches to `blk` and to `s`; the other predecessor is only
//!   reached through `s` and cannot be reached again from `blk` without passing `d`): `d`'s
//!   condition decides (a loop behind an `if (n > 0)` guard);
//! * **dominating branch** (the general form of the last three): `blk`'s immediate
//!   dominator `d` ends in a two-way branch, each of its sides reaches exactly one of
//!   `blk`'s predecessors (without passing `d` or `blk`), and `blk` cannot reach its
//!   predecessors again without passing `d`: `d`'s condition decides (`if (d > 0) { loops
//!   } else { ... }` inside a loop body, whose condition is loop-invariant).
//!
//! Every rule is pure CFG reasoning over the primal function; predecessors are named by
//! their index in [`Cfg::preds`].

use crate::hash::HashSet;

use ferrozyme_llvm::{Block, Opcode, Value};

use crate::cfg::Cfg;
use crate::loops::constant_step;

/// How the reverse sweep can tell which predecessor a block was entered from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PredRule {
    /// A join decided by the branch condition of a dominating block; `on_true`/`on_false`
    /// are predecessor indices.
    Branch {
        cond: Value,
        on_true: u32,
        on_false: u32,
    },
    /// A loop header entered from its preheader once and from its latch afterwards: the
    /// induction variable equals its start value exactly on entry.
    Counter {
        iv: Value,
        /// The value on entry (a constant or a value defined before the loop).
        start: Value,
        entry: u32,
        latch: u32,
    },
    /// Nested branches (a join of three or more paths): `cond` picks a side, each side a
    /// predecessor index or a further rule. Every condition is defined in a block that
    /// dominates the join (loop-invariant guards), so the reverse sweep can read all of
    /// them whichever path ran.
    Tree {
        cond: Value,
        on_true: Box<Side>,
        on_false: Box<Side>,
    },
}

/// One side of a [`PredRule::Tree`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Side {
    Pred(u32),
    Rule(PredRule),
}

/// The rule for `blk`, when its predecessor can be recomputed.
pub fn derivable(cfg: &Cfg, blk: Block) -> Option<PredRule> {
    let preds = cfg.preds(blk);
    if preds.len() > 2 {
        return dominating_branch(cfg, blk, &preds);
    }
    if preds.len() != 2 {
        return None;
    }
    loop_header(cfg, blk, &preds)
        .or_else(|| triangle(cfg, blk, &preds))
        .or_else(|| guarded_region(cfg, blk, &preds))
        .or_else(|| diamond(cfg, blk, &preds))
        .or_else(|| dominating_branch(cfg, blk, &preds))
}

/// Dominating branch: see the module docs. With more than two predecessors, each side
/// of the branch that reaches several of them is decided the same way by the block that
/// dominates them, as long as its condition is defined in a block dominating `blk`.
fn dominating_branch(cfg: &Cfg, blk: Block, preds: &[Block]) -> Option<PredRule> {
    let d = cfg.idom(blk)?;
    if preds
        .iter()
        .any(|p| *p != d && reaches_avoiding(cfg, blk, *p, d))
    {
        return None;
    }
    let all: Vec<u32> = (0..preds.len() as u32).collect();
    match decide(cfg, blk, preds, &all, d, d)? {
        Side::Rule(r) => Some(r),
        Side::Pred(_) => None,
    }
}

/// The decision among predecessors `cands` of `blk` (all reached through `at`, a block
/// dominated by the top branch block `top`).
fn decide(
    cfg: &Cfg,
    blk: Block,
    preds: &[Block],
    cands: &[u32],
    at: Block,
    top: Block,
) -> Option<Side> {
    if let [only] = cands {
        return Some(Side::Pred(*only));
    }
    let (cond, s0, s1) = two_way_branch(at)?;
    if at != top && cond.is_instruction() && !cfg.dominates(cond.parent_block(), blk) {
        return None;
    }
    // The candidate predecessors each side of `at`'s branch reaches.
    let side = |s: Block| -> Vec<u32> {
        if s == blk {
            return index(preds, at)
                .into_iter()
                .filter(|k| cands.contains(k))
                .collect();
        }
        let mut seen = HashSet::from_iter([top, at, blk, s]);
        let mut work = vec![s];
        let mut found = Vec::new();
        while let Some(x) = work.pop() {
            if let Some(k) = index(preds, x) {
                if !found.contains(&k) {
                    found.push(k);
                }
            }
            for y in cfg.succs(x) {
                if seen.insert(y) {
                    work.push(y);
                }
            }
        }
        found
    };
    let (a, b) = (side(s0), side(s1));
    if a.is_empty()
        || b.is_empty()
        || a.iter().any(|k| b.contains(k))
        || a.len() + b.len() != cands.len()
        || a.iter().chain(&b).any(|k| !cands.contains(k))
    {
        return None;
    }
    let sub = |s: Block, ks: &[u32]| -> Option<Side> {
        if let [only] = ks {
            return Some(Side::Pred(*only));
        }
        // The block that dominates every predecessor of this side decides among them.
        let mut x = preds[ks[0] as usize];
        for k in &ks[1..] {
            let p = preds[*k as usize];
            while !cfg.dominates(x, p) {
                x = cfg.idom(x)?;
            }
        }
        if !cfg.dominates(s, x) {
            return None;
        }
        decide(cfg, blk, preds, ks, x, top)
    };
    let (t, f) = (sub(s0, &a)?, sub(s1, &b)?);
    Some(Side::Rule(match (t, f) {
        (Side::Pred(on_true), Side::Pred(on_false)) => PredRule::Branch {
            cond,
            on_true,
            on_false,
        },
        (t, f) => PredRule::Tree {
            cond,
            on_true: Box::new(t),
            on_false: Box::new(f),
        },
    }))
}

fn index(preds: &[Block], b: Block) -> Option<u32> {
    preds.iter().position(|p| *p == b).map(|k| k as u32)
}

/// A conditional branch `br i1 %c, label %a, label %b` with two distinct targets: its
/// condition and targets.
fn two_way_branch(d: Block) -> Option<(Value, Block, Block)> {
    let t = d.terminator()?;
    let succ = d.successors();
    (t.opcode() == Some(Opcode::LLVMBr)
        && t.num_operands() == 3
        && succ.len() == 2
        && succ[0] != succ[1])
        .then(|| (t.operand(0), succ[0], succ[1]))
}

/// `b` has one predecessor and goes only to `to`.
fn single_step(cfg: &Cfg, b: Block, to: Block) -> bool {
    cfg.preds(b).len() == 1 && b.successors() == vec![to]
}

/// Loop header: preheader + one latch, with an induction variable stepping by a constant
/// (`+1`, or `+4` in a loop LLVM unrolled) whose start value is known before the loop (a
/// constant, an argument or a value defined outside it), so the reverse can compare
/// against it: the variable holds its start value on the first iteration only.
fn loop_header(cfg: &Cfg, blk: Block, preds: &[Block]) -> Option<PredRule> {
    for (entry, latch) in [(preds[0], preds[1]), (preds[1], preds[0])] {
        if !cfg.dominates(blk, latch) || cfg.dominates(blk, entry) {
            continue;
        }
        for phi in blk.phis() {
            if phi.ty().int_width().is_none_or(|w| w < 32) {
                continue;
            }
            let inc = phi.incoming();
            let start = inc
                .iter()
                .find(|(_, b)| *b == entry)
                .map(|(v, _)| *v)
                .filter(|v| {
                    v.is_constant()
                        || v.is_argument()
                        || (v.is_instruction() && !cfg.dominates(blk, v.parent_block()))
                });
            let stepped = inc
                .iter()
                .find(|(_, b)| *b == latch)
                .is_some_and(|(v, _)| constant_step(phi, *v).is_some());
            if let (Some(start), true) = (start, stepped) {
                return Some(PredRule::Counter {
                    iv: phi,
                    start,
                    entry: index(preds, entry)?,
                    latch: index(preds, latch)?,
                });
            }
        }
    }
    None
}

/// Triangle: `d → x → blk` and `d → blk`, with `x` entered only from `d`.
fn triangle(cfg: &Cfg, blk: Block, preds: &[Block]) -> Option<PredRule> {
    for (d, x) in [(preds[0], preds[1]), (preds[1], preds[0])] {
        let Some((cond, s0, s1)) = two_way_branch(d) else {
            continue;
        };
        if single_step(cfg, x, blk)
            && cfg.preds(x) == vec![d]
            && [s0, s1].contains(&blk)
            && [s0, s1].contains(&x)
        {
            let via = |s: Block| {
                if s == blk {
                    index(preds, d)
                } else {
                    index(preds, x)
                }
            };
            return Some(PredRule::Branch {
                cond,
                on_true: via(s0)?,
                on_false: via(s1)?,
            });
        }
    }
    None
}

/// Guarded region: `d` branches to `blk` and to `s`, and the other predecessor is only
/// reached through `s` (and cannot be reached again from `blk` without passing `d`), so
/// `blk` was entered from `d` exactly when `d`'s branch chose `blk`.
fn guarded_region(cfg: &Cfg, blk: Block, preds: &[Block]) -> Option<PredRule> {
    for (d, other) in [(preds[0], preds[1]), (preds[1], preds[0])] {
        let Some((cond, s0, s1)) = two_way_branch(d) else {
            continue;
        };
        if d == other || ![s0, s1].contains(&blk) {
            continue;
        }
        let s = if s0 == blk { s1 } else { s0 };
        if s != blk
            && cfg.dominates(d, s)
            && cfg.dominates(s, other)
            && !cfg.dominates(s, d)
            && !reaches_avoiding(cfg, blk, other, d)
        {
            let via = |t: Block| {
                if t == blk {
                    index(preds, d)
                } else {
                    index(preds, other)
                }
            };
            return Some(PredRule::Branch {
                cond,
                on_true: via(s0)?,
                on_false: via(s1)?,
            });
        }
    }
    None
}

/// Can `to` be reached from `from` without passing through `avoid`?
fn reaches_avoiding(cfg: &Cfg, from: Block, to: Block, avoid: Block) -> bool {
    let mut seen = HashSet::from_iter([from, avoid]);
    let mut work = vec![from];
    while let Some(x) = work.pop() {
        for y in cfg.succs(x) {
            if y == to {
                return true;
            }
            if seen.insert(y) {
                work.push(y);
            }
        }
    }
    false
}

/// Diamond: `d → a → blk`, `d → b → blk`.
fn diamond(cfg: &Cfg, blk: Block, preds: &[Block]) -> Option<PredRule> {
    let (a, b) = (preds[0], preds[1]);
    if !single_step(cfg, a, blk) || !single_step(cfg, b, blk) {
        return None;
    }
    let pa = cfg.preds(a);
    if pa.len() != 1 || cfg.preds(b) != pa {
        return None;
    }
    let (cond, s0, s1) = two_way_branch(pa[0])?;
    Some(PredRule::Branch {
        cond,
        on_true: index(preds, s0)?,
        on_false: index(preds, s1)?,
    })
}
