; Decision: a pointer chosen at run time between an `enzyme_dup` buffer and an
; `enzyme_const` one (`c ? a : b`) gets the shadow `c ? a' : null` and a validity flag;
; the reverse sweep adds the load's adjoint with single-lane masked loads and stores
; (`llvm.masked.load/store.v1f64`), masked by the flag, so nothing touches memory when
; the constant buffer was chosen (reverse/mixed.rs).
; Why it matters: an unguarded access through the null shadow would crash; dropping
; the adjoint would lose `a`'s derivative when `a` was chosen.
;
; double pick(const double *a, const double *b, int c) {
;   const double *p = c ? a : b;
;   return p[0] * p[0];
; }
; void grad(const double *a, double *da, const double *b, int c) {
;   __enzyme_autodiff((void *)pick, enzyme_dup, a, da, enzyme_const, b, c);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define double @pick(ptr %a, ptr %b, i32 %c) {
entry:
  %tobool.not = icmp eq i32 %c, 0
  %cond = select i1 %tobool.not, ptr %b, ptr %a
  %0 = load double, ptr %cond, align 8
  %mul = fmul double %0, %0
  ret double %mul
}

define void @grad(ptr %a, ptr %da, ptr %b, i32 %c) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @pick, i32 %0, ptr %a, ptr %da, i32 %1, ptr %b, i32 %c)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_pick(ptr %a, ptr %a.shadow, ptr %b, i32 %c,
; CHECK: [[ISB:%.*]] = icmp eq i32 %c, 0
; CHECK-NEXT: select i1 [[ISB]], ptr %b, ptr %a
; CHECK-NEXT: [[SH:%.*]] = select i1 [[ISB]], ptr null, ptr %a.shadow
; CHECK-LABEL: {{^}}rev.entry:
; CHECK: [[VALID:%.*]] = xor i1 [[ISB]], true
; CHECK: [[MASK:%.*]] = insertelement <1 x i1> poison, i1 [[VALID]], i32 0
; CHECK-NEXT: [[OLD:%.*]] = call <1 x double> @llvm.masked.load.v1f64.p0(ptr [[SH]], <1 x i1> [[MASK]], <1 x double> zeroinitializer)
; CHECK-NEXT: [[NEW:%.*]] = fadd <1 x double> [[OLD]],
; CHECK-NEXT: call void @llvm.masked.store.v1f64.p0(<1 x double> [[NEW]], ptr [[SH]], <1 x i1> [[MASK]])
; CHECK-NOT: load double, ptr [[SH]]
; CHECK-NOT: store double {{.*}}, ptr [[SH]]
; CHECK: {{^}}}
