; Decision: a reverse loop run upwards over a range known only at run time
; (streams/upward.rs `run_upward_open`, gmm20) counts from ZERO, u = 0 .. S - L, with the
; old counter as L + u and the counters beside it as J0 + k (S - L) - k u; the addresses
; indexed by the counter (L[t], dL[t]) or by a counter beside stepping with it get a base
; pointer before the loop (`gep L, L0`, computed once per column) indexed by u in it
; (issue 14, gmm23, steps (a) and (d) of bench/README.md "gmm22"). LoopVectorize then
; indexes the vector loop's loads and stores by its own `%index` off those bases: no
; `offset.idx` (the base binary's vector loop added the column's start to every index,
; `%offset.idx = add i64 %index, %t`, four of them).
; Why it matters: bench gmm at users' -O2 -ffast-math, 46.39M -> 45.53M instructions per
; gradient (quick); the step toward GMM's reverse column nest with one induction
; variable per address (bench/README.md "gmm23").
; Checked by finite differences and the analytic gradient in tests/c/875.
;
; double qnorm(int d, const double *L, const double *x) {
;   double *z = malloc(sizeof(double) * d);
;   for (int i = 0; i < d; i++) z[i] = x[i];
;   int t = 0;
;   for (int c = 0; c < d; c++)
;     for (int r = c + 1; r < d; r++) { z[r] += L[t] * x[c]; t++; }
;   double s = 0.0;
;   for (int i = 0; i < d; i++) s += z[i] * z[i];
;   free(z);
;   return s;
; }
; void grad(int d, const double *L, double *dL, const double *x, double *dx) {
;   __enzyme_autodiff((void *)qnorm, d, enzyme_dup, L, dL, enzyme_dup, x, dx);
; }
; (clang-22 -O2 -ffast-math -fno-vectorize -fno-slp-vectorize -fno-unroll-loops: the
; IR `ferrozyme cc` differentiates; the same module as reverse_loop_upward_runtime_range)
;
; RUN: %ferrozyme cc %s -O2 -ffast-math -S -emit-llvm -o - | %FileCheck %s
; RUN: %ferrozyme cc %s -O2 -ffast-math -S -emit-llvm -o - | %FileCheck %s --check-prefix=NOIDX
; The column's bases into L and its shadow (the column's start t, in the reverse of the
; rows loop's preheader), indexed by the vector loop's own counter.
; CHECK-LABEL: define internal {{.*}}@fz_grad_qnorm(
; CHECK: {{^}}rev..from.:
; CHECK: [[L:%.*]] = getelementptr inbounds double, ptr %1, i64 [[T:%.*]]
; CHECK: [[DL:%.*]] = getelementptr inbounds double, ptr %.shadow, i64 [[T]]
; CHECK: getelementptr inbounds double, ptr [[L]], i64 %index
; CHECK: getelementptr inbounds double, ptr [[DL]], i64 %index
; CHECK-LABEL: define internal void @__fz_state_init(
; NOIDX-LABEL: define internal {{.*}}@fz_grad_qnorm(
; NOIDX-NOT: offset.idx
; NOIDX-LABEL: define internal void @__fz_state_init(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4

; Function Attrs: nounwind memory(readwrite, target_mem0: none, target_mem1: none) uwtable
define dso_local nofpclass(nan inf) double @qnorm(i32 noundef %0, ptr noundef readonly captures(none) %1, ptr noundef readonly captures(none) %2) #0 {
  %4 = sext i32 %0 to i64
  %5 = shl nsw i64 %4, 3
  %6 = tail call noalias ptr @malloc(i64 noundef %5) #6
  %7 = icmp sgt i32 %0, 0
  br i1 %7, label %8, label %42

8:                                                ; preds = %3
  %9 = zext nneg i32 %0 to i64
  %10 = shl nuw nsw i64 %9, 3
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 8 %6, ptr align 8 %2, i64 %10, i1 false), !tbaa !9
  %11 = zext nneg i32 %0 to i64
  br label %20

12:                                               ; preds = %30
  %13 = trunc nsw i64 %39 to i32
  br label %14

14:                                               ; preds = %12, %20
  %15 = phi i32 [ %23, %20 ], [ %13, %12 ]
  %16 = add nuw nsw i64 %22, 1
  %17 = icmp eq i64 %24, %11
  br i1 %17, label %18, label %20, !llvm.loop !11

18:                                               ; preds = %14
  %19 = zext nneg i32 %0 to i64
  br label %44

20:                                               ; preds = %8, %14
  %21 = phi i64 [ 0, %8 ], [ %24, %14 ]
  %22 = phi i64 [ 1, %8 ], [ %16, %14 ]
  %23 = phi i32 [ 0, %8 ], [ %15, %14 ]
  %24 = add nuw nsw i64 %21, 1
  %25 = icmp slt i64 %24, %4
  br i1 %25, label %26, label %14

26:                                               ; preds = %20
  %27 = getelementptr inbounds nuw double, ptr %2, i64 %21
  %28 = load double, ptr %27, align 8, !tbaa !9
  %29 = sext i32 %23 to i64
  br label %30

30:                                               ; preds = %26, %30
  %31 = phi i64 [ %29, %26 ], [ %39, %30 ]
  %32 = phi i64 [ %22, %26 ], [ %40, %30 ]
  %33 = getelementptr inbounds double, ptr %1, i64 %31
  %34 = load double, ptr %33, align 8, !tbaa !9
  %35 = fmul fast double %28, %34
  %36 = getelementptr inbounds nuw double, ptr %6, i64 %32
  %37 = load double, ptr %36, align 8, !tbaa !9
  %38 = fadd fast double %37, %35
  store double %38, ptr %36, align 8, !tbaa !9
  %39 = add nsw i64 %31, 1
  %40 = add nuw nsw i64 %32, 1
  %41 = icmp eq i64 %40, %11
  br i1 %41, label %12, label %30, !llvm.loop !14

42:                                               ; preds = %44, %3
  %43 = phi double [ 0.000000e+00, %3 ], [ %50, %44 ]
  tail call void @free(ptr noundef %6) #7
  ret double %43

44:                                               ; preds = %18, %44
  %45 = phi i64 [ 0, %18 ], [ %51, %44 ]
  %46 = phi double [ 0.000000e+00, %18 ], [ %50, %44 ]
  %47 = getelementptr inbounds nuw double, ptr %6, i64 %45
  %48 = load double, ptr %47, align 8, !tbaa !9
  %49 = fmul fast double %48, %48
  %50 = fadd fast double %49, %46
  %51 = add nuw nsw i64 %45, 1
  %52 = icmp eq i64 %51, %19
  br i1 %52, label %42, label %44, !llvm.loop !15
}

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr #1

; Function Attrs: mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @free(ptr allocptr noundef captures(none)) local_unnamed_addr #2

; Function Attrs: nounwind uwtable
define dso_local void @grad(i32 noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4) local_unnamed_addr #3 {
  %6 = load i32, ptr @enzyme_dup, align 4, !tbaa !5
  %7 = tail call fast nofpclass(nan inf) double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @qnorm, i32 noundef %0, i32 noundef %6, ptr noundef %1, ptr noundef %2, i32 noundef %6, ptr noundef %3, ptr noundef %4) #7
  ret void
}

declare nofpclass(nan inf) double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #4

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #5

attributes #0 = { nounwind memory(readwrite, target_mem0: none, target_mem1: none) uwtable "min-legal-vector-width"="0" "no-infs-fp-math"="true" "no-nans-fp-math"="true" "no-signed-zeros-fp-math"="true" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "no-infs-fp-math"="true" "no-nans-fp-math"="true" "no-signed-zeros-fp-math"="true" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "no-infs-fp-math"="true" "no-nans-fp-math"="true" "no-signed-zeros-fp-math"="true" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nounwind uwtable "min-legal-vector-width"="0" "no-infs-fp-math"="true" "no-nans-fp-math"="true" "no-signed-zeros-fp-math"="true" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { "no-infs-fp-math"="true" "no-nans-fp-math"="true" "no-signed-zeros-fp-math"="true" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #6 = { nounwind allocsize(0) }
attributes #7 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}
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
!11 = distinct !{!11, !12, !13}
!12 = !{!"llvm.loop.mustprogress"}
!13 = !{!"llvm.loop.unroll.disable"}
!14 = distinct !{!14, !12, !13}
!15 = distinct !{!15, !12, !13}
