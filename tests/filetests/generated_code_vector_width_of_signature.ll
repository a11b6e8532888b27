; Decision: a generated function whose signature (or a call it makes) passes a vector
; wider than the primal functions' "min-legal-vector-width" gets that vector's width
; (`ferrozyme_transform::target_attrs::share_vector_width`): `fz_grad_lane` takes and
; returns <8 x double>, so "512" although every primal function says "0".
; Why it matters: on an AVX-512 CPU tuned for 256 bits the value decides how a 512-bit
; vector argument is passed (one zmm register or split), so it is an ABI: clang gives a
; function at least the width of its vector arguments and of those of its calls, and a
; generated function that passed such a vector differently from its callers would
; read garbage. (clang itself would give `lane` "512"; the "0" here isolates the
; signature part of the rule.)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @lane(<8 x double> %x) #0 {
  %v = fmul <8 x double> %x, %x
  %e = extractelement <8 x double> %v, i64 3
  ret double %e
}

define <8 x double> @dlane(<8 x double> %x) #0 {
  %d = call <8 x double> (ptr, ...) @__enzyme_autodiff(ptr @lane, <8 x double> %x)
  ret <8 x double> %d
}

declare <8 x double> @__enzyme_autodiff(ptr, ...)

attributes #0 = { nounwind "min-legal-vector-width"="0" "target-cpu"="skylake-avx512" "target-features"="+avx,+avx2,+avx512f,+avx512vl,+avx512dq,+avx512bw,+fma,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87" "tune-cpu"="skylake-avx512" }

; CHECK: define internal { <8 x double> } @fz_grad_lane({{.*}}) #[[G:[0-9]+]]
; CHECK: attributes #[[G]] = { {{.*}}"ferrozyme-generated" "min-legal-vector-width"="512"
