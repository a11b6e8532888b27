//! A falling reverse loop run upwards when its iterations commute (issue 14, bruss18:
//! the u/v Brusselator with users' `-O2 -ffast-math`).
//!
//! The reverse of a `+1` primal loop counts down, and LoopVectorize reverses every
//! vector it loads or stores in a loop that walks memory downwards (`shufpd` on SSE2: 18
//! of the 119 instructions of the Brusselator's reverse column loop, bruss17). When the
//! iterations commute, the same iterations can run in the other order. Here a
//! single-block loop whose counter steps `-1` over a known constant range
//! (`streams::counter_range`) starts at the old last value and steps `+1` instead, when:
//! * every phi but the counter is a sum: a chain of `reassoc` `fadd`s (or `fsub`s of
//!   the sum) from the phi to its incoming value, each link used once, the phi not used
//!   after the loop (only the final sum is, whose value does not depend on the order
//!   once its adds may be reassociated);
//! * every store is either a `reassoc` read-modify-write add (`streams::rmw`), which
//!   commutes with every other such add whatever it points to, or a plain store to an
//!   object every access of which in the loop is that one address, affine in the
//!   counter with a non-zero coefficient (the read-and-zero of a seed's own cell: each
//!   iteration touches its own cell only);
//! * every written object is the shadow of a `restrict` primal (`streams::carry`'s
//!   assumption: no other pointer reaches it), and every other load reads an identified
//!   object (argument, global, alloca) that the loop does not write;
//! * no call but pure ones (`memory(none)`): no tape stack (popped in order), no
//!   atomics, no tape access;
//! * values of the loop used after it are the counter, its `-1` step (they become the
//!   old exit constants) and the sums' final values.
//!
//! Only with fast-math: an add without `reassoc` (an exact stream, `stream_values.rs`)
//! keeps its order and refuses. Each refusal is pinned by a filetest
//! (`stream_upward_*.ll`). `streams::carry_loop` then carries rising windows.

use std::collections::HashSet;

use ferrozyme_analysis::loops::Loop;
use ferrozyme_llvm::fastmath::REASSOC;
use ferrozyme_llvm::{Block, Builder, Context, Opcode, Value};

use crate::affine_index::form;
use crate::streams::{counted_loop, effect_not_load_store, pure_call, rmw, underlying};

/// Runs loop `l` (single block) upwards if its iterations commute; returns whether it
/// did.
pub(crate) fn run_upward(ctx: Context, l: &Loop, shadows: &HashSet<Value>) -> bool {
    let b = l.header;
    let Some(entry) = l.entry else { return false };
    let Some((c, step, t, ctr)) = counted_loop(b, entry) else {
        return false;
    };
    if step != -1 {
        return false;
    }
    let (lo, hi) = (ctr.lo as i64, ctr.hi as i64);
    let Some(bits) = c.ty().int_width() else {
        return false;
    };
    // `hi + 1` (the new exit value) must fit the counter's type, signed.
    if bits < 64 && hi + 1 >= 1i64 << (bits - 1) || hi == i64::MAX {
        return false;
    }
    let Some(next) = c.incoming().iter().find(|(_, x)| *x == b).map(|(v, _)| *v) else {
        return false;
    };
    let test = t.operand(0);
    let in_loop = |v: Value| v.is_instruction() && v.parent_block() == b;
    let mut finals = HashSet::new();
    for phi in b.phis() {
        if phi == c {
            continue;
        }
        match sum_final(phi, b) {
            Some(f) => finals.insert(f),
            None => return false,
        };
    }
    if !memory_commutes(ctx, b, c, &ctr, shadows) {
        return false;
    }
    // Values used after the loop.
    for i in b.instructions() {
        if i == c || i == next || finals.contains(&i) {
            continue;
        }
        if i.users().into_iter().any(|u| !in_loop(u)) {
            return false;
        }
    }
    let ty = c.ty();
    let bld = Builder::new(ctx);
    bld.position_before(t);
    let up = bld.binop(Opcode::LLVMAdd, c, ty.const_i64(1));
    up.set_nsw();
    let cmp = bld.icmp(test.icmp_predicate(), up, ty.const_i64(hi + 1));
    for (v, last) in [(c, lo), (next, lo - 1)] {
        for u in v.users() {
            if in_loop(u) {
                continue;
            }
            for k in 0..u.num_operands() {
                if u.operand(k) == v {
                    u.set_operand(k, ty.const_i64(last));
                }
            }
        }
    }
    for (k, (_, x)) in c.incoming().into_iter().enumerate() {
        let v = if x == b { up } else { ty.const_i64(lo) };
        c.set_operand(k as u32, v);
    }
    t.set_operand(0, cmp);
    if test.users().is_empty() {
        test.erase();
    }
    if next.users().is_empty() {
        next.erase();
    }
    true
}

