//! Unit tests of the upward reverse loops on small loops built in memory.

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
    let shadows = HashSet::from_iter([p[1], p[2]]);
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
    // An add without `reassoc` into the iteration's own cell only (dx[c - 1], no
    // other iteration touches it: streams/own_cells.rs) does not depend on the order.
    assert!(upward("", "", "reassoc", "%s2").0);
}

/// Each condition refused on its own: adds without `reassoc` into cells two
/// iterations share (no fast-math), a sum without `reassoc`, an impure call, a tape
/// pop, a plain store to a cell that is not the iteration's own, a store to a
/// primal, another load of a written shadow, the sum's phi (not its final value)
/// used after the loop.
#[test]
fn order_dependent_loops_keep_counting_down() {
    let cases = [
        (
            "%pn = getelementptr double, ptr %dx, i64 %c\n  %on = load double, ptr %pn\n  \
             %nn = fadd double %on, %m\n  store double %nn, ptr %pn",
            "",
            "reassoc",
            "%s2",
            "rmw adds without reassoc into neighbouring cells",
        ),
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

/// GMM's reverse column loop (gmm20, gmm23): `t` from `%ts` down to `%tb + 1`
/// (known at run time), `r` beside it; `s += L[t] dz[r]` and `dL[t] += dz[r] xc`
/// (`dz` the gradient's own scratch, `dL` a marked shadow parameter).
/// Run upwards, it counts `u` from 0 to `S - L`, and L, dL (indexed by `t`) and dz
/// (by `r`) get base pointers before the loop indexed by `u` in it.
#[test]
fn open_range_loop_counts_from_zero_with_base_pointers() {
    let ir = r#"
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
declare noalias ptr @calloc(i64, i64)
define double @g(ptr %L, ptr "ferrozyme-shadow" %dL, i64 %ts, i64 %tb, i64 %r0, double %xc) {
entry:
  %dz = call noalias ptr @calloc(i64 64, i64 8)
  br label %loop
loop:
  %t = phi i64 [ %ts, %entry ], [ %tn, %loop ]
  %r = phi i64 [ %r0, %entry ], [ %rn, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s2, %loop ]
  %pz = getelementptr inbounds double, ptr %dz, i64 %r
  %z = load double, ptr %pz
  %pl = getelementptr inbounds double, ptr %L, i64 %t
  %l = load double, ptr %pl
  %m = fmul reassoc double %l, %z
  %s2 = fadd reassoc double %s, %m
  %pdl = getelementptr inbounds double, ptr %dL, i64 %t
  %old = load double, ptr %pdl
  %zx = fmul reassoc double %z, %xc
  %new = fadd reassoc double %old, %zx
  store double %new, ptr %pdl
  %tn = add i64 %t, -1
  %rn = add i64 %r, -1
  %done = icmp eq i64 %tn, %tb
  br i1 %done, label %exit, label %loop
exit:
  ret double %s2
}
"#;
    let ctx = inkwell::context::Context::create();
    let m = parse(&ctx, ir);
    let module = Module::from_inkwell(&m);
    let f = module.function("g").expect("g exists");
    let primals = HashSet::from_iter([f.params()[0]]);
    let cfg = Cfg::new(f);
    let loops = Loops::new(&cfg);
    let l = loops.loops.first().expect("one loop");
    assert!(run_upward_open(
        module.context(),
        l,
        &Disjoint::Contract(&primals)
    ));
    assert!(ferrozyme_llvm::verify_function(f), "valid IR after");
    let text = m.print_to_string().to_string();
    let loop_text = &text[text.find("\nloop:").expect("loop block")..];
    let entry_text = &text[..text.find("\nloop:").expect("loop block")];
    // The counter from zero, leaving after `S - L`.
    assert!(loop_text.contains("%t = phi i64 [ 0, %entry ]"), "{text}");
    assert!(entry_text.contains("sub i64 %ts,"), "{text}");
    // Three base pointers before the loop, each indexed by `u` in it.
    for p in ["%dz", "%L", "%dL"] {
        assert!(
            entry_text.contains(&format!("getelementptr inbounds double, ptr {p}, i64")),
            "{p}: base before the loop\n{text}"
        );
    }
    assert_eq!(
        loop_text
            .matches("getelementptr inbounds double, ptr %")
            .count(),
        3,
        "{text}"
    );
    for g in ["%pz", "%pl", "%pdl"] {
        let line = loop_text
            .lines()
            .find(|x| x.trim_start().starts_with(&format!("{g} =")))
            .expect("address kept");
        assert!(
            line.ends_with(", i64 %t"),
            "{g} indexed by u: {line}\n{text}"
        );
    }
}
