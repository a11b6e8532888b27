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
//! `ok` checked per run of the loop cost GMM about 8 instructions per row and, with the
//! recomputing copy of the loop beside the stepped one in every row, registers (gmm33:
//! 2.5M of gmm-fused's 58.9M instructions per gradient call with no guard at all). So
//! where the loop sits in a counted loop with counter `J` and every checked value is
//! affine in `J` (`v = k J + V0` modulo its width, `|k| <= 3`: the parts `A`, `B`, `Q` with
//! the inner counter standing for 0, the counter's value on each exit, `bound - delta`
//! from its exit test, and its start), `ok` is decided once where the reverse enters the
//! outer loop ([`Gen::hoisted_guard_inits`]): both ends of `J` and each `V0` with `k != 0`
//! in `[-2^10, 2^10)`, each value with `k = 0` in `[-2^12, 2^12)`. Then `|k J + V0| <=
//! 3 2^10 + 2^10 = 2^12` for every `J` the outer loop ran with, exactly, so every run of
//! the inner loop would have passed its own check; the slot is invariant in the outer
//! loop, which LLVM can then unswitch whole (`-O3` does on GMM's shape; after `-O2` the
//! per-row branch is one compare of an invariant). Otherwise the check stays per run.
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
use super::counters::ExitValue;
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
/// The hoisted guard's window for the enclosing counter and the parts that vary with it:
/// `(MAX_COEF + 1) 2^HOISTED_WINDOW <= 2^WINDOW`.
const HOISTED_WINDOW: u32 = 10;
const _: () = assert!((MAX_COEF + 1) << HOISTED_WINDOW <= 1 << WINDOW);

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
    /// `ok` decided once where the enclosing loop's counter is set, for all its
    /// iterations (see the module essay), instead of per run of this loop.
    pub hoisted: Option<HoistedGuard>,
}

/// The guard of a [`SteppedIndex`] hoisted to the enclosing counted loop: every value the
/// per-run guard checks is `k J + V0` (modulo its width) in that loop's counter `J`.
#[derive(Clone)]
pub(crate) struct HoistedGuard {
    /// The enclosing loop's counter and the value it enters the loop with.
    pub outer: Value,
    pub outer_start: Value,
    pub parts: Vec<GuardPart>,
}

/// One value of the per-run guard as an expression of the enclosing loop: `expr - delta`
/// with the inner counter `zeroed` (when set) standing for 0; `k` its coefficient of `J`.
#[derive(Clone, Copy)]
pub(crate) struct GuardPart {
    pub expr: Value,
    pub zeroed: Option<Value>,
    pub delta: i64,
    pub k: i64,
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
        let Some(start) = counter_start(iv, l) else {
            return;
        };
        let factors = self.flow.quadratics[&m].factors;
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
                    let hoisted = self.hoisted_guard(iv, l, [factors[0], factors[1], q], start);
                    let once = hoisted.is_some();
                    self.sup.remarks.note(
                        ferrozyme_llvm::RemarkKind::RecomputedValue,
                        self.fx.req.func,
                        x,
                        || {
                            format!(
                                "stepped back whole where the loop's index arithmetic does \
                                 not wrap (a guarded packed index; the guard checked {})",
                                if once {
                                    "once for the enclosing loop"
                                } else {
                                    "per run of the loop"
                                }
                            )
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
                            hoisted,
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
            let hoisted = s.hoisted.is_some();
            let (i32t, i64t) = (m.ty(), x.ty());
            let qv = self.emit_factor(q, iv, iv_value, l);
            if !hoisted {
                let start = self.fetch(start);
                // The parts independent of the counter, A = a - k1 i_e (modulo 2^32).
                let iv32 = self.b.trunc(iv_value, i32t);
                let mut checked = Vec::new();
                for (v, k) in [(ab[0], ka), (ab[1], kb), (qv, kq)] {
                    let ki = self.b.mul(iv32, i32t.const_i64(k));
                    let c = self.b.sub(v, ki);
                    checked.push(self.b.sext(c, i64t));
                }
                checked.push(iv_value);
                checked.push(start);
                let ok = self.in_window(&checked, WINDOW).expect("five values");
                out.push((ok_slot, ok));
            }
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
        }
        out
    }

