//! Peeling the last iterations of counted loops whose neighbour indices are clamped
//! (issue 14, the Brusselator's reverse stencil).
//!
//! A stencil with zero-flux boundaries reads `x[min(j + 1, n - 1)]`: clang turns the
//! clamp into `umin(j + 1, n - 1)` (or `smin`), which is the identity on every iteration
//! but the last. In the primal that costs one instruction; in the reverse loop it makes
//! the neighbour's shadow index non-affine, so the shadow updates cannot be analysed
//! (or vectorized) as streams at constant offsets from the counter. Before
//! differentiation (reverse mode, on the clone), an innermost counted loop
//! `for (j = s; j != e; j++)` with such clamps loses its last iterations, one at a time,
//! to straight-line copies placed on its exit edge, until every clamp in the loop is the
//! identity over the iterations left; the clamps are then replaced by their argument.
//! LLVM's own loop peeling peels only first iterations for min/max and compares, and is
//! not run on the clone.
//!
//! What is proven, not assumed: the counter is a header phi with a constant start,
//! stepped by `+1` on the only latch, which is the only exiting block, exiting on
//! `next == e` (or leaving on `next != e` false) for a constant `e > s`; the clamp's
//! argument is the counter through `add`/`sub` of constants, `trunc`, `zext`, `sext`,
//! evaluated exactly at both ends of the range (monotone, no wrap at any width at
//! either end, hence nowhere in between); the clamp constant bounds it from the end
//! that is peeled. Loops with more than `MAX_BODY` instructions, or which would keep
//! fewer than `MIN_LEFT` iterations, are left alone (code size; nothing to gain). A
//! clamp bounding the argument from below at the first iterations (`smax(j - 1, 0)`)
//! is not peeled: clang already peels those at `-O2` (the Brusselator's `j = 0`).

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::{const_counter, Loop, Loops};
use ferrozyme_llvm::{Block, Builder, Module, Opcode, Value};

/// Largest loop body (instructions) that is copied.
const MAX_BODY: usize = 600;
/// Most iterations peeled off one loop.
const MAX_PEEL: i128 = 2;
/// Fewest iterations that must stay in the loop.
const MIN_LEFT: i128 = 2;

/// A counted innermost loop: `iv` from `start` while `next != end`.
pub(crate) struct Counted {
    pub iv: Value,
    pub start: i128,
    pub end: i128,
    /// The exit test `next == end` (or `!=`) and the operand index of `end` in it.
    pub test: Value,
    pub end_operand: u32,
    pub latch: Block,
    pub exit: Block,
}

/// A clamp `umin`/`smin(t, c)` with `t = counter + offset`.
struct Clamp {
    call: Value,
    arg: Value,
    /// Iterations at the end of the range where the clamp is not the identity.
    not_identity: i128,
}

/// Peels clamped last iterations off the innermost counted loops of `f` and replaces the
/// clamps left as identities. Returns whether anything changed.
pub fn peel_clamped_loops(m: Module, f: Value) -> Result<bool, String> {
    let mut changed = false;
    let mut touched: Vec<Block> = Vec::new();
    // Each round changes one loop; the bound keeps a pathological function cheap.
    for _ in 0..32 {
        let cfg = Cfg::new(f);
        let loops = Loops::new(&cfg);
        let mut acted = false;
        for l in &loops.loops {
            let Some(c) = counted(l, &loops) else {
                continue;
            };
            let clamps = clamps(l, &c);
            if clamps.is_empty() {
                continue;
            }
            let peel = clamps.iter().map(|k| k.not_identity).max().unwrap_or(0);
            if peel == 0 {
                for k in clamps {
                    k.call.replace_all_uses_with(k.arg);
                    k.call.erase();
                }
            } else {
                if peel > MAX_PEEL || c.end - c.start - 1 < MIN_LEFT {
                    continue;
                }
                peel_last(m, f, l, &c);
            }
            acted = true;
            if !touched.contains(&l.header) {
                touched.push(l.header);
            }
            break;
        }
        if !acted {
            break;
        }
        changed = true;
    }
    // The loops that were peeled or lost their clamps: neighbour addresses as offsets.
    for h in touched {
        let cfg = Cfg::new(f);
        let loops = Loops::new(&cfg);
        let Some(l) = loops.loops.iter().find(|l| l.header == h) else {
            continue;
        };
        let Some(c) = counted(l, &loops) else {
            continue;
        };
        let blocks: Vec<Block> = l.blocks_in(&f.blocks());
        let ctr = crate::affine_index::Counter {
            iv: c.iv,
            lo: c.start,
            hi: c.end - 1,
        };
        crate::affine_index::anchor_neighbours(m, &blocks, &ctr);
    }
    if changed {
        f.add_string_fn_attr(crate::streams::PEELED, "");
    }
    if changed && !ferrozyme_llvm::verify_function(f) {
        return Err("peeling a clamped loop produced invalid IR (internal error)".into());
    }
    Ok(changed)
}

