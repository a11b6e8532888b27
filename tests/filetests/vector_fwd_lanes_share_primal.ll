; Decision: vector forward mode (`enzyme_width, 4`) computes the primal and every value
; the tangents need once (one `sin`, one `cos`) and applies each rule once per lane:
; four tangent multiplications per partial, one generated function `fz_fwd4_f`
; returning `{ primal, 4 tangents }`.
; Why it matters: the point of batching is sharing the primal; a copy per lane would
; cost as much as four scalar calls.
;
; double f(double x) { return sin(x) * x; }
; typedef struct { double a, b, c, d; } v4;
; extern v4 __enzyme_fwddiff_v4(void *, ...);
; v4 dfv(double x, double d0, double d1, double d2, double d3) {
;   return __enzyme_fwddiff_v4((void *)f, enzyme_width, 4, x, d0, d1, d2, d3);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.v4 = type { double, double, double, double }

@enzyme_width = external global i32, align 4

define double @f(double %x) {
entry:
  %call = call double @sin(double %x)
  %mul = fmul double %x, %call
  ret double %mul
}

declare double @sin(double)

define void @dfv(ptr dead_on_unwind noalias writable sret(%struct.v4) align 8 %agg.result, double %x, double %d0, double %d1, double %d2, double %d3) {
entry:
  %0 = load i32, ptr @enzyme_width, align 4
  call void (ptr, ptr, ...) @__enzyme_fwddiff_v4(ptr dead_on_unwind writable sret(%struct.v4) align 8 %agg.result, ptr @f, i32 %0, i32 4, double %x, double %d0, double %d1, double %d2, double %d3)
  ret void
}

declare void @__enzyme_fwddiff_v4(ptr dead_on_unwind writable sret(%struct.v4) align 8, ptr, ...)

; CHECK-LABEL: define internal { double, double, double, double, double } @fz_fwd4_f(double %x, double %x.d0, double %x.d1, double %x.d2, double %x.d3)
; CHECK-COUNT-1: call double @sin(double %x)
; CHECK-NEXT: [[C:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT: fmul double %x.d0, [[C]]
; CHECK-NEXT: fmul double %x.d1, [[C]]
; CHECK-NEXT: fmul double %x.d2, [[C]]
; CHECK-NEXT: fmul double %x.d3, [[C]]
; CHECK-NOT: @sin(
; CHECK-NOT: @llvm.cos
; CHECK: ret { double, double, double, double, double }
