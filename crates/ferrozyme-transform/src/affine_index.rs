//! Affine forms of address indices, and neighbour addresses rewritten as constant
//! offsets from one anchor (the peeled stencil loops of `peel.rs`).
//!
//! After peeling, a stencil loop's neighbour indices are affine in the counter but each
//! is spelled its own way by clang: the centre `j | 32i`, the right neighbour
//! `zext(trunc(j + 1) | trunc(32i))`, the left `32i - 1 + sext(trunc(j))`. Nothing
//! after differentiation (LLVM's alias analysis, the SLP and loop vectorizers on the
//! reverse loop) sees that these are `c`, `c + 1`, `c - 1`, and with the clamp's `range`
//! gone instcombine even widens them into masks. Here each index is read as an exact
//! integer sum `k0 + sum(k_i * v_i)` over leaf values, through operations that cannot
//! wrap by their flags (`add/sub/shl/mul nsw`, `or disjoint`, `trunc nsw`, `zext nneg`,
//! `sext`; `ashr exact (shl x, s), s` when `x` is the loop counter and its range fits);
//! two addresses `gep T, p, a` and `gep T, p, b` of one block whose forms differ by a
//! constant `k` become `gep T, (gep T, p, a), k`: the same address, so the program's
//! meaning is unchanged, and every derived address (the shadows) inherits the form.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Block, Builder, Module, Opcode, Type, Value};

/// `konst + sum(coef * leaf)`, exact over the integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Form {
    pub konst: i128,
    pub terms: HashMap<Value, i128>,
}

impl Form {
    fn leaf(v: Value) -> Form {
        Form {
            konst: 0,
            terms: HashMap::from_iter([(v, 1)]),
        }
    }
    pub(crate) fn add(mut self, o: &Form, sign: i128) -> Form {
        self.konst += sign * o.konst;
        for (v, k) in &o.terms {
            *self.terms.entry(*v).or_insert(0) += sign * k;
        }
        self.terms.retain(|_, k| *k != 0);
        self
    }
    pub(crate) fn scale(mut self, s: i128) -> Form {
        self.konst *= s;
        for k in self.terms.values_mut() {
            *k *= s;
        }
        self.terms.retain(|_, k| *k != 0);
        self
    }
}

/// The counter of the loop being rewritten and its range, for the sign-extension idiom
/// (`lo > hi`: no range known, the idiom stays a leaf).
pub struct Counter {
    pub iv: Value,
    pub lo: i128,
    pub hi: i128,
}

