; EXPECT-ERROR: unsupported-instruction
; EXPECT-ERROR: is handed to an OpenMP parallel region in memory that has one
; Regression (issue 17, after the merges): flang hands a parallel region a struct of the
; addresses it captures; an enzyme_const real array stored there keeps a null shadow, and
; the region's derivative added the adjoints of the floats it read through it: a
; segfault at run time. Now refused (audit/body.rs: parallel_capture); reading integers
; there (tests/openmp/06: n) stays allowed. Made by `ferrozyme fortran -O2 -fopenmp
; --save-temps` from:
;   module mw
;     implicit none
;   contains
;     subroutine wsum(n, w, x, s)
;       integer, intent(in) :: n
;       real(8), intent(in) :: w(n)
;       real(8), intent(in) :: x(n)
;       real(8), intent(out) :: s
;       integer :: i
;       s = 0
;       !$omp parallel do reduction(+:s)
;       do i = 1, n
;         s = s + w(i) * x(i)**2
;       end do
;       !$omp end parallel do
;     end subroutine wsum
;   end module mw
;   
;   program pw
;     use ferrozyme
;     use mw
;     implicit none
;     integer, parameter :: n = 10
;     real(8) :: w(n), x(n), dx(n), s, ds
;     integer :: i
;     do i = 1, n
;       w(i) = 0.1d0 * i
;       x(i) = 0.3d0 * i - 1
;     end do
;     dx = 0; ds = 1
;     call __enzyme_autodiff(wsum, enzyme_const, n, enzyme_const, w, enzyme_dup, x, dx, enzyme_dup, s, ds)
;   
;   end program pw
; ModuleID = 'w.f90'
source_filename = "FIRModule"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@_QFEdx = internal global [10 x double] zeroinitializer
@enzyme_const = external global i32
@enzyme_dup = external global i32
@_QFEw = internal global [10 x double] zeroinitializer
@_QFEx = internal global [10 x double] zeroinitializer
@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@2 = private unnamed_addr constant %struct.ident_t { i32 0, i32 66, i32 0, i32 22, ptr @0 }, align 8
@.gomp_critical_user_.reduction.var = common global [8 x i32] zeroinitializer, align 8

; Function Attrs: nounwind
define void @_QMmwPwsum(ptr noalias captures(none) %0, ptr noalias captures(none) %1, ptr noalias captures(none) %2, ptr noalias captures(none) initializes((0, 8)) %3) #0 {
entry:
  %structArg = alloca { ptr, ptr, ptr, ptr, ptr }, align 8
  %.reloaded = alloca i64, align 8
  %4 = load i32, ptr %0, align 4, !tbaa !5
  %5 = tail call i32 @llvm.smax.i32(i32 %4, i32 0)
  %6 = zext nneg i32 %5 to i64
  store double 0.000000e+00, ptr %3, align 8, !tbaa !11
  %omp_global_thread_num = tail call i32 @__kmpc_global_thread_num(ptr nonnull @1)
  store i64 %6, ptr %.reloaded, align 8
  store ptr %.reloaded, ptr %structArg, align 8
  %gep_ = getelementptr inbounds nuw i8, ptr %structArg, i64 8
  store ptr %0, ptr %gep_, align 8
  %gep_9 = getelementptr inbounds nuw i8, ptr %structArg, i64 16
  store ptr %3, ptr %gep_9, align 8
  %gep_10 = getelementptr inbounds nuw i8, ptr %structArg, i64 24
  store ptr %1, ptr %gep_10, align 8
  %gep_11 = getelementptr inbounds nuw i8, ptr %structArg, i64 32
  store ptr %2, ptr %gep_11, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @1, i32 1, ptr nonnull @_QMmwPwsum..omp_par, ptr nonnull %structArg)
  ret void
}

