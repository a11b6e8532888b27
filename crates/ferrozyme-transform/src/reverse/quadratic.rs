//! Quadratic indices stepped back by differences: a product of two integers that are
//! both affine in a counted induction variable (`counters.rs`) is a quadratic in it, and
//! the reverse sweep, which counts that variable down, steps the product back with two
//! subtractions instead of recomputing it per iteration.
//!
//! GMM's packed-triangle gather `l[c * (2d - c - 1) / 2 + r - c - 1]` (clang writes the
//! product `mul (trunc c), (add (shl d, 1), (xor (trunc c), -1))`) recomputed the index
//! per entry in the reverse row loop: `xor`, two `add`s, `mul`, the halving, the final
//! `add` and `sext`, where the primal's forward order lets LLVM share some of them and
//! SCEV cannot strength-reduce a non-affine product (nor the division) in either
//! direction (gmm17, candidate 2).
//!
//! For `a = k1 i + A`, `b = k2 i + B` (`k1`, `k2` non-zero constants, `A`, `B` defined
//! outside the loop) and a counter `i` that steps by `s`, `P(i) = a b` satisfies, with
//! `a' = a - k1 s`, `b' = b - k2 s` the factors one iteration earlier:
//!
//! * `P(i) - P(i - s) = a b - a' b' = D(i) = s (k2 a + k1 b - k1 k2 s)`;
//! * `D(i) - D(i - s) = 2 k1 k2 s^2`, a constant.
//!
//! These are identities of polynomials with integer coefficients, so they hold modulo
//! `2^w` too: the wrapped product the primal computes (whatever its flags: where a flag
//! made it poison, the primal's own use was undefined) is exactly what the slot holds.
//! Truncations are ring homomorphisms, so `trunc i` is affine with the same coefficient
//! (the counter's step wraps the same way); extensions are not and stop the match.
//!
//! The reverse sweep keeps `P` and `D` of the iteration being reversed in two slots: set
//! where the counter is set (entering the loop backwards, from the counter's exit value:
//! the factors evaluated there, one `mul`), stepped where the counter steps
//! (`count_down`: `P -= D`, `D -= 2 k1 k2 s^2`). Only products whose value feeds an
//! address (a GEP, through integer arithmetic) are taken: those are the ones the
//! reverse sweep reads per iteration.

use ferrozyme_analysis::loops::Loop;
use ferrozyme_llvm::{Opcode, Value};

use super::Gen;

/// Bound on the nodes of one factor's expression.
const MAX_NODES: u32 = 16;
/// Bound on the integer instructions between the product and the address it feeds.
const MAX_DEPTH: u32 = 6;

/// One product stepped back (see the module essay).
pub(crate) struct Quadratic {
    /// The counted induction variable the factors are affine in.
    pub iv: Value,
    pub factors: [Value; 2],
    /// Coefficients of `iv` in the two factors (modulo `2^w`).
    pub coef: [i64; 2],
    /// Holds `P` of the iteration being reversed.
    pub p_slot: Value,
    /// Holds `D`: `P` minus `P` of the iteration before.
    pub d_slot: Value,
    /// Rank among the products, in the order they were found (their map iterates
    /// differently each run).
    pub order: usize,
}

