//! Chained recurrence splices folded into one: a vector loop's value from `k + 1`
//! iterations back read as one shift of the last two vectors, not as a splice of splices.
//!
//! The rising exact streams (`streams/rising.rs`) keep each cell's contributions in
//! fixed-order recurrences of order up to 4: scalar phi chains `p1 = phi [i1, x]`,
//! `p2 = phi [i2, p1]`, ... LoopVectorize vectorizes each phi of the chain on its own: the
//! first as `s1 = shufflevector(v1, x, <n-1, n, ..., 2n-2>)` (the vector `v1` of the last
//! iteration's `x`, spliced one lane), the second as `s2 = shufflevector(v2, s1, <same>)`
//! with `v2` carrying the last `s1`, and so on. Lane `j` of `s2` is `x` two positions
//! back, which is lane `n - 2 + j` of the pair `(v1, x)`: one shuffle of values the loop
//! already carries (on x86-64-v3 one `vperm2f128` of four doubles where the chain took
//! two splices of two instructions each, and one carried vector register less per step;
//! the periodic-`if` Brusselator's reverse vector body 80 -> 66 instructions, its spills
//! included, bench/README.md "perf29").
//!
//! The rewrite, for `s = shufflevector(pb, sa, <n-1, ..., 2n-2>)` where `pb` is a phi
//! of the loop header `[ib, preheader], [sa, latch]` used only by `s`, and `sa` is a shift
//! by `k < n` of `(p1, x)` (`shufflevector(p1, x, <n-k, ..., 2n-k-1>)`, `p1` a phi of
//! the same header `[i1, preheader], [x, latch]`):
//! `s` becomes the shift by `k + 1` of `(p1, x)` (`p1` itself when `k + 1 == n`), and
//! lane `n - k - 1` of `p1`'s initial vector takes lane `n - 1` of `ib`: in the first
//! iteration `s`'s lane 0 was `ib`'s last lane; in every later one it was `sa`'s last lane
//! of the iteration before, `x`'s lane `n - k - 1` two iterations back, which is `p1`'s
//! lane `n - k - 1` now. The other lanes are the same values by the masks. Nothing
//! else may read `p1` but shifts of `(p1, x)` by at most `k` (which never read lanes
//! below `n - k`), so changing a lane of its initial vector changes nothing else. The
//! values are moved, not computed: the result is bit-identical.
//!
//! Only in functions the pass generated (the user's own loops keep what the pipeline
//! made of them), after the post-AD pipeline (called from `adjoint_chain::preaccumulate`).

use ferrozyme_llvm::{Block, Builder, Opcode, Value};

/// Folds every chained splice in `blocks` (one function); returns how many.
pub fn fold_function(blocks: &[Block]) -> usize {
    let mut done = 0;
    let mut erased: Vec<Value> = Vec::new();
    for &b in blocks {
        let shuffles: Vec<Value> = b
            .instructions()
            .into_iter()
            .filter(|i| i.opcode() == Some(Opcode::LLVMShuffleVector))
            .collect();
        for s in shuffles {
            if erased.contains(&s) {
                continue;
            }
            if let Some(gone) = fold(s) {
                done += 1;
                erased.extend(gone);
            }
        }
    }
    done
}

/// A shift by `k` of a carried pair: `shufflevector(p, x, <n-k, ..., 2n-k-1>)` with `p` a
/// header phi whose value from the latch is `x`.
struct Shift {
    phi: Value,
    x: Value,
    k: u32,
    /// Index of the phi's incoming value from outside the loop.
    init: u32,
}

/// `v` as a [`Shift`], if it is one.
fn shift_of(v: Value) -> Option<Shift> {
    if v.opcode() != Some(Opcode::LLVMShuffleVector) {
        return None;
    }
    let (p, x) = (v.operand(0), v.operand(1));
    let ty = v.ty();
    if ty.has_scalable() || p.ty() != ty || x.ty() != ty {
        return None;
    }
    let n = ty.vector_len();
    let mask = v.shuffle_mask();
    let first = mask.first().copied().flatten()?;
    if first == 0 || first >= n {
        return None;
    }
    let k = n - first;
    let in_order = mask
        .iter()
        .enumerate()
        .all(|(i, m)| *m == Some(first + i as u32));
    if mask.len() != n as usize || !in_order {
        return None;
    }
    let (init, latch) = carried(p)?;
    if p.incoming()[latch as usize].0 != x || v.parent_block() != p.parent_block() {
        return None;
    }
    Some(Shift { phi: p, x, k, init })
}

