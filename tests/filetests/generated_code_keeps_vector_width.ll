; Decision: when every defined primal function has "min-legal-vector-width" (clang
; gives each C function one, "0" without vector arguments), functions the pass generates
; get the largest value, or the widest vector of their own signature and calls if that
; is wider (`ferrozyme_transform::target_attrs::share_vector_width`); so after inlining
; the derivative the caller keeps its value (second RUN: `grad` still has "0" at -O2).
; Why it matters: the inliner removes a caller's "min-legal-vector-width" when it
; inlines a callee without one ("unknown"), and then the X86 back end keeps 512-bit
; vectors legal on an AVX-512 CPU tuned for 256 bits (Intel's: X86Subtarget's
; useAVX512Regs): BA's fused width-2 gradient, inlined into the harness at
; -O3 -march=native on Rocket Lake, became <8 x double> SLP bundles in zmm registers,
; 20% slower than with the attribute (bench/README "ba14", "ba15"). On CPUs that prefer
; 512 bits (Zen 4/5) the value changes no code.
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double sq(double x, double y) { return x * y * x; }
; pair grad(double x, double y) { return __enzyme_autodiff2((void *)sq, x, y); }
; (clang-22 -O2 -march=rocketlake, metadata and unrelated attributes removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s --check-prefix=OPT

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

attributes #0 = { nounwind "min-legal-vector-width"="0" "target-cpu"="rocketlake" "target-features"="+avx,+avx2,+avx512f,+avx512vl,+avx512dq,+avx512bw,+fma,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87" "tune-cpu"="rocketlake" }
attributes #1 = { "target-cpu"="rocketlake" "target-features"="+avx,+avx2,+avx512f,+avx512vl,+avx512dq,+avx512bw,+fma,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87" "tune-cpu"="rocketlake" }

; CHECK: define internal { double, double } @fz_grad_sq({{.*}}) #[[G:[0-9]+]]
; CHECK: attributes #[[G]] = { {{.*}}"ferrozyme-generated" "min-legal-vector-width"="0" "target-cpu"="rocketlake"

; OPT: define { double, double } @grad({{.*}}) {{.*}}#[[A:[0-9]+]]
; OPT-NOT: fz_grad_sq
; OPT: attributes #[[A]] = { {{.*}}"min-legal-vector-width"="0" "target-cpu"="rocketlake"
