; Decision (after `-O2`): the gradient of a sum of squares needs nothing from its
; forward sweep (the loads are re-read, the counter is counted down, the tape is
; empty), so once LLVM has optimized the derivative, `grad` is one loop over `x`
; updating `dx`: no call, no stack memory, and the forward loop (whose sum nobody
; reads) is deleted.
; Why it matters: this is "the compiler can optimize the generated code down to what
; a human would write"; any tape traffic added here shows up as calls or allocas.
;
; double sumsq(const double *x, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += x[i] * x[i];
;   return s;
; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)sumsq, x, dx, n); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @sumsq(ptr %x, i32 %n) {
entry:
  %cmp8 = icmp sgt i32 %n, 0
  br i1 %cmp8, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %1, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.09 = phi double [ 0.000000e+00, %for.body.preheader ], [ %1, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %1 = call double @llvm.fmuladd.f64(double %0, double %0, double %s.09)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @sumsq, ptr %x, ptr %dx, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define void @grad(
; CHECK-NOT: call {{.*}}@
; CHECK-NOT: alloca
; CHECK-NOT: fmuladd
; CHECK: load double, ptr
; CHECK: store double {{%.*}}, ptr
; CHECK-NOT: call {{.*}}@
; CHECK-NOT: alloca
; CHECK-NOT: fmuladd
; CHECK: {{^}}}
; CHECK-NOT: define {{.*}}@fz_grad_sumsq
