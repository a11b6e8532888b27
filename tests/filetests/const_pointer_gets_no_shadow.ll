; Decision: an `enzyme_const` pointer gets no shadow: the derivative takes no shadow
; parameter for it, computes no shadow addresses from it, and its loads have no adjoint
; code; `b[i]`, never written, is simply re-read where `a[i]`'s partial needs it.
; Why it matters: constant inputs (data, coefficients) cost nothing but the primal.
;
; double dot(const double *a, const double *b, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += a[i] * b[i];
;   return s;
; }
; void grad(const double *a, double *da, const double *b, int n) {
;   __enzyme_autodiff((void *)dot, enzyme_dup, a, da, enzyme_const, b, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define double @dot(ptr %a, ptr %b, i32 %n) {
entry:
  %cmp7 = icmp sgt i32 %n, 0
  br i1 %cmp7, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %2, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.08 = phi double [ 0.000000e+00, %for.body.preheader ], [ %2, %for.body ]
  %arrayidx = getelementptr double, ptr %a, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %arrayidx2 = getelementptr double, ptr %b, i64 %indvars.iv
  %1 = load double, ptr %arrayidx2, align 8
  %2 = call double @llvm.fmuladd.f64(double %0, double %1, double %s.08)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %a, ptr %da, ptr %b, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @dot, i32 %0, ptr %a, ptr %da, i32 %1, ptr %b, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define void @grad(
; CHECK: call void @fz_grad_dot(ptr %a, ptr %da, ptr %b, i32 %n, double 1.000000e+00)
; CHECK-LABEL: define internal void @fz_grad_dot(ptr %a, ptr %a.shadow, ptr %b, i32 %n, double %d_ret)
; CHECK-LABEL: {{^}}for.body:
; CHECK: getelementptr double, ptr %a.shadow,
; CHECK-NOT: .shadow
; CHECK: br i1
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[PB:%.*]] = getelementptr double, ptr %b, i64
; CHECK-NEXT: [[BI:%.*]] = load double, ptr [[PB]]
; CHECK-NEXT: fmul {{(contract )?}}double {{%.*}}, [[BI]]
; CHECK-NOT: load double, ptr %a,
; CHECK: {{^}}}
