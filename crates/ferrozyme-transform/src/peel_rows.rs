//! Peeling the clamped first and last rows off outer counted loops (issue 14, the
//! Brusselator's reverse stencil, bruss13).
//!
//! A 2-D stencil with zero-flux boundaries reads rows `min(i + 1, n - 1)` and
//! `max(i - 1, 0)`; clang hoists both out of the column loop as `umin(i, n - 2) + 1` and
//! `smax(i, 1) - 1` of the row counter. They are identities on every row but the first
//! and the last, yet in the reverse loop they hide the rows' distance: LoopAccessAnalysis
//! cannot tell how far row `i +- 1`'s shadow cells are from row `i`'s, so the column
//! loop gets run-time checks that fail on every row (the clamped row is row `i` on the
//! boundary rows) or stays scalar (bench/README.md, "bruss12"). `peel.rs` peels clamped
//! *last* iterations off innermost loops only; here an outer counted loop whose counter
//! is clamped from below loses its first iteration (a copy of the whole body, inner
//! loops included, placed on its entry edge) and one clamped from above loses its last
//! (`peel::peel_last`, the copy on its exit edge), until every clamp of the counter is
//! the identity over the rows left; the clamps are then replaced by their argument. The
//! copies' clamps of a constant row fold (instsimplify).
//!
//! Periodic boundaries written with branches (`if (i == 0) im1 = n - 1; else im1 = i -
//! 1;`) reach the loop as `select (icmp eq i, 0), 992, 32 * (i - 1)`: the same hidden
//! distance, only the boundary row's neighbour is the far row instead of row `i`
//! itself. An equality test of the counter against its first (last) value is treated
//! like a clamp that is not the identity on the first (last) row: that row is peeled,
//! and over the rows left the test is a constant (`eq` false, `ne` true), so the
//! selects fold to their affine arm (`wrap_index.rs` then reads clang's 32-bit spelling
//! of it). Filetest `peel_rows_periodic_boundary_rows`.
//!
//! What is proven, not assumed: the counter is a [`const_counter`] (constant start and
//! end, `+1` on the only latch, which is the loop's only exiting block, every terminator
//! a `br`); a clamp's argument is the counter through `add`/`sub` of constants and
//! integer casts, evaluated exactly at both ends of the range (`peel::eval`: monotone,
//! no wrap anywhere); the clamp constant decides at which end, and for how many rows,
//! the clamp is not the identity. At most `MAX_PEEL` rows per end, `MIN_LEFT` rows left
//! in the loop, `MAX_BODY` instructions copied; anything else is left as it was.
//! Innermost loops are `peel.rs`'s and are not touched here.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::{Loop, Loops};
use ferrozyme_llvm::{Block, Builder, IntPredicate, Module, Opcode, Value};

use crate::affine_index::{form, Counter};
use crate::peel::{peel_last, Counted};
use crate::streams::MAX_STRIDE;

/// Largest loop (instructions, inner loops included) that is copied.
const MAX_BODY: usize = 1200;
/// How far uses of a clamp are followed (integer operations and GEPs).
const MAX_USE_DEPTH: u32 = 8;
/// Most rows peeled off each end.
const MAX_PEEL: i128 = 1;
/// Fewest rows that must stay in the loop.
const MIN_LEFT: i128 = 2;

/// A clamp of `arg = counter + offset` (or a test of the counter against a constant),
/// not the identity on its `first` first and `last` last iterations; on the others it
/// is `arg` (the test's constant outcome).
struct Clamp {
    call: Value,
    arg: Value,
    first: i128,
    last: i128,
}

/// Peels clamped boundary rows off the outer counted loops of `f` and replaces the
/// clamps left as identities. Returns whether anything changed.
pub fn peel_clamped_rows(m: Module, f: Value) -> Result<bool, String> {
    let mut changed = false;
    // Each round changes one loop; the bound keeps a pathological function cheap.
    for _ in 0..16 {
        let cfg = Cfg::new(f);
        let loops = Loops::new(&cfg);
        let mut acted = false;
        for l in &loops.loops {
            let Some((c, entry)) = outer_counted(l, &loops) else {
                continue;
            };
            let clamps = clamps(l, &c);
            if clamps.is_empty() || !clamps.iter().any(|k| strided_use(l, &loops, &c, k.call)) {
                continue;
            }
            let first = clamps.iter().map(|k| k.first).max().unwrap_or(0);
            let last = clamps.iter().map(|k| k.last).max().unwrap_or(0);
            if first == 0 && last == 0 {
                for k in clamps {
                    k.call.replace_all_uses_with(k.arg);
                    k.call.erase();
                }
            } else if first > MAX_PEEL
                || last > MAX_PEEL
                || c.end - c.start - first - last < MIN_LEFT
            {
                continue;
            } else if first > 0 {
                peel_first(m, f, l, &c, entry);
            } else {
                peel_last(m, f, l, &c);
            }
            acted = true;
            break;
        }
        if !acted {
            break;
        }
        changed = true;
    }
    if changed && !ferrozyme_llvm::verify_function(f) {
        return Err("peeling a clamped row produced invalid IR (internal error)".into());
    }
    Ok(changed)
}

