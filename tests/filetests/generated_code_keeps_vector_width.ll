; Decision: when every defined primal function has "min-legal-vector-width" (clang gives
; each C function "0"), functions the pass generates get the largest value, unless a
; vector in their signature is wider than that and 256 bits
; (`ferrozyme_transform::target_attrs::share_vector_width`); a primal function without
; it leaves them without (second module, generated_code_vector_width_unknown.ll).
; Why it matters: the inliner drops a caller's "min-legal-vector-width" when it inlines
; a callee without one, and the X86 back end then takes 512-bit vectors as legal and
; preferred on an AVX-512 CPU: BA's fused width-2 gradient, inlined into the harness at
; -O3 -march=native, became <8 x double> SLP bundles in zmm registers, 20-25% slower
; than the same code kept to 256 bits (bench/README "ba14").
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double sq(double x, double y) { return x * y * x; }
; pair grad(double x, double y) { return __enzyme_autodiff2((void *)sq, x, y); }
; (clang-22 -O2 -march=rocketlake, metadata and unrelated attributes removed)
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

attributes #0 = { nounwind "min-legal-vector-width"="0" "target-cpu"="rocketlake" "target-features"="+avx,+avx2,+avx512f,+avx512vl,+avx512dq,+avx512bw,+fma,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87" }
attributes #1 = { "target-cpu"="rocketlake" "target-features"="+avx,+avx2,+avx512f,+avx512vl,+avx512dq,+avx512bw,+fma,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87" }

; CHECK: define internal { double, double } @fz_grad_sq({{.*}}) #[[G:[0-9]+]]
; CHECK: attributes #[[G]] = { {{.*}}"min-legal-vector-width"="0"{{.*}}"target-cpu"="rocketlake"
