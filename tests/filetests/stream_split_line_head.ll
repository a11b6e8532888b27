; Decision (bruss35, streams/line.rs): with AVX-512, a carried stream loop that
; streams/split.rs split into a main loop over a multiple of 8 iterations and a tail loop
; also gets a head loop (`.line`), a scalar copy of the loop that runs the first h
; iterations, h computed at run time from the anchor store's first address (the shadow
; most of the loop's stores address): the cells from it to the next 64-byte line, kept
; only below the tail's length (else 0; a head of 0 iterations is skipped). The main loop
; then starts at `lo + h` with its exit bound moved by h (same trip count), the tail runs
; the rest; the head is marked `llvm.loop.vectorize.enable` false. Why: every 512-bit
; store of the main loop straddled two cache lines when the shadow row did not start on
; one (the benchmark's gradient is 48 bytes past a line): bench/README.md "bruss35".
; The module is tests/filetests/stream_split_vector_tail.ll's (the periodic-`if` stencil,
; 30 interior columns: 24 + 6) with -march=x86-64-v4's target attributes. The pass's
; `-O3` output is checked (the split needs the vectorizing pipeline after the pass): the
; run-time h, the branch around the head and the head's block. The base binary has no
; `.line` block.
;
; RUN: %ferrozyme opt %s -O3 -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @st(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1, double noundef %2) #0 {
  %4 = getelementptr inbounds nuw i8, ptr %1, i64 8192
  br label %48

5:                                                ; preds = %100
  %6 = or disjoint i64 %102, %53
  %7 = getelementptr inbounds nuw double, ptr %1, i64 %6
  %8 = load double, ptr %7, align 8, !tbaa !10
  %9 = getelementptr inbounds nuw double, ptr %4, i64 %6
  %10 = load double, ptr %9, align 8, !tbaa !10
  %11 = or disjoint i64 %102, %61
  %12 = getelementptr inbounds double, ptr %1, i64 %11
  %13 = load double, ptr %12, align 8, !tbaa !10
  %14 = or disjoint i64 %102, %57
  %15 = getelementptr inbounds nuw double, ptr %1, i64 %14
  %16 = load double, ptr %15, align 8, !tbaa !10
  %17 = fadd double %13, %16
  %18 = and i64 %53, 4294967264
  %19 = getelementptr inbounds nuw double, ptr %1, i64 %18
  %20 = load double, ptr %19, align 8, !tbaa !10
  %21 = fadd double %17, %20
  %22 = or disjoint i64 %53, 30
  %23 = getelementptr inbounds nuw double, ptr %1, i64 %22
  %24 = load double, ptr %23, align 8, !tbaa !10
  %25 = fadd double %21, %24
  %26 = tail call double @llvm.fmuladd.f64(double %8, double -4.000000e+00, double %25)
  %27 = getelementptr inbounds double, ptr %4, i64 %11
  %28 = load double, ptr %27, align 8, !tbaa !10
  %29 = getelementptr inbounds nuw double, ptr %4, i64 %14
  %30 = load double, ptr %29, align 8, !tbaa !10
  %31 = fadd double %28, %30
  %32 = getelementptr inbounds nuw double, ptr %4, i64 %18
  %33 = load double, ptr %32, align 8, !tbaa !10
  %34 = fadd double %31, %33
  %35 = getelementptr inbounds nuw double, ptr %4, i64 %22
  %36 = load double, ptr %35, align 8, !tbaa !10
  %37 = fadd double %34, %36
  %38 = tail call double @llvm.fmuladd.f64(double %10, double -4.000000e+00, double %37)
  %39 = fmul double %8, %8
  %40 = fmul double %39, %10
  %41 = tail call double @llvm.fmuladd.f64(double %2, double %26, double %40)
  %42 = getelementptr inbounds nuw double, ptr %0, i64 %6
  store double %41, ptr %42, align 8, !tbaa !10
  %43 = fneg double %40
  %44 = tail call double @llvm.fmuladd.f64(double %2, double %38, double %43)
  %45 = getelementptr inbounds nuw i8, ptr %42, i64 8192
  store double %44, ptr %45, align 8, !tbaa !10
  %46 = icmp eq i64 %51, 32
  br i1 %46, label %47, label %48, !llvm.loop !12

