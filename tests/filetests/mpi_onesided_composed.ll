; Decision: MPI one-sided operations in differentiated code are Ferrozyme's composed
; routines (runtime/mpi_composed.c, rules::mpi Composed rows): MPI_Win_create,
; MPI_Win_fence, MPI_Put and MPI_Win_free become __fz_mpic_* calls that the pass
; differentiates (window and its shadow, augmented then reverse in reverse order), and
; the Put's data travels as a nonblocking send whose record the reverse completes
; (__fz_mpi_isend_fwd / __fz_mpi_nonblocking_rev); no Open MPI one-sided routine is
; called for the fence epoch (the Open MPI window beside it serves passive-target
; epochs only: mpi_onesided_passive.ll).
; Why it matters: Open MPI's window routines have no IR and no rule (a
; missing-derivative error before hpc20); a regression to them would lose the
; derivative of every value the window moves.
;
; void put_next(const double *x, double *ghost) {
;   MPI_Win win;
;   MPI_Win_create(ghost, sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
;   MPI_Win_fence(0, win);
;   MPI_Put(x, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, win);
;   MPI_Win_fence(0, win);
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

define dso_local void @put_next(ptr noundef %x, ptr noundef %ghost) {
entry:
  %win = alloca ptr, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %win)
  %call = call i32 @MPI_Win_create(ptr noundef %ghost, i64 noundef 8, i32 noundef 8, ptr noundef nonnull @ompi_mpi_info_null, ptr noundef nonnull @ompi_mpi_comm_world, ptr noundef nonnull %win)
  %0 = load ptr, ptr %win, align 8
  %call1 = call i32 @MPI_Win_fence(i32 noundef 0, ptr noundef %0)
  %1 = load ptr, ptr %win, align 8
  %call2 = call i32 @MPI_Put(ptr noundef %x, i32 noundef 1, ptr noundef nonnull @ompi_mpi_double, i32 noundef 1, i64 noundef 0, i32 noundef 1, ptr noundef nonnull @ompi_mpi_double, ptr noundef %1)
  %2 = load ptr, ptr %win, align 8
  %call3 = call i32 @MPI_Win_fence(i32 noundef 0, ptr noundef %2)
  %call4 = call i32 @MPI_Win_free(ptr noundef nonnull %win)
  call void @llvm.lifetime.end.p0(ptr nonnull %win)
  ret void
}

declare void @llvm.lifetime.start.p0(ptr captures(none))

declare i32 @MPI_Win_create(ptr noundef, i64 noundef, i32 noundef, ptr noundef, ptr noundef, ptr noundef) local_unnamed_addr

declare i32 @MPI_Win_fence(i32 noundef, ptr noundef) local_unnamed_addr

declare i32 @MPI_Put(ptr noundef, i32 noundef, ptr noundef, i32 noundef, i64 noundef, i32 noundef, ptr noundef, ptr noundef) local_unnamed_addr

declare i32 @MPI_Win_free(ptr noundef) local_unnamed_addr

declare void @llvm.lifetime.end.p0(ptr captures(none))

define dso_local void @grad(ptr noundef %x, ptr noundef %dx, ptr noundef %g, ptr noundef %dg) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @put_next, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %0, ptr noundef %g, ptr noundef %dg)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define internal void @fz_grad_put_next(
; CHECK-NOT: @MPI_Put
; CHECK: call { i32, ptr } @fz_aug___fz_mpic_win_create(ptr %ghost, ptr %ghost.shadow,
; CHECK: call { i32, ptr } @fz_aug___fz_mpic_win_fence(i32 0,
; CHECK: call { i32, ptr } @fz_aug___fz_mpic_put(ptr %x, ptr %x.shadow,
; CHECK: call { i32, ptr } @fz_aug___fz_mpic_win_fence(i32 0,
; CHECK: call { i32, ptr } @fz_aug___fz_mpic_win_free(
; CHECK: call void @fz_rev___fz_mpic_win_free(
; CHECK: call void @fz_rev___fz_mpic_win_fence(
; CHECK: call void @fz_rev___fz_mpic_put(ptr %x, ptr %x.shadow,
; CHECK: call void @fz_rev___fz_mpic_win_fence(
; CHECK: call void @fz_rev___fz_mpic_win_create(
; CHECK-NOT: @MPI_Put
; CHECK: ret void

; CHECK-LABEL: define internal { i32, ptr } @fz_aug___fz_mpic_put(
; CHECK: call i32 @__fz_mpi_isend_fwd(ptr %0, ptr %.shadow,
; CHECK-LABEL: define internal void @fz_rev___fz_mpic_put(
; CHECK: call void @__fz_mpi_nonblocking_rev(