; Function Attrs: nounwind
define internal void @_QMmwPwsum..omp_par(ptr noalias readnone captures(none) %tid.addr, ptr noalias readnone captures(none) %zero.addr, ptr readonly captures(none) %0) #0 {
omp.par.entry:
  %gep_ = getelementptr i8, ptr %0, i64 8
  %loadgep_ = load ptr, ptr %gep_, align 8, !align !13
  %gep_1 = getelementptr i8, ptr %0, i64 16
  %loadgep_2 = load ptr, ptr %gep_1, align 8, !align !13
  %gep_3 = getelementptr i8, ptr %0, i64 24
  %loadgep_4 = load ptr, ptr %gep_3, align 8, !align !13
  %gep_5 = getelementptr i8, ptr %0, i64 32
  %loadgep_6 = load ptr, ptr %gep_5, align 8, !align !13
  %p.lastiter = alloca i32, align 4
  %p.lowerbound = alloca i32, align 4
  %p.upperbound = alloca i32, align 4
  %p.stride = alloca i32, align 4
  %1 = alloca double, align 8
  %red.array = alloca [1 x ptr], align 8
  %2 = load i32, ptr %loadgep_, align 4, !tbaa !5
  store double 0.000000e+00, ptr %1, align 8
  %omp_loop.tripcount = tail call i32 @llvm.smax.i32(i32 %2, i32 0)
  store i32 0, ptr %p.lowerbound, align 4
  %3 = add nsw i32 %omp_loop.tripcount, -1
  store i32 %3, ptr %p.upperbound, align 4
  store i32 1, ptr %p.stride, align 4
  %omp_global_thread_num8 = tail call i32 @__kmpc_global_thread_num(ptr nonnull @1)
  call void @__kmpc_for_static_init_4u(ptr nonnull @1, i32 %omp_global_thread_num8, i32 34, ptr nonnull %p.lastiter, ptr nonnull %p.lowerbound, ptr nonnull %p.upperbound, ptr nonnull %p.stride, i32 1, i32 0)
  %4 = load i32, ptr %p.lowerbound, align 4
  %5 = load i32, ptr %p.upperbound, align 4
  %reass.sub = sub i32 %5, %4
  %omp_loop.cmp7.not = icmp eq i32 %reass.sub, -1
  br i1 %omp_loop.cmp7.not, label %omp_loop.exit, label %omp_loop.body.lr.ph

omp_loop.body.lr.ph:                              ; preds = %omp.par.entry
  %6 = add i32 %4, 1
  %7 = add i32 %5, 1
  %8 = sub i32 %7, %4
  %xtraiter = and i32 %8, 1
  %9 = icmp eq i32 %5, %4
  br i1 %9, label %omp_loop.body.epil.preheader, label %omp_loop.body.lr.ph.new

omp_loop.body.lr.ph.new:                          ; preds = %omp_loop.body.lr.ph
  %unroll_iter = and i32 %8, -2
  br label %omp_loop.body

omp_loop.exit.loopexit.unr-lcssa:                 ; preds = %omp_loop.body
  %lcmp.mod.not = icmp eq i32 %xtraiter, 0
  br i1 %lcmp.mod.not, label %omp_loop.exit, label %omp_loop.body.epil.preheader

omp_loop.body.epil.preheader:                     ; preds = %omp_loop.exit.loopexit.unr-lcssa, %omp_loop.body.lr.ph
  %omp_loop.iv8.epil.init = phi i32 [ 0, %omp_loop.body.lr.ph ], [ %omp_loop.next.1, %omp_loop.exit.loopexit.unr-lcssa ]
  %.epil.init = phi double [ 0.000000e+00, %omp_loop.body.lr.ph ], [ %41, %omp_loop.exit.loopexit.unr-lcssa ]
  %lcmp.mod9 = icmp ne i32 %xtraiter, 0
  call void @llvm.assume(i1 %lcmp.mod9)
  %10 = add i32 %6, %omp_loop.iv8.epil.init
  %11 = sext i32 %10 to i64
  %12 = add nsw i64 %11, -1
  %13 = getelementptr double, ptr %loadgep_4, i64 %12
  %14 = load double, ptr %13, align 8, !tbaa !14
  %15 = getelementptr double, ptr %loadgep_6, i64 %12
  %16 = load double, ptr %15, align 8, !tbaa !16
  %17 = fmul double %16, %16
  %18 = fmul contract double %14, %17
  %19 = fadd contract double %.epil.init, %18
  store double %19, ptr %1, align 8, !tbaa !18
  br label %omp_loop.exit

