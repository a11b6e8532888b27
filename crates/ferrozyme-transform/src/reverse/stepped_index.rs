//! A packed-triangle index stepped back whole, in 64 bits, where a run-time guard shows
//! that the primal's 32-bit arithmetic did not wrap (issue 14, fused21).
//!
//! `quadratic.rs` steps a product `P = a b` of two factors affine in a counter back by
//! differences, exactly modulo `2^32`. GMM's packed index is more than the product:
//! `t = sext(P / 2 + q)` with `q` affine in the counter too (`r - c - 1`), and the reverse
//! still paid four instructions per entry for the rest (`mov`, `sar`, `add`, `movslq`,
//! gmm18/gmm19). Stepping `t` itself is exact only without wrapping: `ashr` of a wrapped
//! product is `P / 2` modulo `2^31` only, and the `sext` of a wrapped sum is not the sum
//! of the `sext`s (clang drops `nsw` from the product, so the IR does not rule wrapping
//! out).
//!
//! So the reverse keeps, beside `P` and `D`, three slots set where the counter is set
//! (entering the loop backwards at counter value `i_e`) and used only inside the loop:
//!
//! * `ok`: every value the loop's run computes is far from wrapping. With `a = k1 i + A`,
//!   `b = k2 i + B`, `q = kq i + Q` (modulo `2^32`; `A`, `B`, `Q` computed at `i_e` as
//!   `a(i_e) - k1 i_e` etc.) and `|k1|, |k2|, |kq| <= 3`: if `A`, `B`, `Q` (as signed
//!   32-bit values) and the counter's start and `i_e` (64-bit: every value the loop ran
//!   with lies between them) are all in `[-2^12, 2^12)`, then every factor and `q` is an
//!   exact integer of magnitude at most `2^14`, `|P| <= 2^28`, `|P / 2 + q| < 2^31`: no
//!   operation of the primal's index wrapped, and the `sdiv` is exact (the product is even,
//!   `cheap::is_exact_halving`). One `or` of the five biased values compared with `2^13`.
//! * `T`, the index of the iteration being reversed, as the exact integer `P / 2 + q`
//!   (64-bit arithmetic from the sign-extended factors);
//! * `E = T(i) - T(i - s) = D / 2 + kq s`, with `E(i) - E(i - s) = k1 k2 s^2`.
//!
//! Stepping back is `T -= E`, `E -= k1 k2 s^2` (wrapping adds: when `ok` is false their
//! values are not used). The reverse reads the index as `select ok, T, sext(P / 2 + q)`,
//! the second operand computed as before from the `P` slot: the same value whenever `ok`
//! holds, so the choice is one of speed only. `ok` is invariant in the loop, so LLVM's
//! non-trivial loop unswitching (`-O3`) makes two loops of it, one stepping `T` (the `P`
//! and `D` slots dead there) and one as before. Below `-O3` the pipeline does not
//! unswitch, so `ferrozyme cc` and `ferrozyme opt -O1/-O2` run that unswitching (and
//! `-O3`'s clean-up after it) on the marked selects' functions alone after their pipeline
//! ([`unswitch_guarded_loops`], gmm32: other functions' code stays what `-O2` makes of
//! it); the plugin, which runs no passes after clang's pipeline, replaces each marked
//! select by its second operand at every level ([`settle_guarded_indices`]).

use ferrozyme_analysis::loops::Loop;
use ferrozyme_llvm::{IntPredicate, Module, Opcode, Value};

use super::cheap::is_exact_halving;
use super::quadratic::in_order;
use super::Gen;

/// The metadata kind marking the selects [`settle_guarded_indices`] settles.
pub const MARK: &str = "ferrozyme.stepped_index";
/// The forward sweep's copy of an exact halving, marked `exact` (`forward.rs`); where `-O3`
/// unswitches, it is made a plain `sdiv` again (`settle_guarded_indices`).
pub const FORWARD_MARK: &str = "ferrozyme.forward_halving";

/// Largest coefficient of the counter (in magnitude) the window bound covers.
const MAX_COEF: i64 = 3;
/// The window: values in `[-2^WINDOW, 2^WINDOW)`.
const WINDOW: u32 = 12;

/// One index stepped back whole (see the module essay).
pub(crate) struct SteppedIndex {
    /// The product it is built from (a key of `flow.quadratics`).
    pub quad: Value,
    /// `P / 2 + q`, the operand of the `sext`.
    pub sum: Value,
    /// The affine part `q` and its coefficient.
    pub q: Value,
    pub kq: i64,
    /// The counter's value entering the loop (defined before it).
    pub start: Value,
    pub t_slot: Value,
    pub e_slot: Value,
    pub ok_slot: Value,
    pub order: usize,
}

