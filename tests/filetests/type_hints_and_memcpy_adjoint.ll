; Decision: `__enzyme_double(p)` / `__enzyme_float(p)` are type hints for type analysis
; only: the calls are not copied into derivatives and are removed from the module (with
; their declarations) after the pass. The hint decides the element type of the adjoint
; of `memcpy`: the reverse sweep calls `__fz_memcpy_adj_f64` (adds and zeroes 8-byte
; doubles) for the `double` copy and `__fz_memcpy_adj_f32` for the `float` copy.
; Why it matters: moving float adjoints as doubles (or the reverse) would mix up
; bytes; a leftover hint call would fail to link (the hints have no definition).
;
; extern void __enzyme_double(void *);
; extern void __enzyme_float(void *);
; void copyd(double *dst, const double *src, int n) {
;   __enzyme_double(dst);
;   __builtin_memcpy(dst, src, n * sizeof(double));
; }
; void copyf(float *dst, const float *src, int n) {
;   __enzyme_float(dst);
;   __builtin_memcpy(dst, src, n * sizeof(float));
; }
; void gradd(double *d, double *dd, const double *s, double *ds, int n) {
;   __enzyme_autodiff((void *)copyd, d, dd, s, ds, n);
; }
; void gradf(float *d, float *dd, const float *s, float *ds, int n) {
;   __enzyme_autodiff((void *)copyf, d, dd, s, ds, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=HINT
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=F64
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=F32

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @copyd(ptr %dst, ptr %src, i32 %n) {
entry:
  call void @__enzyme_double(ptr %dst)
  %conv = sext i32 %n to i64
  %mul = shl i64 %conv, 3
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %dst, ptr align 8 %src, i64 %mul, i1 false)
  ret void
}

declare void @__enzyme_double(ptr)

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr noalias, i64, i1 immarg)

define void @copyf(ptr %dst, ptr %src, i32 %n) {
entry:
  call void @__enzyme_float(ptr %dst)
  %conv = sext i32 %n to i64
  %mul = shl i64 %conv, 2
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %dst, ptr align 4 %src, i64 %mul, i1 false)
  ret void
}

declare void @__enzyme_float(ptr)

define void @gradd(ptr %d, ptr %dd, ptr %s, ptr %ds, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @copyd, ptr %d, ptr %dd, ptr %s, ptr %ds, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

define void @gradf(ptr %d, ptr %dd, ptr %s, ptr %ds, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @copyf, ptr %d, ptr %dd, ptr %s, ptr %ds, i32 %n)
  ret void
}

; HINT-NOT: __enzyme_double
; HINT-NOT: __enzyme_float
; HINT-LABEL: define void @copyd(
; HINT-NEXT: entry:
; HINT-NEXT: sext
; HINT-LABEL: define void @copyf(
; HINT-NEXT: entry:
; HINT-NEXT: sext
; HINT-NOT: __enzyme_double
; HINT-NOT: __enzyme_float
; F64-LABEL: define internal void @fz_grad_copyd(ptr %dst, ptr %dst.shadow, ptr %src, ptr %src.shadow, i32 %n)
; F64: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %dst, ptr align 8 %src, i64 [[N:%.*]], i1 false)
; F64-LABEL: {{^}}rev.entry:
; F64-NEXT: call void @__fz_memcpy_adj_f64(ptr %dst.shadow, ptr %src.shadow, i64 [[N]])
; F32-LABEL: define internal void @fz_grad_copyf(ptr %dst, ptr %dst.shadow, ptr %src, ptr %src.shadow, i32 %n)
; F32: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %dst, ptr align 4 %src, i64 [[N:%.*]], i1 false)
; F32-LABEL: {{^}}rev.entry:
; F32-NEXT: call void @__fz_memcpy_adj_f32(ptr %dst.shadow, ptr %src.shadow, i64 [[N]])
