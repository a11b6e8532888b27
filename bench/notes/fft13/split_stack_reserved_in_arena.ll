; Decision: in a split pair (the augmented forward and reverse of a recursive function)
; a record stack whose whole room is reserved once per call (fixed_tape.rs's sure bound,
; the reservation's block on no cycle of the function) takes its buffer from the tape
; arena: `__fz_reserve_arena` in the augmented forward, `__fz_stack_free_arena` at the
; reverse exit (reverse/arena_stack.rs, runtime/ir/arena_stack.ll; reservations over 4
; KiB fall back to `__fz_reserve` at run time). A reservation that runs once per
; iteration of an enclosing loop (@rec_stages: the outer loop doubles its counter, so
; the inner loop's count is reserved inside it) keeps `__fz_reserve` and
; `__fz_stack_free`, as do the combined top-level derivatives (not split).
; Why it matters: the recursive FFT reserves a small stack in each of its 2^15 calls per
; transform; malloc and free of those buffers were a fifth of its gradient's
; instructions (bench/README "fft13"). An arena block is a bump allocation, freed in
; about the opposite order by the reverse sweep.
;
; void rec(double *x, long n) {
;   if (n <= 1) return;
;   rec(x, n / 2);
;   for (long i = 0; i < n / 2; i++) x[i] = x[i] * x[i + n / 2];
; }
; void rec_stages(double *x, long n) {
;   if (n <= 1) return;
;   rec_stages(x, n / 2);
;   for (long j = 1; j < n; j *= 2)
;     for (long i = 0; i < j; i++) x[i] = x[i] * x[i + j];
; }
; void grad(double *x, double *dx, long n) { __enzyme_autodiff((void *)rec, x, dx, n); }
; void grad_stages(double *x, double *dx, long n) { __enzyme_autodiff((void *)rec_stages, x, dx, n); }
; (clang-22 -O2 -fno-unroll-loops -fno-vectorize -fno-slp-vectorize, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @rec(ptr %0, i64 %1) {
  %3 = icmp slt i64 %1, 2
  br i1 %3, label %15, label %4

4:                                                ; preds = %2
  %5 = lshr i64 %1, 1
  tail call void @rec(ptr %0, i64 %5)
  br label %6

6:                                                ; preds = %4, %6
  %7 = phi i64 [ %13, %6 ], [ 0, %4 ]
  %8 = getelementptr inbounds nuw double, ptr %0, i64 %7
  %9 = load double, ptr %8, align 8
  %10 = getelementptr inbounds nuw double, ptr %8, i64 %5
  %11 = load double, ptr %10, align 8
  %12 = fmul double %9, %11
  store double %12, ptr %8, align 8
  %13 = add nuw nsw i64 %7, 1
  %14 = icmp eq i64 %13, %5
  br i1 %14, label %15, label %6

15:                                               ; preds = %6, %2
  ret void
}

define void @rec_stages(ptr %0, i64 %1) {
  %3 = icmp slt i64 %1, 2
  br i1 %3, label %20, label %4

4:                                                ; preds = %2
  %5 = lshr i64 %1, 1
  tail call void @rec_stages(ptr %0, i64 %5)
  br label %6

6:                                                ; preds = %4, %8
  %7 = phi i64 [ 1, %4 ], [ %9, %8 ]
  br label %11

8:                                                ; preds = %11
  %9 = shl nsw i64 %7, 1
  %10 = icmp slt i64 %9, %1
  br i1 %10, label %6, label %20

11:                                               ; preds = %6, %11
  %12 = phi i64 [ 0, %6 ], [ %18, %11 ]
  %13 = getelementptr inbounds nuw double, ptr %0, i64 %12
  %14 = load double, ptr %13, align 8
  %15 = getelementptr double, ptr %13, i64 %7
  %16 = load double, ptr %15, align 8
  %17 = fmul double %14, %16
  store double %17, ptr %13, align 8
  %18 = add nuw nsw i64 %12, 1
  %19 = icmp eq i64 %18, %7
  br i1 %19, label %8, label %11

20:                                               ; preds = %8, %2
  ret void
}

define void @grad(ptr %0, ptr %1, i64 %2) {
  tail call void (ptr, ...) @__enzyme_autodiff(ptr nonnull @rec, ptr %0, ptr %1, i64 %2)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...)

define void @grad_stages(ptr %0, ptr %1, i64 %2) {
  tail call void (ptr, ...) @__enzyme_autodiff(ptr nonnull @rec_stages, ptr %0, ptr %1, i64 %2)
  ret void
}

; CHECK-LABEL: define internal void @fz_grad_rec_stages(
; CHECK-NOT: _arena
; CHECK: {{^}}}
; CHECK-LABEL: define internal void @fz_grad_rec(
; CHECK-NOT: _arena
; CHECK: call void @__fz_reserve(ptr
; CHECK-NOT: _arena
; CHECK: call void @__fz_stack_free(ptr
; CHECK: {{^}}}
; CHECK-LABEL: define internal { ptr } @fz_aug_rec(
; CHECK: call ptr @__fz_tape_alloc(i64
; CHECK: call { ptr } @fz_aug_rec(
; CHECK: call void @__fz_reserve_arena(ptr {{%.*}}, i64 {{%.*}})
; CHECK: call ptr @__fz_push_reserved(ptr {{%.*}}, i64 16)
; CHECK-LABEL: define internal void @fz_rev_rec(
; CHECK: call void @__fz_stack_free_arena(ptr
; CHECK-NEXT: call void @__fz_tape_free(ptr %tape)
; CHECK-LABEL: define internal void @__fz_reserve_arena(ptr %s, i64 %extra)
; CHECK: icmp ule i64 %extra, 4096
; CHECK: call ptr @__fz_tape_alloc(i64 %extra)
; CHECK: call void @__fz_reserve(ptr %s, i64 %extra)
; CHECK-LABEL: define internal { ptr } @fz_aug_rec_stages(
; CHECK-NOT: _arena
; CHECK: call ptr @__fz_push(ptr
; CHECK-NOT: _arena
; CHECK: call void @__fz_reserve(ptr
; CHECK-NOT: _arena
; CHECK: call ptr @__fz_push_reserved(ptr
; CHECK-LABEL: define internal void @fz_rev_rec_stages(
; CHECK-NOT: _arena
; CHECK: call void @__fz_stack_free(ptr
; CHECK-NOT: _arena
; CHECK: call void @__fz_stack_free(ptr
; CHECK-NOT: _arena
; CHECK: call void @__fz_tape_free(ptr %tape)
