; Decision: where `ferrozyme cc` compiles to machine code (an object or assembly), the
; tape runtime's per-thread state is read through a `thread_local` cache of its pthread
; key (`runtime/thread_tls.rs`, `runtime/ir/thread_tls.ll`): `__fz_state_peek` loads
; `__fz_state_tls` and calls `pthread_getspecific` only on a miss, and the key's destructor
; clears the cache. IR output (`-emit-llvm`, `ferrozyme opt`) keeps thread.ll's key
; lookup: a JIT such as MCJIT may run it, and MCJIT does not support TLS.
; Why it matters: the lookup runs on every split-mode tape block, slab buffer and pooled
; stack buffer; the recursive FFT (N = 32768) made 1.31M `pthread_getspecific` calls per
; gradient, 8% of its instructions at -O3 -march=x86-64-v3 (bench/README "bench24").
;
; #include <math.h>
; double f(const double *x, int n) {
;   double w = 0.5;
;   for (int i = 0; i < n; i++) w = sin(w + x[i]);
;   return w;
; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)f, x, dx, n); }
; (clang-22 -O2 -fno-unroll-loops, attributes and metadata removed)
;
; RUN: %ferrozyme cc %s -O2 -S -o - | %FileCheck %s
; RUN: %ferrozyme cc %s -O2 -S -emit-llvm -o - | %FileCheck %s --check-prefix=IR
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s --check-prefix=IR

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
define double @f(ptr %0, i32 %1) {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %6
4:                                                ; preds = %2
  %5 = zext nneg i32 %1 to i64
  br label %8
6:                                                ; preds = %8, %2
  %7 = phi double [ 5.000000e-01, %2 ], [ %14, %8 ]
  ret double %7
8:                                                ; preds = %4, %8
  %9 = phi i64 [ 0, %4 ], [ %15, %8 ]
  %10 = phi double [ 5.000000e-01, %4 ], [ %14, %8 ]
  %11 = getelementptr inbounds nuw double, ptr %0, i64 %9
  %12 = load double, ptr %11, align 8
  %13 = fadd double %10, %12
  %14 = tail call double @sin(double noundef %13)
  %15 = add nuw nsw i64 %9, 1
  %16 = icmp eq i64 %15, %5
  br i1 %16, label %6, label %8
}
declare double @sin(double noundef) local_unnamed_addr
define dso_local void @grad(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr {
  %4 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, ptr noundef %0, ptr noundef %1, i32 noundef %2)
  ret void
}
declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


; The cache in thread-local storage (the model is the code generator's: local-exec in a
; PIE, local-dynamic here), read before the key; the key's path remains.
; CHECK: __fz_state_tls@
; CHECK: pthread_getspecific
; CHECK: .section .tbss
; CHECK: __fz_state_tls:

; IR-NOT: thread_local
; IR: call ptr @pthread_getspecific
; IR-NOT: thread_local
