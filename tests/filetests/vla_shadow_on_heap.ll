; Decision: a variable-length array (`double t[n]`, an `alloca` with a run-time count)
; gets its shadow from `calloc(n, 8)` in the forward sweep, freed when the reverse
; sweep replays the `alloca`. The count is only known at run time, so the shadow
; cannot be an `alloca` of the derivative's entry block.
; Why it matters: the shadow must outlive the forward sweep and be zeroed; calloc
; does both.
;
; double vla(const double *x, int n) {
;   double t[n];
;   for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
;   double s = 0;
;   for (int i = 0; i < n; i++) s += t[i] * x[i];
;   return s;
; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)vla, x, dx, n); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @vla(ptr %x, i32 %n) {
entry:
  %0 = zext i32 %n to i64
  %vla = alloca double, i64 %0, align 16
  %cmp30 = icmp sgt i32 %n, 0
  br i1 %cmp30, label %for.body, label %for.cond.cleanup8

for.body:                                         ; preds = %entry, %for.body
  %indvars.iv = phi i64 [ %indvars.iv.next, %for.body ], [ 0, %entry ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %1 = load double, ptr %arrayidx, align 8
  %mul = fmul double %1, %1
  %arrayidx4 = getelementptr double, ptr %vla, i64 %indvars.iv
  store double %mul, ptr %arrayidx4, align 8
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %0
  br i1 %exitcond.not, label %for.body9, label %for.body

for.cond.cleanup8:                                ; preds = %for.body9, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %4, %for.body9 ]
  ret double %s.0.lcssa

for.body9:                                        ; preds = %for.body, %for.body9
  %indvars.iv36 = phi i64 [ %indvars.iv.next37, %for.body9 ], [ 0, %for.body ]
  %s.033 = phi double [ %4, %for.body9 ], [ 0.000000e+00, %for.body ]
  %arrayidx11 = getelementptr double, ptr %vla, i64 %indvars.iv36
  %2 = load double, ptr %arrayidx11, align 8
  %arrayidx13 = getelementptr double, ptr %x, i64 %indvars.iv36
  %3 = load double, ptr %arrayidx13, align 8
  %4 = call double @llvm.fmuladd.f64(double %2, double %3, double %s.033)
  %indvars.iv.next37 = add i64 %indvars.iv36, 1
  %exitcond40.not = icmp eq i64 %indvars.iv.next37, %0
  br i1 %exitcond40.not, label %for.cond.cleanup8, label %for.body9
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @vla, ptr %x, ptr %dx, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_vla(
; CHECK-LABEL: {{^}}entry:
; CHECK: [[N:%.*]] = zext i32 %n to i64
; CHECK: [[T:%.*]] = alloca double, i64 [[N]]
; CHECK-NEXT: [[SH:%.*]] = call ptr @calloc(i64 [[N]], i64 8)
; CHECK-LABEL: {{^}}rev.entry:
; CHECK-NEXT: call void @free(ptr [[SH]])
; CHECK-NOT: @free(
; CHECK: {{^}}}
