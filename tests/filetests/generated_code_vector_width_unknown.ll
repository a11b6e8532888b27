; Decision: when a defined primal function has no "min-legal-vector-width" (here `sq`:
; IR from a front end other than clang, or a function a callee without it was inlined
; into), generated functions get none either
; (`ferrozyme_transform::target_attrs::share_vector_width`); with clang's attribute on
; every function they get one (generated_code_keeps_vector_width.ll).
; Why it matters: absent means "unknown", which the X86 back end reads as "any width
; may be needed"; a value picked for code whose needs are unknown could change how
; vectors are passed between functions, so none is invented.
;
; (generated_code_keeps_vector_width.ll with the attribute removed from `sq`)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @sq(double %x, double %y) #2 {
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
attributes #2 = { nounwind "target-cpu"="rocketlake" "target-features"="+avx,+avx2,+avx512f,+avx512vl,+avx512dq,+avx512bw,+fma,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87" "tune-cpu"="rocketlake" }

; CHECK: define internal { double, double } @fz_grad_sq({{.*}}) #[[G:[0-9]+]]
; CHECK: attributes #[[G]] = { {{.*}}"ferrozyme-generated" "target-cpu"="rocketlake"
