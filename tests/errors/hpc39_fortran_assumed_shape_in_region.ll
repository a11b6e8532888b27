; EXPECT-ERROR: bad-autodiff-call
; EXPECT-ERROR: argument 2 of `csum` (module `ma`) is an assumed-shape array
; EXPECT-ERROR: differentiate a wrapper with explicit-shape dummies
; An assumed-shape dummy (`c(:)`, enzyme_const) that the routine reads only inside an
; OpenMP region: flang stores the descriptor's address into the struct of captures and
; the region reads the descriptor through that field. The hook passes the bare array
; (`use ferrozyme` declares it `external`), so the derivative read the array's values as
; its base address: a segfault, once the constant array in the region was taken over by
; runtime activity (hpc39). The dummy check now follows the address into the region
; (fortran_dummies.rs: captured_in_region). Made by `ferrozyme fortran -O2 -fopenmp
; --save-temps` from:
;   module ma
;     implicit none
;   contains
;     subroutine csum(n, c, x, s)
;       integer, intent(in) :: n
;       real(8), intent(in) :: c(:)
;       real(8), intent(in) :: x(n)
;       real(8), intent(out) :: s
;       integer :: i
;       s = 0
;       !$omp parallel do reduction(+:s)
;       do i = 1, n
;         s = s + c(i) * sin(x(i))
;       end do
;       !$omp end parallel do
;     end subroutine csum
;   end module ma
;   
;   program pa
;     use ferrozyme
;     use ma
;     implicit none
;     integer, parameter :: n = 5
;     real(8) :: c(n), x(n), dx(n), s, ds
;     c = 0.5d0; x = 0.25d0; dx = 0; ds = 1
;     call __enzyme_autodiff(csum, enzyme_const, n, enzyme_const, c, enzyme_dup, x, dx, enzyme_dup, s, ds)
;     print *, dx
;   end program pa
; ModuleID = 'e1.f90'
source_filename = "FIRModule"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

$_QQclX2F746D702F68706333392F65312F65312E66393000 = comdat any

@_QFEc = internal global [5 x double] zeroinitializer
@_QFEdx = internal global [5 x double] zeroinitializer
@enzyme_const = external global i32
@enzyme_dup = external global i32
@_QFEx = internal global [5 x double] zeroinitializer
@_QQclX2F746D702F68706333392F65312F65312E66393000 = linkonce constant [21 x i8] c"/tmp/hpc39/e1/e1.f90\00", comdat
@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@2 = private unnamed_addr constant %struct.ident_t { i32 0, i32 66, i32 0, i32 22, ptr @0 }, align 8
@.gomp_critical_user_.reduction.var = common global [8 x i32] zeroinitializer, align 8

; Function Attrs: nounwind
define void @_QMmaPcsum(ptr noalias captures(none) %0, ptr noalias captures(none) %1, ptr noalias captures(none) %2, ptr noalias captures(none) initializes((0, 8)) %3) #0 {
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
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @1, i32 1, ptr nonnull @_QMmaPcsum..omp_par, ptr nonnull %structArg)
  ret void
}

; Function Attrs: nounwind
define internal void @_QMmaPcsum..omp_par(ptr noalias readnone captures(none) %tid.addr, ptr noalias readnone captures(none) %zero.addr, ptr readonly captures(none) %0) #0 {
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
  %7 = getelementptr i8, ptr %loadgep_4, i64 40
  %8 = load i64, ptr %7, align 8, !tbaa !14
  %9 = load ptr, ptr %loadgep_4, align 8, !tbaa !14
  br label %omp_loop.body

omp_loop.exit:                                    ; preds = %omp_loop.body, %omp.par.entry
  call void @__kmpc_for_static_fini(ptr nonnull @1, i32 %omp_global_thread_num8)
  call void @__kmpc_barrier(ptr nonnull @2, i32 %omp_global_thread_num8)
  store ptr %1, ptr %red.array, align 8
  %reduce = call i32 @__kmpc_reduce(ptr nonnull @1, i32 %omp_global_thread_num8, i32 1, i64 8, ptr nonnull %red.array, ptr nonnull @.omp.reduction.func, ptr nonnull @.gomp_critical_user_.reduction.var)
  %cond = icmp eq i32 %reduce, 1
  br i1 %cond, label %reduce.switch.nonatomic, label %reduce.finalize

reduce.switch.nonatomic:                          ; preds = %omp_loop.exit
  %red.value.0 = load double, ptr %loadgep_2, align 8
  %red.private.value.0 = load double, ptr %1, align 8
  %10 = fadd contract double %red.value.0, %red.private.value.0
  store double %10, ptr %loadgep_2, align 8
  call void @__kmpc_end_reduce(ptr nonnull @1, i32 %omp_global_thread_num8, ptr nonnull @.gomp_critical_user_.reduction.var)
  br label %reduce.finalize