/// The final value of sum `phi` of loop `b` (see the module's first condition).
fn sum_final(phi: Value, b: Block) -> Option<Value> {
    let inc = phi.incoming();
    if inc.len() != 2 || !phi.ty().is_fp_scalar() {
        return None;
    }
    let last = inc.iter().find(|(_, x)| *x == b)?.0;
    let mut cur = phi;
    loop {
        let users = cur.users();
        let [u] = users.as_slice() else { return None };
        let u = *u;
        let linked = match u.opcode() {
            Some(Opcode::LLVMFAdd) => u.operand(0) != u.operand(1),
            Some(Opcode::LLVMFSub) => u.operand(0) == cur && u.operand(1) != cur,
            _ => false,
        };
        if !linked || u.fast_math_flags() & REASSOC == 0 || u.parent_block() != b {
            return None;
        }
        if u == last {
            // The final sum: in the loop only the phi reads it.
            let inside = last
                .users()
                .into_iter()
                .filter(|x| x.parent_block() == b)
                .collect::<Vec<_>>();
            return (inside == [phi]).then_some(last);
        }
        cur = u;
    }
}

/// Whether the memory accesses of loop `b` commute across iterations (the module's
/// second to fourth conditions).
fn memory_commutes(
    ctx: Context,
    b: Block,
    c: Value,
    ctr: &crate::affine_index::Counter,
    shadows: &HashSet<Value>,
) -> bool {
    let mut rmw_parts = HashSet::new();
    let mut written = HashSet::new();
    // Objects with a plain store, and its address.
    let mut own: Vec<(Value, Value)> = Vec::new();
    for i in b.instructions() {
        match i.opcode() {
            Some(Opcode::LLVMStore) => {
                if crate::reverse::alias::is_tape_access(ctx, i) || i.is_volatile() {
                    return false;
                }
                let p = i.operand(1);
                let o = underlying(p);
                if !shadows.contains(&o) {
                    return false;
                }
                written.insert(o);
                match rmw(i) {
                    Some(r) if r.add.fast_math_flags() & REASSOC != 0 => {
                        rmw_parts.extend([r.load, r.store]);
                    }
                    _ => {
                        if !own_cell(p, b, c, ctr) {
                            return false;
                        }
                        own.push((o, p));
                    }
                }
            }
            Some(Opcode::LLVMCall) if pure_call(i) => {}
            _ if effect_not_load_store(i) => return false,
            _ => {}
        }
    }
    for i in b.instructions() {
        let p = match i.opcode() {
            Some(Opcode::LLVMLoad) => {
                if crate::reverse::alias::is_tape_access(ctx, i) || i.is_volatile() {
                    return false;
                }
                i.operand(0)
            }
            Some(Opcode::LLVMStore) => i.operand(1),
            _ => continue,
        };
        let o = underlying(p);
        // A plain-stored object: every access at that one address.
        if let Some((_, q)) = own.iter().find(|(x, _)| *x == o) {
            if p != *q {
                return false;
            }
            continue;
        }
        if rmw_parts.contains(&i) {
            continue;
        }
        let identified =
            o.is_argument() || o.is_global_variable() || o.opcode() == Some(Opcode::LLVMAlloca);
        if !identified || written.contains(&o) {
            return false;
        }
    }
    true
}