impl Gen<'_> {
    /// After `add_quadratic(m)`: the `sext(m / 2 + q)` indices over it that may be
    /// stepped whole. `coef` are the factors' coefficients, `l` the counter's loop.
    pub(super) fn find_stepped_indices(&mut self, m: Value, iv: Value, coef: [i64; 2], l: &Loop) {
        let step = self.flow.counters[&iv].step;
        let small = |k: i64| (-MAX_COEF..=MAX_COEF).contains(&k);
        if m.ty().int_width() != Some(32)
            || iv.ty().int_width() != Some(64)
            || !coef.iter().all(|k| small(*k))
            || !small(step)
        {
            return;
        }
        // The value the counter enters the loop with: from its one predecessor outside.
        let Some(entry) = l.entry else {
            return;
        };
        let outside: Vec<Value> = iv
            .incoming()
            .into_iter()
            .filter(|(_, b)| !l.blocks.contains(b))
            .map(|(v, _)| v)
            .collect();
        let (Some(&start), 1) = (outside.first(), outside.len()) else {
            return;
        };
        if !iv
            .incoming()
            .iter()
            .any(|(v, b)| *v == start && *b == entry)
        {
            return;
        }
        let in_loop = |v: Value| v.is_instruction() && l.blocks.contains(&v.parent_block());
        for h in m.users() {
            if h.opcode() != Some(Opcode::LLVMSDiv) || !is_exact_halving(h) || !in_loop(h) {
                continue;
            }
            for sum in h.users() {
                if sum.opcode() != Some(Opcode::LLVMAdd) || !in_loop(sum) {
                    continue;
                }
                let q = if sum.operand(0) == h {
                    sum.operand(1)
                } else {
                    sum.operand(0)
                };
                let mut nodes = 0;
                let Some(kq) = self.coefficient(q, iv, l, &mut nodes).filter(|k| small(*k)) else {
                    continue;
                };
                for x in sum.users() {
                    if x.opcode() != Some(Opcode::LLVMSExt)
                        || x.ty().int_width() != Some(64)
                        || self.flow.stepped.contains_key(&x)
                    {
                        continue;
                    }
                    let eb = &self.out.eb;
                    let t_slot = eb.alloca(x.ty(), &format!("{}.index", x.name()));
                    let e_slot = eb.alloca(x.ty(), &format!("{}.index.step", x.name()));
                    let ok_slot = eb.alloca(x.ty().context().i1(), "fz.index.ok");
                    self.sup.remarks.note(
                        ferrozyme_llvm::RemarkKind::RecomputedValue,
                        self.fx.req.func,
                        x,
                        || {
                            "stepped back whole where the loop's index arithmetic \
                             does not wrap (a guarded packed index)"
                                .to_string()
                        },
                    );
                    let order = self.flow.stepped.len();
                    self.flow.stepped.insert(
                        x,
                        SteppedIndex {
                            quad: m,
                            sum,
                            q,
                            kq,
                            start,
                            t_slot,
                            e_slot,
                            ok_slot,
                            order,
                        },
                    );
                }
            }
        }
    }

    /// Where counter `iv` starts from `iv_value`: the stepped indices' slots and their
    /// values, from the factors `a`, `b` of product `m` evaluated there.
    pub(super) fn stepped_inits(
        &mut self,
        m: Value,
        iv: Value,
        iv_value: Value,
        ab: [Value; 2],
        l: &Loop,
    ) -> Vec<(Value, Value)> {
        let found = in_order(&self.flow.stepped, |s| (s.quad == m).then_some(s.order));
        let [ka, kb] = self.flow.quadratics[&m].coef;
        let step = self.flow.counters[&iv].step;
        let mut out = Vec::new();
        for x in found {
            let s = &self.flow.stepped[&x];
            let (q, kq, start) = (s.q, s.kq, s.start);
            let (t_slot, e_slot, ok_slot) = (s.t_slot, s.e_slot, s.ok_slot);
            let (i32t, i64t) = (m.ty(), x.ty());
            let qv = self.emit_factor(q, iv, iv_value, l);
            let start = self.fetch(start);
            // The parts independent of the counter, A = a - k1 i_e (modulo 2^32).
            let iv32 = self.b.trunc(iv_value, i32t);
            let mut biased = Vec::new();
            for (v, k) in [(ab[0], ka), (ab[1], kb), (qv, kq)] {
                let ki = self.b.mul(iv32, i32t.const_i64(k));
                let c = self.b.sub(v, ki);
                biased.push(self.b.sext(c, i64t));
            }
            biased.push(iv_value);
            biased.push(start);
            let half = i64t.const_i64(1 << WINDOW);
            let mut any = None;
            for v in biased {
                let v = self.b.add(v, half);
                any = Some(match any {
                    None => v,
                    Some(a) => self.b.or(a, v),
                });
            }
            let any = any.expect("five values");
            let ok = self
                .b
                .icmp(IntPredicate::LLVMIntULT, any, i64t.const_i64(2 << WINDOW));
            // T = a b / 2 + q and E = D / 2 + kq s, D = s (k2 a + k1 b - k1 k2 s), exact
            // integers when `ok` holds (both products even).
            let a = self.b.sext(ab[0], i64t);
            let b = self.b.sext(ab[1], i64t);
            let q64 = self.b.sext(qv, i64t);
            let p = self.b.mul(a, b);
            let p_half = self.b.binop(Opcode::LLVMAShr, p, i64t.const_i64(1));
            let t = self.b.add(p_half, q64);
            let ta = self.b.mul(a, i64t.const_i64(kb));
            let tb = self.b.mul(b, i64t.const_i64(ka));
            let sum = self.b.add(ta, tb);
            let inner = self.b.sub(sum, i64t.const_i64(ka * kb * step));
            let d = self.b.mul(inner, i64t.const_i64(step));
            let d_half = self.b.binop(Opcode::LLVMAShr, d, i64t.const_i64(1));
            let e = self.b.add(d_half, i64t.const_i64(kq * step));
            out.push((t_slot, t));
            out.push((e_slot, e));
            out.push((ok_slot, ok));
        }
        out
    }

    /// At the end of the header's reverse block, beside the products: `T -= E`,
    /// `E -= k1 k2 s^2`.
    pub(super) fn stepped_step_back(&mut self, header: ferrozyme_llvm::Block) {
        let (quads, counters) = (&self.flow.quadratics, &self.flow.counters);
        let found = in_order(&self.flow.stepped, |s| {
            (counters[&quads[&s.quad].iv].header == header).then_some(s.order)
        });
        for x in found {
            let s = &self.flow.stepped[&x];
            let quad = &self.flow.quadratics[&s.quad];
            let step = self.flow.counters[&quad.iv].step;
            let ee = quad.coef[0] * quad.coef[1] * step * step;
            let (t_slot, e_slot, ty) = (s.t_slot, s.e_slot, x.ty());
            let t = self.b.load(ty, t_slot, "fz.index");
            let e = self.b.load(ty, e_slot, "fz.index.step");
            let t_prev = self.b.sub(t, e);
            self.b.store(t_prev, t_slot);
            let e_prev = self.b.sub(e, ty.const_i64(ee));
            self.b.store(e_prev, e_slot);
        }
    }

    /// The index in the reverse sweep inside its counter's loop: `select ok, T, sext(P / 2
    /// + q)`, marked for [`settle_guarded_indices`].
    pub(super) fn stepped_value(&mut self, x: Value) -> Option<Value> {
        let s = self.flow.stepped.get(&x)?;
        let iv = self.flow.quadratics[&s.quad].iv;
        let here = self.flow.rev_ctx?;
        if !self.flow.counters.get(&iv)?.blocks.contains(&here) {
            return None;
        }
        let (sum, t_slot, ok_slot, ty) = (s.sum, s.t_slot, s.ok_slot, x.ty());
        let ok = self.b.load(ty.context().i1(), ok_slot, "fz.index.ok");
        let t = self.b.load(ty, t_slot, "fz.index");
        let exact = self.fetch(sum);
        let exact = self.b.sext(exact, ty);
        let v = self.b.select(ok, t, exact);
        let ctx = ty.context();
        v.set_metadata(ctx.md_kind(MARK), Some(ctx.md_node(&[])));
        Some(v)
    }
}