reduce.finalize:                                  ; preds = %reduce.switch.nonatomic, %omp_loop.exit
  call void @__kmpc_barrier(ptr nonnull @2, i32 %omp_global_thread_num8)
  ret void

omp_loop.body:                                    ; preds = %omp_loop.body, %omp_loop.body.lr.ph
  %omp_loop.iv8 = phi i32 [ 0, %omp_loop.body.lr.ph ], [ %omp_loop.next, %omp_loop.body ]
  %11 = phi double [ 0.000000e+00, %omp_loop.body.lr.ph ], [ %22, %omp_loop.body ]
  %12 = add i32 %6, %omp_loop.iv8
  %13 = sext i32 %12 to i64
  %14 = add nsw i64 %13, -1
  %15 = mul nsw i64 %8, %14
  %16 = getelementptr i8, ptr %9, i64 %15
  %17 = load double, ptr %16, align 8, !tbaa !16
  %18 = getelementptr double, ptr %loadgep_6, i64 %14
  %19 = load double, ptr %18, align 8, !tbaa !18
  %20 = call contract double @llvm.sin.f64(double %19)
  %21 = fmul contract double %17, %20
  %22 = fadd contract double %11, %21
  store double %22, ptr %1, align 8, !tbaa !20
  %omp_loop.next = add nuw i32 %omp_loop.iv8, 1
  %exitcond.not = icmp eq i32 %omp_loop.iv8, %reass.sub
  br i1 %exitcond.not, label %omp_loop.exit, label %omp_loop.body
}

define void @_QQmain() local_unnamed_addr #1 {
.preheader5.preheader:
  %0 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8
  %1 = alloca double, align 8
  %2 = alloca double, align 8
  %3 = alloca i32, align 4
  store double 5.000000e-01, ptr @_QFEc, align 16, !tbaa !21
  store double 5.000000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEc, i64 8), align 8, !tbaa !21
  store double 5.000000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEc, i64 16), align 16, !tbaa !21
  store double 5.000000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEc, i64 24), align 8, !tbaa !21
  store double 5.000000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEc, i64 32), align 16, !tbaa !21
  store double 2.500000e-01, ptr @_QFEx, align 16, !tbaa !27
  store double 2.500000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 8), align 8, !tbaa !27
  store double 2.500000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 16), align 16, !tbaa !27
  store double 2.500000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 24), align 8, !tbaa !27
  store double 2.500000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 32), align 16, !tbaa !27
  tail call void @llvm.memset.p0.i64(ptr noundef nonnull align 16 dereferenceable(40) @_QFEdx, i8 0, i64 40, i1 false), !tbaa !29
  store double 1.000000e+00, ptr %2, align 8, !tbaa !31
  store i32 5, ptr %3, align 4, !tbaa !34
  call void @__enzyme_autodiff_(ptr nonnull @_QMmaPcsum, ptr nonnull @enzyme_const, ptr nonnull %3, ptr nonnull @enzyme_const, ptr nonnull @_QFEc, ptr nonnull @enzyme_dup, ptr nonnull @_QFEx, ptr nonnull @_QFEdx, ptr nonnull @enzyme_dup, ptr nonnull %1, ptr nonnull %2)
  %4 = call ptr @_FortranAioBeginExternalListOutput(i32 6, ptr nonnull @_QQclX2F746D702F68706333392F65312F65312E66393000, i32 27) #8
  store ptr @_QFEdx, ptr %0, align 8, !tbaa !35
  %.fca.1.gep = getelementptr inbounds nuw i8, ptr %0, i64 8
  store i64 8, ptr %.fca.1.gep, align 8, !tbaa !35
  %.fca.2.gep = getelementptr inbounds nuw i8, ptr %0, i64 16
  store i32 20240719, ptr %.fca.2.gep, align 8, !tbaa !35
  %.fca.3.gep = getelementptr inbounds nuw i8, ptr %0, i64 20
  store i8 1, ptr %.fca.3.gep, align 4, !tbaa !35
  %.fca.4.gep = getelementptr inbounds nuw i8, ptr %0, i64 21
  store i8 28, ptr %.fca.4.gep, align 1, !tbaa !35
  %.fca.5.gep = getelementptr inbounds nuw i8, ptr %0, i64 22
  store i8 0, ptr %.fca.5.gep, align 2, !tbaa !35
  %.fca.6.gep = getelementptr inbounds nuw i8, ptr %0, i64 23
  store i8 0, ptr %.fca.6.gep, align 1, !tbaa !35
  %.fca.7.0.0.gep = getelementptr inbounds nuw i8, ptr %0, i64 24
  store i64 1, ptr %.fca.7.0.0.gep, align 8, !tbaa !35
  %.fca.7.0.1.gep = getelementptr inbounds nuw i8, ptr %0, i64 32
  store i64 5, ptr %.fca.7.0.1.gep, align 8, !tbaa !35
  %.fca.7.0.2.gep = getelementptr inbounds nuw i8, ptr %0, i64 40
  store i64 8, ptr %.fca.7.0.2.gep, align 8, !tbaa !35
  %5 = call i1 @_FortranAioOutputDescriptor(ptr %4, ptr nonnull %0)
  %6 = call i32 @_FortranAioEndIoStatement(ptr %4) #8
  ret void
}

