; Decision: a `+1` induction variable is not taped. The reverse sweep keeps it in a
; counter (reverse/counters.rs): on entering the loop backwards the counter is set from
; the exit test `i + 1 == n` (so `n - 1`, nothing cached), and each time the sweep leaves
; the loop header backwards it goes down by one. Addresses computed from `i` are
; recomputed from the counter.
; Why it matters: caching `i` would push 8 bytes per iteration, and this loop needs
; nothing else from its forward sweep (the loads of `x` are re-read), so the whole
; gradient would allocate a stack for nothing.
;
; double sumsq(const double *x, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += x[i] * x[i];
;   return s;
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @sumsq(ptr %x, i32 %n) {
entry:
  %cmp = icmp sgt i32 %n, 0
  br i1 %cmp, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:
  %s.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.next, %for.body ]
  ret double %s.lcssa

for.body:
  %i = phi i64 [ 0, %for.body.preheader ], [ %i.next, %for.body ]
  %s = phi double [ 0.000000e+00, %for.body.preheader ], [ %s.next, %for.body ]
  %arrayidx = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %arrayidx, align 8
  %s.next = call double @llvm.fmuladd.f64(double %xi, double %xi, double %s)
  %i.next = add nuw nsw i64 %i, 1
  %exitcond = icmp eq i64 %i.next, %wide.trip.count
  br i1 %exitcond, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, i32 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @sumsq, ptr %x, ptr %dx, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_sumsq(
; The counter lives in a stack slot of the derivative (mem2reg makes it a register).
; CHECK: [[CTR:%.*]] = alloca i64
; Nothing of the loop goes on the tape: no stack, no push.
; CHECK-NOT: @__fz_push
; Reverse of the exit block: the counter's start comes from the exit test, `n - 1`.
; CHECK-LABEL: {{^}}rev.for.cond.cleanup:
; CHECK: [[N:%.*]] = zext i32 %n to i64
; CHECK-NEXT: [[LAST:%.*]] = sub i64 [[N]], 1
; Reverse of the loop body: `i` is the counter, the address of x[i] is recomputed from it.
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[I:%.*]] = load i64, ptr [[CTR]]
; CHECK: getelementptr inbounds double, ptr %x.shadow, i64 [[I]]
; Leaving the header backwards: count down.
; CHECK: [[CUR:%.*]] = load i64, ptr [[CTR]]
; CHECK-NEXT: [[PREV:%.*]] = sub i64 [[CUR]], 1
; CHECK-NEXT: store i64 [[PREV]], ptr [[CTR]]
; Entering the loop backwards from the exit block sets the counter.
; CHECK-LABEL: {{^}}rev.for.cond.cleanup.from.for.body:
; CHECK-NEXT: store i64 [[LAST]], ptr [[CTR]]
; CHECK-NOT: @__fz_push
; CHECK: {{^}}}
