; Decision: an induction variable stepping by a constant other than 1 (`i += 2`, as in
; the loops LLVM's runtime unroller and loop vectorizer make, beside their own `niter`
; counter) is a reverse counter too, counted down by its step; the exit test
; `niter + 2 == pairs` gives `niter`'s last value `pairs - 2`, and the header's
; predecessor follows from `i == 0` (reverse/counters.rs, predecessors.rs). `i`, which
; starts where `niter` does and steps alike, is read as `niter` (gmm24: one counter per
; group of counters a constant apart).
; Why it matters: taped, each such variable and the header's predecessor index cost 12
; bytes per iteration (the unrolled loops of the Rust GMM, branch gmmrust15: 80-byte
; records of which 12 bytes were loop control).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @sumsq2(ptr %x, i64 %n) {
entry:
  %pairs = and i64 %n, -2
  %any = icmp ne i64 %pairs, 0
  br i1 %any, label %body, label %exit

body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %niter = phi i64 [ 0, %entry ], [ %niter.next, %body ]
  %s = phi double [ 0.000000e+00, %entry ], [ %s2, %body ]
  %p0 = getelementptr inbounds double, ptr %x, i64 %i
  %x0 = load double, ptr %p0, align 8
  %i1 = or disjoint i64 %i, 1
  %p1 = getelementptr inbounds double, ptr %x, i64 %i1
  %x1 = load double, ptr %p1, align 8
  %s1 = call double @llvm.fmuladd.f64(double %x0, double %x0, double %s)
  %s2 = call double @llvm.fmuladd.f64(double %x1, double %x1, double %s1)
  %i.next = add nuw i64 %i, 2
  %niter.next = add i64 %niter, 2
  %done = icmp eq i64 %niter.next, %pairs
  br i1 %done, label %exit, label %body

exit:
  %r = phi double [ 0.000000e+00, %entry ], [ %s2, %body ]
  ret double %r
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @sumsq2, ptr %x, ptr %dx, i64 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_sumsq2(
; `i` steps like `niter` from the same start: it is `niter + 0` in the reverse (gmm24), no
; counter and no exit value of its own (it has no exit test: its exit value was taped).
; CHECK-NOT: %i.rev = alloca
; CHECK: [[NCTR:%niter.rev]] = alloca i64
; CHECK-NOT: %i.rev = alloca
; Nothing of the loop goes on the tape.
; CHECK-NOT: @__fz_push
; CHECK-NOT: %i.exit
; CHECK-LABEL: {{^}}rev.body:
; CHECK: [[I:%.*]] = load i64, ptr [[NCTR]]
; CHECK: or disjoint i64 [[I]], 1
; The header's predecessor: the first iteration is the one with i == 0.
; CHECK: icmp eq i64 [[I]], 0
; Leaving the header backwards: the counter goes down by 2.
; CHECK: [[NCUR:%.*]] = load i64, ptr [[NCTR]]
; CHECK-NEXT: sub i64 [[NCUR]], 2
; The unroller's counter left the loop at `pairs - 2`.
; CHECK-LABEL: {{^}}rev.exit:
; CHECK-NOT: %fz.iv.exit
; CHECK: sub i64 %pairs, 2
; CHECK-NOT: @__fz_push
; CHECK: {{^}}}
