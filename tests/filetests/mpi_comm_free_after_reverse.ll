; Decision: `MPI_Comm_free` of a communicator the differentiated function created (and
; used in a collective) is left out of the forward sweep and performed after the reverse
; sweep, whose adjoint `MPI_Allreduce` still communicates on it (`MpiRule::HandleFree`,
; reverse/memory.rs `deferrable_frees`).
; Why it matters: freed where the primal frees it, the reverse sweep would communicate on
; a freed communicator (before hpc27 the free was a missing-derivative error).
;
; void dup_sum(double *x, double *out) {
;   MPI_Comm c;
;   MPI_Comm_dup(MPI_COMM_WORLD, &c);
;   double v = x[0] * x[0];
;   MPI_Allreduce(&v, out, 1, MPI_DOUBLE, MPI_SUM, c);
;   MPI_Comm_free(&c);
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal void @fz_grad_dup_sum(
; CHECK: call i32 @MPI_Comm_dup(
; CHECK-NOT: @MPI_Comm_free(
; CHECK: call ptr @__fz_mpi_allreduce_fwd(
; CHECK-NOT: @MPI_Comm_free(
; CHECK: call void @__fz_mpi_allreduce_rev(
; CHECK: call i32 @MPI_Comm_free(
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@ompi_mpi_comm_world = external global i8, align 1
@ompi_mpi_double = external global i8, align 1
@ompi_mpi_op_sum = external global i8, align 1
@enzyme_dup = external local_unnamed_addr global i32, align 4

; Function Attrs: nounwind uwtable
define dso_local void @dup_sum(ptr noundef readonly captures(none) %0, ptr noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca double, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %3) #3
  %5 = call i32 @MPI_Comm_dup(ptr noundef nonnull @ompi_mpi_comm_world, ptr noundef nonnull %3) #3
  call void @llvm.lifetime.start.p0(ptr nonnull %4) #3
  %6 = load double, ptr %0, align 8, !tbaa !9
  %7 = fmul double %6, %6
  store double %7, ptr %4, align 8, !tbaa !9
  %8 = load ptr, ptr %3, align 8, !tbaa !11
  %9 = call i32 @MPI_Allreduce(ptr noundef nonnull %4, ptr noundef %1, i32 noundef 1, ptr noundef nonnull @ompi_mpi_double, ptr noundef nonnull @ompi_mpi_op_sum, ptr noundef %8) #3
  %10 = call i32 @MPI_Comm_free(ptr noundef nonnull %3) #3
  call void @llvm.lifetime.end.p0(ptr nonnull %4) #3
  call void @llvm.lifetime.end.p0(ptr nonnull %3) #3
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #1

declare i32 @MPI_Comm_dup(ptr noundef, ptr noundef) local_unnamed_addr #2

declare i32 @MPI_Allreduce(ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, ptr noundef) local_unnamed_addr #2

declare i32 @MPI_Comm_free(ptr noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #1

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr #0 {
  %5 = load i32, ptr @enzyme_dup, align 4, !tbaa !5
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @dup_sum, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3) #3
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #2

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.errno.tbaa = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = !{!10, !10, i64 0}
!10 = !{!"double", !7, i64 0}
!11 = !{!12, !12, i64 0}
!12 = !{!"any pointer", !7, i64 0}