/// For a phi of a single-block loop (LoopVectorize's vector body): two incoming edges,
/// one from its own block (the latch) and one from another (the preheader) — (index of
/// the initial value, index of the latch value).
fn carried(p: Value) -> Option<(u32, u32)> {
    if p.opcode() != Some(Opcode::LLVMPHI) {
        return None;
    }
    let inc = p.incoming();
    let h = p.parent_block();
    if inc.len() != 2 {
        return None;
    }
    match (inc[0].1 == h, inc[1].1 == h) {
        (false, true) => Some((0, 1)),
        (true, false) => Some((1, 0)),
        _ => None,
    }
}

/// Lane `lane` of a loop's initial vector: an element of a constant, or the element an
/// `insertelement` at that constant index put there.
fn lane_of(v: Value, lane: u32) -> Option<Value> {
    if v.is_constant() {
        return v.const_element(lane);
    }
    if v.opcode() == Some(Opcode::LLVMInsertElement) {
        let at = v.operand(2).const_int_value()?;
        return if at == lane as i64 {
            Some(v.operand(1))
        } else {
            lane_of(v.operand(0), lane)
        };
    }
    None
}

/// Rewrites `s` if it is a chained splice (module doc); returns the instructions erased.
fn fold(s: Value) -> Option<Vec<Value>> {
    let outer = shift_of(s)?;
    if outer.k != 1 {
        return None;
    }
    let pb = outer.phi;
    let sa = outer.x;
    let inner = shift_of(sa)?;
    let n = s.ty().vector_len();
    let (p1, x, k) = (inner.phi, inner.x, inner.k);
    if k + 1 > n || p1 == pb || p1.parent_block() != pb.parent_block() {
        return None;
    }
    // Both phis enter from the same block and leave through the same latch.
    let (pb_inc, p1_inc) = (pb.incoming(), p1.incoming());
    if pb_inc[outer.init as usize].1 != p1_inc[inner.init as usize].1
        || pb_inc[1 - outer.init as usize].1 != p1_inc[1 - inner.init as usize].1
    {
        return None;
    }
    if pb.users() != vec![s] {
        return None;
    }
    // Nothing else reads `p1` but shifts of `(p1, x)` by at most `k`.
    for u in p1.users() {
        if u == pb || u == s {
            continue;
        }
        match shift_of(u) {
            Some(o) if o.phi == p1 && o.x == x && o.k <= k && u.operand(1) == x => {}
            _ => return None,
        }
    }
    let first = lane_of(pb_inc[outer.init as usize].0, n - 1)?;
    let i1 = p1_inc[inner.init as usize].0;
    let pre = p1_inc[inner.init as usize].1;
    let lane = n - k - 1;
    let ctx = s.ty().context();
    let idx = |i: u32| ctx.i32().const_int(u64::from(i));
    let new_init = if i1.is_constant() && first.is_constant() {
        let elems: Vec<Value> = (0..n)
            .map(|i| {
                if i == lane {
                    Some(first)
                } else {
                    i1.const_element(i)
                }
            })
            .collect::<Option<_>>()?;
        Value::const_vector(&elems)
    } else {
        let term = pre.terminator()?;
        let b = Builder::new(ctx);
        b.position_before(term);
        b.insert_element(i1, first, idx(lane))
    };
    p1.set_operand(inner.init, new_init);
    let folded = if k + 1 == n {
        p1
    } else {
        let b = Builder::new(ctx);
        b.position_before(s);
        let mask: Vec<Value> = (0..n).map(|i| idx(n - k - 1 + i)).collect();
        b.shuffle_vector(p1, x, Value::const_vector(&mask))
    };
    s.replace_all_uses_with(folded);
    let mut gone = vec![s];
    s.erase();
    pb.erase();
    gone.push(pb);
    if sa.users().is_empty() {
        sa.erase();
        gone.push(sa);
    }
    Some(gone)
}