/// Recognises `l` as a loop with an inner loop and the shape of
/// [`crate::peel::counted_shape`] (one latch, the only exiting block, a constant
/// counter); with the loop's entry block.
fn outer_counted(l: &Loop, loops: &Loops) -> Option<(Counted, Block)> {
    let entry = l.entry?;
    let nested = l
        .blocks
        .iter()
        .any(|b| loops.innermost(*b).map(|x| x.header) != Some(l.header));
    if !nested {
        return None;
    }
    Some((crate::peel::counted_shape(l, MAX_BODY)?, entry))
}

/// The `umin`/`smin` (from above) and `umax`/`smax` (from below) calls in `l` clamping
/// an affine function of the counter by a constant, and the counter's equality tests
/// (`wrap_test`).
fn clamps(l: &Loop, c: &Counted) -> Vec<Clamp> {
    let mut out = Vec::new();
    for b in l.ordered_blocks() {
        for i in b.instructions() {
            if let Some(t) = wrap_test(i, c) {
                out.push(t);
                continue;
            }
            if i.opcode() != Some(Opcode::LLVMCall) {
                continue;
            }
            let Some(g) = i.called_function() else {
                continue;
            };
            let (signed, upper) = if g.is_intrinsic("llvm.umin") {
                (false, true)
            } else if g.is_intrinsic("llvm.smin") {
                (true, true)
            } else if g.is_intrinsic("llvm.umax") {
                (false, false)
            } else if g.is_intrinsic("llvm.smax") {
                (true, false)
            } else {
                continue;
            };
            let Some((arg, k, lo, hi)) = crate::peel::clamp_operands(i, c, signed) else {
                continue;
            };
            // t(i) = i + (lo - start), increasing: min(t, k) is not t on the last
            // hi - k iterations, max(t, k) on the first k - lo.
            let n = c.end - c.start;
            let (first, last) = if upper {
                (0, (hi - k).clamp(0, n))
            } else {
                ((k - lo).clamp(0, n), 0)
            };
            out.push(Clamp {
                call: i,
                arg,
                first,
                last,
            });
        }
    }
    out
}

/// `icmp eq|ne counter, k` (either operand order): a periodic boundary's test. It is
/// constant on every row but the first (`k = start`) or the last (`k = end - 1`), and
/// on every row when `k` is outside the range; as a [`Clamp`] whose `arg` is that
/// constant outcome. Tests of anything else are not listed.
fn wrap_test(i: Value, c: &Counted) -> Option<Clamp> {
    if i.opcode() != Some(Opcode::LLVMICmp) || i == c.test {
        return None;
    }
    let eq = match i.icmp_predicate() {
        IntPredicate::LLVMIntEQ => true,
        IntPredicate::LLVMIntNE => false,
        _ => return None,
    };
    let k = match (i.operand(0), i.operand(1)) {
        (a, b) if a == c.iv => b.const_int_value()?,
        (a, b) if b == c.iv => a.const_int_value()?,
        _ => return None,
    } as i128;
    let (first, last) = if k == c.start {
        (1, 0)
    } else if k == c.end - 1 {
        (0, 1)
    } else if (c.start..c.end).contains(&k) {
        return None;
    } else {
        (0, 0)
    };
    Some(Clamp {
        call: i,
        arg: i.ty().const_i64(i64::from(!eq)),
        first,
        last,
    })
}

