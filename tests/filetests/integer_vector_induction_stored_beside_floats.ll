; Decision: an integer vector is an integer in every lane. The loop vectorizer fills an
; index array (numba's `np.arange(n)`, a C `idx[i] = i` loop) with `<4 x i64>` induction
; vectors (`add <4 x i64> %ind, splat (i64 4)`) and reads it back as `<4 x i64>` for a
; `sitofp`: the stored and loaded lanes 1-3 are integers as lane 0 is. The index array
; lives in heap memory next to differentiated floats (its allocation has a shadow), so
; without lane facts its stores were "an integer access to differentiable memory whose
; type is ambiguous" (cannot-deduce-type). Its shadow gets no adjoint: only the float
; products are differentiated (d/dx_i Σ_i i x_i² = 2 i x_i).
; Why it matters: numba's `(x ** 2 * np.arange(n)).sum()` was refused until front38.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

declare noalias ptr @malloc(i64)
declare void @free(ptr)
declare void @__enzyme_autodiff(ptr, ...)

; n is a multiple of 4 here (the caller's contract), so no scalar remainder loop.
define double @weighted(ptr %x, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %idx = call noalias ptr @malloc(i64 %bytes)
  br label %fill

fill:
  %i = phi i64 [ 0, %entry ], [ %i.next, %fill ]
  %ind = phi <4 x i64> [ <i64 0, i64 1, i64 2, i64 3>, %entry ], [ %ind.next, %fill ]
  %p = getelementptr inbounds i64, ptr %idx, i64 %i
  store <4 x i64> %ind, ptr %p, align 8
  %ind.next = add <4 x i64> %ind, splat (i64 4)
  %i.next = add nuw i64 %i, 4
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %sum, label %fill

sum:
  %j = phi i64 [ 0, %fill ], [ %j.next, %sum ]
  %acc = phi <4 x double> [ zeroinitializer, %fill ], [ %acc.next, %sum ]
  %pk = getelementptr inbounds i64, ptr %idx, i64 %j
  %k = load <4 x i64>, ptr %pk, align 8
  %kf = sitofp <4 x i64> %k to <4 x double>
  %px = getelementptr inbounds double, ptr %x, i64 %j
  %xv = load <4 x double>, ptr %px, align 8
  %sq = fmul <4 x double> %xv, %xv
  %t = fmul <4 x double> %sq, %kf
  %acc.next = fadd <4 x double> %acc, %t
  %j.next = add nuw i64 %j, 4
  %end = icmp eq i64 %j.next, %n
  br i1 %end, label %out, label %sum

out:
  call void @free(ptr %idx)
  %r = call double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %acc.next)
  ret double %r
}

declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)

define void @grad(ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @weighted, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i64 %n)
  ret void
}

; CHECK-LABEL: define void @grad(
; CHECK-NOT: __enzyme_autodiff
; CHECK: sitofp <4 x i64> {{.*}} to <4 x double>
