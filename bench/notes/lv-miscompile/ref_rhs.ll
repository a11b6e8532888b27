; ModuleID = 'pre.ll'
source_filename = "brusselator_periodic.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.br_ctx = type { [2048 x double], [2048 x double], [3 x double], double, [2048 x double], [2048 x double], [2048 x double], [3 x double] }

@main.c = external global %struct.br_ctx, align 8
@main.want = external global [2048 x double], align 16

; Function Attrs: nofree noinline norecurse nosync nounwind memory(readwrite, argmem: none, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable
define void @ref_rhs(double noundef %0) unnamed_addr #0 {
  %2 = load double, ptr getelementptr inbounds nuw (i8, ptr @main.c, i64 32784), align 8, !tbaa !9
  %3 = fmul double %2, 1.024000e+03
  %4 = load double, ptr getelementptr inbounds nuw (i8, ptr @main.c, i64 32776), align 8, !tbaa !9
  %5 = load double, ptr getelementptr inbounds nuw (i8, ptr @main.c, i64 32768), align 8, !tbaa !9
  %6 = fadd double %5, 1.000000e+00
  %7 = fneg double %6
  %8 = fcmp oge double %0, 1.100000e+00
  br label %9

9:                                                ; preds = %30, %1
  %10 = phi i64 [ 0, %1 ], [ %31, %30 ]
  %11 = shl nuw nsw i64 %10, 5
  %12 = or disjoint i64 %11, 1024
  %13 = trunc i64 %11 to i32
  %14 = add i32 %13, 992
  %15 = and i32 %14, 992
  %16 = trunc i64 %11 to i32
  %17 = add i32 %16, 32
  %18 = and i32 %17, 992
  %19 = trunc nuw nsw i64 %10 to i32
  %20 = uitofp nneg i32 %19 to double
  %21 = fmul double %20, 3.125000e-02
  %22 = fadd double %21, -3.000000e-01
  %23 = zext nneg i32 %18 to i64
  %24 = zext nneg i32 %15 to i64
  %25 = getelementptr inbounds nuw double, ptr @main.c, i64 %24
  %26 = getelementptr inbounds nuw double, ptr @main.c, i64 %23
  %27 = trunc nuw nsw i64 %11 to i32
  %28 = trunc nuw nsw i64 %12 to i32
  br label %33

29:                                               ; preds = %30
  ret void

30:                                               ; preds = %33
  %31 = add nuw nsw i64 %10, 1
  %32 = icmp eq i64 %31, 32
  br i1 %32, label %29, label %9, !llvm.loop !11

33:                                               ; preds = %33, %9
  %34 = phi i64 [ 0, %9 ], [ %46, %33 ]
  %35 = or disjoint i64 %34, %11
  %36 = getelementptr inbounds nuw double, ptr @main.c, i64 %35
  %37 = load double, ptr %36, align 8, !tbaa !9
  %38 = or disjoint i64 %34, %12
  %39 = getelementptr inbounds nuw double, ptr @main.c, i64 %38
  %40 = load double, ptr %39, align 8, !tbaa !9
  %41 = getelementptr inbounds nuw double, ptr %25, i64 %34
  %42 = load double, ptr %41, align 8, !tbaa !9
  %43 = getelementptr inbounds nuw double, ptr %26, i64 %34
  %44 = load double, ptr %43, align 8, !tbaa !9
  %45 = fadd double %42, %44
  %46 = add nuw nsw i64 %34, 1
  %47 = trunc nuw nsw i64 %46 to i32
  %48 = and i32 %47, 31
  %49 = or disjoint i32 %48, %27
  %50 = zext nneg i32 %49 to i64
  %51 = getelementptr inbounds nuw double, ptr @main.c, i64 %50
  %52 = load double, ptr %51, align 8, !tbaa !9
  %53 = fadd double %45, %52
  %54 = trunc i64 %34 to i32
  %55 = add i32 %54, 31
  %56 = and i32 %55, 31
  %57 = or disjoint i32 %56, %27
  %58 = zext nneg i32 %57 to i64
  %59 = getelementptr inbounds nuw double, ptr @main.c, i64 %58
  %60 = load double, ptr %59, align 8, !tbaa !9
  %61 = fadd double %53, %60
  %62 = tail call double @llvm.fmuladd.f64(double %37, double -4.000000e+00, double %61)
  %63 = trunc nuw nsw i64 %34 to i32
  %64 = or i32 %14, %63
  %65 = or i32 %64, 1024
  %66 = zext nneg i32 %65 to i64
  %67 = getelementptr inbounds nuw double, ptr @main.c, i64 %66
  %68 = load double, ptr %67, align 8, !tbaa !9
  %69 = or i32 %17, %63
  %70 = or i32 %69, 1024
  %71 = zext nneg i32 %70 to i64
  %72 = getelementptr inbounds nuw double, ptr @main.c, i64 %71
  %73 = load double, ptr %72, align 8, !tbaa !9
  %74 = fadd double %68, %73
  %75 = or disjoint i32 %48, %28
  %76 = zext nneg i32 %75 to i64
  %77 = getelementptr inbounds nuw double, ptr @main.c, i64 %76
  %78 = load double, ptr %77, align 8, !tbaa !9
  %79 = fadd double %74, %78
  %80 = or disjoint i32 %56, %28
  %81 = zext nneg i32 %80 to i64
  %82 = getelementptr inbounds nuw double, ptr @main.c, i64 %81
  %83 = load double, ptr %82, align 8, !tbaa !9
  %84 = fadd double %79, %83
  %85 = tail call double @llvm.fmuladd.f64(double %40, double -4.000000e+00, double %84)
  %86 = tail call double @llvm.fmuladd.f64(double %3, double %62, double %4)
  %87 = fmul double %37, %37
  %88 = tail call double @llvm.fmuladd.f64(double %87, double %40, double %86)
  %89 = tail call double @llvm.fmuladd.f64(double %7, double %37, double %88)
  %90 = uitofp nneg i32 %63 to double
  %91 = fmul double %90, 3.125000e-02
  %92 = fadd double %91, -6.000000e-01
  %93 = fmul double %92, %92
  %94 = tail call double @llvm.fmuladd.f64(double %22, double %22, double %93)
  %95 = fcmp ole double %94, 1.000000e-02
  %96 = and i1 %8, %95
  %97 = select i1 %96, double 5.000000e+00, double 0.000000e+00
  %98 = fadd double %97, %89
  %99 = getelementptr inbounds nuw double, ptr @main.want, i64 %35
  store double %98, ptr %99, align 8, !tbaa !9
  %100 = fmul double %37, %5
  %101 = tail call double @llvm.fmuladd.f64(double %3, double %85, double %100)
  %102 = fneg double %87
  %103 = tail call double @llvm.fmuladd.f64(double %102, double %40, double %101)
  %104 = getelementptr inbounds nuw double, ptr @main.want, i64 %38
  store double %103, ptr %104, align 8, !tbaa !9
  %105 = icmp eq i64 %46, 32
  br i1 %105, label %30, label %33, !llvm.loop !13
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

attributes #0 = { nofree noinline norecurse nosync nounwind memory(readwrite, argmem: none, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

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
!11 = distinct !{!11, !12}
!12 = !{!"llvm.loop.mustprogress"}
!13 = distinct !{!13, !12}
