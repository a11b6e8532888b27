; ModuleID = 'mixed_struct.c'
source_filename = "mixed_struct.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.Particle = type { i32, double, float, ptr, i64 }

; Function Attrs: nofree norecurse nosync nounwind memory(read, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable
define dso_local double @energy(ptr noundef readonly captures(none) %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %30

4:                                                ; preds = %2
  %5 = zext nneg i32 %1 to i64
  %6 = and i64 %5, 1
  %7 = icmp eq i32 %1, 1
  br i1 %7, label %12, label %8

8:                                                ; preds = %4
  %9 = and i64 %5, 2147483646
  br label %32

10:                                               ; preds = %32
  %11 = icmp eq i64 %6, 0
  br i1 %11, label %30, label %12

12:                                               ; preds = %10, %4
  %13 = phi i64 [ 0, %4 ], [ %65, %10 ]
  %14 = phi double [ 0.000000e+00, %4 ], [ %64, %10 ]
  %15 = icmp ne i64 %6, 0
  tail call void @llvm.assume(i1 %15)
  %16 = getelementptr inbounds nuw %struct.Particle, ptr %0, i64 %13
  %17 = getelementptr inbounds nuw i8, ptr %16, i64 8
  %18 = load double, ptr %17, align 8, !tbaa !9
  %19 = getelementptr inbounds nuw i8, ptr %16, i64 16
  %20 = load float, ptr %19, align 8, !tbaa !16
  %21 = fpext float %20 to double
  %22 = fmul double %18, %21
  %23 = getelementptr inbounds nuw i8, ptr %16, i64 24
  %24 = load ptr, ptr %23, align 8, !tbaa !17
  %25 = load double, ptr %24, align 8, !tbaa !18
  %26 = load i32, ptr %16, align 8, !tbaa !19
  %27 = sitofp i32 %26 to double
  %28 = tail call double @llvm.fmuladd.f64(double %22, double %25, double %27)
  %29 = fadd double %14, %28
  br label %30

30:                                               ; preds = %12, %10, %2
  %31 = phi double [ 0.000000e+00, %2 ], [ %64, %10 ], [ %29, %12 ]
  ret double %31

32:                                               ; preds = %32, %8
  %33 = phi i64 [ 0, %8 ], [ %65, %32 ]
  %34 = phi double [ 0.000000e+00, %8 ], [ %64, %32 ]
  %35 = phi i64 [ 0, %8 ], [ %66, %32 ]
  %36 = getelementptr inbounds nuw %struct.Particle, ptr %0, i64 %33
  %37 = getelementptr inbounds nuw i8, ptr %36, i64 8
  %38 = load double, ptr %37, align 8, !tbaa !9
  %39 = getelementptr inbounds nuw i8, ptr %36, i64 16
  %40 = load float, ptr %39, align 8, !tbaa !16
  %41 = fpext float %40 to double
  %42 = fmul double %38, %41
  %43 = getelementptr inbounds nuw i8, ptr %36, i64 24
  %44 = load ptr, ptr %43, align 8, !tbaa !17
  %45 = load double, ptr %44, align 8, !tbaa !18
  %46 = load i32, ptr %36, align 8, !tbaa !19
  %47 = sitofp i32 %46 to double
  %48 = tail call double @llvm.fmuladd.f64(double %42, double %45, double %47)
  %49 = fadd double %34, %48
  %50 = getelementptr inbounds nuw %struct.Particle, ptr %0, i64 %33
  %51 = getelementptr inbounds nuw i8, ptr %50, i64 40
  %52 = getelementptr inbounds nuw i8, ptr %50, i64 48
  %53 = load double, ptr %52, align 8, !tbaa !9
  %54 = getelementptr inbounds nuw i8, ptr %50, i64 56
  %55 = load float, ptr %54, align 8, !tbaa !16
  %56 = fpext float %55 to double
  %57 = fmul double %53, %56
  %58 = getelementptr inbounds nuw i8, ptr %50, i64 64
  %59 = load ptr, ptr %58, align 8, !tbaa !17
  %60 = load double, ptr %59, align 8, !tbaa !18
  %61 = load i32, ptr %51, align 8, !tbaa !19
  %62 = sitofp i32 %61 to double
  %63 = tail call double @llvm.fmuladd.f64(double %57, double %60, double %62)
  %64 = fadd double %49, %63
  %65 = add nuw nsw i64 %33, 2
  %66 = add i64 %35, 2
  %67 = icmp eq i64 %66, %9
  br i1 %67, label %10, label %32, !llvm.loop !20
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable
define dso_local void @step(ptr noundef captures(none) %0) local_unnamed_addr #2 {
  %2 = getelementptr inbounds nuw i8, ptr %0, i64 32
  %3 = load i64, ptr %2, align 8, !tbaa !22
  %4 = add nsw i64 %3, 1
  store i64 %4, ptr %2, align 8, !tbaa !22
  %5 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %6 = load ptr, ptr %5, align 8, !tbaa !17
  %7 = load double, ptr %6, align 8, !tbaa !18
  %8 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %9 = load double, ptr %8, align 8, !tbaa !9
  %10 = fmul double %7, %9
  %11 = getelementptr inbounds nuw i8, ptr %6, i64 8
  store double %10, ptr %11, align 8, !tbaa !18
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)
declare void @llvm.assume(i1 noundef) #3

attributes #0 = { nofree norecurse nosync nounwind memory(read, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) }

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
!9 = !{!10, !11, i64 8}
!10 = !{!"Particle", !6, i64 0, !11, i64 8, !12, i64 16, !13, i64 24, !15, i64 32}
!11 = !{!"double", !7, i64 0}
!12 = !{!"float", !7, i64 0}
!13 = !{!"p1 double", !14, i64 0}
!14 = !{!"any pointer", !7, i64 0}
!15 = !{!"long", !7, i64 0}
!16 = !{!10, !12, i64 16}
!17 = !{!10, !13, i64 24}
!18 = !{!11, !11, i64 0}
!19 = !{!10, !6, i64 0}
!20 = distinct !{!20, !21}
!21 = !{!"llvm.loop.mustprogress"}
!22 = !{!10, !15, i64 32}