/// The exact affine form of the integer `v` (a leaf where nothing is proven).
pub(crate) fn form(v: Value, ctr: &Counter, depth: u32) -> Form {
    if let Some(k) = v.const_int_value() {
        return Form {
            konst: k as i128,
            terms: HashMap::default(),
        };
    }
    if depth == 0 || !v.is_instruction() {
        return Form::leaf(v);
    }
    let go = |x: Value| form(x, ctr, depth - 1);
    let cst = |x: Value| x.const_int_value().map(|k| k as i128);
    match v.opcode() {
        Some(Opcode::LLVMAdd) if v.has_nsw() => go(v.operand(0)).add(&go(v.operand(1)), 1),
        Some(Opcode::LLVMSub) if v.has_nsw() => go(v.operand(0)).add(&go(v.operand(1)), -1),
        Some(Opcode::LLVMOr) if v.is_disjoint() => go(v.operand(0)).add(&go(v.operand(1)), 1),
        Some(Opcode::LLVMOr) if or_disjoint(v, ctr, depth) => {
            go(v.operand(0)).add(&go(v.operand(1)), 1)
        }
        Some(Opcode::LLVMShl) if v.has_nsw() => match cst(v.operand(1)) {
            Some(s) if (0..62).contains(&s) => go(v.operand(0)).scale(1i128 << s),
            _ => Form::leaf(v),
        },
        // The counter shifted without flags, exact while its range fits.
        Some(Opcode::LLVMShl)
            if v.operand(0) == ctr.iv
                && ctr.lo <= ctr.hi
                && ctr.lo >= 0
                && cst(v.operand(1)).is_some_and(|s| {
                    let w = v.ty().int_width().unwrap_or(0) as i128;
                    (0..62).contains(&s) && s + 1 < w && (ctr.hi << s) < (1i128 << (w - 1))
                }) =>
        {
            Form::leaf(ctr.iv).scale(1i128 << cst(v.operand(1)).unwrap_or(0))
        }
        Some(Opcode::LLVMMul) if v.has_nsw() => match (cst(v.operand(0)), cst(v.operand(1))) {
            (None, Some(k)) => go(v.operand(0)).scale(k),
            (Some(k), None) => go(v.operand(1)).scale(k),
            _ => Form::leaf(v),
        },
        // `x & (2^k - 1)` is `x` when x is `counter + konst` and stays in [0, 2^k)
        // over the counter's range (instcombine's spelling of `zext(trunc(x))`).
        Some(Opcode::LLVMAnd) => {
            let mask = cst(v.operand(1)).filter(|m| *m > 0 && (m + 1) & m == 0);
            let x = go(v.operand(0));
            let exact = x.terms.len() == 1
                && x.terms.get(&ctr.iv) == Some(&1)
                && ctr.lo <= ctr.hi
                && mask.is_some_and(|m| ctr.lo + x.konst >= 0 && ctr.hi + x.konst <= m);
            if exact {
                x
            } else {
                mask.and_then(|m| masked_sum(v.operand(0), m, ctr, depth))
                    .unwrap_or_else(|| Form::leaf(v))
            }
        }
        Some(Opcode::LLVMSExt) => go(v.operand(0)),
        Some(Opcode::LLVMZExt) if v.has_nneg() => go(v.operand(0)),
        Some(Opcode::LLVMTrunc) if v.has_nsw() => go(v.operand(0)),
        // `ashr exact (shl x, s), s`: sext(trunc(x)) = x when x fits in w - s bits.
        Some(Opcode::LLVMAShr) if v.is_exact() => {
            let (inner, s) = (v.operand(0), cst(v.operand(1)));
            let w = v.ty().int_width().unwrap_or(0) as i128;
            let fits = |s: i128| {
                let h = 1i128 << (w - s - 1).clamp(0, 126);
                w > s && ctr.lo <= ctr.hi && -h <= ctr.lo && ctr.hi < h
            };
            match s {
                Some(s)
                    if inner.opcode() == Some(Opcode::LLVMShl)
                        && cst(inner.operand(1)) == Some(s)
                        && inner.operand(0) == ctr.iv
                        && fits(s) =>
                {
                    Form::leaf(ctr.iv)
                }
                _ => Form::leaf(v),
            }
        }
        _ => Form::leaf(v),
    }
}

/// Whether the `or` `v` (without `disjoint`) adds: `(x << k) | y` with `y` in `[0, 2^k)`
/// over the counter's range, so that no bit is common (instcombine's spelling of the
/// interleaved index `2j | 64i` in a reverse loop, with the flags dropped).
fn or_disjoint(v: Value, ctr: &Counter, depth: u32) -> bool {
    if v.opcode() != Some(Opcode::LLVMOr) || depth == 0 {
        return false;
    }
    let low_zero = |x: Value| {
        (x.opcode() == Some(Opcode::LLVMShl))
            .then(|| x.operand(1).const_int_value())
            .flatten()
            .map(|k| k as i128)
            .filter(|k| (0..62).contains(k))
    };
    let below = |y: Value, k: i128| {
        let f = form(y, ctr, depth - 1);
        let a = f.terms.get(&ctr.iv).copied().unwrap_or(0);
        f.terms.len() == 1
            && a > 0
            && ctr.lo <= ctr.hi
            && a * ctr.lo + f.konst >= 0
            && a * ctr.hi + f.konst < (1i128 << k)
    };
    let (x, y) = (v.operand(0), v.operand(1));
    low_zero(x).is_some_and(|k| below(y, k)) || low_zero(y).is_some_and(|k| below(x, k))
}

