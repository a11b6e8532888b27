; Decision: a one-sided operation in a passive-target epoch (MPI_Win_lock ...
; MPI_Win_unlock) is a real Open MPI one-sided operation with a rule of its own: the
; composed window (runtime/mpi_composed.c) keeps an Open MPI window over its memory,
; made by __fz_mpic_rma_win, whose forward sweep (__fz_mpi_rma_win_fwd) also makes the
; shadow window over the memory's shadow, freed by the reverse of the creation
; (__fz_mpi_rma_win_rev); the Put under the lock is __fz_mpic_rma_put, whose forward
; sweep puts and tapes the shadow window (__fz_mpi_rma_put_fwd) and whose reverse
; fetches and zeroes the target's adjoint (__fz_mpi_rma_put_rev). The runtime's
; functions with a rule are never differentiated through (no fz_aug___fz_mpic_rma_*),
; and the lock itself is the inactive __fz_mpic_rma_sync.
; Why it matters: under a lock only the origin takes part, so the messages of the fence
; epochs cannot carry the adjoint (MPI_Win_lock was a missing-derivative error before
; hpc24); differentiating through __fz_mpic_rma_win's body would point its
; MPI_Win_create back at the composed routine (it recursed until Open MPI hung).
;
; void put_locked(const double *x, double *ghost) {
;   MPI_Win win;
;   MPI_Win_create(ghost, sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
;   MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
;   MPI_Put(x, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, win);
;   MPI_Win_unlock(1, win);
;   MPI_Win_free(&win);
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
@ompi_mpi_info_null = external global i8, align 1
@ompi_mpi_comm_world = external global i8, align 1
@ompi_mpi_double = external global i8, align 1
@enzyme_dup = external local_unnamed_addr global i32, align 4
define dso_local void @put_locked(ptr noundef %x, ptr noundef %ghost) {
entry:
  %win = alloca ptr, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %win)
  %call = call i32 @MPI_Win_create(ptr noundef %ghost, i64 noundef 8, i32 noundef 8, ptr noundef nonnull @ompi_mpi_info_null, ptr noundef nonnull @ompi_mpi_comm_world, ptr noundef nonnull %win)
  %0 = load ptr, ptr %win, align 8
  %call1 = call i32 @MPI_Win_lock(i32 noundef 1, i32 noundef 1, i32 noundef 0, ptr noundef %0)
  %1 = load ptr, ptr %win, align 8
  %call2 = call i32 @MPI_Put(ptr noundef %x, i32 noundef 1, ptr noundef nonnull @ompi_mpi_double, i32 noundef 1, i64 noundef 0, i32 noundef 1, ptr noundef nonnull @ompi_mpi_double, ptr noundef %1)
  %2 = load ptr, ptr %win, align 8
  %call3 = call i32 @MPI_Win_unlock(i32 noundef 1, ptr noundef %2)
  %call4 = call i32 @MPI_Win_free(ptr noundef nonnull %win)
  call void @llvm.lifetime.end.p0(ptr nonnull %win)
  ret void
}

declare void @llvm.lifetime.start.p0(ptr captures(none))

declare i32 @MPI_Win_create(ptr noundef, i64 noundef, i32 noundef, ptr noundef, ptr noundef, ptr noundef) local_unnamed_addr

declare i32 @MPI_Win_lock(i32 noundef, i32 noundef, i32 noundef, ptr noundef) local_unnamed_addr

declare i32 @MPI_Put(ptr noundef, i32 noundef, ptr noundef, i32 noundef, i64 noundef, i32 noundef, ptr noundef, ptr noundef) local_unnamed_addr

declare i32 @MPI_Win_unlock(i32 noundef, ptr noundef) local_unnamed_addr

declare i32 @MPI_Win_free(ptr noundef) local_unnamed_addr

declare void @llvm.lifetime.end.p0(ptr captures(none))

define dso_local void @grad(ptr noundef %x, ptr noundef %dx, ptr noundef %g, ptr noundef %dg) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @put_locked, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %0, ptr noundef %g, ptr noundef %dg)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


; CHECK-LABEL: define internal void @fz_grad_put_locked(
; CHECK: call { i32, ptr } @fz_aug___fz_mpic_win_create(ptr %ghost, ptr %ghost.shadow,
; CHECK: call { i32, ptr } @fz_aug___fz_mpic_win_lock(i32 1, i32 1, i32 0,
; CHECK: call { i32, ptr } @fz_aug___fz_mpic_put(ptr %x, ptr %x.shadow,
; CHECK: call { i32, ptr } @fz_aug___fz_mpic_win_unlock(i32 1,
; CHECK: call void @fz_rev___fz_mpic_put(ptr %x, ptr %x.shadow,
; CHECK: call void @fz_rev___fz_mpic_win_create(
; CHECK: ret void

; CHECK-NOT: fz_aug___fz_mpic_rma_
; CHECK-NOT: fz_rev___fz_mpic_rma_
; CHECK-LABEL: define internal { i32, ptr } @fz_aug___fz_mpic_win_create(
; CHECK: call ptr @__fz_mpi_rma_win_fwd(ptr %{{.*}}, ptr %.shadow{{[0-9]*}}, i64
; CHECK-LABEL: define internal void @fz_rev___fz_mpic_win_create(
; CHECK: call void @__fz_mpi_rma_win_rev(ptr
; CHECK-LABEL: define internal { i32, ptr } @fz_aug___fz_mpic_win_lock(
; CHECK: call i32 @__fz_mpic_rma_sync(i32 noundef 0,
; CHECK-LABEL: define internal { i32, ptr } @fz_aug___fz_mpic_put(
; CHECK: call ptr @__fz_mpi_rma_put_fwd(
; CHECK-LABEL: define internal void @fz_rev___fz_mpic_put(
; CHECK: call void @__fz_mpi_rma_put_rev(ptr
