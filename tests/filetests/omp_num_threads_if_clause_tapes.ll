; Decision: the tapes of a parallel region are sized for the thread count of its
; `num_threads` clause (the `__kmpc_push_num_threads` before the fork) also when an `if`
; clause puts the fork in a branch: the search for the push goes on into the block that
; is the only predecessor of the fork's block.
; Why it matters: with `num_threads(2) if(n > 8)` the push is in the entry block and the
; fork in `omp_if.then`; the tapes were sized for OMP_NUM_THREADS (1 in the test) and the
; second thread aborted the program ("a parallel region ran with more threads than it
; was prepared for"; tests/openmp/14_sections_clauses.c).
;
; double nt(const double *x, int n) {
;   double s = 0;
; #pragma omp parallel for num_threads(2) if (n > 8) reduction(+ : s)
;   for (int i = 0; i < n; i++) s += x[i] * x[i];
;   return s;
; }
; (clang-22 -O1 -fopenmp, attributes dropped)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal {{.*}}@fz_grad_nt(
; CHECK: call void @__kmpc_push_num_threads(
; CHECK: call ptr @__fz_omp_tapes_new(i32 2)


%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 22, ptr @0 }, align 8
@.gomp_critical_user_.reduction.var = common global [8 x i32] zeroinitializer, align 8
@2 = private unnamed_addr constant %struct.ident_t { i32 0, i32 18, i32 0, i32 22, ptr @0 }, align 8
@3 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nounwind uwtable
define dso_local double @nt(ptr noundef %x, i32 noundef %n) {
entry:
  %x.addr = alloca ptr, align 8
  %n.addr = alloca i32, align 4
  %s = alloca double, align 8
  %.threadid_temp. = alloca i32, align 4
  %0 = tail call i32 @__kmpc_global_thread_num(ptr nonnull @3)
  store ptr %x, ptr %x.addr, align 8, !tbaa !10
  store i32 %n, ptr %n.addr, align 4, !tbaa !6
  call void @llvm.lifetime.start.p0(ptr nonnull %s)
  store double 0.000000e+00, ptr %s, align 8, !tbaa !13
  tail call void @__kmpc_push_num_threads(ptr nonnull @3, i32 %0, i32 2)
  %1 = load i32, ptr %n.addr, align 4, !tbaa !6
  %cmp = icmp sgt i32 %1, 8
  br i1 %cmp, label %omp_if.then, label %omp_if.else

omp_if.then:                                      ; preds = %entry
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @3, i32 3, ptr nonnull @nt.omp_outlined, ptr nonnull %n.addr, ptr nonnull %s, ptr nonnull %x.addr)
  br label %omp_if.end

omp_if.else:                                      ; preds = %entry
  tail call void @__kmpc_serialized_parallel(ptr nonnull @3, i32 %0)
  store i32 %0, ptr %.threadid_temp., align 4, !tbaa !6
  call void @nt.omp_outlined(ptr nonnull %.threadid_temp., ptr nonnull poison, ptr %n.addr, ptr %s, ptr %x.addr)
  tail call void @__kmpc_end_serialized_parallel(ptr nonnull @3, i32 %0)
  br label %omp_if.end

omp_if.end:                                       ; preds = %omp_if.else, %omp_if.then
  %2 = load double, ptr %s, align 8, !tbaa !13
  call void @llvm.lifetime.end.p0(ptr nonnull %s)
  ret double %2
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none))

