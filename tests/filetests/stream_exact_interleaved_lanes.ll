; Decision: the reverse column loop of the interleaved Brusselator (u and v of a cell side
; by side in one array: x[2 (32 i + j)], x[2 (32 i + j) + 1]; bench/src/
; brusselator_interleaved.c, -O3 -march=native, no fast-math) carries one
; order-preserving (value) stream per field: four `fz.cell` phis (two open cells of
; the u lane and two of the v lane; the anchor moves two elements per iteration,
; streams/mod.rs `stride` 2, `lane` 0 and 1), the first iteration's cells loaded before the
; loop (`fz.cell.first`). It needs, on the clone before differentiation: the clamped
; rows peeled (peel_rows.rs, stride-2 rows since bruss16); clang's `int` row index of
; the left neighbour, `add i32 (trunc i64 (32 i)), -1` without flags, made exact from
; the counters' ranges (wrap_index.rs gives the add and the trunc `nsw`), so that
; `affine_index` anchors it at -16 bytes; the rows i +- 1 anchored at -+512 bytes
; (wrap_index.rs `anchor_bytes`: one step of the row index away). In the reverse loop
; the index `(2 j) | (64 i)` lost `disjoint` (instcombine); `affine_index` reads it as a
; sum over the column counter's range and `streams/mod.rs` gives the flag back, so that
; LoopVectorize can bound the addresses. The stop-28 binary carried nothing here.
; Why it matters: with the streams the loop vectorizes (VF 8, interleaved groups) and
; the interleaved Brusselator's gradient at -O3 -march=native fell from 9.6-11.5 us to
; ~3.4 us (bench/README.md "bruss16"); the gradient is bit-identical in every cell
; (dx), the parameter adjoints become `reassoc` reductions as for the u/v layout
; (reassoc_sums.rs, bruss14).
; (`ferrozyme cc -O3 -march=native --save-temps`, bench/src/brusselator_interleaved.c,
; brusselator_interleaved and run_grad kept with llvm-extract-22)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; ModuleID = '/tmp/b16/new/brusselator_interleaved.before-ad.ll'
source_filename = "bench/src/brusselator_interleaved.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@bench_sink = external hidden global double, align 8
@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nounwind uwtable
define hidden void @run_grad(ptr noundef %0) #0 {
  %2 = getelementptr inbounds nuw i8, ptr %0, i64 49184
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 32800
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(16384) %2, ptr noundef nonnull align 8 dereferenceable(16384) %3, i64 16384, i1 false)
  %4 = getelementptr inbounds nuw i8, ptr %0, i64 65568
  %5 = getelementptr inbounds nuw i8, ptr %0, i64 81952
  tail call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(16408) %4, i8 0, i64 16408, i1 false)
  %6 = load i32, ptr @enzyme_dupnoneed, align 4, !tbaa !5
  %7 = getelementptr inbounds nuw i8, ptr %0, i64 16384
  %8 = load i32, ptr @enzyme_dup, align 4, !tbaa !5
  %9 = getelementptr inbounds nuw i8, ptr %0, i64 32768
  %10 = load i32, ptr @enzyme_const, align 4, !tbaa !5
  %11 = getelementptr inbounds nuw i8, ptr %0, i64 32792
  %12 = load double, ptr %11, align 8, !tbaa !10
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @brusselator_interleaved, i32 noundef %6, ptr noundef nonnull %7, ptr noundef nonnull %2, i32 noundef %8, ptr noundef %0, ptr noundef nonnull %4, i32 noundef %8, ptr noundef nonnull %9, ptr noundef nonnull %5, i32 noundef %10, double noundef %12) #6
  %13 = load double, ptr %4, align 8, !tbaa !13
  store volatile double %13, ptr @bench_sink, align 8, !tbaa !13
  ret void
}

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @brusselator_interleaved(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1, ptr noalias noundef readonly captures(none) %2, double noundef %3) #1 {
  %5 = load double, ptr %2, align 8, !tbaa !13
  %6 = getelementptr inbounds nuw i8, ptr %2, i64 8
  %7 = load double, ptr %6, align 8, !tbaa !13
  %8 = getelementptr inbounds nuw i8, ptr %2, i64 16
  %9 = load double, ptr %8, align 8, !tbaa !13
  %10 = fdiv double %9, 0x3F510C8531D0952D
  %11 = fadd double %5, 1.000000e+00
  %12 = fneg double %11
  %13 = fcmp oge double %3, 1.100000e+00
  br label %14

