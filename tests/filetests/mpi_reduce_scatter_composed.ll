; Decision: MPI_Reduce_scatter_block in differentiated code is Ferrozyme's composed
; routine (rules::mpi Composed row, runtime/mpi_composed.c): the call becomes
; __fz_mpic_reduce_scatter_block, which the pass differentiates with the caller: the
; whole vector reduced by MPI_Allreduce (whose helpers record the forward and reduce
; the adjoint back) and this rank's block copied out; no Open MPI reduce-scatter is
; called by the derivative.
; Why it matters: Open MPI's routine has no IR and no rule (a missing-derivative error
; before hpc22); a regression to it would lose the derivative of every block it moves
; (tests/mpi/38).
;
; void block_sum(const double *c, double *y) {
;   MPI_Reduce_scatter_block(c, y, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-LABEL: define internal void @fz_grad_block_sum(
; CHECK-NOT: @MPI_Reduce_scatter_block
; CHECK: call {{.*}}@fz_aug___fz_mpic_reduce_scatter_block(ptr %c, ptr %c.shadow, ptr %y, ptr %y.shadow, i32 2,
; CHECK: call void @fz_rev___fz_mpic_reduce_scatter_block(ptr %c, ptr %c.shadow, ptr %y, ptr %y.shadow, i32 2,
; CHECK-NOT: @MPI_Reduce_scatter_block
; CHECK: ret void
; CHECK: @__fz_mpi_allreduce_fwd(
; CHECK: @__fz_mpi_allreduce_rev(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@ompi_mpi_comm_world = external global i8, align 1
@ompi_mpi_double = external global i8, align 1
@ompi_mpi_op_sum = external global i8, align 1
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @block_sum(ptr noundef %c, ptr noundef %y) {
entry:
  %call = call i32 @MPI_Reduce_scatter_block(ptr noundef %c, ptr noundef %y, i32 noundef 2, ptr noundef nonnull @ompi_mpi_double, ptr noundef nonnull @ompi_mpi_op_sum, ptr noundef nonnull @ompi_mpi_comm_world)
  ret void
}

declare i32 @MPI_Reduce_scatter_block(ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, ptr noundef)

define dso_local void @grad(ptr noundef %c, ptr noundef %dc, ptr noundef %y, ptr noundef %dy) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  call void (...) @__enzyme_autodiff(ptr noundef nonnull @block_sum, i32 noundef %0, ptr noundef %c, ptr noundef %dc, i32 noundef %0, ptr noundef %y, ptr noundef %dy)
  ret void
}

declare void @__enzyme_autodiff(...)