omp_loop.exit:                                    ; preds = %omp_loop.body.epil.preheader, %omp_loop.exit.loopexit.unr-lcssa, %omp.par.entry
  call void @__kmpc_for_static_fini(ptr nonnull @1, i32 %omp_global_thread_num8)
  call void @__kmpc_barrier(ptr nonnull @2, i32 %omp_global_thread_num8)
  store ptr %1, ptr %red.array, align 8
  %reduce = call i32 @__kmpc_reduce(ptr nonnull @1, i32 %omp_global_thread_num8, i32 1, i64 8, ptr nonnull %red.array, ptr nonnull @.omp.reduction.func, ptr nonnull @.gomp_critical_user_.reduction.var)
  %cond = icmp eq i32 %reduce, 1
  br i1 %cond, label %reduce.switch.nonatomic, label %reduce.finalize

reduce.switch.nonatomic:                          ; preds = %omp_loop.exit
  %red.value.0 = load double, ptr %loadgep_2, align 8
  %red.private.value.0 = load double, ptr %1, align 8
  %20 = fadd contract double %red.value.0, %red.private.value.0
  store double %20, ptr %loadgep_2, align 8
  call void @__kmpc_end_reduce(ptr nonnull @1, i32 %omp_global_thread_num8, ptr nonnull @.gomp_critical_user_.reduction.var)
  br label %reduce.finalize

reduce.finalize:                                  ; preds = %reduce.switch.nonatomic, %omp_loop.exit
  call void @__kmpc_barrier(ptr nonnull @2, i32 %omp_global_thread_num8)
  ret void

omp_loop.body:                                    ; preds = %omp_loop.body, %omp_loop.body.lr.ph.new
  %omp_loop.iv8 = phi i32 [ 0, %omp_loop.body.lr.ph.new ], [ %omp_loop.next.1, %omp_loop.body ]
  %21 = phi double [ 0.000000e+00, %omp_loop.body.lr.ph.new ], [ %41, %omp_loop.body ]
  %niter = phi i32 [ 0, %omp_loop.body.lr.ph.new ], [ %niter.next.1, %omp_loop.body ]
  %22 = add i32 %6, %omp_loop.iv8
  %23 = sext i32 %22 to i64
  %24 = add nsw i64 %23, -1
  %25 = getelementptr double, ptr %loadgep_4, i64 %24
  %26 = load double, ptr %25, align 8, !tbaa !14
  %27 = getelementptr double, ptr %loadgep_6, i64 %24
  %28 = load double, ptr %27, align 8, !tbaa !16
  %29 = fmul double %28, %28
  %30 = fmul contract double %26, %29
  %31 = fadd contract double %21, %30
  store double %31, ptr %1, align 8, !tbaa !18
  %omp_loop.next = or disjoint i32 %omp_loop.iv8, 1
  %32 = add i32 %6, %omp_loop.next
  %33 = sext i32 %32 to i64
  %34 = add nsw i64 %33, -1
  %35 = getelementptr double, ptr %loadgep_4, i64 %34
  %36 = load double, ptr %35, align 8, !tbaa !14
  %37 = getelementptr double, ptr %loadgep_6, i64 %34
  %38 = load double, ptr %37, align 8, !tbaa !16
  %39 = fmul double %38, %38
  %40 = fmul contract double %36, %39
  %41 = fadd contract double %31, %40
  store double %41, ptr %1, align 8, !tbaa !18
  %omp_loop.next.1 = add nuw i32 %omp_loop.iv8, 2
  %niter.next.1 = add i32 %niter, 2
  %niter.ncmp.1 = icmp eq i32 %niter.next.1, %unroll_iter
  br i1 %niter.ncmp.1, label %omp_loop.exit.loopexit.unr-lcssa, label %omp_loop.body
}

