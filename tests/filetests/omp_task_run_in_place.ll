; Decision: an OpenMP task in differentiated code runs in place: the task is a calloc
; (with its shadow), its entry is called directly (augmented forward, then reverse), the
; task is freed after the reverse, and no libomp tasking routine is called by the
; derivative (parallel/tasks.rs).
; Why it matters: libomp's task queue would run the entry where the pass cannot follow
; the data (a missing-derivative error before hpc19); a regression to the runtime call
; would lose the derivative of everything the task computes.
;
; void square_task(const double *x, double *y) {
; #pragma omp task
;   y[0] = x[0] * x[0];
; #pragma omp taskwait
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @square_task(ptr noundef %x, ptr noundef %y) {
entry:
  %0 = tail call i32 @__kmpc_global_thread_num(ptr nonnull @1)
  %1 = tail call ptr @__kmpc_omp_task_alloc(ptr nonnull @1, i32 %0, i32 1, i64 56, i64 0, ptr nonnull @.omp_task_entry.)
  %2 = getelementptr inbounds nuw i8, ptr %1, i64 40
  store ptr %y, ptr %2, align 8
  %3 = getelementptr inbounds nuw i8, ptr %1, i64 48
  store ptr %x, ptr %3, align 8
  %4 = tail call i32 @__kmpc_omp_task(ptr nonnull @1, i32 %0, ptr %1)
  %5 = tail call i32 @__kmpc_omp_taskwait(ptr nonnull @1, i32 %0)
  ret void
}

define internal noundef i32 @.omp_task_entry.(i32 %0, ptr noalias noundef readonly captures(none) %1) {
entry:
  %2 = getelementptr inbounds nuw i8, ptr %1, i64 40
  %3 = getelementptr inbounds nuw i8, ptr %1, i64 48
  %4 = load ptr, ptr %3, align 8
  %5 = load double, ptr %4, align 8
  %mul.i = fmul double %5, %5
  %6 = load ptr, ptr %2, align 8
  store double %mul.i, ptr %6, align 8
  ret i32 0
}

declare i32 @__kmpc_global_thread_num(ptr) local_unnamed_addr

declare noalias ptr @__kmpc_omp_task_alloc(ptr, i32, i32, i64, i64, ptr) local_unnamed_addr

declare i32 @__kmpc_omp_task(ptr, i32, ptr) local_unnamed_addr

declare i32 @__kmpc_omp_taskwait(ptr, i32) local_unnamed_addr

define dso_local void @grad(ptr noundef %x, ptr noundef %dx, ptr noundef %y, ptr noundef %dy) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @square_task, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %0, ptr noundef %y, ptr noundef %dy)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define internal void @fz_grad_square_task(
; CHECK-NOT: @__kmpc_omp_task
; CHECK: [[T:%.*]] = call ptr @calloc(i64 1, i64 56)
; CHECK: store ptr %x.shadow,
; CHECK: call {{.*}} @fz_aug_.omp_task_entry.{{.*}}(i32 {{%.*}}, ptr [[T]], ptr
; CHECK-NOT: @__kmpc_omp_task
; CHECK-LABEL: {{^}}rev.entry:
; CHECK: call void @fz_rev_.omp_task_entry.{{.*}}(i32 {{%.*}}, ptr [[T]], ptr
; CHECK-NOT: @__kmpc_omp_task
; CHECK: call void @free(ptr [[T]])
; CHECK: ret void