/// The instructions of `module` that carry metadata of kind `mark`.
fn marked_instructions(module: Module, mark: u32) -> Vec<Value> {
    module
        .functions()
        .into_iter()
        .flat_map(|f| f.blocks())
        .flat_map(|b| b.instructions())
        .filter(|i| i.metadata(mark).is_some())
        .collect()
}

/// Who turns the loops of the marked selects into two (the one stepping `T` and the one
/// as before), chosen by the driver before the post-AD pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuardedIndices {
    /// The pipeline itself (`-O3`: non-trivial loop unswitching): the selects stay and
    /// only lose their mark.
    PipelineUnswitches,
    /// The driver, after a pipeline that does not (`ferrozyme cc`/`opt` below `-O3`): the
    /// selects stay, marked, their functions get [`UNSWITCH_ATTR`], and
    /// [`unswitch_guarded_loops`] unswitches the loops of the functions that hold either
    /// after the pipeline (the mark follows a select inlined into a caller, the attribute
    /// a select the pipeline rebuilt without its metadata).
    UnswitchAfterPipeline,
    /// Nobody (the plugin, which runs no passes of its own after clang's pipeline): each
    /// select becomes its second operand, the index computed as before, and the stepped
    /// slots are dead.
    Folded,
}

/// Marks a function whose guarded loops [`unswitch_guarded_loops`] splits after the
/// post-AD pipeline.
pub const UNSWITCH_ATTR: &str = "ferrozyme-unswitch-guarded";

