; Decision: a descriptor stored whole from a constant whose base is a read-only array of
; reals (flang -O0's `pair = [-1d300, -1d0]`, `dot_product(x, [1d0, 2d0])`) points at a
; stack copy of the array in the clone (fortran_constants.rs: an alloca filled by
; memcpy at the entry). The constant has no shadow, so the shadow descriptor's base was
; null and the reverse sweep added the adjoint flowing back to the constant through it:
; a segmentation fault (tests/fortran/26 at -O0). The primal function keeps the constant.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define {{.*}}@scaled(
; CHECK: store { ptr, i64 } { ptr @ro, i64 2 }
; CHECK-LABEL: define internal {{.*}}@fz_grad_scaled(
; CHECK: %fz.ro.copy = alloca [2 x double]
; CHECK: call void @llvm.memcpy.{{.*}}(ptr {{.*}}%fz.ro.copy, ptr {{.*}}@ro, i64 16
; CHECK: insertvalue { ptr, i64 } { ptr @ro, i64 2 }, ptr %fz.ro.copy, 0
; CHECK: ret

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@ro = internal constant [2 x double] [double 3.000000e+00, double 5.000000e+00]

define double @scaled(double %x) {
entry:
  %d = alloca { ptr, i64 }, align 8
  store { ptr, i64 } { ptr @ro, i64 2 }, ptr %d, align 8
  %v = call double @second(ptr %d)
  %r = fmul double %v, %x
  ret double %r
}

; A runtime routine reading the descriptor (flang's DotProductReal8 stands here).
define double @second(ptr %d) noinline {
entry:
  %p = load ptr, ptr %d, align 8
  %q = getelementptr double, ptr %p, i64 1
  %v = load double, ptr %q, align 8
  %s = fmul double %v, %v
  ret double %s
}

define double @grad(double %x) {
entry:
  %r = tail call double (ptr, ...) @__enzyme_autodiff(ptr nonnull @scaled, double %x)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