impl Gen<'_> {
    /// Finds the products to step back; after `setup_counters`.
    pub(super) fn setup_quadratics(&mut self) {
        let mut ivs: Vec<(usize, Value)> = self
            .flow
            .counters
            .iter()
            .map(|(iv, c)| (c.order, *iv))
            .collect();
        ivs.sort_by_key(|x| x.0);
        for (_, iv) in ivs {
            let c = &self.flow.counters[&iv];
            let Some(l) = self.fx.loops.loops.iter().find(|l| l.header == c.header) else {
                continue;
            };
            let l = l.clone();
            for blk in l.blocks_in(&self.fx.cfg.blocks) {
                for m in blk.instructions() {
                    if m.opcode() != Some(Opcode::LLVMMul)
                        || self.flow.quadratics.contains_key(&m)
                        || !m.ty().int_width().is_some_and(|w| w <= 64)
                        || !feeds_address(m, MAX_DEPTH)
                    {
                        continue;
                    }
                    let (a, b) = (m.operand(0), m.operand(1));
                    let mut nodes = 0;
                    let Some(ka) = self.coefficient(a, iv, &l, &mut nodes) else {
                        continue;
                    };
                    let Some(kb) = self.coefficient(b, iv, &l, &mut nodes) else {
                        continue;
                    };
                    if ka == 0 || kb == 0 {
                        continue;
                    }
                    self.add_quadratic(m, iv, [a, b], [ka, kb]);
                    self.find_stepped_indices(m, iv, [ka, kb], &l);
                }
            }
        }
    }

    fn add_quadratic(&mut self, m: Value, iv: Value, factors: [Value; 2], coef: [i64; 2]) {
        let p_slot = self.out.eb.alloca(m.ty(), &format!("{}.quad", m.name()));
        let d_slot = self
            .out
            .eb
            .alloca(m.ty(), &format!("{}.quad.step", m.name()));
        self.sup.remarks.note(
            ferrozyme_llvm::RemarkKind::RecomputedValue,
            self.fx.req.func,
            m,
            || {
                "stepped back by differences: a product of two factors affine in the loop \
                 counter (a quadratic index)"
                    .to_string()
            },
        );
        let order = self.flow.quadratics.len();
        self.flow.quadratics.insert(
            m,
            Quadratic {
                iv,
                factors,
                coef,
                p_slot,
                d_slot,
                order,
            },
        );
    }

    /// The coefficient of `iv` in `v` when `v` is `k iv + A` modulo `2^w` with `A`
    /// defined outside loop `l` (0: `v` itself is), built from `iv`, values defined
    /// outside `l`, `+`, `-`, `xor -1`, multiplication or shift by a constant, and
    /// truncation; `None` otherwise.
    pub(super) fn coefficient(
        &self,
        v: Value,
        iv: Value,
        l: &Loop,
        nodes: &mut u32,
    ) -> Option<i64> {
        self.coefficient_zeroing(v, iv, None, l, nodes)
    }

    /// [`Gen::coefficient`] with the value `zeroed` (an inner loop's counter, when `l`
    /// is an outer loop) standing for 0: the coefficient of `iv` in the part of `v`
    /// independent of `zeroed` (stepped_index.rs, the guard hoisted to the outer loop).
    pub(super) fn coefficient_zeroing(
        &self,
        v: Value,
        iv: Value,
        zeroed: Option<Value>,
        l: &Loop,
        nodes: &mut u32,
    ) -> Option<i64> {
        if v == iv {
            return Some(1);
        }
        if Some(v) == zeroed {
            return Some(0);
        }
        *nodes += 1;
        if *nodes > MAX_NODES {
            return None;
        }
        if !v.is_instruction() {
            return (v.is_argument() || v.const_int_value().is_some()).then_some(0);
        }
        if !l.blocks.contains(&v.parent_block()) {
            return Some(0);
        }
        v.ty().int_width().filter(|w| *w <= 64)?;
        let mut k = |x: Value| self.coefficient_zeroing(x, iv, zeroed, l, nodes);
        use Opcode::*;
        match v.opcode()? {
            LLVMAdd => Some(k(v.operand(0))?.wrapping_add(k(v.operand(1))?)),
            LLVMSub => Some(k(v.operand(0))?.wrapping_sub(k(v.operand(1))?)),
            LLVMXor if v.operand(1).const_int_value() == Some(-1) => {
                Some(k(v.operand(0))?.wrapping_neg())
            }
            LLVMMul => {
                let (x, y) = (v.operand(0), v.operand(1));
                let (c, other) = match (x.const_int_value(), y.const_int_value()) {
                    (_, Some(c)) => (c, x),
                    (Some(c), _) => (c, y),
                    _ => return None,
                };
                Some(k(other)?.wrapping_mul(c))
            }
            LLVMShl => {
                let j = v
                    .operand(1)
                    .const_int_value()
                    .filter(|j| (0..64).contains(j))?;
                Some(k(v.operand(0))?.wrapping_shl(j as u32))
            }
            LLVMTrunc => k(v.operand(0)),
            _ => None,
        }
    }

    /// `v` (a factor, see [`Gen::coefficient`]) with `iv` replaced by `iv_value`, at the
    /// reverse builder's position. Flags are dropped: the value may be computed for an
    /// exit value the loop never ran with (it is then not read).
    pub(super) fn emit_factor(&mut self, v: Value, iv: Value, iv_value: Value, l: &Loop) -> Value {
        self.emit_factor_zeroing(v, iv, iv_value, None, l)
    }

    /// [`Gen::emit_factor`] with `zeroed` replaced by 0 (see [`Gen::coefficient_zeroing`]).
    pub(super) fn emit_factor_zeroing(
        &mut self,
        v: Value,
        iv: Value,
        iv_value: Value,
        zeroed: Option<Value>,
        l: &Loop,
    ) -> Value {
        if v == iv {
            return iv_value;
        }
        if Some(v) == zeroed {
            return v.ty().const_i64(0);
        }
        if !v.is_instruction() || !l.blocks.contains(&v.parent_block()) {
            return self.fetch(v);
        }
        let mut e = |x: Value| self.emit_factor_zeroing(x, iv, iv_value, zeroed, l);
        use Opcode::*;
        match v.opcode() {
            Some(LLVMAdd) => {
                let (x, y) = (e(v.operand(0)), e(v.operand(1)));
                self.b.add(x, y)
            }
            Some(LLVMSub) => {
                let (x, y) = (e(v.operand(0)), e(v.operand(1)));
                self.b.sub(x, y)
            }
            Some(LLVMXor) => {
                let x = e(v.operand(0));
                self.b.xor(x, v.operand(1))
            }
            Some(LLVMMul) => {
                let (x, y) = (e(v.operand(0)), e(v.operand(1)));
                self.b.mul(x, y)
            }
            Some(LLVMShl) => {
                let x = e(v.operand(0));
                let j = v
                    .operand(1)
                    .const_int_value()
                    .expect("checked by coefficient");
                self.b.mul(x, v.ty().const_i64(1i64.wrapping_shl(j as u32)))
            }
            Some(LLVMTrunc) => {
                let x = e(v.operand(0));
                self.b.trunc(x, v.ty())
            }
            _ => unreachable!("checked by coefficient"),
        }
    }

    /// The product in the reverse sweep inside its counter's loop: the slot.
    pub(super) fn quadratic_value(&mut self, m: Value) -> Option<Value> {
        let q = self.flow.quadratics.get(&m)?;
        let c = self.flow.counters.get(&q.iv)?;
        let here = self.flow.rev_ctx?;
        if !c.blocks.contains(&here) {
            return None;
        }
        let slot = q.p_slot;
        Some(self.b.load(m.ty(), slot, &format!("{}.quad", m.name())))
    }

    /// Where counter `iv` starts from `iv_value` (the reverse block of an exit block):
    /// the slots of the products over it and the values they start from.
    pub(super) fn quadratic_inits(&mut self, iv: Value, iv_value: Value) -> Vec<(Value, Value)> {
        let found = in_order(&self.flow.quadratics, |q| (q.iv == iv).then_some(q.order));
        let Some(l) = self.loop_of_counter(iv) else {
            return Vec::new();
        };
        let step = self.flow.counters[&iv].step;
        let mut out = Vec::new();
        for m in found {
            let q = &self.flow.quadratics[&m];
            let ([fa, fb], [ka, kb], p_slot, d_slot) = (q.factors, q.coef, q.p_slot, q.d_slot);
            let a = self.emit_factor(fa, iv, iv_value, &l);
            let b = self.emit_factor(fb, iv, iv_value, &l);
            let p = self.b.mul(a, b);
            // D = s (k2 a + k1 b - k1 k2 s)
            let ty = m.ty();
            let ta = self.b.mul(a, ty.const_i64(kb));
            let tb = self.b.mul(b, ty.const_i64(ka));
            let sum = self.b.add(ta, tb);
            let kk = ka.wrapping_mul(kb).wrapping_mul(step);
            let inner = self.b.sub(sum, ty.const_i64(kk));
            let d = self.b.mul(inner, ty.const_i64(step));
            out.push((p_slot, p));
            out.push((d_slot, d));
            out.extend(self.stepped_inits(m, iv, iv_value, [a, b], &l));
        }
        out
    }

    /// At the end of the header's reverse block, beside the counters stepping back:
    /// `P -= D`, `D -= 2 k1 k2 s^2`.
    pub(super) fn quadratics_step_back(&mut self, header: ferrozyme_llvm::Block) {
        let counters = &self.flow.counters;
        let found = in_order(&self.flow.quadratics, |q| {
            (counters[&q.iv].header == header).then_some(q.order)
        });
        for m in found {
            let q = &self.flow.quadratics[&m];
            let step = self.flow.counters[&q.iv].step;
            let dd = 2i64
                .wrapping_mul(q.coef[0])
                .wrapping_mul(q.coef[1])
                .wrapping_mul(step)
                .wrapping_mul(step);
            let (p_slot, d_slot, ty) = (q.p_slot, q.d_slot, m.ty());
            let p = self.b.load(ty, p_slot, "fz.quad");
            let d = self.b.load(ty, d_slot, "fz.quad.step");
            let p_prev = self.b.sub(p, d);
            self.b.store(p_prev, p_slot);
            let d_prev = self.b.sub(d, ty.const_i64(dd));
            self.b.store(d_prev, d_slot);
        }
        self.stepped_step_back(header);
    }

    pub(super) fn loop_of_counter(&self, iv: Value) -> Option<Loop> {
        let header = self.flow.counters.get(&iv)?.header;
        self.fx
            .loops
            .loops
            .iter()
            .find(|l| l.header == header)
            .cloned()
    }
}