/// What runs on a marked function after the post-AD pipeline: the guarded loops split by
/// their invariant `ok`, then the clean-up `-O3` does after its unswitching (the `P` and
/// `D` slots' phis dead in the stepped copy, the copies' branches folded).
const UNSWITCH_PASSES: &str =
    "loop-mssa(simple-loop-unswitch<nontrivial>),instcombine<no-verify-fixpoint>,adce,simplifycfg";

/// Before the post-AD pipeline: settles every marked select as `how` says (see
/// [`GuardedIndices`]). Returns the number of selects.
pub fn settle_guarded_indices(module: Module, how: GuardedIndices) -> usize {
    let mark = module.context().md_kind(MARK);
    let marked = marked_instructions(module, mark);
    for s in &marked {
        match how {
            GuardedIndices::PipelineUnswitches => s.set_metadata(mark, None),
            GuardedIndices::UnswitchAfterPipeline => {
                s.parent_function().add_string_fn_attr(UNSWITCH_ATTR, "");
            }
            GuardedIndices::Folded => {
                s.replace_all_uses_with(s.operand(2));
                s.erase();
            }
        }
    }
    settle_forward_halvings(module, how == GuardedIndices::PipelineUnswitches);
    marked.len()
}

/// After the post-AD pipeline: unswitches the loops of every function that holds a
/// marked select or carries [`UNSWITCH_ATTR`] (see
/// [`GuardedIndices::UnswitchAfterPipeline`]), and removes both marks. Returns the number
/// of functions.
pub fn unswitch_guarded_loops(module: Module) -> Result<usize, String> {
    let mark = module.context().md_kind(MARK);
    let mut functions: Vec<Value> = Vec::new();
    for s in marked_instructions(module, mark) {
        s.set_metadata(mark, None);
        let f = s.parent_function();
        if !functions.contains(&f) {
            functions.push(f);
        }
    }
    for f in module.functions() {
        if f.has_string_fn_attr(UNSWITCH_ATTR) {
            f.remove_string_fn_attr(UNSWITCH_ATTR);
            if !functions.contains(&f) && !f.blocks().is_empty() {
                functions.push(f);
            }
        }
    }
    for f in &functions {
        ferrozyme_llvm::run_function_passes(*f, UNSWITCH_PASSES)?;
    }
    Ok(functions.len())
}

/// The forward sweep's exact halvings: kept `exact` below `-O3` (one shift instead of the
/// rounding fix-up: gmm-fused's forward triangle 17 -> 14 instructions per entry, perf31);
/// at `-O3` a plain `sdiv` as the user wrote it (measured: the exact copy made gmm-fused's
/// gradient at `-O3 -march=x86-64-v3` 51.78M -> 54.48M instructions; cause not found).
fn settle_forward_halvings(module: Module, unswitch: bool) {
    let ctx = module.context();
    let mark = ctx.md_kind(FORWARD_MARK);
    for d in marked_instructions(module, mark) {
        d.set_metadata(mark, None);
        if unswitch {
            let b = ferrozyme_llvm::Builder::new(ctx);
            b.position_before(d);
            let plain = b.binop(Opcode::LLVMSDiv, d.operand(0), d.operand(1));
            d.replace_all_uses_with(plain);
            d.erase();
        }
    }
}
