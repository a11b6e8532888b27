; Decision: the values a loop block must keep (here `exp(x[i])` and `sin(x[i])`, which
; are not recomputed) are fields of one *record* per execution of the block: one
; `__fz_push` of 16 bytes at the end of the block, both fields stored into it; the
; reverse block reads both through one `__fz_top` and pops the record once, when the
; reverse sweep leaves the block.
; Why it matters: one push per block execution instead of one per value halves (here)
; the stack bookkeeping on the hot path.
;
; double loopexp(const double *x, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += exp(x[i]) * sin(x[i]);
;   return s;
; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)loopexp, x, dx, n); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @loopexp(ptr %x, i32 %n) {
entry:
  %cmp9 = icmp sgt i32 %n, 0
  br i1 %cmp9, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %1, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.010 = phi double [ 0.000000e+00, %for.body.preheader ], [ %1, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %call = call double @exp(double %0)
  %call3 = call double @sin(double %0)
  %1 = call double @llvm.fmuladd.f64(double %call, double %call3, double %s.010)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @exp(double)

declare double @sin(double)

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @loopexp, ptr %x, ptr %dx, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_loopexp(
; CHECK-LABEL: {{^}}for.body:
; CHECK: [[E:%.*]] = call double @exp(double
; CHECK-NEXT: [[S:%.*]] = call double @sin(double
; CHECK: [[REC:%.*]] = call ptr @__fz_push{{(_reserved)?}}(ptr {{%.*}}, i64 16)
; CHECK-DAG: [[FS:%.*]] = getelementptr i8, ptr [[REC]], i64 8
; CHECK-DAG: store double [[S]], ptr [[FS]]
; CHECK-DAG: store double [[E]], ptr [[REC]]
; CHECK: br i1
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[TOP:%.*]] = call ptr @__fz_top(ptr {{%.*}}, i64 16)
; CHECK-DAG: load double, ptr [[TOP]],
; CHECK-DAG: getelementptr i8, ptr [[TOP]], i64 8
; CHECK-NOT: @__fz_top
; CHECK-NOT: @exp(
; CHECK: call void @__fz_pop(ptr {{%.*}}, i64 16)
; CHECK-NOT: @__fz_pop
; CHECK: {{^}}}