/// Whether `clamp` reaches, through integer arithmetic and GEPs, the address of a
/// floating-point element whose index moves by one or two elements per iteration of an
/// inner loop of `l` (coefficient 1 or 2 of an inner header's phi,
/// `streams::MAX_STRIDE`): the rows whose reverse updates `streams/mod.rs` can carry once
/// they are offsets of one anchor (stride 2: the interleaved layout, u and v side by
/// side, one stream per field since bruss16; before, unclamped, its adds were no stream
/// and LLVM's SLP vectorizer paired fewer of them: 83.7k -> 89.9k instructions at
/// `-O3 -march=x86-64-v3`, bruss13).
fn strided_use(l: &Loop, loops: &Loops, c: &Counted, clamp: Value) -> bool {
    let inner: Vec<Value> = loops
        .loops
        .iter()
        .filter(|x| x.header != l.header && l.blocks.contains(&x.header))
        .flat_map(|x| x.header.phis())
        .collect();
    let ctr = Counter {
        iv: c.iv,
        lo: 1,
        hi: 0,
    };
    let mut seen = vec![clamp];
    let mut work = vec![(clamp, MAX_USE_DEPTH)];
    while let Some((v, depth)) = work.pop() {
        if depth == 0 {
            continue;
        }
        for u in v.users() {
            if seen.contains(&u) || !l.blocks.contains(&u.parent_block()) {
                continue;
            }
            seen.push(u);
            match u.opcode() {
                Some(Opcode::LLVMGetElementPtr) => {
                    let t = u.gep_source_type();
                    if t.is_fp_scalar() && u.num_operands() == 2 {
                        let f = form(u.operand(1), &ctr, 12);
                        let strided = |k: &i128| (1..=MAX_STRIDE as i128).contains(k);
                        if inner.iter().any(|p| f.terms.get(p).is_some_and(strided)) {
                            return true;
                        }
                    }
                    work.push((u, depth - 1));
                }
                Some(
                    Opcode::LLVMAdd
                    | Opcode::LLVMSub
                    | Opcode::LLVMShl
                    | Opcode::LLVMMul
                    | Opcode::LLVMOr
                    | Opcode::LLVMZExt
                    | Opcode::LLVMSExt
                    | Opcode::LLVMTrunc
                    | Opcode::LLVMAShr
                    | Opcode::LLVMSelect
                    | Opcode::LLVMCall,
                ) if u.ty().is_integer() => work.push((u, depth - 1)),
                _ => {}
            }
        }
    }
    false
}

/// Moves the first iteration of `l` onto its entry edge: a copy of the body in which the
/// counter is the constant `start`, branching into the loop, which starts one iteration
/// later with the copy's values on its header phis.
fn peel_first(m: Module, f: Value, l: &Loop, c: &Counted, entry: Block) {
    let ctx = m.context();
    let b = Builder::new(ctx);
    let blocks: Vec<Block> = l.blocks_in(&f.blocks());
    let mut map: HashMap<Value, Value> = HashMap::default();
    for blk in &blocks {
        let nb = l
            .header
            .insert_before(ctx, &format!("{}.first", blk.name()));
        map.insert(blk.as_value(), nb.as_value());
    }
    let iv_ty = c.iv.ty();
    // Header phis take the values the loop is entered with.
    let headers = l.header.phis();
    for phi in &headers {
        let v = phi
            .incoming()
            .iter()
            .find(|(_, x)| *x == entry)
            .map(|(v, _)| *v)
            .unwrap();
        map.insert(*phi, v);
    }
    map.insert(c.iv, iv_ty.const_i64(c.start as i64));
    crate::peel::copy_body(&b, &blocks, l.header, &mut map, "first");
    // The copy's latch goes on into the loop (at least MIN_LEFT iterations are left).
    let copy_latch = map[&c.latch.as_value()].as_block();
    let t = copy_latch.terminator().unwrap();
    b.position_before(t);
    b.br(l.header);
    t.erase();
    // The entry branches into the copy.
    let et = entry.terminator().unwrap();
    for s in 0..et.num_successors() {
        if et.successor(s) == l.header {
            et.set_successor(s, map[&l.header.as_value()].as_block());
        }
    }
    // The loop's header phis: the edge from the entry now comes from the copy's latch,
    // with the values its back edge carries (the counter's as a constant).
    for phi in headers {
        b.position_before(phi);
        let np = b.phi(phi.ty(), &phi.name());
        for (v, x) in phi.incoming() {
            if x == entry {
                let back = phi
                    .incoming()
                    .iter()
                    .find(|(_, y)| *y == c.latch)
                    .map(|(v, _)| *v)
                    .unwrap();
                let nv = if phi == c.iv {
                    iv_ty.const_i64((c.start + 1) as i64)
                } else {
                    map.get(&back).copied().unwrap_or(back)
                };
                np.add_incoming(nv, copy_latch);
            } else {
                np.add_incoming(v, x);
            }
        }
        phi.replace_all_uses_with(np);
        phi.erase();
    }
}
