; Decision: stores into memory the caller marked `enzyme_dupnoneed` are left out of the
; forward sweep when nothing in the function reads that memory back and the pointer does
; not escape (`reverse::memory::dropped_stores`; the argument must be `noalias`, or the
; store a final store). The reverse sweep still takes the adjoint of each such store
; from the shadow and clears it. When the function reads its output back (`cumsum`), the
; stores stay.
; Why it matters: the caller said it does not need the primal output (Enzyme's
; Brusselator harness passes a null pointer there); the forward sweep of `scale` then
; does no work at all and LLVM deletes it (the Brusselator gradient went from 3.15 to
; 2.05 primal times).
;
; void scale(double *restrict out, const double *restrict x, int n) {
;   for (int i = 0; i < n; i++) out[i] = x[i] * x[i] + 1.0;
; }
; void cumsum(double *restrict out, const double *restrict x, int n) {
;   out[0] = x[0];
;   for (int i = 1; i < n; i++) out[i] = out[i - 1] * x[i];
; }
; void grad(double *out, double *dout, const double *x, double *dx, int n) {
;   __enzyme_autodiff((void *)scale, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx, n);
;   __enzyme_autodiff((void *)cumsum, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=KEPT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dupnoneed = external global i32, align 4
@enzyme_dup = external global i32, align 4

define void @scale(ptr noalias %out, ptr noalias %x, i32 %n) {
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
  %1 = call double @llvm.fmuladd.f64(double %0, double %0, double 1.000000e+00)
  %arrayidx4 = getelementptr double, ptr %out, i64 %indvars.iv
  store double %1, ptr %arrayidx4, align 8
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @cumsum(ptr noalias %out, ptr noalias %x, i32 %n) {
entry:
  %0 = load double, ptr %x, align 8
  store double %0, ptr %out, align 8
  %cmp14 = icmp sgt i32 %n, 1
  br i1 %cmp14, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  %load_initial = load double, ptr %out, align 8
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  ret void

for.body:                                         ; preds = %for.body.preheader, %for.body
  %store_forwarded = phi double [ %load_initial, %for.body.preheader ], [ %mul, %for.body ]
  %indvars.iv = phi i64 [ 1, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %1 = getelementptr double, ptr %out, i64 %indvars.iv
  %arrayidx4 = getelementptr double, ptr %x, i64 %indvars.iv
  %2 = load double, ptr %arrayidx4, align 8
  %mul = fmul double %store_forwarded, %2
  store double %mul, ptr %1, align 8
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define void @grad(ptr %out, ptr %dout, ptr %x, ptr %dx, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_dupnoneed, align 4
  %1 = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr @scale, i32 %0, ptr %out, ptr %dout, i32 %1, ptr %x, ptr %dx, i32 %n)
  %2 = load i32, ptr @enzyme_dupnoneed, align 4
  %3 = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr @cumsum, i32 %2, ptr %out, ptr %dout, i32 %3, ptr %x, ptr %dx, i32 %n)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)



; CHECK-LABEL: define internal void @fz_grad_scale(
; CHECK-LABEL: {{^}}for.body:
; CHECK-NOT: store double
; CHECK: br i1
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[SH:%.*]] = getelementptr double, ptr %out.shadow
; CHECK: load double, ptr [[SH]]
; CHECK: store double 0.000000e+00, ptr [[SH]]

; KEPT-LABEL: define internal void @fz_grad_cumsum(
; KEPT-LABEL: {{^}}entry:
; KEPT: store double %{{.*}}, ptr %out
; KEPT-LABEL: {{^}}for.body:
; KEPT: store double %mul, ptr

