; Decision: in reverse mode, loops with a small constant trip count are fully unrolled
; in the clone before differentiation (clone.rs), even though the primal was compiled
; with `-fno-unroll-loops` (the loops' `llvm.loop.unroll.disable` IDs are dropped from
; the clone), and SROA then turns the local array `w` into registers. The derivative has
; no loop, no stack, no shadow of `w`: four `sin` values used directly.
; Why it matters: a loop over `w` would push per iteration and need a zeroed shadow
; array; unrolled, everything is straight-line code in registers.
;
; double stencil(double x) {
;   double w[4];
;   for (int k = 0; k < 4; k++) w[k] = sin(x * (k + 1));
;   double s = 0;
;   for (int k = 0; k < 4; k++) s += w[k] * w[k];
;   return s;
; }
; double grad(double x) { return __enzyme_autodiff((void *)stencil, x); }
; // The primal keeps its loops.
; (clang-22 -O2 -fno-unroll-loops, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @stencil(double %x) {
entry:
  %w = alloca [4 x double], align 16
  call void @llvm.lifetime.start.p0(ptr %w)
  br label %for.body

for.body:                                         ; preds = %entry, %for.body
  %indvars.iv = phi i64 [ 0, %entry ], [ %indvars.iv.next, %for.body ]
  %indvars.iv.next = add i64 %indvars.iv, 1
  %0 = trunc i64 %indvars.iv.next to i32
  %conv = uitofp i32 %0 to double
  %mul = fmul double %x, %conv
  %call = call double @sin(double %mul)
  %arrayidx = getelementptr double, ptr %w, i64 %indvars.iv
  store double %call, ptr %arrayidx, align 8
  %exitcond.not = icmp eq i64 %indvars.iv.next, 4
  br i1 %exitcond.not, label %for.body6, label %for.body, !llvm.loop !11

for.cond.cleanup5:                                ; preds = %for.body6
  call void @llvm.lifetime.end.p0(ptr %w)
  ret double %2

for.body6:                                        ; preds = %for.body, %for.body6
  %indvars.iv26 = phi i64 [ %indvars.iv.next27, %for.body6 ], [ 0, %for.body ]
  %s.023 = phi double [ %2, %for.body6 ], [ 0.000000e+00, %for.body ]
  %arrayidx8 = getelementptr double, ptr %w, i64 %indvars.iv26
  %1 = load double, ptr %arrayidx8, align 8
  %2 = call double @llvm.fmuladd.f64(double %1, double %1, double %s.023)
  %indvars.iv.next27 = add i64 %indvars.iv26, 1
  %exitcond29.not = icmp eq i64 %indvars.iv.next27, 4
  br i1 %exitcond29.not, label %for.cond.cleanup5, label %for.body6, !llvm.loop !14
}

declare void @llvm.lifetime.start.p0(ptr)

declare double @sin(double)

declare void @llvm.lifetime.end.p0(ptr)

declare double @llvm.fmuladd.f64(double, double, double)

define double @grad(double %x) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @stencil, double %x)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = !{!10, !10, i64 0}
!10 = !{!"double", !7, i64 0}
!11 = distinct !{!11, !12, !13}
!12 = !{!"llvm.loop.mustprogress"}
!13 = !{!"llvm.loop.unroll.disable"}
!14 = distinct !{!14, !12, !13}

; CHECK-LABEL: define double @stencil(
; CHECK: alloca [4 x double]
; CHECK: br i1 {{%.*}}, label %for.body6, label %for.body, !llvm.loop
; CHECK-LABEL: define internal { double } @fz_grad_stencil(
; CHECK-NOT: alloca [4 x double]
; CHECK-NOT: phi
; CHECK-NOT: @__fz_
; CHECK-COUNT-4: call {{(contract )?}}double @sin(
; CHECK-NOT: @sin(
; CHECK-COUNT-4: call {{(contract )?}}double @llvm.cos.f64(
; CHECK-NOT: phi
; CHECK-NOT: @__fz_
; CHECK: {{^}}}
