; Decision: during the post-AD pipeline (`ferrozyme cc -O<n>`, `ferrozyme opt -O<n>`), a
; generated function that is `noinline`, has no cycle in its control flow and has a
; basic block of more than 1,000 instructions (before the pipeline) is kept out of the
; SLP vectorizer (`noimplicitfloat` for the run, removed afterwards: `slp_limit.rs`).
; Here `kernel`'s nested reverse (1,089 instructions in one block after AD; 3,183 while
; adjoints were all stack slots, when the limit was 2,000, see reverse/adj_regs.rs) stays
; scalar, `small`'s (165) is still vectorized, and no function keeps the attribute.
; Why it matters: SLP's cost grows with a block's size times its stores; on
; bench/compile_scaling's `big` (n = 640) it was 0.41 s of the 0.57 s post-AD pipeline
; (clang's SLP on the primal: 1.4 ms) for a handful of two-lane bundles; this reverse's
; vectorized form ran the same instructions per gradient (issue 18).
;
; __attribute__((noinline)) void small(const double *x, double *y) {
;     double a = x[0], b = x[1];
;     /* 6 times, for i = 0..5: */
;     a += 0.0{i%9+1} * sin(b * a + {i%5}); b -= 0.0{(i*7)%9+1} * exp(-a * a);
;     y[0] = a * x[2]; y[1] = b * x[3];
; }
; __attribute__((noinline)) void kernel(const double *x, double *y) { /* the same, 48 times */ }
; void objective(const double *x, double *y) { small(x, y); kernel(x, y + 2); }
; void grad(double *x, double *dx, double *y, double *dy) {
;     __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_dup, y, dy);
; }
; (clang-22 -O2 -fno-slp-vectorize -fno-unroll-loops, attributes shortened, metadata
; removed; tests/c/631 checks such gradients against finite differences)
;
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s

; CHECK-LABEL: define internal {{.*}}void @fz_rev_small.nest(
; CHECK: <2 x double>
; CHECK-LABEL: define internal {{.*}}void @fz_rev_kernel.nest(
; CHECK-NOT: x double>
; CHECK: ret void
; CHECK-NOT: noimplicitfloat

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4

; Function Attrs: mustprogress nofree noinline norecurse nounwind willreturn memory(argmem: readwrite, errnomem: write) uwtable
define dso_local void @small(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) initializes((0, 16)) %1) local_unnamed_addr #0 {
  %3 = load double, ptr %0, align 8
  %4 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %5 = load double, ptr %4, align 8
  %6 = tail call double @llvm.fmuladd.f64(double %5, double %3, double 0.000000e+00)
  %7 = tail call double @sin(double noundef %6) #6
  %8 = tail call double @llvm.fmuladd.f64(double %7, double 1.000000e-02, double %3)
  %9 = fneg double %8
  %10 = fmul double %8, %9
  %11 = tail call double @exp(double noundef %10) #6
  %12 = tail call double @llvm.fmuladd.f64(double %11, double -1.000000e-02, double %5)
  %13 = tail call double @llvm.fmuladd.f64(double %12, double %8, double 1.000000e+00)
  %14 = tail call double @sin(double noundef %13) #6
  %15 = tail call double @llvm.fmuladd.f64(double %14, double 2.000000e-02, double %8)
  %16 = fneg double %15
  %17 = fmul double %15, %16
  %18 = tail call double @exp(double noundef %17) #6
  %19 = tail call double @llvm.fmuladd.f64(double %18, double -8.000000e-02, double %12)
  %20 = tail call double @llvm.fmuladd.f64(double %19, double %15, double 2.000000e+00)
  %21 = tail call double @sin(double noundef %20) #6
  %22 = tail call double @llvm.fmuladd.f64(double %21, double 3.000000e-02, double %15)
  %23 = fneg double %22
  %24 = fmul double %22, %23
  %25 = tail call double @exp(double noundef %24) #6
  %26 = tail call double @llvm.fmuladd.f64(double %25, double -6.000000e-02, double %19)
  %27 = tail call double @llvm.fmuladd.f64(double %26, double %22, double 3.000000e+00)
  %28 = tail call double @sin(double noundef %27) #6
  %29 = tail call double @llvm.fmuladd.f64(double %28, double 4.000000e-02, double %22)
  %30 = fneg double %29
  %31 = fmul double %29, %30
  %32 = tail call double @exp(double noundef %31) #6
  %33 = tail call double @llvm.fmuladd.f64(double %32, double -4.000000e-02, double %26)
  %34 = tail call double @llvm.fmuladd.f64(double %33, double %29, double 4.000000e+00)
  %35 = tail call double @sin(double noundef %34) #6
  %36 = tail call double @llvm.fmuladd.f64(double %35, double 5.000000e-02, double %29)
  %37 = fneg double %36
  %38 = fmul double %36, %37
  %39 = tail call double @exp(double noundef %38) #6
  %40 = tail call double @llvm.fmuladd.f64(double %39, double -2.000000e-02, double %33)
  %41 = tail call double @llvm.fmuladd.f64(double %40, double %36, double 0.000000e+00)
  %42 = tail call double @sin(double noundef %41) #6
  %43 = tail call double @llvm.fmuladd.f64(double %42, double 6.000000e-02, double %36)
  %44 = fneg double %43
  %45 = fmul double %43, %44
  %46 = tail call double @exp(double noundef %45) #6
  %47 = tail call double @llvm.fmuladd.f64(double %46, double 0xBFB70A3D70A3D70A, double %40)
  %48 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %49 = load double, ptr %48, align 8
  %50 = fmul double %43, %49
  store double %50, ptr %1, align 8
  %51 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %52 = load double, ptr %51, align 8
  %53 = fmul double %47, %52
  %54 = getelementptr inbounds nuw i8, ptr %1, i64 8
  store double %53, ptr %54, align 8
  ret void
}

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(errnomem: write)
declare double @sin(double noundef) local_unnamed_addr #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #2

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(errnomem: write)
declare double @exp(double noundef) local_unnamed_addr #1

