//! Neighbour indices of periodic stencil loops whose wrap iterations clang already
//! peeled, read as offsets of one anchor (issue 14, the Brusselator with periodic
//! boundaries written with `if`).
//!
//! `if (j == N - 1) jp1 = 0; else jp1 = j + 1;` (and `j == 0 -> N - 1`) is, at `-O2`
//! and above, peeled by clang itself: the first and last iterations become straight
//! code and the loop left, `j = 1 .. N - 2`, reads its neighbours at `j + 1` and
//! `j - 1`. But clang spells them through 32-bit `int` arithmetic: the right neighbour
//! `(j + 1 + 32i) & 0xffffffff` (an `add nuw`, exact only because `32i + j + 1` is
//! small) and the left `(ashr exact ((j << 32) - (1 << 32)), 32) + 32i`. The
//! `affine_index` forms cannot read either (the mask needs the range of the outer
//! row offset `32i`, the shift pair is not the bare counter), so the reverse loop got
//! neither anchored addresses nor carried streams (`streams/mod.rs`), and its shadow
//! updates stayed scalar read-modify-writes.
//!
//! Here, on the reverse-mode clone before differentiation, in each innermost counted
//! loop, the index expressions of single-index GEPs are normalised where integer
//! ranges prove them exact:
//! * `and x, m` (`m = 2^k - 1`) becomes `x` when `x` lies in `[0, m]`;
//!   (an `add` as `x` gets `nsw`: its range was read as an exact sum, so it cannot
//!   wrap);
//! * `ashr exact (add nsw (shl x, s), c), t` (`t <= s`, `c` a multiple of `2^t`) becomes
//!   `(x << (s - t)) + (c >> t)` (`nsw`) when `x` fits in `w - s` signed bits, so that
//!   the shift pair is a sign extension of `x` itself (`t = s`: an element index;
//!   `t < s`: clang's byte offset, `ashr 29` for doubles); the same without `nsw` when
//!   `c` is a multiple of `2^s` and `x + (c >> s)` fits as well (clang's row `32 * (i +
//!   1)` of a periodic row loop, `ashr exact ((i << 37) + (1 << 37)), 32`: the sum
//!   wraps only in bits the shift discards);
//! * an `add` or `trunc` narrower than 64 bits without `nsw` whose operands' ranges
//!   keep it exact gets the flag (clang's `int` row index `trunc(32i) - 1`, the
//!   interleaved Brusselator's left neighbour; bruss16);
//! * a `gep i8, p, (y << k) + c` through which only one floating-point type of `2^k`
//!   bytes is loaded or stored becomes a GEP of that type at `y + (c >> k)`
//!   (`typed_gep`: `streams/mod.rs` wants its anchors typed as the cells they add into).
//!
//! Ranges come from constants and loop counters only: a header phi with a constant
//! start, stepped by `+1` on its only latch, which goes back to the header only while
//! `next != e` for a constant `e > start` (every value it takes is in `[start, e - 1]`,
//! whatever other exits the loop has), through `add`/`or disjoint`/`shl nsw`/`and`.
//! Anything unproven is left as it is. In a loop whose indices changed, uses after the
//! loop of the counter and of its step become the constants they must hold there
//! (`fold_exit_values`: clang's peeled last iteration reads `x[32i | next]`, which the
//! reverse sweep otherwise tapes once per row), `affine_index::anchor_neighbours`
//! rewrites the neighbour addresses as offsets of the centre's, and `anchor_bytes` does
//! the same across element types and hoisted row bases (byte offsets from one root
//! pointer, at most 64 bytes apart or exactly one step of an outer index: a stencil's
//! neighbours and rows `i +- 1`, not the Brusselator's u and v blocks, which stay
//! separate streams); when either found some, the
//! clone is marked `streams::PEELED`, which lets the reverse loop carry streams like a
//! loop `peel.rs` peeled. Loops whose indices needed no range are not touched (the
//! clamped loops are `peel.rs`'s; the others keep their code).

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::{const_counter, ConstCounter, Loop, Loops};
use ferrozyme_llvm::{Block, Builder, Module, Opcode, Value};

use crate::affine_index::{anchor_neighbours, form, Counter, Form};

/// How deep index expressions are followed (clang's are 3-5 levels).
const DEPTH: u32 = 8;

