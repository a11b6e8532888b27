; Decision: `single copyprivate(a)` in differentiated code runs as publish, barrier,
; copy, barrier in a function of the module (parallel/copyprivate.rs): the executing
; thread stores its list of private variables and the list's shadow into a slot global
; and its shadow; the other threads copy through the slot (their adjoints flow back
; into the executing thread's shadow), and both barriers are mirrored in the reverse
; sweep; no libomp copyprivate is called by the derivative.
; Why it matters: libomp's __kmpc_copyprivate moves the values where the pass cannot
; follow them (a missing-derivative error before hpc20); a regression to the runtime
; call would lose the derivative of the broadcast value on every other thread.
;
; double bcast_square(const double *x) {
;   double a;
; #pragma omp single copyprivate(a)
;   a = x[0] * x[0];
;   return a;
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local double @bcast_square(ptr noundef readonly captures(none) %x) {
entry:
  %a = alloca double, align 8
  %.omp.copyprivate.cpr_list = alloca [1 x ptr], align 8
  %0 = tail call i32 @__kmpc_global_thread_num(ptr nonnull @1)
  call void @llvm.lifetime.start.p0(ptr nonnull %a)
  %1 = tail call i32 @__kmpc_single(ptr nonnull @1, i32 %0)
  %.not = icmp eq i32 %1, 0
  br i1 %.not, label %omp_if.end, label %omp_if.then

omp_if.then:                                      ; preds = %entry
  %2 = load double, ptr %x, align 8
  %mul = fmul double %2, %2
  store double %mul, ptr %a, align 8
  tail call void @__kmpc_end_single(ptr nonnull @1, i32 %0)
  br label %omp_if.end

omp_if.end:                                       ; preds = %omp_if.then, %entry
  %.omp.copyprivate.did_it.0 = phi i32 [ 1, %omp_if.then ], [ 0, %entry ]
  store ptr %a, ptr %.omp.copyprivate.cpr_list, align 8
  call void @__kmpc_copyprivate(ptr nonnull @1, i32 %0, i64 8, ptr nonnull %.omp.copyprivate.cpr_list, ptr nonnull @.omp.copyprivate.copy_func, i32 %.omp.copyprivate.did_it.0)
  %3 = load double, ptr %a, align 8
  call void @llvm.lifetime.end.p0(ptr nonnull %a)
  ret double %3
}

declare void @llvm.lifetime.start.p0(ptr captures(none))

declare i32 @__kmpc_global_thread_num(ptr) local_unnamed_addr

declare i32 @__kmpc_single(ptr, i32) local_unnamed_addr

declare void @__kmpc_end_single(ptr, i32) local_unnamed_addr

define internal void @.omp.copyprivate.copy_func(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1) {
entry:
  %2 = load ptr, ptr %0, align 8
  %3 = load ptr, ptr %1, align 8
  %4 = load double, ptr %3, align 8
  store double %4, ptr %2, align 8
  ret void
}

declare void @__kmpc_copyprivate(ptr, i32, i64, ptr, ptr, i32) local_unnamed_addr

declare void @llvm.lifetime.end.p0(ptr captures(none))

define dso_local void @grad(ptr noundef %x, ptr noundef %dx) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @bcast_square, i32 noundef %0, ptr noundef %x, ptr noundef %dx)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define internal void @fz_grad_bcast_square(
; CHECK-NOT: @__kmpc_copyprivate
; CHECK: store ptr %a.shadow, ptr %.omp.copyprivate.cpr_list.shadow
; CHECK: call { ptr } @fz_aug_fz.copyprivate..omp.copyprivate.copy_func(ptr @1, i32 {{%.*}}, ptr %.omp.copyprivate.cpr_list, ptr %.omp.copyprivate.cpr_list.shadow, i32
; CHECK-NOT: @__kmpc_copyprivate
; CHECK: call void @fz_rev_fz.copyprivate..omp.copyprivate.copy_func(ptr @1,
; CHECK-NOT: @__kmpc_copyprivate
; CHECK: ret void

; CHECK-LABEL: define internal { ptr } @fz_aug_fz.copyprivate..omp.copyprivate.copy_func(
; CHECK: publish:
; CHECK-NEXT: store ptr %2, ptr @fz.copyprivate.slot..omp.copyprivate.copy_func
; CHECK-NEXT: store ptr %.shadow, ptr @__fz_shadow_fz.copyprivate.slot..omp.copyprivate.copy_func
; CHECK-NEXT: call void @__kmpc_barrier(
; CHECK: call void @__kmpc_barrier(
; CHECK: load ptr, ptr @__fz_shadow_fz.copyprivate.slot..omp.copyprivate.copy_func
; CHECK: call { ptr } @fz_aug_.omp.copyprivate.copy_func(
; CHECK: call void @__kmpc_barrier(

; CHECK-LABEL: define internal void @fz_rev_fz.copyprivate..omp.copyprivate.copy_func(
; CHECK: call void @__kmpc_barrier(
; CHECK: call void @fz_rev_.omp.copyprivate.copy_func(
; CHECK-NEXT: call i32 @__kmpc_global_thread_num(
; CHECK-NEXT: call void @__kmpc_barrier(
