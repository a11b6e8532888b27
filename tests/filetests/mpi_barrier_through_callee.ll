; Decision: a call of a function that reaches MPI_Barrier (here `sync_ranks`, an integer
; argument only, as the Fortran MPI_BARRIER wrapper `__fz_mpif_barrier` of
; runtime/mpi_fortran.c) is differentiated whatever its arguments
; (parallel::mpi::functions_calling_barriers, closed over callers): the forward sweep calls its augmented
; copy, the reverse sweep its reverse, which mirrors the barrier between the adjoints of
; the code before and after the call.
; Why it matters: by its arguments the call is inactive and was only copied into the
; forward sweep, so the reverse sweep had no barrier; the adjoints of the passive-target
; epochs it separates overlapped on other ranks (tests/mpi/41, 42: wrong gradients).
;
; void sync_ranks(const int *comm) { MPI_Barrier(MPI_Comm_f2c(*comm)); }  // noinline
; void step(double *x, const int *comm) {
;   x[0] = x[0] * x[0];
;   sync_ranks(comm);
;   x[0] = 3.0 * x[0];
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local void @sync_ranks(ptr noundef readonly captures(none) %comm) local_unnamed_addr {
entry:
  %0 = load i32, ptr %comm, align 4
  %call = tail call ptr @MPI_Comm_f2c(i32 noundef %0)
  %call1 = tail call i32 @MPI_Barrier(ptr noundef %call)
  ret void
}

declare i32 @MPI_Barrier(ptr noundef) local_unnamed_addr

declare ptr @MPI_Comm_f2c(i32 noundef) local_unnamed_addr

define dso_local void @step(ptr noundef captures(none) %x, ptr noundef readonly captures(none) %comm) {
entry:
  %0 = load double, ptr %x, align 8
  %mul = fmul double %0, %0
  store double %mul, ptr %x, align 8
  tail call void @sync_ranks(ptr noundef %comm)
  %1 = load double, ptr %x, align 8
  %mul4 = fmul double %1, 3.000000e+00
  store double %mul4, ptr %x, align 8
  ret void
}

define dso_local void @grad(ptr noundef %x, ptr noundef %dx, ptr noundef %comm) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @step, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %1, ptr noundef %comm)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define internal void @fz_grad_step(
; CHECK: fmul double %{{.*}}, %{{.*}}
; CHECK: call { ptr } @fz_aug_sync_ranks{{.*}}(ptr %comm,
; CHECK: fmul double %{{.*}}, 3.000000e+00
; CHECK: fmul double %sh{{.*}}, 3.000000e+00
; CHECK: call void @fz_rev_sync_ranks{{.*}}(ptr %comm,
; CHECK: fmul double %sh{{.*}}, %
; CHECK: ret void
; CHECK-LABEL: define internal { ptr } @fz_aug_sync_ranks
; CHECK: call i32 @MPI_Barrier(
; CHECK-LABEL: define internal void @fz_rev_sync_ranks
; CHECK: call i32 @MPI_Barrier(
; CHECK: ret void
