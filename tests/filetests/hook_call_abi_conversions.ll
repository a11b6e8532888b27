; Decision: the hook call is rewritten into a call of the derivative with the
; function's own parameter types: C's variadic promotion made the `float` arguments
; `double`, so they are truncated back; the seed of the `float` result is 1.0f; the
; derivative returns `{ float, float }` and its fields fill the hook's declared return
; type in order (`<2 x float>`, the x86-64 ABI of `struct { float a, b; }`) (replace.rs).
; Why it matters: a mismatch here is a wrong derivative before any math happens.
;
; typedef struct { float a, b; } fpair;
; extern fpair __enzyme_autodiff_f2(void *, ...);
; float ff(float x, float y) { return x * y * y; }
; fpair grad(float x, float y) { return __enzyme_autodiff_f2((void *)ff, x, y); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define float @ff(float %x, float %y) {
entry:
  %mul = fmul float %x, %y
  %mul1 = fmul float %y, %mul
  ret float %mul1
}

define <2 x float> @grad(float %x, float %y) {
entry:
  %conv = fpext float %x to double
  %conv1 = fpext float %y to double
  %call = call <2 x float> (ptr, ...) @__enzyme_autodiff_f2(ptr @ff, double %conv, double %conv1)
  ret <2 x float> %call
}

declare <2 x float> @__enzyme_autodiff_f2(ptr, ...)

; CHECK-LABEL: define <2 x float> @grad(float %x, float %y)
; CHECK: [[X:%.*]] = fpext float %x to double
; CHECK-NEXT: [[Y:%.*]] = fpext float %y to double
; CHECK-NEXT: [[XF:%.*]] = fptrunc double [[X]] to float
; CHECK-NEXT: [[YF:%.*]] = fptrunc double [[Y]] to float
; CHECK-NEXT: [[R:%.*]] = call { float, float } @fz_grad_ff(float [[XF]], float [[YF]], float 1.000000e+00)
; CHECK-NEXT: [[DX:%.*]] = extractvalue { float, float } [[R]], 0
; CHECK-NEXT: [[DY:%.*]] = extractvalue { float, float } [[R]], 1
; CHECK-NEXT: [[V0:%.*]] = insertelement <2 x float> zeroinitializer, float [[DX]], i32 0
; CHECK-NEXT: [[V1:%.*]] = insertelement <2 x float> [[V0]], float [[DY]], i32 1
; CHECK-NEXT: ret <2 x float> [[V1]]
; CHECK-NOT: call {{.*}}@__enzyme_autodiff_f2(
; CHECK-LABEL: define internal { float, float } @fz_grad_ff(float %x, float %y, float %d_ret)
