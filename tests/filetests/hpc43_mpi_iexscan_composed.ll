; Decision: MPI_Iexscan in differentiated code is Ferrozyme's composed routine (rules::mpi
; Composed row, runtime/mpi_composed.c): the call becomes __fz_mpic_iexscan, which the
; pass differentiates with the caller: the blocking composed Exscan at the start (an
; MPI_Allgather, whose reverse helper reduce-scatters the adjoint back, then the prefix
; combination in rank order) and a request that completes at once (an
; MPI_Irecv of nothing from MPI_PROC_NULL, which the program's MPI_Wait completes); no
; Open MPI Iexscan is called by the derivative.
; Why it matters: Open MPI's routine has no IR and no rule (a missing-derivative error
; before hpc43); a regression to it would lose the derivative of every prefix it
; computes (tests/mpi/94, 95, 101).
;
; void offset(const double *t, double *o) {
;   MPI_Request r;
;   MPI_Iexscan(t, o, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
;   MPI_Wait(&r, MPI_STATUS_IGNORE);
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-LABEL: define internal void @fz_grad_offset(
; CHECK-NOT: @MPI_Iexscan
; CHECK: call {{.*}}@fz_aug___fz_mpic_iexscan(ptr %t, ptr %t.shadow, ptr %o, ptr %o.shadow, i32 1,
; CHECK: call void @fz_rev___fz_mpic_iexscan(ptr %t, ptr %t.shadow, ptr %o, ptr %o.shadow, i32 1,
; CHECK-NOT: @MPI_Iexscan
; CHECK: ret void
; CHECK: define internal i32 @__fz_mpic_iexscan(
; CHECK: @__fz_mpi_allgather_rev(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@ompi_mpi_comm_world = external global i8, align 1
@ompi_mpi_double = external global i8, align 1
@ompi_mpi_op_sum = external global i8, align 1
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @offset(ptr noundef %t, ptr noundef %o) {
entry:
  %r = alloca ptr, align 8
  %call = call i32 @MPI_Iexscan(ptr noundef %t, ptr noundef %o, i32 noundef 1, ptr noundef nonnull @ompi_mpi_double, ptr noundef nonnull @ompi_mpi_op_sum, ptr noundef nonnull @ompi_mpi_comm_world, ptr noundef nonnull %r)
  %call1 = call i32 @MPI_Wait(ptr noundef nonnull %r, ptr noundef null)
  ret void
}

declare i32 @MPI_Iexscan(ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, ptr noundef, ptr noundef)

declare i32 @MPI_Wait(ptr noundef, ptr noundef)

define dso_local void @grad(ptr noundef %t, ptr noundef %dt, ptr noundef %o, ptr noundef %do) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  call void (...) @__enzyme_autodiff(ptr noundef nonnull @offset, i32 noundef %0, ptr noundef %t, ptr noundef %dt, i32 noundef %0, ptr noundef %o, ptr noundef %do)
  ret void
}

declare void @__enzyme_autodiff(...)
