; Decision: runtime activity. A pointer that is an enzyme_const buffer or the duplicated
; one depending on the run (a loop phi of `y` and `select(c, y, x)`) gets a shadow in
; which the constant pointer is its own shadow (`phi [%y, ...]`, `select c, %y,
; %x.shadow`), and only the adjoint accumulation through that pointer is guarded
; (`icmp ne` of shadow and primal, masked load/store); `x`'s own accesses stay plain.
; Why it matters: without the guard, the adjoint would be added into the constant
; buffer itself (a wrong primal), and guards on ordinary accesses would cost speed.
;
; double f(double *x, const double *y, int n) {
;   double s = 0;
;   const double *p = y;
;   for (int i = 0; i < n; i++) {
;     s += p[i] * x[i];
;     p = (x[i] > 0) ? y : x;
;   }
;   return s;
; }
; void grad(double *x, double *dx, const double *y, int n) {
;   __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, y, n);
; }
; (clang-22 -O2 -fno-unroll-loops, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define double @f(ptr %x, ptr %y, i32 %n) {
entry:
  %cmp14 = icmp sgt i32 %n, 0
  br i1 %cmp14, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %2, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %p.016 = phi ptr [ %y, %for.body.preheader ], [ %cond, %for.body ]
  %s.015 = phi double [ 0.000000e+00, %for.body.preheader ], [ %2, %for.body ]
  %arrayidx = getelementptr inbounds nuw double, ptr %p.016, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %arrayidx2 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %1 = load double, ptr %arrayidx2, align 8
  %2 = tail call double @llvm.fmuladd.f64(double %0, double %1, double %s.015)
  %cmp5 = fcmp ogt double %1, 0.000000e+00
  %cond = select i1 %cmp5, ptr %y, ptr %x
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, ptr %y, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %1, ptr %y, i32 %n)
  ret void
}

declare void @__enzyme_autodiff(ptr , ...) 

; CHECK-LABEL: define internal void @fz_grad_f(ptr %x, ptr %x.shadow, ptr %y, i32 %n, double %d_ret)
; CHECK-LABEL: {{^}}for.body:
; CHECK: %p.016.shadow = phi ptr [ %y, %for.body.preheader ], [ [[S:%.*]], %for.body ]
; CHECK: [[S]] = select i1 %cmp5, ptr %y, ptr %x.shadow
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[XS:%.*]] = getelementptr inbounds nuw double, ptr %x.shadow,
; CHECK-NEXT: [[OLD:%.*]] = load double, ptr [[XS]]
; CHECK-NEXT: [[NEW:%.*]] = fadd nsz {{(contract )?}}double [[OLD]],
; CHECK-NEXT: store double [[NEW]], ptr [[XS]]
; CHECK: [[VALID:%.*]] = icmp ne ptr [[SP:%.*]], {{%.*}}
; CHECK: [[MASK:%.*]] = insertelement <1 x i1> poison, i1 [[VALID]], i32 0
; CHECK-NEXT: call {{(contract )?}}<1 x double> @llvm.masked.load.v1f64.p0(ptr [[SP]], <1 x i1> [[MASK]],
; CHECK: call void @llvm.masked.store.v1f64.p0(<1 x double> {{%.*}}, ptr [[SP]], <1 x i1> [[MASK]])
; CHECK: {{^}}}