/// Normalises the neighbour indices of the innermost counted loops of `f` and anchors
/// them. Returns whether a loop got anchored neighbours (the clone is then marked).
pub fn anchor_wrapped_loops(m: Module, f: Value) -> Result<bool, String> {
    let cfg = Cfg::new(f);
    let loops = Loops::new(&cfg);
    let mut anchored = 0;
    for l in &loops.loops {
        let innermost = l
            .blocks
            .iter()
            .all(|b| loops.innermost(*b).map(|x| x.header) == Some(l.header));
        if !innermost {
            continue;
        }
        let Some(ctr) = loop_counter(l, &loops) else {
            continue;
        };
        let blocks: Vec<Block> = l.blocks_in(&f.blocks());
        let mut changed = 0;
        for b in &blocks {
            for g in b.instructions() {
                if g.opcode() == Some(Opcode::LLVMGetElementPtr) && g.num_operands() == 2 {
                    changed += normalise(m, g.operand(1), &loops, DEPTH);
                    changed += typed_gep(m, g) as usize;
                }
            }
        }
        // Only loops whose indices needed a range: the others are as they were (the
        // clamped loops of `peel.rs` are anchored there).
        if changed > 0 {
            fold_exit_values(l, &ctr, &loops);
            anchored += anchor_neighbours(m, &blocks, &ctr);
            anchored += anchor_bytes(m, &blocks, &ctr);
        }
    }
    if anchored > 0 {
        f.add_string_fn_attr(crate::streams::PEELED, "");
        if !ferrozyme_llvm::verify_function(f) {
            return Err(
                "normalising wrapped neighbour indices produced invalid IR (internal error)".into(),
            );
        }
    }
    Ok(anchored > 0)
}

/// The counter of `l` (a header phi with a proven range) as `affine_index` wants it.
fn loop_counter(l: &Loop, loops: &Loops) -> Option<Counter> {
    l.header.phis().into_iter().find_map(|phi| {
        let (lo, hi) = counter_range(phi, loops)?;
        Some(Counter { iv: phi, lo, hi })
    })
}

/// `[start, e - 1]` for a counter phi (see the module docs), `None` for anything else.
fn counter_range(phi: Value, loops: &Loops) -> Option<(i128, i128)> {
    counter_phi(phi, loops).map(|c| (c.start, c.end - 1))
}

/// `phi` as the counter of the loop it heads.
fn counter_phi(phi: Value, loops: &Loops) -> Option<ConstCounter> {
    let header = phi.parent_block();
    let l = loops.loops.iter().find(|l| l.header == header)?;
    const_counter(l, phi)
}

/// Uses after the loop of its counter (`e - 1`) and of the counter's step (`e`) become
/// those constants, when the latch is the loop's only exit: the last value either took
/// before control left is known. Clang's peeled last iteration reads `j + 1` through the
/// step (`x[32i | next]`), which the reverse sweep would otherwise keep on the tape,
/// one value per outer iteration, and recompute with an empty copy of the loop.
fn fold_exit_values(l: &Loop, ctr: &Counter, loops: &Loops) -> usize {
    let Some(c) = counter_phi(ctr.iv, loops) else {
        return 0;
    };
    let [latch] = l.latches.as_slice() else {
        return 0;
    };
    let only_latch_exits = l
        .blocks
        .iter()
        .all(|b| b == latch || b.successors().iter().all(|s| l.blocks.contains(s)));
    if !only_latch_exits {
        return 0;
    }
    let mut n = 0;
    for (v, last) in [(ctr.iv, c.end - 1), (c.next, c.end)] {
        let Ok(k) = i64::try_from(last) else { continue };
        let k = v.ty().const_i64(k);
        for u in v.users() {
            if !u.is_instruction() || l.blocks.contains(&u.parent_block()) {
                continue;
            }
            for i in 0..u.num_operands() {
                if u.operand(i) == v {
                    u.set_operand(i, k);
                    n += 1;
                }
            }
        }
    }
    n
}

