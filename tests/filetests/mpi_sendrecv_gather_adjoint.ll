; Decision: MPI_Sendrecv and MPI_Gather on differentiated MPI_DOUBLE buffers are
; differentiated (ferrozyme_rules::mpi, runtime/mpi.c) instead of rejected: in the
; forward sweep MPI_Sendrecv becomes `__fz_mpi_sendrecv_fwd`, which also records the
; message's actual source and tag (an i64 kept for the reverse sweep), and the reverse
; sweep calls `__fz_mpi_sendrecv_rev` with the two shadows (the received adjoint goes
; back to that source, the sent buffer's adjoint comes back from `dest`). MPI_Gather's
; primal call is copied; its reverse is `__fz_mpi_gather_rev` (the root scatters the
; gathered adjoint back) with the primal send buffer (MPI_IN_PLACE is detected there).
; Forward mode calls the `_tan` helpers in place of the primal calls.
; Why it matters: a halo exchange written with MPI_Sendrecv and a result gathered to
; rank 0 are the most common MPI idioms; without the rules both were a missing-derivative
; error, and a copied call would give a silently wrong gradient.
;
; double halo(double *x, int peer) {
;   double y;
;   MPI_Sendrecv(x, 1, MPI_DOUBLE, peer, 3, &y, 1, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD,
;                MPI_STATUS_IGNORE);
;   return y * x[0];
; }
; void gath(double *x, double *all) {
;   MPI_Gather(x, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

%struct.ompi_predefined_datatype_t = type opaque
%struct.ompi_predefined_communicator_t = type opaque

@ompi_mpi_double = external global %struct.ompi_predefined_datatype_t, align 1
@ompi_mpi_comm_world = external global %struct.ompi_predefined_communicator_t, align 1
@enzyme_const = external local_unnamed_addr global i32, align 4

define double @halo(ptr noundef %x, i32 noundef %peer) {
entry:
  %y = alloca double, align 8
  %call = call i32 @MPI_Sendrecv(ptr noundef %x, i32 noundef 1, ptr noundef nonnull @ompi_mpi_double, i32 noundef %peer, i32 noundef 3, ptr noundef nonnull %y, i32 noundef 1, ptr noundef nonnull @ompi_mpi_double, i32 noundef %peer, i32 noundef 3, ptr noundef nonnull @ompi_mpi_comm_world, ptr noundef null)
  %0 = load double, ptr %y, align 8
  %1 = load double, ptr %x, align 8
  %mul = fmul double %0, %1
  ret double %mul
}

declare i32 @MPI_Sendrecv(ptr noundef, i32 noundef, ptr noundef, i32 noundef, i32 noundef, ptr noundef, i32 noundef, ptr noundef, i32 noundef, i32 noundef, ptr noundef, ptr noundef)

define void @gath(ptr noundef %x, ptr noundef %all) {
entry:
  %call = tail call i32 @MPI_Gather(ptr noundef %x, i32 noundef 2, ptr noundef nonnull @ompi_mpi_double, ptr noundef %all, i32 noundef 2, ptr noundef nonnull @ompi_mpi_double, i32 noundef 0, ptr noundef nonnull @ompi_mpi_comm_world)
  ret void
}

declare i32 @MPI_Gather(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, i32 noundef, ptr noundef)

define void @g1(ptr noundef %x, ptr noundef %dx, i32 noundef %peer) {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @halo, ptr noundef %x, ptr noundef %dx, i32 noundef %0, i32 noundef %peer)
  ret void
}

define void @g2(ptr noundef %x, ptr noundef %dx, ptr noundef %a, ptr noundef %da) {
entry:
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @gath, ptr noundef %x, ptr noundef %dx, ptr noundef %a, ptr noundef %da)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...)

; CHECK-LABEL: define internal void @fz_grad_halo(
; CHECK: [[WHO:%fz.mpi.who]] = alloca i64
; CHECK-NOT: @MPI_Sendrecv(
; CHECK: call i32 @__fz_mpi_sendrecv_fwd(ptr %x, i32 1, ptr @ompi_mpi_double, i32 %peer, i32 3, ptr %y, i32 1, ptr @ompi_mpi_double, i32 %peer, i32 3, ptr @ompi_mpi_comm_world, ptr null, ptr [[WHO]])
; CHECK: [[REC:%.*]] = load i64, ptr [[WHO]]
; CHECK-NOT: @MPI_Sendrecv(
; CHECK: call void @__fz_mpi_sendrecv_rev(ptr %x.shadow, i32 1, ptr @ompi_mpi_double, i32 %peer, i32 3, ptr %y.shadow, i32 1, ptr @ompi_mpi_double, i64 [[REC]], ptr @ompi_mpi_comm_world)
; CHECK-LABEL: define internal void @fz_grad_gath(
; CHECK: call i32 @MPI_Gather(ptr noundef %x, i32 noundef 2,
; CHECK: call void @__fz_mpi_gather_rev(ptr %x, ptr %x.shadow, i32 2, ptr @ompi_mpi_double, ptr %all.shadow, i32 2, ptr @ompi_mpi_double, i32 0, ptr @ompi_mpi_comm_world)