; Function Attrs: mustprogress nofree noinline norecurse nounwind willreturn memory(argmem: readwrite, errnomem: write) uwtable
define dso_local void @kernel(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) initializes((0, 16)) %1) local_unnamed_addr #0 {
  %3 = load double, ptr %0, align 8
  %4 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %5 = load double, ptr %4, align 8
  %6 = tail call double @llvm.fmuladd.f64(double %5, double %3, double 0.000000e+00)
  %7 = tail call double @sin(double noundef %6) #6
  %8 = tail call double @llvm.fmuladd.f64(double %7, double 1.000000e-02, double %3)
  %9 = fneg double %8
  %10 = fmul double %8, %9
  %11 = tail call double @exp(double noundef %10) #6
  %12 = tail call double @llvm.fmuladd.f64(double %11, double -1.000000e-02, double %5)
  %13 = tail call double @llvm.fmuladd.f64(double %12, double %8, double 1.000000e+00)
  %14 = tail call double @sin(double noundef %13) #6
  %15 = tail call double @llvm.fmuladd.f64(double %14, double 2.000000e-02, double %8)
  %16 = fneg double %15
  %17 = fmul double %15, %16
  %18 = tail call double @exp(double noundef %17) #6
  %19 = tail call double @llvm.fmuladd.f64(double %18, double -8.000000e-02, double %12)
  %20 = tail call double @llvm.fmuladd.f64(double %19, double %15, double 2.000000e+00)
  %21 = tail call double @sin(double noundef %20) #6
  %22 = tail call double @llvm.fmuladd.f64(double %21, double 3.000000e-02, double %15)
  %23 = fneg double %22
  %24 = fmul double %22, %23
  %25 = tail call double @exp(double noundef %24) #6
  %26 = tail call double @llvm.fmuladd.f64(double %25, double -6.000000e-02, double %19)
  %27 = tail call double @llvm.fmuladd.f64(double %26, double %22, double 3.000000e+00)
  %28 = tail call double @sin(double noundef %27) #6
  %29 = tail call double @llvm.fmuladd.f64(double %28, double 4.000000e-02, double %22)
  %30 = fneg double %29
  %31 = fmul double %29, %30
  %32 = tail call double @exp(double noundef %31) #6
  %33 = tail call double @llvm.fmuladd.f64(double %32, double -4.000000e-02, double %26)
  %34 = tail call double @llvm.fmuladd.f64(double %33, double %29, double 4.000000e+00)
  %35 = tail call double @sin(double noundef %34) #6
  %36 = tail call double @llvm.fmuladd.f64(double %35, double 5.000000e-02, double %29)
  %37 = fneg double %36
  %38 = fmul double %36, %37
  %39 = tail call double @exp(double noundef %38) #6
  %40 = tail call double @llvm.fmuladd.f64(double %39, double -2.000000e-02, double %33)
  %41 = tail call double @llvm.fmuladd.f64(double %40, double %36, double 0.000000e+00)
  %42 = tail call double @sin(double noundef %41) #6
  %43 = tail call double @llvm.fmuladd.f64(double %42, double 6.000000e-02, double %36)
  %44 = fneg double %43
  %45 = fmul double %43, %44
  %46 = tail call double @exp(double noundef %45) #6
  %47 = tail call double @llvm.fmuladd.f64(double %46, double 0xBFB70A3D70A3D70A, double %40)
  %48 = tail call double @llvm.fmuladd.f64(double %47, double %43, double 1.000000e+00)
  %49 = tail call double @sin(double noundef %48) #6
  %50 = tail call double @llvm.fmuladd.f64(double %49, double 7.000000e-02, double %43)
  %51 = fneg double %50
  %52 = fmul double %50, %51
  %53 = tail call double @exp(double noundef %52) #6
  %54 = tail call double @llvm.fmuladd.f64(double %53, double -7.000000e-02, double %47)
  %55 = tail call double @llvm.fmuladd.f64(double %54, double %50, double 2.000000e+00)
  %56 = tail call double @sin(double noundef %55) #6
  %57 = tail call double @llvm.fmuladd.f64(double %56, double 8.000000e-02, double %50)
  %58 = fneg double %57
  %59 = fmul double %57, %58
  %60 = tail call double @exp(double noundef %59) #6
  %61 = tail call double @llvm.fmuladd.f64(double %60, double -5.000000e-02, double %54)
  %62 = tail call double @llvm.fmuladd.f64(double %61, double %57, double 3.000000e+00)
  %63 = tail call double @sin(double noundef %62) #6
  %64 = tail call double @llvm.fmuladd.f64(double %63, double 0x3FB70A3D70A3D70A, double %57)
  %65 = fneg double %64
  %66 = fmul double %64, %65
  %67 = tail call double @exp(double noundef %66) #6
  %68 = tail call double @llvm.fmuladd.f64(double %67, double -3.000000e-02, double %61)
  %69 = tail call double @llvm.fmuladd.f64(double %68, double %64, double 4.000000e+00)
  %70 = tail call double @sin(double noundef %69) #6
  %71 = tail call double @llvm.fmuladd.f64(double %70, double 1.000000e-02, double %64)
  %72 = fneg double %71
  %73 = fmul double %71, %72
  %74 = tail call double @exp(double noundef %73) #6
  %75 = tail call double @llvm.fmuladd.f64(double %74, double -1.000000e-02, double %68)
  %76 = tail call double @llvm.fmuladd.f64(double %75, double %71, double 0.000000e+00)
  %77 = tail call double @sin(double noundef %76) #6
  %78 = tail call double @llvm.fmuladd.f64(double %77, double 2.000000e-02, double %71)
  %79 = fneg double %78
  %80 = fmul double %78, %79
  %81 = tail call double @exp(double noundef %80) #6
  %82 = tail call double @llvm.fmuladd.f64(double %81, double -8.000000e-02, double %75)
  %83 = tail call double @llvm.fmuladd.f64(double %82, double %78, double 1.000000e+00)
  %84 = tail call double @sin(double noundef %83) #6
  %85 = tail call double @llvm.fmuladd.f64(double %84, double 3.000000e-02, double %78)
  %86 = fneg double %85
  %87 = fmul double %85, %86
  %88 = tail call double @exp(double noundef %87) #6
  %89 = tail call double @llvm.fmuladd.f64(double %88, double -6.000000e-02, double %82)
  %90 = tail call double @llvm.fmuladd.f64(double %89, double %85, double 2.000000e+00)
  %91 = tail call double @sin(double noundef %90) #6
  %92 = tail call double @llvm.fmuladd.f64(double %91, double 4.000000e-02, double %85)
  %93 = fneg double %92
  %94 = fmul double %92, %93
  %95 = tail call double @exp(double noundef %94) #6
  %96 = tail call double @llvm.fmuladd.f64(double %95, double -4.000000e-02, double %89)
  %97 = tail call double @llvm.fmuladd.f64(double %96, double %92, double 3.000000e+00)
  %98 = tail call double @sin(double noundef %97) #6
  %99 = tail call double @llvm.fmuladd.f64(double %98, double 5.000000e-02, double %92)
  %100 = fneg double %99
  %101 = fmul double %99, %100
  %102 = tail call double @exp(double noundef %101) #6
  %103 = tail call double @llvm.fmuladd.f64(double %102, double -2.000000e-02, double %96)
  %104 = tail call double @llvm.fmuladd.f64(double %103, double %99, double 4.000000e+00)
  %105 = tail call double @sin(double noundef %104) #6
  %106 = tail call double @llvm.fmuladd.f64(double %105, double 6.000000e-02, double %99)
  %107 = fneg double %106
  %108 = fmul double %106, %107
  %109 = tail call double @exp(double noundef %108) #6
  %110 = tail call double @llvm.fmuladd.f64(double %109, double 0xBFB70A3D70A3D70A, double %103)
  %111 = tail call double @llvm.fmuladd.f64(double %110, double %106, double 0.000000e+00)
  %112 = tail call double @sin(double noundef %111) #6
  %113 = tail call double @llvm.fmuladd.f64(double %112, double 7.000000e-02, double %106)
  %114 = fneg double %113
  %115 = fmul double %113, %114
  %116 = tail call double @exp(double noundef %115) #6
  %117 = tail call double @llvm.fmuladd.f64(double %116, double -7.000000e-02, double %110)
  %118 = tail call double @llvm.fmuladd.f64(double %117, double %113, double 1.000000e+00)
  %119 = tail call double @sin(double noundef %118) #6
  %120 = tail call double @llvm.fmuladd.f64(double %119, double 8.000000e-02, double %113)
  %121 = fneg double %120
  %122 = fmul double %120, %121
  %123 = tail call double @exp(double noundef %122) #6
  %124 = tail call double @llvm.fmuladd.f64(double %123, double -5.000000e-02, double %117)
  %125 = tail call double @llvm.fmuladd.f64(double %124, double %120, double 2.000000e+00)
  %126 = tail call double @sin(double noundef %125) #6
  %127 = tail call double @llvm.fmuladd.f64(double %126, double 0x3FB70A3D70A3D70A, double %120)
  %128 = fneg double %127
  %129 = fmul double %127, %128
  %130 = tail call double @exp(double noundef %129) #6
  %131 = tail call double @llvm.fmuladd.f64(double %130, double -3.000000e-02, double %124)
  %132 = tail call double @llvm.fmuladd.f64(double %131, double %127, double 3.000000e+00)
  %133 = tail call double @sin(double noundef %132) #6
  %134 = tail call double @llvm.fmuladd.f64(double %133, double 1.000000e-02, double %127)
  %135 = fneg double %134
  %136 = fmul double %134, %135
  %137 = tail call double @exp(double noundef %136) #6
  %138 = tail call double @llvm.fmuladd.f64(double %137, double -1.000000e-02, double %131)
  %139 = tail call double @llvm.fmuladd.f64(double %138, double %134, double 4.000000e+00)
  %140 = tail call double @sin(double noundef %139) #6
  %141 = tail call double @llvm.fmuladd.f64(double %140, double 2.000000e-02, double %134)
  %142 = fneg double %141
  %143 = fmul double %141, %142
  %144 = tail call double @exp(double noundef %143) #6
  %145 = tail call double @llvm.fmuladd.f64(double %144, double -8.000000e-02, double %138)
  %146 = tail call double @llvm.fmuladd.f64(double %145, double %141, double 0.000000e+00)
  %147 = tail call double @sin(double noundef %146) #6
  %148 = tail call double @llvm.fmuladd.f64(double %147, double 3.000000e-02, double %141)
  %149 = fneg double %148
  %150 = fmul double %148, %149
  %151 = tail call double @exp(double noundef %150) #6
  %152 = tail call double @llvm.fmuladd.f64(double %151, double -6.000000e-02, double %145)
  %153 = tail call double @llvm.fmuladd.f64(double %152, double %148, double 1.000000e+00)
  %154 = tail call double @sin(double noundef %153) #6
  %155 = tail call double @llvm.fmuladd.f64(double %154, double 4.000000e-02, double %148)
  %156 = fneg double %155
  %157 = fmul double %155, %156
  %158 = tail call double @exp(double noundef %157) #6
  %159 = tail call double @llvm.fmuladd.f64(double %158, double -4.000000e-02, double %152)
  %160 = tail call double @llvm.fmuladd.f64(double %159, double %155, double 2.000000e+00)
  %161 = tail call double @sin(double noundef %160) #6
  %162 = tail call double @llvm.fmuladd.f64(double %161, double 5.000000e-02, double %155)
  %163 = fneg double %162
  %164 = fmul double %162, %163
  %165 = tail call double @exp(double noundef %164) #6
  %166 = tail call double @llvm.fmuladd.f64(double %165, double -2.000000e-02, double %159)
  %167 = tail call double @llvm.fmuladd.f64(double %166, double %162, double 3.000000e+00)
  %168 = tail call double @sin(double noundef %167) #6
  %169 = tail call double @llvm.fmuladd.f64(double %168, double 6.000000e-02, double %162)
  %170 = fneg double %169
  %171 = fmul double %169, %170
  %172 = tail call double @exp(double noundef %171) #6
  %173 = tail call double @llvm.fmuladd.f64(double %172, double 0xBFB70A3D70A3D70A, double %166)
  %174 = tail call double @llvm.fmuladd.f64(double %173, double %169, double 4.000000e+00)
  %175 = tail call double @sin(double noundef %174) #6
  %176 = tail call double @llvm.fmuladd.f64(double %175, double 7.000000e-02, double %169)
  %177 = fneg double %176
  %178 = fmul double %176, %177
  %179 = tail call double @exp(double noundef %178) #6
  %180 = tail call double @llvm.fmuladd.f64(double %179, double -7.000000e-02, double %173)
  %181 = tail call double @llvm.fmuladd.f64(double %180, double %176, double 0.000000e+00)
  %182 = tail call double @sin(double noundef %181) #6
  %183 = tail call double @llvm.fmuladd.f64(double %182, double 8.000000e-02, double %176)
  %184 = fneg double %183
  %185 = fmul double %183, %184
  %186 = tail call double @exp(double noundef %185) #6
  %187 = tail call double @llvm.fmuladd.f64(double %186, double -5.000000e-02, double %180)
  %188 = tail call double @llvm.fmuladd.f64(double %187, double %183, double 1.000000e+00)
  %189 = tail call double @sin(double noundef %188) #6
  %190 = tail call double @llvm.fmuladd.f64(double %189, double 0x3FB70A3D70A3D70A, double %183)
  %191 = fneg double %190
  %192 = fmul double %190, %191
  %193 = tail call double @exp(double noundef %192) #6
  %194 = tail call double @llvm.fmuladd.f64(double %193, double -3.000000e-02, double %187)
  %195 = tail call double @llvm.fmuladd.f64(double %194, double %190, double 2.000000e+00)
  %196 = tail call double @sin(double noundef %195) #6
  %197 = tail call double @llvm.fmuladd.f64(double %196, double 1.000000e-02, double %190)
  %198 = fneg double %197
  %199 = fmul double %197, %198
  %200 = tail call double @exp(double noundef %199) #6
  %201 = tail call double @llvm.fmuladd.f64(double %200, double -1.000000e-02, double %194)
  %202 = tail call double @llvm.fmuladd.f64(double %201, double %197, double 3.000000e+00)
  %203 = tail call double @sin(double noundef %202) #6
  %204 = tail call double @llvm.fmuladd.f64(double %203, double 2.000000e-02, double %197)
  %205 = fneg double %204
  %206 = fmul double %204, %205
  %207 = tail call double @exp(double noundef %206) #6
  %208 = tail call double @llvm.fmuladd.f64(double %207, double -8.000000e-02, double %201)
  %209 = tail call double @llvm.fmuladd.f64(double %208, double %204, double 4.000000e+00)
  %210 = tail call double @sin(double noundef %209) #6
  %211 = tail call double @llvm.fmuladd.f64(double %210, double 3.000000e-02, double %204)
  %212 = fneg double %211
  %213 = fmul double %211, %212
  %214 = tail call double @exp(double noundef %213) #6
  %215 = tail call double @llvm.fmuladd.f64(double %214, double -6.000000e-02, double %208)
  %216 = tail call double @llvm.fmuladd.f64(double %215, double %211, double 0.000000e+00)
  %217 = tail call double @sin(double noundef %216) #6
  %218 = tail call double @llvm.fmuladd.f64(double %217, double 4.000000e-02, double %211)
  %219 = fneg double %218
  %220 = fmul double %218, %219
  %221 = tail call double @exp(double noundef %220) #6
  %222 = tail call double @llvm.fmuladd.f64(double %221, double -4.000000e-02, double %215)
  %223 = tail call double @llvm.fmuladd.f64(double %222, double %218, double 1.000000e+00)
  %224 = tail call double @sin(double noundef %223) #6
  %225 = tail call double @llvm.fmuladd.f64(double %224, double 5.000000e-02, double %218)
  %226 = fneg double %225
  %227 = fmul double %225, %226
  %228 = tail call double @exp(double noundef %227) #6
  %229 = tail call double @llvm.fmuladd.f64(double %228, double -2.000000e-02, double %222)
  %230 = tail call double @llvm.fmuladd.f64(double %229, double %225, double 2.000000e+00)
  %231 = tail call double @sin(double noundef %230) #6
  %232 = tail call double @llvm.fmuladd.f64(double %231, double 6.000000e-02, double %225)
  %233 = fneg double %232
  %234 = fmul double %232, %233
  %235 = tail call double @exp(double noundef %234) #6
  %236 = tail call double @llvm.fmuladd.f64(double %235, double 0xBFB70A3D70A3D70A, double %229)
  %237 = tail call double @llvm.fmuladd.f64(double %236, double %232, double 3.000000e+00)
  %238 = tail call double @sin(double noundef %237) #6
  %239 = tail call double @llvm.fmuladd.f64(double %238, double 7.000000e-02, double %232)
  %240 = fneg double %239
  %241 = fmul double %239, %240
  %242 = tail call double @exp(double noundef %241) #6
  %243 = tail call double @llvm.fmuladd.f64(double %242, double -7.000000e-02, double %236)
  %244 = tail call double @llvm.fmuladd.f64(double %243, double %239, double 4.000000e+00)
  %245 = tail call double @sin(double noundef %244) #6
  %246 = tail call double @llvm.fmuladd.f64(double %245, double 8.000000e-02, double %239)
  %247 = fneg double %246
  %248 = fmul double %246, %247
  %249 = tail call double @exp(double noundef %248) #6
  %250 = tail call double @llvm.fmuladd.f64(double %249, double -5.000000e-02, double %243)
  %251 = tail call double @llvm.fmuladd.f64(double %250, double %246, double 0.000000e+00)
  %252 = tail call double @sin(double noundef %251) #6
  %253 = tail call double @llvm.fmuladd.f64(double %252, double 0x3FB70A3D70A3D70A, double %246)
  %254 = fneg double %253
  %255 = fmul double %253, %254
  %256 = tail call double @exp(double noundef %255) #6
  %257 = tail call double @llvm.fmuladd.f64(double %256, double -3.000000e-02, double %250)
  %258 = tail call double @llvm.fmuladd.f64(double %257, double %253, double 1.000000e+00)
  %259 = tail call double @sin(double noundef %258) #6
  %260 = tail call double @llvm.fmuladd.f64(double %259, double 1.000000e-02, double %253)
  %261 = fneg double %260
  %262 = fmul double %260, %261
  %263 = tail call double @exp(double noundef %262) #6
  %264 = tail call double @llvm.fmuladd.f64(double %263, double -1.000000e-02, double %257)
  %265 = tail call double @llvm.fmuladd.f64(double %264, double %260, double 2.000000e+00)
  %266 = tail call double @sin(double noundef %265) #6
  %267 = tail call double @llvm.fmuladd.f64(double %266, double 2.000000e-02, double %260)
  %268 = fneg double %267
  %269 = fmul double %267, %268
  %270 = tail call double @exp(double noundef %269) #6
  %271 = tail call double @llvm.fmuladd.f64(double %270, double -8.000000e-02, double %264)
  %272 = tail call double @llvm.fmuladd.f64(double %271, double %267, double 3.000000e+00)
  %273 = tail call double @sin(double noundef %272) #6
  %274 = tail call double @llvm.fmuladd.f64(double %273, double 3.000000e-02, double %267)
  %275 = fneg double %274
  %276 = fmul double %274, %275
  %277 = tail call double @exp(double noundef %276) #6
  %278 = tail call double @llvm.fmuladd.f64(double %277, double -6.000000e-02, double %271)
  %279 = tail call double @llvm.fmuladd.f64(double %278, double %274, double 4.000000e+00)
  %280 = tail call double @sin(double noundef %279) #6
  %281 = tail call double @llvm.fmuladd.f64(double %280, double 4.000000e-02, double %274)
  %282 = fneg double %281
  %283 = fmul double %281, %282
  %284 = tail call double @exp(double noundef %283) #6
  %285 = tail call double @llvm.fmuladd.f64(double %284, double -4.000000e-02, double %278)
  %286 = tail call double @llvm.fmuladd.f64(double %285, double %281, double 0.000000e+00)
  %287 = tail call double @sin(double noundef %286) #6
  %288 = tail call double @llvm.fmuladd.f64(double %287, double 5.000000e-02, double %281)
  %289 = fneg double %288
  %290 = fmul double %288, %289
  %291 = tail call double @exp(double noundef %290) #6
  %292 = tail call double @llvm.fmuladd.f64(double %291, double -2.000000e-02, double %285)
  %293 = tail call double @llvm.fmuladd.f64(double %292, double %288, double 1.000000e+00)
  %294 = tail call double @sin(double noundef %293) #6
  %295 = tail call double @llvm.fmuladd.f64(double %294, double 6.000000e-02, double %288)
  %296 = fneg double %295
  %297 = fmul double %295, %296
  %298 = tail call double @exp(double noundef %297) #6
  %299 = tail call double @llvm.fmuladd.f64(double %298, double 0xBFB70A3D70A3D70A, double %292)
  %300 = tail call double @llvm.fmuladd.f64(double %299, double %295, double 2.000000e+00)
  %301 = tail call double @sin(double noundef %300) #6
  %302 = tail call double @llvm.fmuladd.f64(double %301, double 7.000000e-02, double %295)
  %303 = fneg double %302
  %304 = fmul double %302, %303
  %305 = tail call double @exp(double noundef %304) #6
  %306 = tail call double @llvm.fmuladd.f64(double %305, double -7.000000e-02, double %299)
  %307 = tail call double @llvm.fmuladd.f64(double %306, double %302, double 3.000000e+00)
  %308 = tail call double @sin(double noundef %307) #6
  %309 = tail call double @llvm.fmuladd.f64(double %308, double 8.000000e-02, double %302)
  %310 = fneg double %309
  %311 = fmul double %309, %310
  %312 = tail call double @exp(double noundef %311) #6
  %313 = tail call double @llvm.fmuladd.f64(double %312, double -5.000000e-02, double %306)
  %314 = tail call double @llvm.fmuladd.f64(double %313, double %309, double 4.000000e+00)
  %315 = tail call double @sin(double noundef %314) #6
  %316 = tail call double @llvm.fmuladd.f64(double %315, double 0x3FB70A3D70A3D70A, double %309)
  %317 = fneg double %316
  %318 = fmul double %316, %317
  %319 = tail call double @exp(double noundef %318) #6
  %320 = tail call double @llvm.fmuladd.f64(double %319, double -3.000000e-02, double %313)
  %321 = tail call double @llvm.fmuladd.f64(double %320, double %316, double 0.000000e+00)
  %322 = tail call double @sin(double noundef %321) #6
  %323 = tail call double @llvm.fmuladd.f64(double %322, double 1.000000e-02, double %316)
  %324 = fneg double %323
  %325 = fmul double %323, %324
  %326 = tail call double @exp(double noundef %325) #6
  %327 = tail call double @llvm.fmuladd.f64(double %326, double -1.000000e-02, double %320)
  %328 = tail call double @llvm.fmuladd.f64(double %327, double %323, double 1.000000e+00)
  %329 = tail call double @sin(double noundef %328) #6
  %330 = tail call double @llvm.fmuladd.f64(double %329, double 2.000000e-02, double %323)
  %331 = fneg double %330
  %332 = fmul double %330, %331
  %333 = tail call double @exp(double noundef %332) #6
  %334 = tail call double @llvm.fmuladd.f64(double %333, double -8.000000e-02, double %327)
  %335 = tail call double @llvm.fmuladd.f64(double %334, double %330, double 2.000000e+00)
  %336 = tail call double @sin(double noundef %335) #6
  %337 = tail call double @llvm.fmuladd.f64(double %336, double 3.000000e-02, double %330)
  %338 = fneg double %337
  %339 = fmul double %337, %338
  %340 = tail call double @exp(double noundef %339) #6
  %341 = tail call double @llvm.fmuladd.f64(double %340, double -6.000000e-02, double %334)
  %342 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %343 = load double, ptr %342, align 8
  %344 = fmul double %337, %343
  store double %344, ptr %1, align 8
  %345 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %346 = load double, ptr %345, align 8
  %347 = fmul double %341, %346
  %348 = getelementptr inbounds nuw i8, ptr %1, i64 8
  store double %347, ptr %348, align 8
  ret void
}

; Function Attrs: mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite, errnomem: write) uwtable
define dso_local void @objective(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) initializes((0, 32)) %1) #3 {
  tail call void @small(ptr noundef %0, ptr noundef %1)
  %3 = getelementptr inbounds nuw i8, ptr %1, i64 16
  tail call void @kernel(ptr noundef %0, ptr noundef nonnull %3)
  ret void
}

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr #4 {
  %5 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @objective, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3) #6
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #5

attributes #0 = { noinline nounwind "target-cpu"="x86-64" }
attributes #1 = { nounwind memory(errnomem: write) }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nounwind "target-cpu"="x86-64" }
attributes #4 = { nounwind "target-cpu"="x86-64" }
attributes #5 = { nounwind }
attributes #6 = { nounwind }