/// The range of the integer `v` over every execution, where constants and counters
/// prove one.
fn range(v: Value, loops: &Loops, depth: u32) -> Option<(i128, i128)> {
    if let Some(k) = v.const_int_value() {
        return Some((k as i128, k as i128));
    }
    if depth == 0 || !v.is_instruction() {
        return None;
    }
    let w = v.ty().int_width()? as i128;
    let signed_max = (1i128 << (w - 1)) - 1;
    let go = |x: Value| range(x, loops, depth - 1);
    let r = match v.opcode()? {
        Opcode::LLVMPHI => counter_range(v, loops)?,
        Opcode::LLVMAdd | Opcode::LLVMOr => {
            let ((a0, a1), (b0, b1)) = (go(v.operand(0))?, go(v.operand(1))?);
            let exact = v.has_nsw()
                || v.is_disjoint()
                // Operands whose exact sum stays in the signed range: the add cannot
                // wrap whatever its flags (clang's `32i - 1` of an `int` row index).
                || (v.opcode() == Some(Opcode::LLVMAdd)
                    && a0 + b0 >= -signed_max - 1
                    && a1 + b1 <= signed_max);
            if !exact {
                return None;
            }
            (a0 + b0, a1 + b1)
        }
        // The same integer in another width: when it fits (the final check), a `trunc`
        // keeps it whatever its flags; `sext` always, `zext` of a non-negative value.
        Opcode::LLVMTrunc | Opcode::LLVMSExt => go(v.operand(0))?,
        Opcode::LLVMZExt => match go(v.operand(0))? {
            (a0, a1) if a0 >= 0 => (a0, a1),
            _ => return None,
        },
        Opcode::LLVMShl if v.has_nsw() => {
            let s = v.operand(1).const_int_value()? as i128;
            if !(0..w).contains(&s) {
                return None;
            }
            let (a0, a1) = go(v.operand(0))?;
            (a0 << s, a1 << s)
        }
        Opcode::LLVMAnd => {
            let m = v.operand(1).const_int_value()? as i128;
            if m < 0 {
                return None;
            }
            match go(v.operand(0)) {
                Some((a0, a1)) if a0 >= 0 && a1 <= m => (a0, a1),
                _ => (0, m),
            }
        }
        _ => return None,
    };
    (-signed_max - 1 <= r.0 && r.1 <= signed_max).then_some(r)
}

/// Applies the module docs' rewrites to the index expression `v`, operands first.
/// Returns how many.
fn normalise(m: Module, v: Value, loops: &Loops, depth: u32) -> usize {
    if depth == 0 || !v.is_instruction() || !v.ty().is_integer() {
        return 0;
    }
    let mut n = 0;
    let op = v.opcode();
    if matches!(
        op,
        Some(
            Opcode::LLVMAdd
                | Opcode::LLVMOr
                | Opcode::LLVMAnd
                | Opcode::LLVMAShr
                | Opcode::LLVMShl
                | Opcode::LLVMTrunc
                | Opcode::LLVMSExt
                | Opcode::LLVMZExt
        )
    ) {
        for k in 0..v.num_operands().min(2) {
            n += normalise(m, v.operand(k), loops, depth - 1);
        }
    }
    let w = v.ty().int_width().unwrap_or(0) as i128;
    match op {
        // An `add` or `trunc` to a type narrower than an index (clang's `int`
        // arithmetic) without `nsw` whose range proves it exact gets the flag
        // (`affine_index::form` reads only flagged ones): the row index `trunc(32i) - 1`
        // of the interleaved Brusselator's left neighbour. 64-bit adds are left as they
        // are (masked indices are `and`'s, above).
        Some(Opcode::LLVMAdd | Opcode::LLVMTrunc)
            if w < 64 && !v.has_nsw() && range(v, loops, DEPTH).is_some() =>
        {
            v.set_nsw();
            n += 1;
        }
        Some(Opcode::LLVMAnd) => {
            let mask = v.operand(1).const_int_value().map(|k| k as i128);
            let x = v.operand(0);
            if let (Some(mask), Some((lo, hi))) = (mask, range(x, loops, DEPTH)) {
                if mask >= 0 && lo >= 0 && hi <= mask {
                    // `range` read `x` as an exact sum: an `add` of it cannot wrap.
                    if x.opcode() == Some(Opcode::LLVMAdd) {
                        x.set_nsw();
                    }
                    v.replace_all_uses_with(x);
                    v.erase();
                    n += 1;
                }
            }
        }
        Some(Opcode::LLVMAShr) if v.is_exact() => {
            if let Some(r) = sign_extension(m, v, loops, w) {
                v.replace_all_uses_with(r);
                v.erase();
                n += 1;
            }
        }
        _ => {}
    }
    n
}

