; Decision: when the target every primal function shares is the baseline CPU
; (`"target-cpu"="x86-64"`, what clang writes without -march), generated functions get no
; target attributes (`ferrozyme_transform::target_attrs`): the target machine's default
; has the same features.
; Why it matters: copying the baseline attributes only changed tuning, for the worse
; (Euler with the harness flags: 35.6M -> 37.1M gradient instructions); without them the
; binaries of every benchmark at the harness flags are byte-identical to before.
;
; (generated_code_gets_user_target.ll compiled without -march)
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

declare { double, double } @__enzyme_autodiff2(ptr, ...) #0

attributes #0 = { nounwind "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

; CHECK: define internal { double, double } @fz_grad_sq({{.*}}) #[[G:[0-9]+]]
; CHECK: attributes #[[G]] = {
; CHECK-NOT: target-cpu
; CHECK-SAME: }
