; Decision: `#pragma omp atomic` `*p *= f` (clang's compare-and-swap loop on the bits of
; a double) becomes a critical section on the module's lock: `__kmpc_critical`, a plain
; load, the product, a plain store, `__kmpc_end_critical`; the reverse of the section
; waits for its turn (`__fz_omp_critical_turn`), so the updates are reversed in exactly
; the reverse order they were made (parallel/atomic_cas.rs).
; Why it matters: a product's adjoint depends on the order of the updates; without the
; section the `cmpxchg` is refused (before hpc19), and a reverse in another order would
; be a silently wrong gradient.
;
; void scale_atomic(double *p, const double *x) {
; #pragma omp atomic
;   *p *= sin(*x);
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @scale_atomic(ptr noundef captures(none) %p, ptr noundef readonly captures(none) %x) {
entry:
  %0 = load double, ptr %x, align 8
  %call = tail call double @sin(double noundef %0)
  %atomic-load = load atomic i64, ptr %p monotonic, align 8
  br label %atomic_cont

atomic_cont:                                      ; preds = %atomic_cont, %entry
  %1 = phi i64 [ %atomic-load, %entry ], [ %5, %atomic_cont ]
  %2 = bitcast i64 %1 to double
  %mul = fmul double %call, %2
  %3 = bitcast double %mul to i64
  %4 = cmpxchg ptr %p, i64 %1, i64 %3 monotonic monotonic, align 8
  %5 = extractvalue { i64, i1 } %4, 0
  %6 = extractvalue { i64, i1 } %4, 1
  br i1 %6, label %atomic_exit, label %atomic_cont

atomic_exit:                                      ; preds = %atomic_cont
  ret void
}

declare double @sin(double noundef) local_unnamed_addr

define dso_local void @grad(ptr noundef %p, ptr noundef %dp, ptr noundef %x, ptr noundef %dx) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @scale_atomic, i32 noundef %0, ptr noundef %p, ptr noundef %dp, i32 noundef %0, ptr noundef %x, ptr noundef %dx)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define internal void @fz_grad_scale_atomic(
; CHECK-NOT: cmpxchg
; CHECK: call void @__kmpc_critical(ptr @__fz_omp_atomic_update_loc, i32 [[G:%.*]], ptr @__fz_omp_atomic_update_lock)
; CHECK: [[OLD:%.*]] = load double, ptr %p
; CHECK: [[NEW:%.*]] = fmul double %call, [[OLD]]
; CHECK: store double [[NEW]], ptr %p
; CHECK: [[TICKET:%.*]] = call i64 @__fz_omp_critical_ticket()
; CHECK: call void @__kmpc_end_critical(ptr @__fz_omp_atomic_update_loc, i32 [[G]], ptr @__fz_omp_atomic_update_lock)
; CHECK-LABEL: {{^}}rev.entry:
; CHECK: call void @__fz_omp_critical_turn(i64 [[TICKET]])
; CHECK: fmul double {{%.*}}, [[OLD]]
; CHECK: call void @__fz_omp_critical_done()
; CHECK-NOT: cmpxchg
; CHECK: ret void
