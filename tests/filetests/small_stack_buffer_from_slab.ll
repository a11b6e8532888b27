; Decision: a tape stack's first buffer of up to 32 KiB comes from the per-thread slab
; (`__fz_slab_take`: bump allocation in 1 MiB chunks), not from malloc, and is marked by
; bit 1 of its capacity; `__fz_pool_put` gives marked buffers back to the slab
; (`__fz_slab_put`), everything else to the pool or free.
; Why it matters: a recursive function's augmented calls reserve one buffer each (the
; recursive FFT: 65,534 per gradient, all alive until the reverse sweep); malloc and free
; cost 24M of its 102M instructions, and free lists per size class, though as cheap in
; instructions, were 35% slower (reused buffers scattered; bench/README "fft14").
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
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

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

; CHECK-LABEL: define internal void @__fz_pool_put(ptr %d, i64 %mcap)
; CHECK: %mark = and i64 %mcap, 2
; CHECK: br i1 %slab, label %toslab, label %heap
; CHECK: toslab:
; CHECK-NEXT: call void @__fz_slab_put(ptr %d)
; CHECK-LABEL: define internal { ptr, i64 } @__fz_grow(ptr %data, i64 %cap, i64 %need)
; CHECK: %small = icmp ule i64 %c4, 32768
; CHECK-NEXT: %toslab = and i1 %isinl, %small
; CHECK-NEXT: br i1 %toslab, label %slab, label %pool
; CHECK: slab:
; CHECK: %sd = call ptr @__fz_slab_take(i64 %c16)
; CHECK: %scap = or i64 %c16, 2
