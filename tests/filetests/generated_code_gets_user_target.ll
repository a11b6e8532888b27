; Decision: functions the pass generates get the `target-cpu`, `target-features` and
; `tune-cpu` attributes every defined primal function shares
; (`ferrozyme_transform::target_attrs`); a disagreement leaves them without
; (generated_code_target_disagreement.ll).
; Why it matters: the CLI's target machine is generic and code generation reads the CPU
; from these attributes, so derivatives were compiled for baseline x86-64 (no AVX, no
; FMA) whatever -march the user gave, and the inliner refused to inline primal helpers
; compiled for a wider CPU into them. RK4 at -O3 -march=x86-64-v3: 10.57M -> 7.17M
; gradient instructions (bench/README "native9").
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double sq(double x, double y) { return x * y * x; }
; pair grad(double x, double y) { return __enzyme_autodiff2((void *)sq, x, y); }
; (clang-22 -O2 -march=x86-64-v3, metadata and unrelated attributes removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @sq(double %x, double %y) #0 {
  %m = fmul double %x, %y
  %r = fmul double %m, %x
  ret double %r
}

define { double, double } @grad(double %x, double %y) #0 {
  %c = tail call { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @sq, double %x, double %y)
  ret { double, double } %c
}

declare { double, double } @__enzyme_autodiff2(ptr, ...) #1

attributes #0 = { nounwind "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }
attributes #1 = { "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }

; CHECK: define internal { double, double } @fz_grad_sq({{.*}}) #[[G:[0-9]+]]
; CHECK: attributes #[[G]] = { {{.*}}"target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,{{.*}}+fma,