/// Recognises `l` as an innermost counted loop with one latch that is its only exit,
/// counted by a [`const_counter`] whose exit test is used by the branch alone.
fn counted(l: &Loop, loops: &Loops) -> Option<Counted> {
    let innermost = l
        .blocks
        .iter()
        .all(|b| loops.innermost(*b).map(|x| x.header) == Some(l.header));
    if !innermost {
        return None;
    }
    counted_shape(l, MAX_BODY)
}

/// The shape both peelers need (this file's innermost loops, `peel_rows.rs`' outer row
/// loops): one latch that is the only exiting block, `br` terminators only, at most
/// `max_body` instructions, counted by a [`const_counter`] whose exit test is used by
/// the branch alone.
pub(crate) fn counted_shape(l: &Loop, max_body: usize) -> Option<Counted> {
    let [latch] = l.latches.as_slice() else {
        return None;
    };
    let latch = *latch;
    let size: usize = l.blocks.iter().map(|b| b.instruction_count()).sum();
    if size > max_body {
        return None;
    }
    // The latch is the only exiting block.
    for b in &l.blocks {
        if *b != latch && b.successors().iter().any(|s| !l.blocks.contains(s)) {
            return None;
        }
        let t = b.terminator()?;
        if !matches!(t.opcode(), Some(Opcode::LLVMBr)) {
            return None;
        }
    }
    let c = l
        .header
        .phis()
        .into_iter()
        .find_map(|phi| const_counter(l, phi))?;
    let exit = latch
        .successors()
        .into_iter()
        .find(|s| !l.blocks.contains(s))?;
    if c.test.users().len() != 1 {
        return None;
    }
    Some(Counted {
        iv: c.iv,
        start: c.start,
        end: c.end,
        test: c.test,
        end_operand: c.end_operand,
        latch,
        exit,
    })
}

/// The `umin`/`smin` calls in `l` clamping an affine function of the counter from above.
/// Clamps of anything else (another loop's counter, a loaded value) are not listed.
fn clamps(l: &Loop, c: &Counted) -> Vec<Clamp> {
    let mut out = Vec::new();
    for b in l.ordered_blocks() {
        for i in b.instructions() {
            if i.opcode() != Some(Opcode::LLVMCall) {
                continue;
            }
            let Some(g) = i.called_function() else {
                continue;
            };
            let signed = if g.is_intrinsic("llvm.umin") {
                false
            } else if g.is_intrinsic("llvm.smin") {
                true
            } else {
                continue;
            };
            let Some((arg, k, _, hi)) = clamp_operands(i, c, signed) else {
                continue;
            };
            // t(j) = j + (lo - start), increasing: the iterations with t > k are the
            // last hi - k.
            let not_identity = (hi - k).clamp(0, c.end - c.start);
            out.push(Clamp {
                call: i,
                arg,
                not_identity,
            });
        }
    }
    out
}

