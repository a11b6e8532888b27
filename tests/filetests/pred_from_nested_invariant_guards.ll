; Decision: a join whose predecessors are decided by branches on conditions defined in
; blocks that dominate it (here the loop-invariant guards `d > 0` and `-d > 0`, one
; nested in the other's false side) gets no predecessor record: the reverse sweep
; recomputes the predecessor from the conditions (`ferrozyme_analysis::predecessors`,
; dominating branch rule, `PredRule::Tree` for three or more predecessors).
; Why it matters: the join runs once per iteration of the outer loop; recording which
; path ran cost a tape entry per iteration (GMM's inner body, guarded by `d > 0`).
;
; double body(const double *x, int n, int d) {
;   double s = 0;
;   for (int i = 0; i < n; i++) {
;     double t = 0;
;     if (d > 0) {
;       for (int j = 0; j < d; j++) t += x[j] * x[i];
;     } else {
;       for (int j = 0; j < -d; j++) t -= x[j] * x[i];
;     }
;     s += t * t;
;   }
;   return s;
; }
; void grad(const double *x, double *dx, int n, int d) {
;   __enzyme_autodiff((void *)body, enzyme_dup, x, dx, enzyme_const, n, enzyme_const, d);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define double @body(ptr %x, i32 %n, i32 %d) {
entry:
  %cmp45 = icmp sgt i32 %n, 0
  br i1 %cmp45, label %for.body.lr.ph, label %for.cond.cleanup

for.body.lr.ph:                                   ; preds = %entry
  %cmp1 = icmp sgt i32 %d, 0
  %sub = sub i32 0, %d
  %cmp1040 = icmp slt i32 %d, 0
  %smax = call i32 @llvm.smax.i32(i32 %sub, i32 1)
  %wide.trip.count62 = zext i32 %n to i64
  %wide.trip.count = zext i32 %smax to i64
  %wide.trip.count57 = zext i32 %d to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %if.end, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %6, %if.end ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.lr.ph, %if.end
  %indvars.iv59 = phi i64 [ 0, %for.body.lr.ph ], [ %indvars.iv.next60, %if.end ]
  %s.046 = phi double [ 0.000000e+00, %for.body.lr.ph ], [ %6, %if.end ]
  br i1 %cmp1, label %for.cond2.preheader, label %for.cond9.preheader

for.cond9.preheader:                              ; preds = %for.body
  br i1 %cmp1040, label %for.body12.lr.ph, label %if.end

for.body12.lr.ph:                                 ; preds = %for.cond9.preheader
  %arrayidx16 = getelementptr double, ptr %x, i64 %indvars.iv59
  %0 = load double, ptr %arrayidx16, align 8
  br label %for.body12

for.cond2.preheader:                              ; preds = %for.body
  %arrayidx7 = getelementptr double, ptr %x, i64 %indvars.iv59
  %1 = load double, ptr %arrayidx7, align 8
  br label %for.body5

for.body5:                                        ; preds = %for.cond2.preheader, %for.body5
  %indvars.iv54 = phi i64 [ 0, %for.cond2.preheader ], [ %indvars.iv.next55, %for.body5 ]
  %t.043 = phi double [ 0.000000e+00, %for.cond2.preheader ], [ %3, %for.body5 ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv54
  %2 = load double, ptr %arrayidx, align 8
  %3 = call double @llvm.fmuladd.f64(double %2, double %1, double %t.043)
  %indvars.iv.next55 = add i64 %indvars.iv54, 1
  %exitcond58.not = icmp eq i64 %indvars.iv.next55, %wide.trip.count57
  br i1 %exitcond58.not, label %if.end, label %for.body5

for.body12:                                       ; preds = %for.body12.lr.ph, %for.body12
  %indvars.iv = phi i64 [ 0, %for.body12.lr.ph ], [ %indvars.iv.next, %for.body12 ]
  %t.141 = phi double [ 0.000000e+00, %for.body12.lr.ph ], [ %5, %for.body12 ]
  %arrayidx14 = getelementptr double, ptr %x, i64 %indvars.iv
  %4 = load double, ptr %arrayidx14, align 8
  %neg = fneg double %4
  %5 = call double @llvm.fmuladd.f64(double %neg, double %0, double %t.141)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %if.end, label %for.body12

if.end:                                           ; preds = %for.body12, %for.body5, %for.cond9.preheader
  %t.2 = phi double [ %3, %for.body5 ], [ 0.000000e+00, %for.cond9.preheader ], [ %5, %for.body12 ]
  %6 = call double @llvm.fmuladd.f64(double %t.2, double %t.2, double %s.046)
  %indvars.iv.next60 = add i64 %indvars.iv59, 1
  %exitcond63.not = icmp eq i64 %indvars.iv.next60, %wide.trip.count62
  br i1 %exitcond63.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, i32 %n, i32 %d) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @body, i32 %0, ptr %x, ptr %dx, i32 %1, i32 %n, i32 %1, i32 %d)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

declare i32 @llvm.smax.i32(i32, i32)



; The join's forward copy records nothing but `t` (needed for the adjoint of t*t).
; CHECK-LABEL: define internal void @fz_grad_body(
; CHECK-LABEL: {{^}}if.end:
; CHECK-NOT: fz.pred
; CHECK: call ptr @__fz_push{{(_reserved)?}}(ptr {{%.*}}, i64 8)
; CHECK-NOT: store i32
; CHECK: br i1
; The reverse join picks its predecessor from the two conditions.
; CHECK-LABEL: {{^}}rev.if.end:
; CHECK-NOT: fz.pred
; CHECK: [[INNER:%.*]] = select i1 %{{.*}}, i32 2, i32 0
; CHECK-NEXT: [[PRED:%.*]] = select i1 %{{.*}}, i32 1, i32 [[INNER]]
; CHECK: switch i32 [[PRED]]