declare void @__enzyme_autodiff_(ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr) local_unnamed_addr

declare ptr @_FortranAioBeginExternalListOutput(i32, ptr, i32) local_unnamed_addr

declare zeroext i1 @_FortranAioOutputDescriptor(ptr, ptr) local_unnamed_addr

declare i32 @_FortranAioEndIoStatement(ptr) local_unnamed_addr

declare void @_FortranAProgramStart(i32, ptr, ptr, ptr) local_unnamed_addr

declare void @_FortranAProgramEndStatement() local_unnamed_addr

define noundef i32 @main(i32 %0, ptr %1, ptr %2) local_unnamed_addr #1 {
  %4 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8
  %5 = alloca double, align 8
  %6 = alloca double, align 8
  %7 = alloca i32, align 4
  tail call void @_FortranAProgramStart(i32 %0, ptr %1, ptr %2, ptr null)
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  call void @llvm.lifetime.start.p0(ptr nonnull %6)
  call void @llvm.lifetime.start.p0(ptr nonnull %7)
  store double 5.000000e-01, ptr @_QFEc, align 16, !tbaa !21
  store double 5.000000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEc, i64 8), align 8, !tbaa !21
  store double 5.000000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEc, i64 16), align 16, !tbaa !21
  store double 5.000000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEc, i64 24), align 8, !tbaa !21
  store double 5.000000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEc, i64 32), align 16, !tbaa !21
  store double 2.500000e-01, ptr @_QFEx, align 16, !tbaa !27
  store double 2.500000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 8), align 8, !tbaa !27
  store double 2.500000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 16), align 16, !tbaa !27
  store double 2.500000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 24), align 8, !tbaa !27
  store double 2.500000e-01, ptr getelementptr inbounds nuw (i8, ptr @_QFEx, i64 32), align 16, !tbaa !27
  tail call void @llvm.memset.p0.i64(ptr noundef nonnull align 16 dereferenceable(40) @_QFEdx, i8 0, i64 40, i1 false), !tbaa !29
  store double 1.000000e+00, ptr %6, align 8, !tbaa !31
  store i32 5, ptr %7, align 4, !tbaa !34
  call void @__enzyme_autodiff_(ptr nonnull @_QMmaPcsum, ptr nonnull @enzyme_const, ptr nonnull %7, ptr nonnull @enzyme_const, ptr nonnull @_QFEc, ptr nonnull @enzyme_dup, ptr nonnull @_QFEx, ptr nonnull @_QFEdx, ptr nonnull @enzyme_dup, ptr nonnull %5, ptr nonnull %6)
  %8 = call ptr @_FortranAioBeginExternalListOutput(i32 6, ptr nonnull @_QQclX2F746D702F68706333392F65312F65312E66393000, i32 27) #8
  store ptr @_QFEdx, ptr %4, align 8, !tbaa !35
  %.fca.1.gep.i = getelementptr inbounds nuw i8, ptr %4, i64 8
  store i64 8, ptr %.fca.1.gep.i, align 8, !tbaa !35
  %.fca.2.gep.i = getelementptr inbounds nuw i8, ptr %4, i64 16
  store i32 20240719, ptr %.fca.2.gep.i, align 8, !tbaa !35
  %.fca.3.gep.i = getelementptr inbounds nuw i8, ptr %4, i64 20
  store i8 1, ptr %.fca.3.gep.i, align 4, !tbaa !35
  %.fca.4.gep.i = getelementptr inbounds nuw i8, ptr %4, i64 21
  store i8 28, ptr %.fca.4.gep.i, align 1, !tbaa !35
  %.fca.5.gep.i = getelementptr inbounds nuw i8, ptr %4, i64 22
  store i8 0, ptr %.fca.5.gep.i, align 2, !tbaa !35
  %.fca.6.gep.i = getelementptr inbounds nuw i8, ptr %4, i64 23
  store i8 0, ptr %.fca.6.gep.i, align 1, !tbaa !35
  %.fca.7.0.0.gep.i = getelementptr inbounds nuw i8, ptr %4, i64 24
  store i64 1, ptr %.fca.7.0.0.gep.i, align 8, !tbaa !35
  %.fca.7.0.1.gep.i = getelementptr inbounds nuw i8, ptr %4, i64 32
  store i64 5, ptr %.fca.7.0.1.gep.i, align 8, !tbaa !35
  %.fca.7.0.2.gep.i = getelementptr inbounds nuw i8, ptr %4, i64 40
  store i64 8, ptr %.fca.7.0.2.gep.i, align 8, !tbaa !35
  %9 = call i1 @_FortranAioOutputDescriptor(ptr %8, ptr nonnull %4)
  %10 = call i32 @_FortranAioEndIoStatement(ptr %8) #8
  call void @llvm.lifetime.end.p0(ptr nonnull %4)
  call void @llvm.lifetime.end.p0(ptr nonnull %5)
  call void @llvm.lifetime.end.p0(ptr nonnull %6)
  call void @llvm.lifetime.end.p0(ptr nonnull %7)
  call void @_FortranAProgramEndStatement()
  ret i32 0
}