/// A clamp call's operands: its non-constant argument `t`, the constant `k`, and `t`'s
/// exact values on the first and last iteration of `c` (`eval`); `None` unless exactly one
/// operand is a constant, both ends evaluate, and, for an unsigned min/max, both ends and
/// `k` (read at its width) are non-negative, so that the unsigned compare is the signed
/// one. Shared with `peel_rows.rs`.
pub(crate) fn clamp_operands(
    i: Value,
    c: &Counted,
    signed: bool,
) -> Option<(Value, i128, i128, i128)> {
    let args = i.call_args();
    let (arg, k) = match (args[0].const_int_value(), args[1].const_int_value()) {
        (None, Some(k)) => (args[0], k),
        (Some(k), None) => (args[1], k),
        _ => return None,
    };
    let w = arg.ty().int_width()?;
    let lo = eval(arg, c.iv, c.start)?;
    let hi = eval(arg, c.iv, c.end - 1)?;
    let k = k as i128;
    if !signed && (lo < 0 || k < 0 || k >= (1i128 << (w - 1))) {
        return None;
    }
    Some((arg, k, lo, hi))
}

/// The exact value of `v` when the counter `iv` is `x`, for `v` built from the counter
/// by adding/subtracting constants and integer casts; `None` on anything else or on
/// wrapping at any step (so `v` is `iv + const` wherever both ends evaluate).
fn eval(v: Value, iv: Value, x: i128) -> Option<i128> {
    fn fits(x: i128, w: u32) -> bool {
        let h = 1i128 << (w - 1);
        (-h..h).contains(&x)
    }
    fn go(v: Value, iv: Value, x: i128, depth: u32) -> Option<i128> {
        if v == iv {
            return Some(x);
        }
        if depth == 0 || !v.is_instruction() {
            return None;
        }
        let w = v.ty().int_width()?;
        let r = match v.opcode()? {
            Opcode::LLVMAdd | Opcode::LLVMSub => {
                let (a, b) = (v.operand(0), v.operand(1));
                let sub = v.opcode() == Some(Opcode::LLVMSub);
                match (a.const_int_value(), b.const_int_value()) {
                    (None, Some(k)) => {
                        let y = go(a, iv, x, depth - 1)?;
                        if sub {
                            y - k as i128
                        } else {
                            y + k as i128
                        }
                    }
                    (Some(k), None) if !sub => go(b, iv, x, depth - 1)? + k as i128,
                    _ => return None,
                }
            }
            Opcode::LLVMTrunc | Opcode::LLVMSExt => go(v.operand(0), iv, x, depth - 1)?,
            Opcode::LLVMZExt => {
                let y = go(v.operand(0), iv, x, depth - 1)?;
                if y < 0 {
                    return None;
                }
                y
            }
            _ => return None,
        };
        fits(r, w).then_some(r)
    }
    go(v, iv, x, 6)
}

/// Moves the last iteration of `l` onto its exit edge: a copy of the body in which the
/// counter is the constant `end - 1`, the loop exiting one iteration earlier, every use
/// of the loop's values after it reading the copy's.
pub(crate) fn peel_last(m: Module, f: Value, l: &Loop, c: &Counted) {
    let ctx = m.context();
    let b = Builder::new(ctx);
    let blocks: Vec<Block> = l.blocks_in(&f.blocks());
    let mut map: HashMap<Value, Value> = HashMap::default();
    for blk in &blocks {
        let nb = c.exit.insert_before(ctx, &format!("{}.peel", blk.name()));
        map.insert(blk.as_value(), nb.as_value());
    }
    let iv_ty = c.iv.ty();
    let last = iv_ty.const_i64((c.end - 1) as i64);
    // Header phis take the values the last loop iteration leaves on the back edge.
    for phi in l.header.phis() {
        let v = if phi == c.iv {
            last
        } else {
            phi.incoming()
                .iter()
                .find(|(_, x)| *x == c.latch)
                .map(|(v, _)| *v)
                .unwrap()
        };
        map.insert(phi, v);
    }
    copy_body(&b, &blocks, l.header, &mut map, "peel");
    // The copy's latch falls through to the exit.
    let copy_latch = map[&c.latch.as_value()].as_block();
    let t = copy_latch.terminator().unwrap();
    b.position_before(t);
    b.br(c.exit);
    t.erase();
    // The loop exits one iteration earlier, into the copy.
    let lt = c.latch.terminator().unwrap();
    for s in 0..lt.num_successors() {
        if lt.successor(s) == c.exit {
            lt.set_successor(s, map[&l.header.as_value()].as_block());
        }
    }
    c.test
        .set_operand(c.end_operand, iv_ty.const_i64((c.end - 1) as i64));
    uses_after_read_copy(&b, &blocks, c.latch, copy_latch, c.exit, &map);
}

