; Decision: an `i64` load of differentiable memory (also read as `double`: its type is
; conflicting) whose value is only compared is understood, even when the value moves
; through a loop `phi` and a `select` before the comparison: `reverse/check.rs`
; `computed_on` follows `phi`, `select` and `freeze`. The derivative is generated.
; Why it matters: Rust's `x.iter().max_by(|a, b| a.total_cmp(b))` compiles to this at
; -O2: `total_cmp` orders the floats by a key built from their bits, and the running
; maximum's bits are carried by a `phi` and chosen by a `select`. It was a
; cannot-deduce-type error in `<f64>::total_cmp` (probe27, tests/rust/src/probe27.rs
; `logsumexp`), release and debug builds.
;
; Reduced by hand from rustc 1.95 -O2 (cargo ferrozyme's before-ad module):
;   fn f(x: &[f64]) -> f64 { let m = *x.iter().max_by(|a, b| a.total_cmp(b)).unwrap();
;                            m * x.iter().sum::<f64>() }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)

define double @maxsum(ptr %x, i64 %n) {
entry:
  %first = load i64, ptr %x, align 8
  br label %loop

loop:
  %best = phi i64 [ %first, %entry ], [ %nbest, %loop ]
  %bp = phi ptr [ %x, %entry ], [ %nbp, %loop ]
  %i = phi i64 [ 1, %entry ], [ %inext, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load i64, ptr %p, align 8
  %a1 = ashr i64 %best, 63
  %a2 = lshr i64 %a1, 1
  %kb = xor i64 %a2, %best
  %b1 = ashr i64 %v, 63
  %b2 = lshr i64 %b1, 1
  %kv = xor i64 %b2, %v
  %gt = icmp sgt i64 %kb, %kv
  %nbest = select i1 %gt, i64 %best, i64 %v
  %nbp = select i1 %gt, ptr %bp, ptr %p
  %inext = add nuw i64 %i, 1
  %done = icmp eq i64 %inext, %n
  br i1 %done, label %sum, label %loop

sum:
  %m = load double, ptr %nbp, align 8
  br label %sloop

sloop:
  %j = phi i64 [ 0, %sum ], [ %jnext, %sloop ]
  %s = phi double [ 0.000000e+00, %sum ], [ %s2, %sloop ]
  %q = getelementptr inbounds double, ptr %x, i64 %j
  %xv = load double, ptr %q, align 8
  %s2 = fadd double %s, %xv
  %jnext = add nuw i64 %j, 1
  %sdone = icmp eq i64 %jnext, %n
  br i1 %sdone, label %exit, label %sloop

exit:
  %r = fmul double %m, %s2
  ret double %r
}

define void @grad(ptr %x, ptr %dx, i64 %n) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @maxsum, i32 %d, ptr %x, ptr %dx, i32 %c, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @fz_grad_maxsum(
; CHECK: load i64, ptr %x
; CHECK: icmp sgt i64
; CHECK: fmul double
; CHECK: ret void