define void @_QQmain() local_unnamed_addr #1 {
.preheader.preheader:
  %0 = alloca double, align 8
  %1 = alloca double, align 8
  %2 = alloca i32, align 4
  store <2 x double> <double 1.000000e-01, double 2.000000e-01>, ptr @_QFEw, align 16, !tbaa !19
  store <2 x double> <double 0xBFE6666666666666, double -4.000000e-01>, ptr @_QFEx, align 16, !tbaa !25
  store <2 x double> <double 0x3FD3333333333334, double 4.000000e-01>, ptr getelementptr inbounds nuw (i8, ptr @_QFEw, i64 16), align 16, !tbaa !19
  store <2 x double> <double 0xBFB99999999999A0, double 0x3FC9999999999998>, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 16), align 16, !tbaa !25
  store <2 x double> <double 5.000000e-01, double 0x3FE3333333333334>, ptr getelementptr inbounds nuw (i8, ptr @_QFEw, i64 32), align 16, !tbaa !19
  store <2 x double> <double 5.000000e-01, double 0x3FE9999999999998>, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 32), align 16, !tbaa !25
  store <2 x double> <double 0x3FE6666666666667, double 8.000000e-01>, ptr getelementptr inbounds nuw (i8, ptr @_QFEw, i64 48), align 16, !tbaa !19
  store <2 x double> <double 1.100000e+00, double 1.400000e+00>, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 48), align 16, !tbaa !25
  store <2 x double> <double 9.000000e-01, double 1.000000e+00>, ptr getelementptr inbounds nuw (i8, ptr @_QFEw, i64 64), align 16, !tbaa !19
  store <2 x double> <double 0x3FFB333333333332, double 2.000000e+00>, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 64), align 16, !tbaa !25
  tail call void @llvm.memset.p0.i64(ptr noundef nonnull align 16 dereferenceable(80) @_QFEdx, i8 0, i64 80, i1 false), !tbaa !27
  store double 1.000000e+00, ptr %1, align 8, !tbaa !29
  store i32 10, ptr %2, align 4, !tbaa !32
  call void @__enzyme_autodiff_(ptr nonnull @_QMmwPwsum, ptr nonnull @enzyme_const, ptr nonnull %2, ptr nonnull @enzyme_const, ptr nonnull @_QFEw, ptr nonnull @enzyme_dup, ptr nonnull @_QFEx, ptr nonnull @_QFEdx, ptr nonnull @enzyme_dup, ptr nonnull %0, ptr nonnull %1)
  ret void
}

declare void @__enzyme_autodiff_(ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr) local_unnamed_addr

declare void @_FortranAProgramStart(i32, ptr, ptr, ptr) local_unnamed_addr

declare void @_FortranAProgramEndStatement() local_unnamed_addr

define noundef i32 @main(i32 %0, ptr %1, ptr %2) local_unnamed_addr #1 {
  %4 = alloca double, align 8
  %5 = alloca double, align 8
  %6 = alloca i32, align 4
  tail call void @_FortranAProgramStart(i32 %0, ptr %1, ptr %2, ptr null)
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  call void @llvm.lifetime.start.p0(ptr nonnull %6)
  store <2 x double> <double 1.000000e-01, double 2.000000e-01>, ptr @_QFEw, align 16, !tbaa !19
  store <2 x double> <double 0xBFE6666666666666, double -4.000000e-01>, ptr @_QFEx, align 16, !tbaa !25
  store <2 x double> <double 0x3FD3333333333334, double 4.000000e-01>, ptr getelementptr inbounds nuw (i8, ptr @_QFEw, i64 16), align 16, !tbaa !19
  store <2 x double> <double 0xBFB99999999999A0, double 0x3FC9999999999998>, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 16), align 16, !tbaa !25
  store <2 x double> <double 5.000000e-01, double 0x3FE3333333333334>, ptr getelementptr inbounds nuw (i8, ptr @_QFEw, i64 32), align 16, !tbaa !19
  store <2 x double> <double 5.000000e-01, double 0x3FE9999999999998>, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 32), align 16, !tbaa !25
  store <2 x double> <double 0x3FE6666666666667, double 8.000000e-01>, ptr getelementptr inbounds nuw (i8, ptr @_QFEw, i64 48), align 16, !tbaa !19
  store <2 x double> <double 1.100000e+00, double 1.400000e+00>, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 48), align 16, !tbaa !25
  store <2 x double> <double 9.000000e-01, double 1.000000e+00>, ptr getelementptr inbounds nuw (i8, ptr @_QFEw, i64 64), align 16, !tbaa !19
  store <2 x double> <double 0x3FFB333333333332, double 2.000000e+00>, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 64), align 16, !tbaa !25
  tail call void @llvm.memset.p0.i64(ptr noundef nonnull align 16 dereferenceable(80) @_QFEdx, i8 0, i64 80, i1 false), !tbaa !27
  store double 1.000000e+00, ptr %5, align 8, !tbaa !29
  store i32 10, ptr %6, align 4, !tbaa !32
  call void @__enzyme_autodiff_(ptr nonnull @_QMmwPwsum, ptr nonnull @enzyme_const, ptr nonnull %6, ptr nonnull @enzyme_const, ptr nonnull @_QFEw, ptr nonnull @enzyme_dup, ptr nonnull @_QFEx, ptr nonnull @_QFEdx, ptr nonnull @enzyme_dup, ptr nonnull %4, ptr nonnull %5)
  call void @llvm.lifetime.end.p0(ptr nonnull %4)
  call void @llvm.lifetime.end.p0(ptr nonnull %5)
  call void @llvm.lifetime.end.p0(ptr nonnull %6)
  call void @_FortranAProgramEndStatement()
  ret i32 0
}