/// After `blocks` (a loop; `latch` its block leaving into `exit`) gained a copy (`map`:
/// each block and instruction to its copy) that now runs after it and leaves from
/// `copy_latch` into `exit`: the exit's phis take their edge from `latch` from the copy,
/// with the copy's values, and every other use after the loop of a value of `blocks`
/// reads the copy's (uses inside the loop are left alone). Shared by `peel_last` and `streams/split.rs`.
pub(crate) fn uses_after_read_copy(
    b: &Builder,
    blocks: &[Block],
    latch: Block,
    copy_latch: Block,
    exit: Block,
    map: &HashMap<Value, Value>,
) {
    for phi in exit.phis() {
        if !phi.incoming().iter().any(|(_, x)| *x == latch) {
            continue;
        }
        b.position_before(phi);
        let np = b.phi(phi.ty(), &phi.name());
        for (v, x) in phi.incoming() {
            if x == latch {
                np.add_incoming(map.get(&v).copied().unwrap_or(v), copy_latch);
            } else {
                np.add_incoming(v, x);
            }
        }
        phi.replace_all_uses_with(np);
        phi.erase();
    }
    // Other uses after the loop read the last iteration's values: the copy's.
    let copies: ferrozyme_analysis::hash::HashSet<Block> = blocks
        .iter()
        .map(|x| map[&x.as_value()].as_block())
        .collect();
    for blk in blocks {
        for i in blk.instructions() {
            let Some(&n) = map.get(&i) else { continue };
            for u in i.users() {
                let ub = u.parent_block();
                if blocks.contains(&ub) || copies.contains(&ub) {
                    continue;
                }
                let is_phi = u.opcode() == Some(Opcode::LLVMPHI);
                let inc = if is_phi { u.incoming() } else { Vec::new() };
                for k in 0..u.num_operands() {
                    if u.operand(k) != i {
                        continue;
                    }
                    // A phi's edge from inside the loop keeps the loop's value (none
                    // remain: the exit's were rebuilt above).
                    if is_phi && blocks.contains(&inc[k as usize].1) {
                        continue;
                    }
                    u.set_operand(k, n);
                }
            }
        }
    }
}

/// Copies the instructions of a loop's `blocks` into the blocks `map` already assigns
/// them (one new block per block), in order: header phis are not copied (the caller has
/// put the values they take in `map`), other phis get a phi with their incoming blocks'
/// copies, every other instruction a clone named `name.suffix`; then each copy's
/// operands are redirected to the copies. Shared by `peel_last` and `peel_rows.rs`'
/// first-row copy.
pub(crate) fn copy_body(
    b: &Builder,
    blocks: &[Block],
    header: Block,
    map: &mut HashMap<Value, Value>,
    suffix: &str,
) {
    let mut clones = Vec::new();
    let mut phis = Vec::new();
    for blk in blocks {
        b.position_at_end(map[&blk.as_value()].as_block());
        for i in blk.instructions() {
            if i.opcode() == Some(Opcode::LLVMPHI) {
                if *blk == header {
                    continue;
                }
                let p = b.phi(i.ty(), &i.name());
                map.insert(i, p);
                phis.push((i, p));
            } else {
                let k = i.clone_instruction();
                b.insert(k);
                if !i.ty().is_void() {
                    k.set_name(&format!("{}.{suffix}", i.name()));
                }
                map.insert(i, k);
                clones.push(k);
            }
        }
    }
    for k in &clones {
        for n in 0..k.num_operands() {
            if let Some(&v) = map.get(&k.operand(n)) {
                k.set_operand(n, v);
            }
        }
    }
    for (old, new) in phis {
        for (v, blk) in old.incoming() {
            new.add_incoming(
                map.get(&v).copied().unwrap_or(v),
                map[&blk.as_value()].as_block(),
            );
        }
    }
}
