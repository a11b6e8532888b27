; Decision: vector reverse mode (`__enzyme_autodiff` with `enzyme_width, 2`) runs one
; forward sweep and keeps one tape for all lanes: `exp(x[i])` is computed and pushed
; once per iteration, each lane has its own shadow (`x.shadow`, `x.shadow1`), seed and
; adjoints, and the reverse sweep applies the cached `exp` to both lanes.
; Why it matters: a Jacobian's rows in one pass cost one primal, not one per row.
;
; double g(const double *x, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += exp(x[i]);
;   return s;
; }
; extern void __enzyme_autodiff_w(void *, ...);
; void dg2(const double *x, double *d0, double *d1, int n) {
;   __enzyme_autodiff_w((void *)g, enzyme_width, 2, enzyme_dup, x, d0, d1, enzyme_const, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_width = external global i32, align 4
@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define double @g(ptr %x, i32 %n) {
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
  %call = call double @exp(double %0)
  %add = fadd double %s.05, %call
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @exp(double)

define void @dg2(ptr %x, ptr %d0, ptr %d1, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_width, align 4
  %1 = load i32, ptr @enzyme_dup, align 4
  %2 = load i32, ptr @enzyme_const, align 4
  call void (ptr, ...) @__enzyme_autodiff_w(ptr @g, i32 %0, i32 2, i32 %1, ptr %x, ptr %d0, ptr %d1, i32 %2, i32 %n)
  ret void
}

declare void @__enzyme_autodiff_w(ptr, ...)

; CHECK-LABEL: define void @dg2(
; CHECK: call void @fz_grad2_g(ptr %x, ptr %d0, ptr %d1, i32 %n, double 1.000000e+00, double 1.000000e+00)
; CHECK-LABEL: define internal void @fz_grad2_g(ptr %x, ptr %x.shadow, ptr %x.shadow1, i32 %n, double %d_ret, double %d_ret2)
; CHECK-LABEL: {{^}}for.body:
; CHECK-COUNT-1: call double @exp(
; CHECK-NOT: @exp(
; CHECK: call ptr @__fz_push{{(_reserved)?}}(ptr {{%.*}}, i64 8)
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[TOP:%.*]] = call ptr @__fz_top(ptr {{%.*}}, i64 8)
; CHECK-NOT: @__fz_top
; CHECK: [[E:%.*]] = load double, ptr [[TOP]]
; CHECK-NEXT: fmul double {{%.*}}, [[E]]
; CHECK: fmul double {{%.*}}, [[E]]
; CHECK: getelementptr double, ptr %x.shadow, i64
; CHECK: getelementptr double, ptr %x.shadow1, i64
; CHECK-NOT: @exp(
; CHECK: {{^}}}