/// Gives `disjoint` to the `or`s of the index `v` that [`form`] read as sums without it
/// (`or_disjoint`), so that LLVM's scalar evolution reads the address as affine too
/// (LoopVectorize: "cannot identify array bounds" otherwise). Returns how many.
pub(crate) fn mark_disjoint(v: Value, ctr: &Counter, depth: u32) -> usize {
    if depth == 0 || !v.is_instruction() {
        return 0;
    }
    let mut n = 0;
    if matches!(
        v.opcode(),
        Some(
            Opcode::LLVMOr
                | Opcode::LLVMAdd
                | Opcode::LLVMShl
                | Opcode::LLVMSExt
                | Opcode::LLVMZExt
                | Opcode::LLVMTrunc
        )
    ) {
        for k in 0..v.num_operands().min(2) {
            n += mark_disjoint(v.operand(k), ctr, depth - 1);
        }
    }
    if !v.is_disjoint() && or_disjoint(v, ctr, depth) {
        v.set_disjoint();
        n += 1;
    }
    n
}

/// Rewrites the single-index GEPs of `blocks` whose index differs by a constant from an
/// earlier GEP of the same block, base and element type. Returns how many.
pub fn anchor_neighbours(m: Module, blocks: &[Block], ctr: &Counter) -> usize {
    let b = Builder::new(m.context());
    let mut n = 0;
    for blk in blocks {
        // (base, element type, index form, anchor gep)
        let mut anchors: Vec<(Value, Type, Form, Value)> = Vec::new();
        for g in blk.instructions() {
            if g.opcode() != Some(Opcode::LLVMGetElementPtr) || g.num_operands() != 2 {
                continue;
            }
            let (base, idx) = (g.operand(0), g.operand(1));
            if !idx.ty().is_integer() || idx.ty().int_width() != Some(64) {
                continue;
            }
            let ty = g.gep_source_type();
            let f = form(idx, ctr, 12);
            let hit = anchors.iter().find_map(|(ab, at, af, a)| {
                if *ab != base || *at != ty || af.terms != f.terms {
                    return None;
                }
                Some((*a, f.konst - af.konst))
            });
            match hit {
                Some((a, k)) => {
                    b.position_before(g);
                    let off = [m.context().i64().const_i64(k as i64)];
                    let r = if g.is_inbounds() && a.is_inbounds() {
                        b.inbounds_gep(ty, a, &off)
                    } else {
                        b.gep(ty, a, &off)
                    };
                    r.set_name(&g.name());
                    g.replace_all_uses_with(r);
                    g.erase();
                    n += 1;
                }
                None => anchors.push((base, ty, f, g)),
            }
        }
    }
    n
}

/// `(y + K) & m` with `m = 2^k - 1`, `y` exactly `counter + c` and the add without
/// `nsw` (instcombine's spelling of `zext(trunc(j - 1))`: `(j + 0xffffffff) &
/// 0xffffffff`): the mask keeps the sum modulo 2^k whatever the add wrapped, so the value
/// is `counter + c'` for the `c' = c + K (mod 2^k)` that keeps `counter + c'` in
/// `[0, m]` over the counter's whole range; `None` when no such `c'` exists.
fn masked_sum(a: Value, m: i128, ctr: &Counter, depth: u32) -> Option<Form> {
    if a.opcode() != Some(Opcode::LLVMAdd) || depth < 2 || ctr.lo > ctr.hi {
        return None;
    }
    let (y, k) = match (
        a.operand(0).const_int_value(),
        a.operand(1).const_int_value(),
    ) {
        (None, Some(k)) => (a.operand(0), k),
        (Some(k), None) => (a.operand(1), k),
        _ => return None,
    };
    let w = a.ty().int_width()? as u32;
    // The constant as the add's w-bit value (`const_int_value` sign-extends).
    let k = if w >= 64 {
        k as i128
    } else {
        (k as i128) & ((1i128 << w) - 1)
    };
    let modulus = m.checked_add(1)?;
    if modulus > (1i128 << w.min(64)) {
        return None;
    }
    let x = form(y, ctr, depth - 1);
    if x.terms.len() != 1 || x.terms.get(&ctr.iv) != Some(&1) {
        return None;
    }
    let mut c = (x.konst + k).rem_euclid(modulus);
    if ctr.hi + c > m {
        c -= modulus;
    }
    (ctr.lo + c >= 0 && ctr.hi + c <= m).then(|| Form {
        konst: c,
        terms: x.terms,
    })
}
