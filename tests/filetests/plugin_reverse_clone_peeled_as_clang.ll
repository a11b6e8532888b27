; Decision: where the pass runs before the optimizer's LoopUnroll (the plugin at clang's
; OptimizerEarly; `ferrozyme opt --before-loop-unroll` says so), the reverse clone first
; gets LoopUnroll as `ferrozyme cc`'s first compile runs it (no partial, no run-time
; unrolling), then IndVarSimplify (clang_unroll.rs): LLVM 22 peels the last column of a
; loop that wraps by `j == W - 1 ? 0 : j + 1`, and only in that form do the reverse
; neighbour updates become exact stencil streams (wrap_index.rs, streams/). Without it
; the plugin carried no stream and the periodic-`if` Brusselator's reverse loop stayed
; scalar at -O3 -march=x86-64-v3 (the gradient: no `ymm` register; bench/README.md
; "perf30"); with it the plugin's gradient function is instruction for instruction
; `ferrozyme cc`'s. Here the streams' vectorized recurrences show that the streams were
; carried: since bruss32 the split main loop's vector body is unrolled fully
; (streams/split.rs), so they are the `<3, 4, 5, 6>` shuffles of one unrolled vector
; iteration's window with the next (before, `%vector.recur` phis of the rolled loop);
; main's binary has no such option and carries none on this input (no vector code).
;
; Input: tests/c/fz_periodic.h's FZ_PBR(pbr, restrict, 4, 32) and
;   void grad(double *out, double *dout, double *x, double *dx, double a) {
;     __enzyme_autodiff((void *)pbr, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx,
;                       enzyme_const, a);
;   }
; at clang-22 -O2 -march=x86-64-v3 -ffp-contract=off, as the plugin's pass receives it
; (the module after clang's simplification pipeline, before the optimizer's: the column
; loop still wraps by a select).
;
; RUN: %ferrozyme opt %s -O2 --before-loop-unroll -o - | %FileCheck %s
;
; CHECK-LABEL: define dso_local void @grad(
; CHECK: shufflevector <4 x double> %{{[a-z0-9.]+}}, <4 x double> %{{[a-z0-9.]+}}, <4 x i32> <i32 3, i32 4, i32 5, i32 6>

source_filename = "pbr.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @pbr(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1, double noundef %2) #0 {
  %4 = getelementptr inbounds nuw i8, ptr %1, i64 1024
  br label %.peel.next

5:                                                ; preds = %.loopexit
  ret void

.peel.next:                                       ; preds = %.loopexit, %3
  %indvars.iv72 = phi i64 [ 0, %3 ], [ %indvars.iv.next73, %.loopexit ]
  %6 = icmp eq i64 %indvars.iv72, 3
  %7 = shl nuw nsw i64 %indvars.iv72, 5
  %8 = icmp eq i64 %indvars.iv72, 0
  %9 = shl i64 %indvars.iv72, 37
  %sext = add i64 %9, 137438953472
  %10 = ashr exact i64 %sext, 32
  %11 = select i1 %6, i64 0, i64 %10
  %12 = shl i64 %indvars.iv72, 37
  %sext76 = add i64 %12, -137438953472
  %13 = ashr exact i64 %sext76, 32
  %14 = select i1 %8, i64 96, i64 %13
  %15 = getelementptr inbounds nuw double, ptr %1, i64 %7
  %16 = load double, ptr %15, align 8, !tbaa !9
  %17 = getelementptr inbounds nuw double, ptr %4, i64 %7
  %18 = load double, ptr %17, align 8, !tbaa !9
  %19 = getelementptr inbounds double, ptr %1, i64 %14
  %20 = load double, ptr %19, align 8, !tbaa !9
  %21 = getelementptr inbounds nuw double, ptr %1, i64 %11
  %22 = load double, ptr %21, align 8, !tbaa !9
  %23 = fadd double %20, %22
  %24 = and i64 %7, 4294967264
  %25 = or disjoint i64 %24, 1
  %26 = getelementptr inbounds nuw double, ptr %1, i64 %25
  %27 = load double, ptr %26, align 8, !tbaa !9
  %28 = fadd double %23, %27
  %29 = or disjoint i64 %7, 31
  %30 = getelementptr inbounds nuw double, ptr %1, i64 %29
  %31 = load double, ptr %30, align 8, !tbaa !9
  %32 = fadd double %28, %31
  %33 = fmul double %16, 4.000000e+00
  %34 = fsub double %32, %33
  %35 = getelementptr inbounds double, ptr %4, i64 %14
  %36 = load double, ptr %35, align 8, !tbaa !9
  %37 = getelementptr inbounds nuw double, ptr %4, i64 %11
  %38 = load double, ptr %37, align 8, !tbaa !9
  %39 = fadd double %36, %38
  %40 = getelementptr inbounds nuw double, ptr %4, i64 %25
  %41 = load double, ptr %40, align 8, !tbaa !9
  %42 = fadd double %39, %41
  %43 = getelementptr inbounds nuw double, ptr %4, i64 %29
  %44 = load double, ptr %43, align 8, !tbaa !9
  %45 = fadd double %42, %44
  %46 = fmul double %18, 4.000000e+00
  %47 = fsub double %45, %46
  %48 = fmul double %2, %34
  %49 = fmul double %16, %16
  %50 = fmul double %49, %18
  %51 = fadd double %50, %48
  %52 = fmul double %16, 1.500000e+00
  %53 = fsub double %51, %52
  %54 = getelementptr inbounds nuw double, ptr %0, i64 %7
  store double %53, ptr %54, align 8, !tbaa !9
  %55 = fmul double %2, %47
  %56 = fmul double %16, 5.000000e-01
  %57 = fadd double %56, %55
  %58 = fsub double %57, %50
  %59 = getelementptr inbounds nuw i8, ptr %54, i64 1024
  store double %58, ptr %59, align 8, !tbaa !9
  br label %60

.loopexit:                                        ; preds = %60
  %indvars.iv.next73 = add nuw nsw i64 %indvars.iv72, 1
  %exitcond75.not = icmp eq i64 %indvars.iv.next73, 4
  br i1 %exitcond75.not, label %5, label %.peel.next, !llvm.loop !11

60:                                               ; preds = %.peel.next, %60
  %indvars.iv = phi i64 [ 1, %.peel.next ], [ %indvars.iv.next, %60 ]
  %61 = icmp eq i64 %indvars.iv, 31
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %.066 = select i1 %61, i64 0, i64 %indvars.iv.next
  %62 = or disjoint i64 %indvars.iv, %7
  %63 = getelementptr inbounds nuw double, ptr %1, i64 %62
  %64 = load double, ptr %63, align 8, !tbaa !9
  %65 = getelementptr inbounds nuw double, ptr %4, i64 %62
  %66 = load double, ptr %65, align 8, !tbaa !9
  %67 = or disjoint i64 %indvars.iv, %14
  %68 = getelementptr inbounds double, ptr %1, i64 %67
  %69 = load double, ptr %68, align 8, !tbaa !9
  %70 = or disjoint i64 %indvars.iv, %11
  %71 = getelementptr inbounds nuw double, ptr %1, i64 %70
  %72 = load double, ptr %71, align 8, !tbaa !9
  %73 = fadd double %69, %72
  %74 = add nuw i64 %.066, %7
  %75 = and i64 %74, 4294967295
  %76 = getelementptr inbounds nuw double, ptr %1, i64 %75
  %77 = load double, ptr %76, align 8, !tbaa !9
  %78 = fadd double %73, %77
  %79 = shl i64 %indvars.iv, 32
  %sext77 = add i64 %79, -4294967296
  %80 = ashr exact i64 %sext77, 32
  %81 = add nuw nsw i64 %80, %7
  %82 = getelementptr inbounds double, ptr %1, i64 %81
  %83 = load double, ptr %82, align 8, !tbaa !9
  %84 = fadd double %78, %83
  %85 = fmul double %64, 4.000000e+00
  %86 = fsub double %84, %85
  %87 = getelementptr inbounds double, ptr %4, i64 %67
  %88 = load double, ptr %87, align 8, !tbaa !9
  %89 = getelementptr inbounds nuw double, ptr %4, i64 %70
  %90 = load double, ptr %89, align 8, !tbaa !9
  %91 = fadd double %88, %90
  %92 = getelementptr inbounds nuw double, ptr %4, i64 %75
  %93 = load double, ptr %92, align 8, !tbaa !9
  %94 = fadd double %91, %93
  %95 = getelementptr inbounds double, ptr %4, i64 %81
  %96 = load double, ptr %95, align 8, !tbaa !9
  %97 = fadd double %94, %96
  %98 = fmul double %66, 4.000000e+00
  %99 = fsub double %97, %98
  %100 = fmul double %2, %86
  %101 = fmul double %64, %64
  %102 = fmul double %101, %66
  %103 = fadd double %102, %100
  %104 = fmul double %64, 1.500000e+00
  %105 = fsub double %103, %104
  %106 = getelementptr inbounds nuw double, ptr %0, i64 %62
  store double %105, ptr %106, align 8, !tbaa !9
  %107 = fmul double %2, %99
  %108 = fmul double %64, 5.000000e-01
  %109 = fadd double %108, %107
  %110 = fsub double %109, %102
  %111 = getelementptr inbounds nuw i8, ptr %106, i64 1024
  store double %110, ptr %111, align 8, !tbaa !9
  %exitcond.not = icmp eq i64 %indvars.iv.next, 32
  br i1 %exitcond.not, label %.loopexit, label %60, !llvm.loop !14
}

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, double noundef %4) local_unnamed_addr #1 {
  %6 = load i32, ptr @enzyme_dupnoneed, align 4, !tbaa !5
  %7 = load i32, ptr @enzyme_dup, align 4, !tbaa !5
  %8 = load i32, ptr @enzyme_const, align 4, !tbaa !5
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @pbr, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %7, ptr noundef %2, ptr noundef %3, i32 noundef %8, double noundef %4) #3
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #2

attributes #0 = { nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }
attributes #1 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }
attributes #2 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }
attributes #3 = { nounwind }

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
!14 = distinct !{!14, !12, !15}
!15 = !{!"llvm.loop.peeled.count", i32 1}
