; Decision: a division the reverse sweep needs (the argument of `sin`, for its partial
; `cos(x[i] / c)`) is cached, not recomputed: `try_recompute` (reverse/values.rs) repeats
; cheap pure instructions but not `fdiv`, which costs more than reading a cached value.
; Its operands are not cached either: only the quotient goes on the loop's record.
; Why it matters: this is the recompute-or-cache trade-off; recomputing would put a
; division (latency ~15-20 cycles) on the reverse loop's path.
;
; double ratio(const double *x, double c, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += sin(x[i] / c);
;   return s;
; }
; void grad(const double *x, double *dx, double c, int n) {
;   __enzyme_autodiff((void *)ratio, x, dx, enzyme_const, c, n);
; }
; // The partial of the quotient by x[i] is 1/c: the only division left in the reverse.
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32, align 4

define double @ratio(ptr %x, double %c, i32 %n) {
entry:
  %cmp4 = icmp sgt i32 %n, 0
  br i1 %cmp4, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %add, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.05 = phi double [ 0.000000e+00, %for.body.preheader ], [ %add, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %div = fdiv double %0, %c
  %call = call double @sin(double %div)
  %add = fadd double %s.05, %call
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @sin(double)

define void @grad(ptr %x, ptr %dx, double %c, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @ratio, ptr %x, ptr %dx, i32 %0, double %c, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_ratio(
; CHECK-LABEL: {{^}}for.body:
; CHECK: [[Q:%.*]] = fdiv double [[XI:%.*]], %c
; CHECK: [[REC:%.*]] = call ptr @__fz_push{{(_reserved)?}}(ptr {{%.*}}, i64 8)
; CHECK-NEXT: store double [[Q]], ptr [[REC]]
; CHECK-NOT: store double [[XI]]
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[TOP:%.*]] = call ptr @__fz_top(ptr {{%.*}}, i64 8)
; CHECK-NEXT: [[QC:%.*]] = load double, ptr [[TOP]]
; CHECK-NEXT: call double @llvm.cos.f64(double [[QC]])
; CHECK-NOT: fdiv double {{%.*}}, %c
; CHECK: fdiv double 1.000000e+00, %c
; CHECK-NOT: fdiv
; CHECK: {{^}}}
