; Decision: the user's -mprefer-vector-width=N (clang's "prefer-vector-width" on every
; function) is part of the target generated functions share with the primal
; (`ferrozyme_transform::target_attrs::share_target`, with "target-cpu",
; "target-features" and "tune-cpu"; none when the functions disagree).
; Why it matters: without it derivatives were vectorized and compiled with the CPU's own
; preference (512 bits on Zen 4/5: `-march=native` on this project's machines) where
; the user asked for 256; the inliner does not merge the attribute, so a derivative
; inlined into the user's function follows the user's preference only when it has it.
;
; double sq(double x, double y) { return x * y * x; }, differentiated as in
; generated_code_gets_user_target.ll (clang-22 -O2 -march=znver5
; -mprefer-vector-width=256, metadata and unrelated attributes removed)
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

attributes #0 = { nounwind "min-legal-vector-width"="0" "prefer-vector-width"="256" "target-cpu"="znver5" "target-features"="+avx,+avx2,+avx512f,+avx512vl,+avx512dq,+avx512bw,+fma,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87" "tune-cpu"="znver5" }
attributes #1 = { "prefer-vector-width"="256" "target-cpu"="znver5" "target-features"="+avx,+avx2,+avx512f,+avx512vl,+avx512dq,+avx512bw,+fma,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87" "tune-cpu"="znver5" }

; CHECK: define internal { double, double } @fz_grad_sq({{.*}}) #[[G:[0-9]+]]
; CHECK: attributes #[[G]] = { {{.*}}"ferrozyme-generated" "min-legal-vector-width"="0" "prefer-vector-width"="256" "target-cpu"="znver5"