47:                                               ; preds = %5
  ret void

48:                                               ; preds = %5, %3
  %49 = phi i64 [ 0, %3 ], [ %51, %5 ]
  %50 = icmp eq i64 %49, 31
  %51 = add nuw nsw i64 %49, 1
  %52 = icmp eq i64 %49, 0
  %53 = shl nuw nsw i64 %49, 5
  %54 = trunc i64 %51 to i32
  %55 = shl i32 %54, 5
  %56 = sext i32 %55 to i64
  %57 = select i1 %50, i64 0, i64 %56
  %58 = shl i64 %49, 37
  %59 = add i64 %58, -137438953472
  %60 = ashr exact i64 %59, 32
  %61 = select i1 %52, i64 992, i64 %60
  %62 = getelementptr inbounds nuw double, ptr %1, i64 %53
  %63 = load double, ptr %62, align 8, !tbaa !10
  %64 = getelementptr inbounds nuw double, ptr %4, i64 %53
  %65 = load double, ptr %64, align 8, !tbaa !10
  %66 = getelementptr inbounds double, ptr %1, i64 %61
  %67 = load double, ptr %66, align 8, !tbaa !10
  %68 = getelementptr inbounds nuw double, ptr %1, i64 %57
  %69 = load double, ptr %68, align 8, !tbaa !10
  %70 = fadd double %67, %69
  %71 = and i64 %53, 4294967264
  %72 = or disjoint i64 %71, 1
  %73 = getelementptr inbounds nuw double, ptr %1, i64 %72
  %74 = load double, ptr %73, align 8, !tbaa !10
  %75 = fadd double %70, %74
  %76 = or disjoint i64 %53, 31
  %77 = getelementptr inbounds nuw double, ptr %1, i64 %76
  %78 = load double, ptr %77, align 8, !tbaa !10
  %79 = fadd double %75, %78
  %80 = tail call double @llvm.fmuladd.f64(double %63, double -4.000000e+00, double %79)
  %81 = getelementptr inbounds double, ptr %4, i64 %61
  %82 = load double, ptr %81, align 8, !tbaa !10
  %83 = getelementptr inbounds nuw double, ptr %4, i64 %57
  %84 = load double, ptr %83, align 8, !tbaa !10
  %85 = fadd double %82, %84
  %86 = getelementptr inbounds nuw double, ptr %4, i64 %72
  %87 = load double, ptr %86, align 8, !tbaa !10
  %88 = fadd double %85, %87
  %89 = getelementptr inbounds nuw double, ptr %4, i64 %76
  %90 = load double, ptr %89, align 8, !tbaa !10
  %91 = fadd double %88, %90
  %92 = tail call double @llvm.fmuladd.f64(double %65, double -4.000000e+00, double %91)
  %93 = fmul double %63, %63
  %94 = fmul double %93, %65
  %95 = tail call double @llvm.fmuladd.f64(double %2, double %80, double %94)
  %96 = getelementptr inbounds nuw double, ptr %0, i64 %53
  store double %95, ptr %96, align 8, !tbaa !10
  %97 = fneg double %94
  %98 = tail call double @llvm.fmuladd.f64(double %2, double %92, double %97)
  %99 = getelementptr inbounds nuw i8, ptr %96, i64 8192
  store double %98, ptr %99, align 8, !tbaa !10
  br label %100

