; Decision: a pointer loaded from a global (`double *g_ptr`) takes its shadow from the
; global's shadow, which only knows what differentiated code stored there. When the
; program set `g_ptr` elsewhere the shadow is null while the pointer is not: the
; forward sweep checks exactly that (`__fz_check_shadow`) and stops with a message
; naming the global instead of dropping the derivative.
; Why it matters: a silently dropped derivative is worse than a clear run-time error.
;
; double *g_ptr;
; double useg(double x) { return g_ptr[0] * x; }
; double grad(double x) { return __enzyme_autodiff((void *)useg, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g_ptr = global ptr null, align 8

define double @useg(double %x) {
entry:
  %0 = load ptr, ptr @g_ptr, align 8
  %1 = load double, ptr %0, align 8
  %mul = fmul double %x, %1
  ret double %mul
}

define double @grad(double %x) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @useg, double %x)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK: @__fz_shadow_g_ptr = internal global ptr null
; CHECK: @fz.msg = {{.*}}the pointer read from global `g_ptr` has no shadow
; CHECK-LABEL: define internal { double } @fz_grad_useg(
; CHECK: [[P:%.*]] = load ptr, ptr @g_ptr
; CHECK-NEXT: [[SP:%.*]] = load ptr, ptr @__fz_shadow_g_ptr
; CHECK-NEXT: [[NOSH:%.*]] = icmp eq ptr [[SP]], null
; CHECK-NEXT: [[HASP:%.*]] = icmp ne ptr [[P]], null
; CHECK-NEXT: [[BAD:%.*]] = and i1 [[NOSH]], [[HASP]]
; CHECK-NEXT: call void @__fz_check_shadow(i1 [[BAD]], ptr @fz.msg)
; CHECK-NEXT: load double, ptr [[P]]
; CHECK-LABEL: {{^}}rev.entry:
; CHECK: load double, ptr [[SP]]
; CHECK: store double {{%.*}}, ptr [[SP]]
; CHECK: {{^}}}