; Function Attrs: noinline norecurse nounwind uwtable
define internal void @nt.omp_outlined(ptr noalias noundef readonly captures(none) %.global_tid., ptr noalias readnone captures(none) %.bound_tid., ptr noundef nonnull readonly align 4 captures(none) dereferenceable(4) %n, ptr noundef nonnull align 8 captures(none) dereferenceable(8) %s, ptr noundef nonnull readonly align 8 captures(none) dereferenceable(8) %x) {
entry:
  %.omp.lb = alloca i32, align 4
  %.omp.ub = alloca i32, align 4
  %.omp.stride = alloca i32, align 4
  %.omp.is_last = alloca i32, align 4
  %s3 = alloca double, align 8
  %.omp.reduction.red_list = alloca [1 x ptr], align 8
  %0 = load i32, ptr %n, align 4, !tbaa !6
  %cmp = icmp sgt i32 %0, 0
  br i1 %cmp, label %omp.precond.then, label %omp.precond.end

omp.precond.then:                                 ; preds = %entry
  %sub2 = add nsw i32 %0, -1
  call void @llvm.lifetime.start.p0(ptr nonnull %.omp.lb)
  store i32 0, ptr %.omp.lb, align 4, !tbaa !6
  call void @llvm.lifetime.start.p0(ptr nonnull %.omp.ub)
  store i32 %sub2, ptr %.omp.ub, align 4, !tbaa !6
  call void @llvm.lifetime.start.p0(ptr nonnull %.omp.stride)
  store i32 1, ptr %.omp.stride, align 4, !tbaa !6
  call void @llvm.lifetime.start.p0(ptr nonnull %.omp.is_last)
  store i32 0, ptr %.omp.is_last, align 4, !tbaa !6
  call void @llvm.lifetime.start.p0(ptr nonnull %s3)
  store double 0.000000e+00, ptr %s3, align 8, !tbaa !13
  %1 = load i32, ptr %.global_tid., align 4, !tbaa !6
  call void @__kmpc_for_static_init_4(ptr nonnull @1, i32 %1, i32 34, ptr nonnull %.omp.is_last, ptr nonnull %.omp.lb, ptr nonnull %.omp.ub, ptr nonnull %.omp.stride, i32 1, i32 1)
  %2 = load i32, ptr %.omp.ub, align 4, !tbaa !6
  %cond = call i32 @llvm.smin.i32(i32 %2, i32 %sub2)
  store i32 %cond, ptr %.omp.ub, align 4, !tbaa !6
  %3 = load i32, ptr %.omp.lb, align 4, !tbaa !6
  %cmp6.not20 = icmp sgt i32 %3, %cond
  br i1 %cmp6.not20, label %omp.loop.exit, label %omp.inner.for.body.lr.ph

omp.inner.for.body.lr.ph:                         ; preds = %omp.precond.then
  %s3.promoted = load double, ptr %s3, align 8
  %4 = load ptr, ptr %x, align 8, !tbaa !10
  %5 = sext i32 %3 to i64
  %6 = add nsw i32 %cond, 1
  br label %omp.inner.for.body

omp.inner.for.body:                               ; preds = %omp.inner.for.body.lr.ph, %omp.inner.for.body
  %indvars.iv = phi i64 [ %5, %omp.inner.for.body.lr.ph ], [ %indvars.iv.next, %omp.inner.for.body ]
  %7 = phi double [ %s3.promoted, %omp.inner.for.body.lr.ph ], [ %9, %omp.inner.for.body ]
  %arrayidx = getelementptr inbounds double, ptr %4, i64 %indvars.iv
  %8 = load double, ptr %arrayidx, align 8, !tbaa !13
  %9 = call double @llvm.fmuladd.f64(double %8, double %8, double %7)
  store double %9, ptr %s3, align 8, !tbaa !13
  %indvars.iv.next = add nsw i64 %indvars.iv, 1
  %lftr.wideiv = trunc i64 %indvars.iv.next to i32
  %exitcond.not = icmp eq i32 %6, %lftr.wideiv
  br i1 %exitcond.not, label %omp.loop.exit, label %omp.inner.for.body

omp.loop.exit:                                    ; preds = %omp.inner.for.body, %omp.precond.then
  call void @__kmpc_for_static_fini(ptr nonnull @1, i32 %1)
  store ptr %s3, ptr %.omp.reduction.red_list, align 8
  %10 = call i32 @__kmpc_reduce_nowait(ptr nonnull @2, i32 %1, i32 1, i64 8, ptr nonnull %.omp.reduction.red_list, ptr nonnull @nt.omp_outlined.omp.reduction.reduction_func, ptr nonnull @.gomp_critical_user_.reduction.var)
  switch i32 %10, label %.omp.reduction.default [
    i32 1, label %.omp.reduction.case1
    i32 2, label %.omp.reduction.case2
  ]

.omp.reduction.case1:                             ; preds = %omp.loop.exit
  %11 = load double, ptr %s, align 8, !tbaa !13
  %12 = load double, ptr %s3, align 8, !tbaa !13
  %add11 = fadd double %11, %12
  store double %add11, ptr %s, align 8, !tbaa !13
  call void @__kmpc_end_reduce_nowait(ptr nonnull @2, i32 %1, ptr nonnull @.gomp_critical_user_.reduction.var)
  br label %.omp.reduction.default

.omp.reduction.case2:                             ; preds = %omp.loop.exit
  %13 = load double, ptr %s3, align 8, !tbaa !13
  %14 = atomicrmw fadd ptr %s, double %13 monotonic, align 8
  br label %.omp.reduction.default

.omp.reduction.default:                           ; preds = %.omp.reduction.case2, %.omp.reduction.case1, %omp.loop.exit
  call void @llvm.lifetime.end.p0(ptr nonnull %s3)
  call void @llvm.lifetime.end.p0(ptr nonnull %.omp.is_last)
  call void @llvm.lifetime.end.p0(ptr nonnull %.omp.stride)
  call void @llvm.lifetime.end.p0(ptr nonnull %.omp.ub)
  call void @llvm.lifetime.end.p0(ptr nonnull %.omp.lb)
  br label %omp.precond.end

omp.precond.end:                                  ; preds = %.omp.reduction.default, %entry
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none))

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) local_unnamed_addr

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double)

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) local_unnamed_addr

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable
define internal void @nt.omp_outlined.omp.reduction.reduction_func(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1) {
entry:
  %2 = load ptr, ptr %1, align 8
  %3 = load ptr, ptr %0, align 8
  %4 = load double, ptr %3, align 8, !tbaa !13
  %5 = load double, ptr %2, align 8, !tbaa !13
  %add = fadd double %4, %5
  store double %add, ptr %3, align 8, !tbaa !13
  ret void
}

