; Decision: a local array with a constant size in the entry block gets its shadow as an
; `alloca` in the derivative's entry block, zeroed with one `memset` (combined mode):
; no heap allocation and nothing to free. (The array is indexed by a run-time value, so
; SROA cannot turn it into registers.)
; Why it matters: stack shadows cost nothing to allocate and free; compare with
; vla_shadow_on_heap.ll, where the size is only known at run time.
;
; double stackarr(double x) {
;   double t[2];
;   t[0] = x;
;   t[1] = x * x;
;   volatile int k = 1;
;   return t[k] * t[0];
; }
; double grad(double x) { return __enzyme_autodiff((void *)stackarr, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @stackarr(double %x) {
entry:
  %t = alloca [2 x double], align 16
  %k = alloca i32, align 4
  call void @llvm.lifetime.start.p0(ptr %t)
  store double %x, ptr %t, align 16
  %mul = fmul double %x, %x
  %arrayidx1 = getelementptr i8, ptr %t, i64 8
  store double %mul, ptr %arrayidx1, align 8
  call void @llvm.lifetime.start.p0(ptr %k)
  store volatile i32 1, ptr %k, align 4
  %k.0.k.0.k.0.k.0. = load volatile i32, ptr %k, align 4
  %idxprom = sext i32 %k.0.k.0.k.0.k.0. to i64
  %arrayidx2 = getelementptr double, ptr %t, i64 %idxprom
  %0 = load double, ptr %arrayidx2, align 8
  %mul4 = fmul double %x, %0
  call void @llvm.lifetime.end.p0(ptr %k)
  call void @llvm.lifetime.end.p0(ptr %t)
  ret double %mul4
}

declare void @llvm.lifetime.start.p0(ptr)

declare void @llvm.lifetime.end.p0(ptr)

define double @grad(double %x) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @stackarr, double %x)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @fz_grad_stackarr(
; CHECK-NEXT: fz.entry:
; CHECK: [[SH:%.*]] = alloca [2 x double], align 16
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 1 [[SH]], i8 0, i64 16, i1 false)
; CHECK-LABEL: {{^}}entry:
; CHECK: [[T:%.*]] = alloca [2 x double], align 16
; CHECK: getelementptr double, ptr [[SH]], i64
; CHECK-NOT: @calloc
; CHECK-NOT: @free
; CHECK: {{^}}}
