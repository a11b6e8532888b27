; Decision: reverse over reverse of a loop whose first derivative keeps a tape stack
; differentiates the stack runtime like user code (its single-block functions inlined) (the stack header's shadow is a mirror
; stack with a shadow buffer), typed by the runtime itself: the header's lengths carry
; `!ferrozyme.tape.int`, and the copies that move a stack's records into a larger buffer
; (growth's `memcpy` from the inline buffer, its `realloc` of a heap one) carry
; `!ferrozyme.tape.move`. The forward sweep copies the shadow bytes along; the reverse
; copies the new shadow's bytes back to the old shadow and clears them, and the
; `realloc`'s adjoint moves bytes (`__fz_realloc_adj_bytes`), never floats of a type
; guessed from the merged facts of every stack.
; Why it matters: the records mix floats, counters, path tags and pointers, so no float
; layout exists; the source of a move is never used again, so moving the bytes back is
; the exact adjoint. Before, this stopped with cannot-deduce-type on the memcpy
; ("nothing is known about %nd1"), at every level when the loop calls a function.
;
; static double g(double t, double x) { return t * cos(t) * 0.5 + x; }  // noinline
; double f(double x, int n) { double t = x; for (int i = 0; i < n; i++) t = g(t, x); return t; }
; double df(double x, int n) { return __enzyme_autodiff((void *)f, x, enzyme_const, n); }
; double ddf(double x, int n) { return __enzyme_autodiff_outer((void *)df, x, enzyme_const, n); }
; (clang-22 -O2 -fno-unroll-loops, attributes and metadata removed; tests/c/269 runs it)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32, align 4

define double @f(double %0, i32 %1) {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %6, label %4

4:                                                ; preds = %6, %2
  %5 = phi double [ %0, %2 ], [ %9, %6 ]
  ret double %5

6:                                                ; preds = %2, %6
  %7 = phi i32 [ %10, %6 ], [ 0, %2 ]
  %8 = phi double [ %9, %6 ], [ %0, %2 ]
  %9 = tail call fastcc double @g(double %8, double %0)
  %10 = add nuw nsw i32 %7, 1
  %11 = icmp eq i32 %10, %1
  br i1 %11, label %4, label %6
}

define internal fastcc double @g(double %0, double %1) unnamed_addr {
  %3 = tail call double @cos(double %0)
  %4 = fmul double %0, %3
  %5 = tail call double @llvm.fmuladd.f64(double %4, double 5.000000e-01, double %1)
  ret double %5
}

define double @df(double %0, i32 %1) {
  %3 = load i32, ptr @enzyme_const, align 4
  %4 = tail call double (ptr, ...) @__enzyme_autodiff(ptr nonnull @f, double %0, i32 %3, i32 %1)
  ret double %4
}

declare double @__enzyme_autodiff(ptr, ...)

define double @ddf(double %0, i32 %1) {
  %3 = load i32, ptr @enzyme_const, align 4
  %4 = tail call double (ptr, ...) @__enzyme_autodiff_outer(ptr nonnull @df, double %0, i32 %3, i32 %1)
  ret double %4
}

declare double @__enzyme_autodiff_outer(ptr, ...)

declare double @cos(double)

declare double @llvm.fmuladd.f64(double, double, double)

; The header's lengths are typed where the runtime reads and writes them.
; CHECK-LABEL: define internal ptr @__fz_push(
; CHECK: %len = load i64, ptr %lenp, align 8, !ferrozyme.tape.int
; CHECK: %cap = load i64, ptr %capp, align 8, !ferrozyme.tape.int
; CHECK: store i64 %new, ptr %lenp, align 8, !ferrozyme.tape.int

; The runtime's single-block functions (`__fz_push_reserved`, `__fz_top`, `__fz_pop`) are
; inlined into the clone of the inner derivative before it is differentiated: no
; augmented versions of them, whose tape blocks would be one arena allocation per record.
; CHECK-LABEL: define internal { { double }, ptr } @fz_aug_fz_grad_f.nest(
; CHECK-NOT: @fz_aug___fz_{{top|pop|push_reserved}}
; CHECK: ret { { double }, ptr }

; Split mode's tape handover (an augmented function's local tape copied into the heap
; block it returns) is a move too: here in the augmented derivative of `fz_aug_g` (the
; inner augmented call of `g`), and reversed byte for byte in its reverse.
; CHECK-LABEL: define internal {{.*}} @fz_aug_fz_aug_g(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %{{[0-9]+}}, ptr align 16 %fz.tape{{[0-9]*}}, i64 8, i1 false), !ferrozyme.tape.move
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %{{[0-9]+}}, ptr align 16 %{{[0-9]+}}, i64 8, i1 false), !ferrozyme.tape.move
; CHECK-LABEL: define internal {{.*}} @fz_rev_fz_aug_g(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %fz.cached{{[0-9]*}}, ptr align 1 %[[HEAP:fz.cached[0-9]*]], i64 8, i1 false)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 1 %[[HEAP]], i8 0, i64 8, i1 false)

; Forward: the records and their shadows move together.
; CHECK-LABEL: @fz_aug___fz_grow_plain.nest(ptr %data, ptr %data.shadow, i64 %cap, i64 %need, ptr %tape, ptr %region)
; CHECK: copy:
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %nd1, ptr %data, i64 %used, i1 false), !ferrozyme.tape.move
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %{{[0-9]+}}, ptr %data.shadow, i64 %used, i1 false)
; CHECK: %nd2 = call ptr @realloc(ptr %data, i64 %c4), !ferrozyme.tape.move

; Reverse: byte for byte back into the old shadow.
; CHECK-LABEL: define internal void @fz_rev___fz_grow_plain.nest(
; CHECK-SAME: ptr %data, ptr %[[OLD:[0-9]+]],
; CHECK: rev.copy:
; CHECK: %[[NEW:fz.cached[0-9]*]] = load ptr
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %[[OLD]], ptr align 1 %[[NEW]], i64 %{{[0-9]+}}, i1 false)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 1 %[[NEW]], i8 0, i64 %{{[0-9]+}}, i1 false)
; CHECK: rev.re:
; CHECK-NOT: __fz_realloc_adj_f64
; CHECK: call void @__fz_realloc_adj_bytes(ptr %[[OLD]],
; CHECK: ret void