    /// `values` (64-bit) all in `[-2^bits, 2^bits)`: one `or` of the biased values
    /// compared with `2^(bits + 1)`; `None` for no values.
    fn in_window(&mut self, values: &[Value], bits: u32) -> Option<Value> {
        let ty = values.first()?.ty();
        let half = ty.const_i64(1 << bits);
        let mut any = None;
        for v in values {
            let v = self.b.add(*v, half);
            any = Some(match any {
                None => v,
                Some(a) => self.b.or(a, v),
            });
        }
        let any = any?;
        Some(
            self.b
                .icmp(IntPredicate::LLVMIntULT, any, ty.const_i64(2 << bits)),
        )
    }

    /// The guard of a stepped index over counter `iv` (loop `l`) as a check of the
    /// innermost enclosing counted loop, when every value the per-run guard checks (the
    /// parts of the factors and of `q` independent of `iv`, the counter's value on each
    /// exit, its start) is affine in that loop's counter with a coefficient of at most
    /// [`MAX_COEF`]. `per_run` are the two factors and `q`.
    fn hoisted_guard(
        &self,
        iv: Value,
        l: &Loop,
        per_run: [Value; 3],
        start: Value,
    ) -> Option<HoistedGuard> {
        let mut parts: Vec<(Value, Option<Value>, i64)> =
            per_run.iter().map(|v| (*v, Some(iv), 0)).collect();
        for (_, exit) in &self.flow.counters[&iv].exits {
            let ExitValue::Bound { bound, delta } = *exit else {
                return None;
            };
            parts.push((bound, None, delta));
        }
        if parts.len() == per_run.len() {
            return None;
        }
        parts.push((start, None, 0));
        let mut around: Vec<(usize, usize, Value, Loop)> = self
            .flow
            .counters
            .iter()
            .filter(|(j, c)| **j != iv && c.offset_of.is_none() && j.ty().int_width() == Some(64))
            .filter_map(|(j, c)| {
                let lo = self.loop_of_counter(*j)?;
                (lo.header != l.header && lo.blocks.contains(&l.header))
                    .then(|| (lo.blocks.len(), c.order, *j, lo))
            })
            .collect();
        around.sort_by_key(|a| (a.0, a.1));
        let innermost = around.first()?.0;
        'candidates: for (_, _, j, lo) in around.into_iter().take_while(|a| a.0 == innermost) {
            let Some(outer_start) = counter_start(j, &lo) else {
                continue;
            };
            let mut guard = Vec::new();
            for &(expr, zeroed, delta) in &parts {
                let mut nodes = 0;
                let k = self.coefficient_zeroing(expr, j, zeroed, &lo, &mut nodes);
                match k {
                    Some(k) if (-MAX_COEF..=MAX_COEF).contains(&k) => guard.push(GuardPart {
                        expr,
                        zeroed,
                        delta,
                        k,
                    }),
                    _ => continue 'candidates,
                }
            }
            return Some(HoistedGuard {
                outer: j,
                outer_start,
                parts: guard,
            });
        }
        None
    }

    /// Where counter `j` starts from `j_value` (entering its loop backwards): the hoisted
    /// guards over it. With `J` between the loop's start and `j_value` and each part `k J +
    /// V0`, `V0` taken at `j_value`: a part with `k = 0` is checked in the per-run window
    /// `[-2^12, 2^12)`; when some `k` is not 0, the other parts' `V0` and both ends of
    /// `J` are checked in `[-2^10, 2^10)`, so that `|k J + V0| <= 3 * 2^10 + 2^10` keeps
    /// every part of every run in the per-run window, exactly (no wrap), whatever run.
    pub(super) fn hoisted_guard_inits(&mut self, j: Value, j_value: Value) -> Vec<(Value, Value)> {
        let found = in_order(&self.flow.stepped, |s| {
            s.hoisted
                .as_ref()
                .is_some_and(|h| h.outer == j)
                .then_some(s.order)
        });
        let mut out = Vec::new();
        let Some(lo) = self.loop_of_counter(j) else {
            return out;
        };
        let i64t = j.ty();
        for x in found {
            let s = &self.flow.stepped[&x];
            let ok_slot = s.ok_slot;
            let h = s.hoisted.clone().expect("found by it");
            let mut wide = Vec::new();
            let mut narrow = Vec::new();
            for p in &h.parts {
                let ty = p.expr.ty();
                let mut v = self.emit_factor_zeroing(p.expr, j, j_value, p.zeroed, &lo);
                if p.delta != 0 {
                    v = self.b.sub(v, ty.const_i64(p.delta));
                }
                if p.k != 0 {
                    let jw = if ty == i64t {
                        j_value
                    } else {
                        self.b.trunc(j_value, ty)
                    };
                    let kj = self.b.mul(jw, ty.const_i64(p.k));
                    v = self.b.sub(v, kj);
                }
                if ty != i64t {
                    v = self.b.sext(v, i64t);
                }
                if p.k == 0 {
                    wide.push(v);
                } else {
                    narrow.push(v);
                }
            }
            if !narrow.is_empty() {
                narrow.push(j_value);
                narrow.push(self.fetch(h.outer_start));
            }
            let ok = match (
                self.in_window(&wide, WINDOW),
                self.in_window(&narrow, HOISTED_WINDOW),
            ) {
                (Some(a), Some(b)) => self.b.and(a, b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => unreachable!("a guard has parts"),
            };
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

/// The value a counted induction variable enters loop `l` with: its incoming value from
/// the loop's one predecessor outside.
fn counter_start(iv: Value, l: &Loop) -> Option<Value> {
    let entry = l.entry?;
    let outside: Vec<Value> = iv
        .incoming()
        .into_iter()
        .filter(|(_, b)| !l.blocks.contains(b))
        .map(|(v, _)| v)
        .collect();
    let (Some(&start), 1) = (outside.first(), outside.len()) else {
        return None;
    };
    iv.incoming()
        .iter()
        .any(|(v, b)| *v == start && *b == entry)
        .then_some(start)
}

/// The instructions of `module` that carry metadata of kind `mark`.
fn marked_instructions(module: Module, mark: u32) -> Vec<Value> {
    let [marked] = marked_by(module, [mark]);
    marked
}

/// The instructions of `module` carrying each of `marks`, in one walk of the module
/// (issue 18: each walk reads every instruction's metadata).
fn marked_by<const N: usize>(module: Module, marks: [u32; N]) -> [Vec<Value>; N] {
    let mut marked: [Vec<Value>; N] = std::array::from_fn(|_| Vec::new());
    for i in module
        .functions()
        .into_iter()
        .flat_map(|f| f.blocks())
        .flat_map(|b| b.instructions())
    {
        for (k, &mark) in marks.iter().enumerate() {
            if i.metadata(mark).is_some() {
                marked[k].push(i);
            }
        }
    }
    marked
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
    let ctx = module.context();
    let (mark, halving) = (ctx.md_kind(MARK), ctx.md_kind(FORWARD_MARK));
    // Marked selects and marked halvings are different instructions: neither list
    // loses a member to the other's settling.
    let [marked, halvings] = marked_by(module, [mark, halving]);
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
    settle_forward_halvings(
        module,
        halving,
        halvings,
        how == GuardedIndices::PipelineUnswitches,
    );
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
fn settle_forward_halvings(module: Module, mark: u32, halvings: Vec<Value>, unswitch: bool) {
    let ctx = module.context();
    for d in halvings {
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