/// `ashr exact (shl x, s), t` -> `x << (s - t)` and `ashr exact (add nsw (shl x, s), c),
/// t` -> `(x << (s - t)) + (c >> t)`, for `t <= s`, when `x` fits in `w - s` signed bits
/// (so `shl x, s` is `x * 2^s` as a signed value, the `add nsw` adds exactly, and `exact`
/// makes the shift an exact division). `t < s` is clang's byte offset of a sign-extended
/// `int` index (`ashr 29`: `8 * (j - 1)` for an `i8` GEP). An `add` without `nsw` is
/// taken when `c = c' * 2^s` and `x + c'` fits in `w - s` signed bits too: the sum is
/// then `(x + c') << s` modulo `2^w`, which that fit makes exact, and the result the same
/// expression.
fn sign_extension(m: Module, v: Value, loops: &Loops, w: i128) -> Option<Value> {
    let t = v.operand(1).const_int_value()? as i128;
    let inner = v.operand(0);
    let (shl, c, nsw) = if inner.opcode() == Some(Opcode::LLVMAdd) {
        match (inner.operand(0), inner.operand(1).const_int_value()) {
            (a, Some(c)) => (a, c as i128, inner.has_nsw()),
            _ => return None,
        }
    } else {
        (inner, 0, true)
    };
    if shl.opcode() != Some(Opcode::LLVMShl) {
        return None;
    }
    let s = shl.operand(1).const_int_value()? as i128;
    if !(1..w).contains(&s) || !(1..=s).contains(&t) || c % (1i128 << t) != 0 {
        return None;
    }
    let x = shl.operand(0);
    let (lo, hi) = range(x, loops, DEPTH)?;
    let h = 1i128 << (w - s - 1);
    if lo < -h || hi >= h || x.ty() != v.ty() {
        return None;
    }
    if !nsw {
        let c1 = c >> s;
        if c1 << s != c || lo + c1 < -h || hi + c1 >= h {
            return None;
        }
    }
    let b = Builder::new(m.context());
    b.position_before(v);
    let mut r = x;
    if s > t {
        r = b.binop(Opcode::LLVMShl, x, v.ty().const_i64((s - t) as i64));
        r.set_nsw();
    }
    if c != 0 {
        let k = v.ty().const_i64(i64::try_from(c >> t).ok()?);
        r = b.binop(Opcode::LLVMAdd, r, k);
        r.set_nsw();
    }
    if r != x {
        r.set_name(&v.name());
    }
    Some(r)
}

/// `gep i8, p, (y << k) + c` (`shl nsw`, `add nsw`, `c` a multiple of `2^k`) whose users
/// all load or store one floating-point type `T` of `2^k` bytes through it becomes `gep
/// T, p, y + (c >> k)`: the same address, spelled as the element it reads, which is how
/// `streams/mod.rs` wants an anchor (`sign_extension` leaves clang's byte offsets of
/// sign-extended `int` indices in this shape). Returns whether it rewrote `g`.
fn typed_gep(m: Module, g: Value) -> bool {
    if g.gep_source_type() != m.context().i8() {
        return false;
    }
    let idx = g.operand(1);
    let (shl, c) = match idx.opcode() {
        Some(Opcode::LLVMAdd) if idx.has_nsw() => match idx.operand(1).const_int_value() {
            Some(c) => (idx.operand(0), c as i128),
            None => return false,
        },
        _ => (idx, 0),
    };
    if shl.opcode() != Some(Opcode::LLVMShl) || !shl.has_nsw() {
        return false;
    }
    let Some(k) = shl
        .operand(1)
        .const_int_value()
        .filter(|k| (1..=4).contains(k))
    else {
        return false;
    };
    if c % (1i128 << k) != 0 {
        return false;
    }
    // The one type every user reads or writes through `g`.
    let mut ty = None;
    for u in g.users() {
        let t = match u.opcode() {
            Some(Opcode::LLVMLoad) => u.ty(),
            Some(Opcode::LLVMStore) if u.operand(1) == g && u.operand(0) != g => u.operand(0).ty(),
            _ => return false,
        };
        if ty.is_some_and(|x| x != t) {
            return false;
        }
        ty = Some(t);
    }
    let Some(t) = ty else { return false };
    if !t.is_fp_scalar() || m.alloc_size(t) != 1u64 << k {
        return false;
    }
    let b = Builder::new(m.context());
    b.position_before(g);
    let y = shl.operand(0);
    let e = if c == 0 {
        y
    } else {
        let r = b.binop(Opcode::LLVMAdd, y, y.ty().const_i64((c >> k) as i64));
        r.set_nsw();
        r
    };
    let r = if g.is_inbounds() {
        b.inbounds_gep(t, g.operand(0), &[e])
    } else {
        b.gep(t, g.operand(0), &[e])
    };
    r.set_name(&g.name());
    g.replace_all_uses_with(r);
    g.erase();
    true
}