14:                                               ; preds = %79, %4
  %15 = phi i64 [ 0, %4 ], [ %80, %79 ]
  %16 = trunc nuw nsw i64 %15 to i32
  %17 = tail call i32 @llvm.umin.i32(i32 %16, i32 30)
  %18 = tail call i32 @llvm.smax.i32(i32 %16, i32 1)
  %19 = add nsw i32 %18, -1
  %20 = tail call noundef range(i32 0, 32) i32 @llvm.umin.i32(i32 %19, i32 31)
  %21 = shl nuw nsw i64 %15, 5
  %22 = shl nuw nsw i32 %20, 6
  %23 = shl nuw nsw i32 %17, 6
  %24 = add nuw nsw i32 %23, 64
  %25 = uitofp nneg i32 %16 to double
  %26 = fmul double %25, 0x3FA0842108421084
  %27 = fadd double %26, -3.000000e-01
  %28 = zext nneg i32 %22 to i64
  %29 = zext nneg i32 %24 to i64
  %30 = shl nsw i64 %15, 6
  %31 = getelementptr inbounds nuw double, ptr %1, i64 %30
  %32 = load double, ptr %31, align 8, !tbaa !13
  %33 = or disjoint i64 %30, 1
  %34 = getelementptr inbounds nuw double, ptr %1, i64 %33
  %35 = load double, ptr %34, align 8, !tbaa !13
  %36 = getelementptr inbounds nuw double, ptr %1, i64 %28
  %37 = load double, ptr %36, align 8, !tbaa !13
  %38 = getelementptr inbounds nuw double, ptr %1, i64 %29
  %39 = load double, ptr %38, align 8, !tbaa !13
  %40 = fadd double %37, %39
  %41 = shl i64 %15, 9
  %42 = getelementptr inbounds nuw i8, ptr %1, i64 %41
  %43 = getelementptr inbounds nuw i8, ptr %42, i64 16
  %44 = load double, ptr %43, align 8, !tbaa !13
  %45 = fadd double %40, %44
  %46 = fadd double %45, %32
  %47 = tail call double @llvm.fmuladd.f64(double %32, double -4.000000e+00, double %46)
  %48 = getelementptr i8, ptr %36, i64 8
  %49 = load double, ptr %48, align 8, !tbaa !13
  %50 = getelementptr i8, ptr %38, i64 8
  %51 = load double, ptr %50, align 8, !tbaa !13
  %52 = fadd double %49, %51
  %53 = getelementptr i8, ptr %42, i64 24
  %54 = load double, ptr %53, align 8, !tbaa !13
  %55 = fadd double %52, %54
  %56 = fadd double %55, %35
  %57 = tail call double @llvm.fmuladd.f64(double %35, double -4.000000e+00, double %56)
  %58 = tail call double @llvm.fmuladd.f64(double %10, double %47, double %7)
  %59 = fmul double %32, %32
  %60 = tail call double @llvm.fmuladd.f64(double %59, double %35, double %58)
  %61 = tail call double @llvm.fmuladd.f64(double %12, double %32, double %60)
  %62 = tail call double @llvm.fmuladd.f64(double %27, double %27, double 3.600000e-01)
  %63 = fcmp ole double %62, 1.000000e-02
  %64 = and i1 %13, %63
  %65 = select i1 %64, double 5.000000e+00, double 0.000000e+00
  %66 = fadd double %65, %61
  %67 = getelementptr inbounds nuw double, ptr %0, i64 %30
  store double %66, ptr %67, align 8, !tbaa !13
  %68 = fmul double %5, %32
  %69 = tail call double @llvm.fmuladd.f64(double %10, double %57, double %68)
  %70 = fneg double %59
  %71 = tail call double @llvm.fmuladd.f64(double %70, double %35, double %69)
  %72 = getelementptr inbounds nuw double, ptr %0, i64 %33
  store double %71, ptr %72, align 8, !tbaa !13
  %73 = getelementptr inbounds nuw double, ptr %1, i64 %28
  %74 = getelementptr inbounds nuw double, ptr %1, i64 %29
  %75 = trunc nuw nsw i64 %21 to i32
  %76 = trunc i64 %21 to i32
  %77 = add i32 %76, -1
  br label %82