; Function Attrs: nounwind
declare i32 @__kmpc_global_thread_num(ptr) local_unnamed_addr #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.sin.f64(double) #3

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4u(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) local_unnamed_addr #2

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) local_unnamed_addr #2

; Function Attrs: convergent nounwind
declare void @__kmpc_barrier(ptr, i32) local_unnamed_addr #4

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define internal void @.omp.reduction.func(ptr readonly captures(none) %0, ptr readonly captures(none) %1) #5 {
  %3 = load ptr, ptr %0, align 8
  %4 = load double, ptr %3, align 8
  %5 = load ptr, ptr %1, align 8
  %6 = load double, ptr %5, align 8
  %7 = fadd contract double %4, %6
  store double %7, ptr %3, align 8
  ret void
}

; Function Attrs: convergent nounwind
declare i32 @__kmpc_reduce(ptr, i32, i32, i64, ptr, ptr, ptr) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare void @__kmpc_end_reduce(ptr, i32, ptr) local_unnamed_addr #4

; Function Attrs: nounwind
declare !callback !37 void @__kmpc_fork_call(ptr, i32, ptr, ...) local_unnamed_addr #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32) #3

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #6

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #7

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #7

attributes #0 = { nounwind "target-cpu"="x86-64" }
attributes #1 = { "target-cpu"="x86-64" }
attributes #2 = { nounwind }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { convergent nounwind }
attributes #5 = { mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) }
attributes #6 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #7 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #8 = { memory(argmem: readwrite, inaccessiblemem: readwrite) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 7, !"openmp", i32 31}
!1 = !{i32 2, !"Debug Info Version", i32 3}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{!"Debian flang version 22.1.8"}
!5 = !{!6, !6, i64 0}
!6 = !{!"dummy arg data/_QMmaFcsumEn", !7, i64 0}
!7 = !{!"dummy arg data", !8, i64 0}
!8 = !{!"any data access", !9, i64 0}
!9 = !{!"any access", !10, i64 0}
!10 = !{!"Flang function root _QMmaPcsum"}
!11 = !{!12, !12, i64 0}
!12 = !{!"dummy arg data/_QMmaFcsumEs", !7, i64 0}
!13 = !{i64 1}
!14 = !{!15, !15, i64 0}
!15 = !{!"descriptor member", !9, i64 0}
!16 = !{!17, !17, i64 0}
!17 = !{!"dummy arg data/_QMmaFcsumEc", !7, i64 0}
!18 = !{!19, !19, i64 0}
!19 = !{!"dummy arg data/_QMmaFcsumEx", !7, i64 0}
!20 = !{!8, !8, i64 0}
!21 = !{!22, !22, i64 0}
!22 = !{!"global data/_QFEc", !23, i64 0}
!23 = !{!"global data", !24, i64 0}
!24 = !{!"any data access", !25, i64 0}
!25 = !{!"any access", !26, i64 0}
!26 = !{!"Flang function root _QQmain"}
!27 = !{!28, !28, i64 0}
!28 = !{!"global data/_QFEx", !23, i64 0}
!29 = !{!30, !30, i64 0}
!30 = !{!"global data/_QFEdx", !23, i64 0}
!31 = !{!32, !32, i64 0}
!32 = !{!"allocated data/_QFEds", !33, i64 0}
!33 = !{!"allocated data", !24, i64 0}
!34 = !{!33, !33, i64 0}
!35 = !{!36, !36, i64 0}
!36 = !{!"descriptor member", !25, i64 0}
!37 = !{!38}
!38 = !{i64 2, i64 -1, i64 -1, i1 true}
