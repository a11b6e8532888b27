; Reduced from a random C++ program of tools/difftest (seed 6, lambda in a function
; compiled at -O0 with exceptions): the clone of a function with invoke/landingpad got
; no personality, and simplifycfg on the clone crashed (segfault in
; llvm::canSimplifyInvokeNoUnwind). The pass must succeed or stop with a clean error.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define { ptr, i32 } @_Z3f_fPdS_S_idf(ptr %0, ptr %1, ptr %2, i32 %3, double %4, float %5) personality ptr null {
  %7 = invoke double @"_ZZ3f_fPdS_S_idfENK3$_0clEd"(ptr null, double 0.000000e+00)
          to label %8 unwind label %9

8:                                                ; preds = %6
  ret { ptr, i32 } zeroinitializer

9:                                                ; preds = %6
  %10 = landingpad { ptr, i32 }
          cleanup
  ret { ptr, i32 } %10
}

; Function Attrs: nounwind
declare double @"_ZZ3f_fPdS_S_idfENK3$_0clEd"(ptr, double) #0

define { double, double } @main() {
  %1 = call { double, double } @__enzyme_autodiff_typed(ptr @_Z3f_fPdS_S_idf, ptr null, ptr null, ptr null, ptr null, ptr null, ptr null, i32 0, double 0.000000e+00, float 0.000000e+00)
  ret { double, double } %1
}

declare { double, double } @__enzyme_autodiff_typed(ptr, ptr, ptr, ptr, ptr, ptr, ptr, i32, double, float)

attributes #0 = { nounwind }