/// Does `v` reach the index of a GEP through at most `depth` integer instructions?
fn feeds_address(v: Value, depth: u32) -> bool {
    v.users().into_iter().any(|u| match u.opcode() {
        Some(Opcode::LLVMGetElementPtr) => true,
        Some(
            Opcode::LLVMAdd
            | Opcode::LLVMSub
            | Opcode::LLVMSDiv
            | Opcode::LLVMUDiv
            | Opcode::LLVMAShr
            | Opcode::LLVMLShr
            | Opcode::LLVMShl
            | Opcode::LLVMSExt
            | Opcode::LLVMZExt
            | Opcode::LLVMTrunc,
        ) => depth > 0 && feeds_address(u, depth - 1),
        _ => false,
    })
}

/// The keys of `map` whose entries `rank` gives a rank, in rank order (the maps iterate
/// differently each run; the code emitted from them must not).
pub(super) fn in_order<T>(
    map: &ferrozyme_analysis::hash::HashMap<Value, T>,
    rank: impl Fn(&T) -> Option<usize>,
) -> Vec<Value> {
    let mut found: Vec<(usize, Value)> = map
        .iter()
        .filter_map(|(k, v)| rank(v).map(|r| (r, *k)))
        .collect();
    found.sort_by_key(|f| f.0);
    found.into_iter().map(|f| f.1).collect()
}