; Function Attrs: convergent nounwind
declare i32 @__kmpc_reduce_nowait(ptr, i32, i32, i64, ptr, ptr, ptr) local_unnamed_addr

; Function Attrs: convergent nounwind
declare void @__kmpc_end_reduce_nowait(ptr, i32, ptr) local_unnamed_addr

; Function Attrs: nounwind
declare i32 @__kmpc_global_thread_num(ptr) local_unnamed_addr

; Function Attrs: nounwind
declare void @__kmpc_push_num_threads(ptr, i32, i32) local_unnamed_addr

; Function Attrs: nounwind
declare !callback !15 void @__kmpc_fork_call(ptr, i32, ptr, ...) local_unnamed_addr

; Function Attrs: nounwind
declare void @__kmpc_serialized_parallel(ptr, i32) local_unnamed_addr

; Function Attrs: nounwind
declare void @__kmpc_end_serialized_parallel(ptr, i32) local_unnamed_addr

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %x, ptr noundef %dx, i32 noundef %n) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4, !tbaa !6
  %1 = load i32, ptr @enzyme_const, align 4, !tbaa !6
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @nt, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %1, i32 noundef %n)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smin.i32(i32, i32)


!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}
!llvm.errno.tbaa = !{!6}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"openmp", i32 51}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{i32 7, !"uwtable", i32 2}
!5 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"int", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C/C++ TBAA"}
!10 = !{!11, !11, i64 0}
!11 = !{!"p1 double", !12, i64 0}
!12 = !{!"any pointer", !8, i64 0}
!13 = !{!14, !14, i64 0}
!14 = !{!"double", !8, i64 0}
!15 = !{!16}
!16 = !{i64 2, i64 -1, i64 -1, i1 true}