; Function Attrs: nounwind
declare i32 @__kmpc_global_thread_num(ptr) local_unnamed_addr #2

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4u(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) local_unnamed_addr #2

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) local_unnamed_addr #2

; Function Attrs: convergent nounwind
declare void @__kmpc_barrier(ptr, i32) local_unnamed_addr #3

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define internal void @.omp.reduction.func(ptr readonly captures(none) %0, ptr readonly captures(none) %1) #4 {
  %3 = load ptr, ptr %0, align 8
  %4 = load double, ptr %3, align 8
  %5 = load ptr, ptr %1, align 8
  %6 = load double, ptr %5, align 8
  %7 = fadd contract double %4, %6
  store double %7, ptr %3, align 8
  ret void
}

; Function Attrs: convergent nounwind
declare i32 @__kmpc_reduce(ptr, i32, i32, i64, ptr, ptr, ptr) local_unnamed_addr #3

; Function Attrs: convergent nounwind
declare void @__kmpc_end_reduce(ptr, i32, ptr) local_unnamed_addr #3

; Function Attrs: nounwind
declare !callback !33 void @__kmpc_fork_call(ptr, i32, ptr, ...) local_unnamed_addr #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32) #5

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #6

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #7

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #7

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)
declare void @llvm.assume(i1 noundef) #8

attributes #0 = { nounwind "target-cpu"="x86-64" }
attributes #1 = { "target-cpu"="x86-64" }
attributes #2 = { nounwind }
attributes #3 = { convergent nounwind }
attributes #4 = { mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) }
attributes #5 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #6 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #7 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #8 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 7, !"openmp", i32 31}
!1 = !{i32 2, !"Debug Info Version", i32 3}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{!"Debian flang version 22.1.8"}
!5 = !{!6, !6, i64 0}
!6 = !{!"dummy arg data/_QMmwFwsumEn", !7, i64 0}
!7 = !{!"dummy arg data", !8, i64 0}
!8 = !{!"any data access", !9, i64 0}
!9 = !{!"any access", !10, i64 0}
!10 = !{!"Flang function root _QMmwPwsum"}
!11 = !{!12, !12, i64 0}
!12 = !{!"dummy arg data/_QMmwFwsumEs", !7, i64 0}
!13 = !{i64 1}
!14 = !{!15, !15, i64 0}
!15 = !{!"dummy arg data/_QMmwFwsumEw", !7, i64 0}
!16 = !{!17, !17, i64 0}
!17 = !{!"dummy arg data/_QMmwFwsumEx", !7, i64 0}
!18 = !{!8, !8, i64 0}
!19 = !{!20, !20, i64 0}
!20 = !{!"global data/_QFEw", !21, i64 0}
!21 = !{!"global data", !22, i64 0}
!22 = !{!"any data access", !23, i64 0}
!23 = !{!"any access", !24, i64 0}
!24 = !{!"Flang function root _QQmain"}
!25 = !{!26, !26, i64 0}
!26 = !{!"global data/_QFEx", !21, i64 0}
!27 = !{!28, !28, i64 0}
!28 = !{!"global data/_QFEdx", !21, i64 0}
!29 = !{!30, !30, i64 0}
!30 = !{!"allocated data/_QFEds", !31, i64 0}
!31 = !{!"allocated data", !22, i64 0}
!32 = !{!31, !31, i64 0}
!33 = !{!34}
!34 = !{i64 2, i64 -1, i64 -1, i1 true}