100:                                              ; preds = %48, %100
  %101 = phi i64 [ 1, %48 ], [ %102, %100 ]
  %102 = add nuw nsw i64 %101, 1
  %103 = or disjoint i64 %101, %53
  %104 = getelementptr inbounds nuw double, ptr %1, i64 %103
  %105 = load double, ptr %104, align 8, !tbaa !10
  %106 = getelementptr inbounds nuw double, ptr %4, i64 %103
  %107 = load double, ptr %106, align 8, !tbaa !10
  %108 = or disjoint i64 %101, %61
  %109 = getelementptr inbounds double, ptr %1, i64 %108
  %110 = load double, ptr %109, align 8, !tbaa !10
  %111 = or disjoint i64 %101, %57
  %112 = getelementptr inbounds nuw double, ptr %1, i64 %111
  %113 = load double, ptr %112, align 8, !tbaa !10
  %114 = fadd double %110, %113
  %115 = add nuw i64 %102, %53
  %116 = and i64 %115, 4294967295
  %117 = getelementptr inbounds nuw double, ptr %1, i64 %116
  %118 = load double, ptr %117, align 8, !tbaa !10
  %119 = fadd double %114, %118
  %120 = shl i64 %101, 32
  %121 = add nsw i64 %120, -4294967296
  %122 = ashr exact i64 %121, 32
  %123 = add nuw nsw i64 %122, %53
  %124 = getelementptr inbounds double, ptr %1, i64 %123
  %125 = load double, ptr %124, align 8, !tbaa !10
  %126 = fadd double %119, %125
  %127 = tail call double @llvm.fmuladd.f64(double %105, double -4.000000e+00, double %126)
  %128 = getelementptr inbounds double, ptr %4, i64 %108
  %129 = load double, ptr %128, align 8, !tbaa !10
  %130 = getelementptr inbounds nuw double, ptr %4, i64 %111
  %131 = load double, ptr %130, align 8, !tbaa !10
  %132 = fadd double %129, %131
  %133 = getelementptr inbounds nuw double, ptr %4, i64 %116
  %134 = load double, ptr %133, align 8, !tbaa !10
  %135 = fadd double %132, %134
  %136 = getelementptr inbounds double, ptr %4, i64 %123
  %137 = load double, ptr %136, align 8, !tbaa !10
  %138 = fadd double %135, %137
  %139 = tail call double @llvm.fmuladd.f64(double %107, double -4.000000e+00, double %138)
  %140 = fmul double %105, %105
  %141 = fmul double %140, %107
  %142 = tail call double @llvm.fmuladd.f64(double %2, double %127, double %141)
  %143 = getelementptr inbounds nuw double, ptr %0, i64 %103
  store double %142, ptr %143, align 8, !tbaa !10
  %144 = fneg double %141
  %145 = tail call double @llvm.fmuladd.f64(double %2, double %139, double %144)
  %146 = getelementptr inbounds nuw i8, ptr %143, i64 8192
  store double %145, ptr %146, align 8, !tbaa !10
  %147 = icmp eq i64 %102, 31
  br i1 %147, label %5, label %100, !llvm.loop !14
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, double noundef %4) local_unnamed_addr #2 {
  %6 = load i32, ptr @enzyme_dup, align 4, !tbaa !5
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3, double noundef %4) #4
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #3

attributes #0 = { nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64-v4" "target-features"="+avx,+avx2,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512vl,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64-v4" "target-features"="+avx,+avx2,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512vl,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }
attributes #3 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64-v4" "target-features"="+avx,+avx2,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512vl,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }
attributes #4 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}
!llvm.errno.tbaa = !{!5}
!ferrozyme.opt = !{!9}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = !{!"-O3"}
!10 = !{!11, !11, i64 0}
!11 = !{!"double", !7, i64 0}
!12 = distinct !{!12, !13}
!13 = !{!"llvm.loop.mustprogress"}
!14 = distinct !{!14, !13, !15}
!15 = !{!"llvm.loop.peeled.count", i32 2}


; CHECK-LABEL: define dso_local void @grad(
; CHECK: ptrtoint ptr
; CHECK: lshr i64 {{.*}}, 3
; CHECK: icmp {{.*}}ult i64 {{.*}}, 6
; CHECK: br i1 {{.*}}, label %{{.*}}, label %[[HEAD:rev\.\.peel[0-9]+\.line\.i]]
; CHECK: {{^}}[[HEAD]]:
; CHECK: !{!"llvm.loop.vectorize.enable", i1 false}
