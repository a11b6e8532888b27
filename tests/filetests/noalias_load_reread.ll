; Decision: with `restrict` (`noalias`) on both pointers, a write through `y` cannot
; change `x`, so the load of `x[i]` is repeated in the reverse sweep (`memory.rs`
; counts writes to other arguments only when neither side is `noalias`) and the loop
; pushes nothing. Clones keep the `noalias` attributes for this.
; Why it matters: same loop as load_of_written_memory_cached.ll, 8 bytes per
; iteration less on the tape.
;
; void square_into(const double *restrict x, double *restrict y, int n) {
;   for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
; }
; void grad(const double *x, double *dx, double *y, double *dy, int n) {
;   __enzyme_autodiff((void *)square_into, x, dx, y, dy, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @square_into(ptr noalias %x, ptr noalias %y, i32 %n) {
entry:
  %cmp10 = icmp sgt i32 %n, 0
  br i1 %cmp10, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  ret void

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %mul = fmul double %0, %0
  %arrayidx4 = getelementptr double, ptr %y, i64 %indvars.iv
  store double %mul, ptr %arrayidx4, align 8
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define void @grad(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @square_into, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_square_into(
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[P:%.*]] = getelementptr double, ptr %x, i64
; CHECK-NEXT: [[XI:%.*]] = load double, ptr [[P]], align 8
; CHECK-NEXT: fmul double {{%.*}}, [[XI]]
; CHECK-NOT: @__fz_top
; CHECK: {{^}}}
