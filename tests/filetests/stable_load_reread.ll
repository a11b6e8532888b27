; Decision: a load of memory the differentiated function never writes (`x`, only read)
; is repeated in the reverse sweep instead of cached (`memory.rs`, combined mode): the
; reverse block of the loop loads `x[i]` again, and nothing of the loop is pushed.
; Why it matters: caching `x[i]` would push 8 bytes per iteration, i.e. copy the whole
; input array onto the tape.
;
; double sumsq(const double *x, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += x[i] * x[i];
;   return s;
; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)sumsq, x, dx, n); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

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

; CHECK-LABEL: define internal void @fz_grad_sumsq(
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[P:%.*]] = getelementptr double, ptr %x, i64 [[I:%.*]]
; CHECK-NEXT: [[XI:%.*]] = load double, ptr [[P]], align 8
; CHECK-NEXT: fmul {{(contract )?}}double {{%.*}}, [[XI]]
; CHECK-NOT: @__fz_top
; CHECK: {{^}}}