/// Largest distance (bytes) between two addresses `anchor_bytes` anchors together: a
/// stencil's neighbours, not two fields of one buffer (the Brusselator's u and v blocks
/// stay separate streams).
const MAX_NEIGHBOUR_BYTES: i128 = 64;

/// The root pointer and exact byte offset of `p`, through single-index GEPs of sized
/// element types; with whether every GEP on the way is `inbounds`.
fn byte_address(m: Module, p: Value, ctr: &Counter, depth: u32) -> (Value, Form, bool) {
    let zero = Form {
        konst: 0,
        terms: HashMap::default(),
    };
    if depth == 0 || p.opcode() != Some(Opcode::LLVMGetElementPtr) || p.num_operands() != 2 {
        return (p, zero, true);
    }
    let idx = p.operand(1);
    if !idx.ty().is_integer() || idx.ty().int_width() != Some(64) {
        return (p, zero, true);
    }
    let size = m.alloc_size(p.gep_source_type()) as i128;
    let (root, mut f, inb) = byte_address(m, p.operand(0), ctr, depth - 1);
    let i = form(idx, ctr, 12);
    f.konst += size * i.konst;
    for (v, k) in i.terms {
        *f.terms.entry(v).or_insert(0) += size * k;
    }
    f.terms.retain(|_, k| *k != 0);
    (root, f, inb && p.is_inbounds())
}

/// Like `affine_index::anchor_neighbours`, but on byte offsets from a common root, so
/// that neighbours spelled with different element types or through hoisted row bases
/// (`gep i8, (gep double, x, 16i), 8 * (j - 1)` next to `gep double, x, j + 16i`) are
/// anchored too: `gep i8, anchor, k` for `|k| <= MAX_NEIGHBOUR_BYTES`. GEPs with a
/// constant index (already offsets) are left alone. Returns how many were rewritten.
fn anchor_bytes(m: Module, blocks: &[Block], ctr: &Counter) -> usize {
    let b = Builder::new(m.context());
    let i8t = m.context().i8();
    let mut n = 0;
    for blk in blocks {
        // (root, byte form, all inbounds, anchor gep)
        let mut anchors: Vec<(Value, Form, bool, Value)> = Vec::new();
        for g in blk.instructions() {
            if g.opcode() != Some(Opcode::LLVMGetElementPtr)
                || g.num_operands() != 2
                || g.operand(1).const_int_value().is_some()
            {
                continue;
            }
            let (root, f, inb) = byte_address(m, g, ctr, 4);
            if root == g || f.terms.is_empty() {
                continue;
            }
            // Near, or one step of an outer index away: the rows `i +- 1` of a 2-D
            // stencil (`k` the row's coefficient; the interleaved Brusselator's 512
            // bytes), never the distance of two blocks of one buffer.
            let neighbour = |k: i128| {
                k.abs() <= MAX_NEIGHBOUR_BYTES
                    || f.terms
                        .iter()
                        .any(|(v, c)| *v != ctr.iv && c.abs() == k.abs())
            };
            let hit = anchors.iter().find_map(|(r, af, ainb, a)| {
                let k = f.konst - af.konst;
                (*r == root && af.terms == f.terms && neighbour(k)).then_some((*a, k, *ainb && inb))
            });
            match hit {
                Some((a, k, both_inbounds)) => {
                    b.position_before(g);
                    let off = [m.context().i64().const_i64(k as i64)];
                    // Both addresses inside the root's object: so is the offset one.
                    let r = if both_inbounds {
                        b.inbounds_gep(i8t, a, &off)
                    } else {
                        b.gep(i8t, a, &off)
                    };
                    r.set_name(&g.name());
                    g.replace_all_uses_with(r);
                    g.erase();
                    n += 1;
                }
                None => anchors.push((root, f, inb, g)),
            }
        }
    }
    n
}