/// Whether `p` is `gep T, base, idx` with `base` defined outside loop `b` and `idx`
/// affine in the counter `c` with a non-zero coefficient, every other term invariant:
/// a different cell on every iteration.
fn own_cell(p: Value, b: Block, c: Value, ctr: &crate::affine_index::Counter) -> bool {
    if p.opcode() != Some(Opcode::LLVMGetElementPtr) || p.num_operands() != 2 {
        return false;
    }
    let in_loop = |v: &Value| v.is_instruction() && v.parent_block() == b;
    if in_loop(&p.operand(0)) {
        return false;
    }
    let f = form(p.operand(1), ctr, 12);
    f.terms.get(&c).is_some_and(|k| *k != 0) && !f.terms.keys().any(|v| *v != c && in_loop(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    use ferrozyme_analysis::cfg::Cfg;
    use ferrozyme_analysis::loops::Loops;
    use ferrozyme_llvm::Module;

    use crate::test_ir::parse;

    /// A reverse loop over `c = 35 .. 1` of the shape `streams::carry` sees: the seed's
    /// read-and-zero of dout[c], a load of the primal x, a's adjoint summed in `%s`, a
    /// `reassoc` read-modify-write add into dx[c - 1]; the counter and the sum used
    /// after it. `{BODY}`, `{RMW}`, `{SUM}` and `{AFTER}` are the variants' holes.
    const LOOP: &str = r#"
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
declare void @opaque()
declare double @__fz_pop(ptr)
declare double @llvm.fabs.f64(double) memory(none)
define double @f(ptr %x, ptr %dx, ptr %dout, ptr %tape) {
entry:
  br label %loop
loop:
  %c = phi i64 [ 35, %entry ], [ %n, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s2, %loop ]
  %po = getelementptr double, ptr %dout, i64 %c
  %sh = load double, ptr %po
  store double 0.0, ptr %po
  %px = getelementptr double, ptr %x, i64 %c
  %xv = load double, ptr %px
  %m = fmul reassoc double %sh, %xv
  %s2 = fadd {SUM} double %s, %m
  %pd = getelementptr double, ptr %dx, i64 %c
  %q = getelementptr i8, ptr %pd, i64 -8
  %old = load double, ptr %q
  %new = fadd {RMW} double %old, %m
  store double %new, ptr %q
  {BODY}
  %n = add nsw i64 %c, -1
  %done = icmp eq i64 %n, 0
  br i1 %done, label %exit, label %loop
exit:
  %r = phi double [ {AFTER}, %loop ]
  %cl = phi i64 [ %c, %loop ]
  %nl = phi i64 [ %n, %loop ]
  %k = add i64 %cl, %nl
  %kf = sitofp i64 %k to double
  %out = fadd double %r, %kf
  ret double %out
}
"#;

    /// Runs `run_upward` on the loop of `LOOP` with its holes filled; returns whether
    /// it ran the loop upwards, and the function's text after.
    fn upward(body: &str, rmw: &str, sum: &str, after: &str) -> (bool, String) {
        let ir = LOOP
            .replace("{BODY}", body)
            .replace("{RMW}", rmw)
            .replace("{SUM}", sum)
            .replace("{AFTER}", after);
        let ctx = inkwell::context::Context::create();
        let m = parse(&ctx, &ir);
        let module = Module::from_inkwell(&m);
        let f = module.function("f").expect("f exists");
        let p = f.params();
        // dx and dout are the shadows of `restrict` primals.
        let shadows = HashSet::from([p[1], p[2]]);
        let cfg = Cfg::new(f);
        let loops = Loops::new(&cfg);
        let l = loops.loops.first().expect("one loop");
        let done = run_upward(module.context(), l, &shadows);
        assert!(ferrozyme_llvm::verify_function(f), "valid IR after");
        let text = m.print_to_string();
        (done, text.to_string())
    }

    /// Commuting iterations: the counter starts at 1 and steps +1 to 35; its uses after
    /// the loop read the old exit values (1 and 0).
    #[test]
    fn commuting_loop_runs_upwards() {
        let (done, text) = upward("", "reassoc", "reassoc", "%s2");
        assert!(done, "{text}");
        assert!(text.contains("phi i64 [ 1, %entry ]"), "{text}");
        assert!(text.contains("add nsw i64 %c, 1"), "{text}");
        assert!(
            text.contains("icmp eq i64 %1, 36") || text.contains(", 36"),
            "{text}"
        );
        assert!(text.contains("%cl = phi i64 [ 1, %loop ]"), "{text}");
        assert!(text.contains("%nl = phi i64 [ 0, %loop ]"), "{text}");
        // A pure call changes nothing.
        let pure = "%fa = call double @llvm.fabs.f64(double %xv)";
        assert!(upward(pure, "reassoc", "reassoc", "%s2").0);
    }

    /// Each condition refused on its own: an add or a sum without `reassoc` (no
    /// fast-math), an impure call, a tape pop, a plain store to a cell that is not the
    /// iteration's own, a store to a primal, another load of a written shadow, the sum's
    /// phi (not its final value) used after the loop.
    #[test]
    fn order_dependent_loops_keep_counting_down() {
        let cases = [
            ("", "", "reassoc", "%s2", "rmw add without reassoc"),
            ("", "reassoc", "", "%s2", "sum without reassoc"),
            (
                "call void @opaque()",
                "reassoc",
                "reassoc",
                "%s2",
                "impure call",
            ),
            (
                "%t = call double @__fz_pop(ptr %tape)",
                "reassoc",
                "reassoc",
                "%s2",
                "tape pop",
            ),
            (
                "%p5 = getelementptr double, ptr %dout, i64 5\n  store double 0.0, ptr %p5",
                "reassoc",
                "reassoc",
                "%s2",
                "store to a fixed cell",
            ),
            (
                "store double 0.0, ptr %px",
                "reassoc",
                "reassoc",
                "%s2",
                "store to x",
            ),
            (
                "%pe = getelementptr double, ptr %dx, i64 %c\n  %e = load double, ptr %pe",
                "reassoc",
                "reassoc",
                "%s2",
                "load of a written shadow",
            ),
            ("", "reassoc", "reassoc", "%s", "sum phi used after"),
        ];
        for (body, rmw, sum, after, what) in cases {
            let (done, text) = upward(body, rmw, sum, after);
            assert!(!done, "{what}: must not run upwards\n{text}");
            assert!(
                text.contains("phi i64 [ 35, %entry ]"),
                "{what}: unchanged\n{text}"
            );
        }
    }
}