78:                                               ; preds = %79
  ret void

79:                                               ; preds = %82
  %80 = add nuw nsw i64 %15, 1
  %81 = icmp eq i64 %80, 32
  br i1 %81, label %78, label %14, !llvm.loop !14

82:                                               ; preds = %82, %14
  %83 = phi i64 [ 1, %14 ], [ %84, %82 ]
  %84 = add nuw nsw i64 %83, 1
  %85 = trunc nuw nsw i64 %84 to i32
  %86 = tail call noundef range(i32 0, 32) i32 @llvm.umin.i32(i32 %85, i32 31)
  %87 = trunc nuw nsw i64 %83 to i32
  %88 = or disjoint i64 %83, %21
  %89 = shl nuw nsw i64 %88, 1
  %90 = getelementptr inbounds nuw double, ptr %1, i64 %89
  %91 = load double, ptr %90, align 8, !tbaa !13
  %92 = or disjoint i64 %89, 1
  %93 = getelementptr inbounds nuw double, ptr %1, i64 %92
  %94 = load double, ptr %93, align 8, !tbaa !13
  %95 = shl nuw nsw i64 %83, 1
  %96 = getelementptr inbounds nuw double, ptr %73, i64 %95
  %97 = load double, ptr %96, align 8, !tbaa !13
  %98 = getelementptr inbounds nuw double, ptr %74, i64 %95
  %99 = load double, ptr %98, align 8, !tbaa !13
  %100 = fadd double %97, %99
  %101 = or disjoint i32 %86, %75
  %102 = shl nuw nsw i32 %101, 1
  %103 = zext nneg i32 %102 to i64
  %104 = getelementptr inbounds nuw double, ptr %1, i64 %103
  %105 = load double, ptr %104, align 8, !tbaa !13
  %106 = fadd double %100, %105
  %107 = add nsw i32 %77, %87
  %108 = shl nsw i32 %107, 1
  %109 = sext i32 %108 to i64
  %110 = getelementptr inbounds double, ptr %1, i64 %109
  %111 = load double, ptr %110, align 8, !tbaa !13
  %112 = fadd double %106, %111
  %113 = tail call double @llvm.fmuladd.f64(double %91, double -4.000000e+00, double %112)
  %114 = getelementptr i8, ptr %96, i64 8
  %115 = load double, ptr %114, align 8, !tbaa !13
  %116 = getelementptr i8, ptr %98, i64 8
  %117 = load double, ptr %116, align 8, !tbaa !13
  %118 = fadd double %115, %117
  %119 = getelementptr i8, ptr %104, i64 8
  %120 = load double, ptr %119, align 8, !tbaa !13
  %121 = fadd double %118, %120
  %122 = getelementptr i8, ptr %110, i64 8
  %123 = load double, ptr %122, align 8, !tbaa !13
  %124 = fadd double %121, %123
  %125 = tail call double @llvm.fmuladd.f64(double %94, double -4.000000e+00, double %124)
  %126 = tail call double @llvm.fmuladd.f64(double %10, double %113, double %7)
  %127 = fmul double %91, %91
  %128 = tail call double @llvm.fmuladd.f64(double %127, double %94, double %126)
  %129 = tail call double @llvm.fmuladd.f64(double %12, double %91, double %128)
  %130 = uitofp nneg i32 %87 to double
  %131 = fmul double %130, 0x3FA0842108421084
  %132 = fadd double %131, -6.000000e-01
  %133 = fmul double %132, %132
  %134 = tail call double @llvm.fmuladd.f64(double %27, double %27, double %133)
  %135 = fcmp ole double %134, 1.000000e-02
  %136 = and i1 %13, %135
  %137 = select i1 %136, double 5.000000e+00, double 0.000000e+00
  %138 = fadd double %137, %129
  %139 = getelementptr inbounds nuw double, ptr %0, i64 %89
  store double %138, ptr %139, align 8, !tbaa !13
  %140 = fmul double %5, %91
  %141 = tail call double @llvm.fmuladd.f64(double %10, double %125, double %140)
  %142 = fneg double %127
  %143 = tail call double @llvm.fmuladd.f64(double %142, double %94, double %141)
  %144 = getelementptr inbounds nuw double, ptr %0, i64 %92
  store double %143, ptr %144, align 8, !tbaa !13
  %145 = icmp eq i64 %84, 32
  br i1 %145, label %79, label %82, !llvm.loop !16
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #2

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #3

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #4

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #5

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.umin.i32(i32, i32) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32) #2

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="znver5" "target-features"="+64bit,+adx,+aes,+avx,+avx2,+avx512bf16,+avx512bitalg,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512ifma,+avx512vbmi,+avx512vbmi2,+avx512vl,+avx512vnni,+avx512vp2intersect,+avx512vpopcntdq,+avxvnni,+bmi,+bmi2,+clflushopt,+clwb,+clzero,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+gfni,+invpcid,+lzcnt,+mmx,+movbe,+pclmul,+popcnt,+prfchw,+rdpid,+rdrnd,+rdseed,+sahf,+sha,+shstk,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+sse4a,+ssse3,+vaes,+vpclmulqdq,+x87,+xsave,+xsavec,+xsaveopt,+xsaves,-amx-avx512,-amx-bf16,-amx-complex,-amx-fp16,-amx-fp8,-amx-int8,-amx-movrs,-amx-tf32,-amx-tile,-avx10.1,-avx10.2,-avx512fp16,-avxifma,-avxneconvert,-avxvnniint16,-avxvnniint8,-ccmp,-cf,-cldemote,-cmpccxadd,-egpr,-enqcmd,-fma4,-hreset,-kl,-lwp,-movdir64b,-movdiri,-movrs,-mwaitx,-ndd,-nf,-pconfig,-pku,-ppx,-prefetchi,-ptwrite,-push2pop2,-raoint,-rdpru,-rtm,-serialize,-sgx,-sha512,-sm3,-sm4,-tbm,-tsxldtrk,-uintr,-usermsr,-waitpkg,-wbnoinvd,-widekl,-xop,-zu" }
attributes #1 = { nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="znver5" "target-features"="+64bit,+adx,+aes,+avx,+avx2,+avx512bf16,+avx512bitalg,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512ifma,+avx512vbmi,+avx512vbmi2,+avx512vl,+avx512vnni,+avx512vp2intersect,+avx512vpopcntdq,+avxvnni,+bmi,+bmi2,+clflushopt,+clwb,+clzero,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+gfni,+invpcid,+lzcnt,+mmx,+movbe,+pclmul,+popcnt,+prfchw,+rdpid,+rdrnd,+rdseed,+sahf,+sha,+shstk,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+sse4a,+ssse3,+vaes,+vpclmulqdq,+x87,+xsave,+xsavec,+xsaveopt,+xsaves,-amx-avx512,-amx-bf16,-amx-complex,-amx-fp16,-amx-fp8,-amx-int8,-amx-movrs,-amx-tf32,-amx-tile,-avx10.1,-avx10.2,-avx512fp16,-avxifma,-avxneconvert,-avxvnniint16,-avxvnniint8,-ccmp,-cf,-cldemote,-cmpccxadd,-egpr,-enqcmd,-fma4,-hreset,-kl,-lwp,-movdir64b,-movdiri,-movrs,-mwaitx,-ndd,-nf,-pconfig,-pku,-ppx,-prefetchi,-ptwrite,-push2pop2,-raoint,-rdpru,-rtm,-serialize,-sgx,-sha512,-sm3,-sm4,-tbm,-tsxldtrk,-uintr,-usermsr,-waitpkg,-wbnoinvd,-widekl,-xop,-zu" }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #4 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #5 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="znver5" "target-features"="+64bit,+adx,+aes,+avx,+avx2,+avx512bf16,+avx512bitalg,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512ifma,+avx512vbmi,+avx512vbmi2,+avx512vl,+avx512vnni,+avx512vp2intersect,+avx512vpopcntdq,+avxvnni,+bmi,+bmi2,+clflushopt,+clwb,+clzero,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+gfni,+invpcid,+lzcnt,+mmx,+movbe,+pclmul,+popcnt,+prfchw,+rdpid,+rdrnd,+rdseed,+sahf,+sha,+shstk,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+sse4a,+ssse3,+vaes,+vpclmulqdq,+x87,+xsave,+xsavec,+xsaveopt,+xsaves,-amx-avx512,-amx-bf16,-amx-complex,-amx-fp16,-amx-fp8,-amx-int8,-amx-movrs,-amx-tf32,-amx-tile,-avx10.1,-avx10.2,-avx512fp16,-avxifma,-avxneconvert,-avxvnniint16,-avxvnniint8,-ccmp,-cf,-cldemote,-cmpccxadd,-egpr,-enqcmd,-fma4,-hreset,-kl,-lwp,-movdir64b,-movdiri,-movrs,-mwaitx,-ndd,-nf,-pconfig,-pku,-ppx,-prefetchi,-ptwrite,-push2pop2,-raoint,-rdpru,-rtm,-serialize,-sgx,-sha512,-sm3,-sm4,-tbm,-tsxldtrk,-uintr,-usermsr,-waitpkg,-wbnoinvd,-widekl,-xop,-zu" }
attributes #6 = { nounwind }

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
!10 = !{!11, !12, i64 32792}
!11 = !{!"", !7, i64 0, !7, i64 16384, !7, i64 32768, !12, i64 32792, !7, i64 32800, !7, i64 49184, !7, i64 65568, !7, i64 81952}
!12 = !{!"double", !7, i64 0}
!13 = !{!12, !12, i64 0}
!14 = distinct !{!14, !15}
!15 = !{!"llvm.loop.mustprogress"}
!16 = distinct !{!16, !15, !17}
!17 = !{!"llvm.loop.peeled.count", i32 1}

; CHECK-LABEL: define internal {{.*}}@fz_grad_brusselator_interleaved(
; CHECK: %fz.cell.first = load double
; CHECK: %fz.cell = phi double [ %fz.cell.first,
; CHECK-NEXT: %fz.cell{{[0-9]+}} = phi double [ %fz.cell.first{{[0-9]+}},
; CHECK-NEXT: %fz.cell{{[0-9]+}} = phi double [ %fz.cell.first{{[0-9]+}},
; CHECK-NEXT: %fz.cell{{[0-9]+}} = phi double [ %fz.cell.first{{[0-9]+}},
; CHECK: getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 -512
; CHECK: getelementptr inbounds nuw i8, ptr %{{[0-9]+}}, i64 512
; CHECK: fadd nsz contract double %fz.cell,
